# `cmake --install`: headers under <prefix>/include/kboost/<layer> (and kboost.hpp, kboost_c.h), the layer
# libraries and the C ABI library, the `kboost` CLI, the Fortran module source, and the CMake
# package (kboostConfig.cmake, kboostConfigVersion.cmake, kboostTargets.cmake) for
# find_package(kboost) with -Dkboost_ROOT=<prefix>.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(KBOOST_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kboost)
set(KBOOST_NOT_INSTALLED "")
if(NOT KBOOST_HAVE_MPI)
  set(KBOOST_NOT_INSTALLED PATTERN mpi_collective.hpp EXCLUDE)  # it includes <mpi.h>
endif()
foreach(layer ${KBOOST_LAYERS})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${layer}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kboost/${layer}
          FILES_MATCHING PATTERN "*.hpp" ${KBOOST_NOT_INSTALLED})
  list(APPEND KBOOST_EXPORTED kboost_${layer})
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
