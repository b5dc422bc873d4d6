# `cmake --install`: headers under <prefix>/include/kboost/<layer> (and kboost.hpp, kboost_c.h),
# the layer libraries and the C ABI library, the `kboost` CLI, the Fortran module source, and the
# CMake package (kboostConfig.cmake, kboostConfigVersion.cmake, kboostTargets.cmake) for
# find_package(kboost) with -Dkboost_ROOT=<prefix>.
#
# Installed headers: every public header (a layer's top folder), and of the `detail/` headers only
# those a public header includes, directly or through another detail/ header. detail/ is a layer's
# private code (scripts/check_layering.py), but the kernels and the booster are templates compiled
# in the user's translation units, so the internals they include must be installed with them; the
# rest (what only the layer's .cpp files include) stays out of the package.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(KBOOST_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kboost)

# The detail/ headers (as <layer>/detail/<name>.hpp) that the headers `public` include, directly or
# through one another. Each header read is a configure dependency, so a new include is seen.
function(kboost_detail_headers_reached public out)
  set(queue ${public})
  set(reached "")
  while(queue)
    list(POP_FRONT queue header)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${header})
    file(STRINGS ${header} includes REGEX "^[ \t]*#[ \t]*include[ \t]*<kboost/[a-z]+/detail/[^>]+>")
    foreach(line ${includes})
      string(REGEX MATCH "<kboost/([a-z]+/detail/[^>]+)>" _ "${line}")
      if(NOT CMAKE_MATCH_1 IN_LIST reached)
        list(APPEND reached ${CMAKE_MATCH_1})
        list(APPEND queue ${PROJECT_SOURCE_DIR}/${CMAKE_MATCH_1})
      endif()
    endforeach()
  endwhile()
  set(${out} ${reached} PARENT_SCOPE)
endfunction()

set(KBOOST_PUBLIC_HEADERS "")
foreach(layer ${KBOOST_LAYERS})
  file(GLOB headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${layer}/*.hpp)
  if(NOT KBOOST_HAVE_MPI)
    list(FILTER headers EXCLUDE REGEX "/core/mpi_collective\\.hpp$")  # it includes <mpi.h>
  endif()
  install(FILES ${headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kboost/${layer})
  list(APPEND KBOOST_PUBLIC_HEADERS ${headers})
  list(APPEND KBOOST_EXPORTED kboost_${layer})
endforeach()
# Public subfolders of a layer (engine/objective: one unit per objective family, whose device losses
# the booster's templates instantiate in the user's translation units).
file(GLOB objective_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/engine/objective/*.hpp)
install(FILES ${objective_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kboost/engine/objective)
list(APPEND KBOOST_PUBLIC_HEADERS ${objective_headers})
kboost_detail_headers_reached("${KBOOST_PUBLIC_HEADERS}" KBOOST_INSTALLED_DETAIL)
foreach(header ${KBOOST_INSTALLED_DETAIL})
  get_filename_component(folder ${header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kboost/${folder})
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/bindings/cpp/kboost.hpp ${PROJECT_SOURCE_DIR}/bindings/c/kboost_c.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kboost)
install(FILES ${PROJECT_SOURCE_DIR}/bindings/fortran/kboost.f90 DESTINATION ${CMAKE_INSTALL_DATADIR}/kboost/fortran)
install(TARGETS ${KBOOST_EXPORTED} kboost_c kboost EXPORT kboostTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS kboost_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT kboostTargets NAMESPACE kboost:: DESTINATION ${KBOOST_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kboostConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/kboostConfig.cmake INSTALL_DESTINATION ${KBOOST_CMAKE_DIR})
# 0.x: a minor version may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/kboostConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/kboostConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/kboostConfigVersion.cmake
        DESTINATION ${KBOOST_CMAKE_DIR})
