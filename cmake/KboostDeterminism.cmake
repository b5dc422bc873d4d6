# Flags that keep float results identical on every backend (docs/determinism.md says why).
#  - no fast-math anywhere;
#  - contraction of a*b+c into FMA off on the host (-ffp-contract=off) and on CUDA (--fmad=false);
#  - warnings on; errors when KBOOST_WERROR is set (CI).
function(kboost_determinism_flags target)
  if(Kokkos_ENABLE_CUDA OR Kokkos_DEVICES MATCHES "CUDA")
    # nvcc_wrapper forwards -Xcompiler flags to the host compiler; --fmad=false is nvcc's own.
    target_compile_options(${target} PRIVATE --fmad=false -Xcompiler=-ffp-contract=off
      -Xcompiler=-fno-fast-math -Xcompiler=-Wall,-Wextra)
    if(KBOOST_WERROR)
      target_compile_options(${target} PRIVATE -Xcompiler=-Werror)
    endif()
  elseif(CMAKE_CXX_COMPILER MATCHES "hipcc" OR Kokkos_DEVICES MATCHES "HIP")
    target_compile_options(${target} PRIVATE -ffp-contract=off -fno-fast-math -Wall -Wextra)
  else()
    target_compile_options(${target} PRIVATE -ffp-contract=off -fno-fast-math -Wall -Wextra)
    if(KBOOST_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
