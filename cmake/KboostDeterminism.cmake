# Flags that keep float results identical on every backend (docs/determinism.md says why):
#  - no fast-math anywhere (-fno-fast-math also undoes a fast-math default of the toolchain);
#  - no contraction of a*b+c into FMA: -ffp-contract=off for the host compiler (and for clang's
#    HIP/CUDA device code), --fmad=false for nvcc's device code;
#  - warnings on for kboost's own code; -Werror when KBOOST_WERROR is set (CI). Kokkos, Kokkos
#    Kernels, HDF5 etc. come in as SYSTEM include directories, so their warnings never fail us.
#
# Compiler drivers:
#  - nvcc_wrapper (Kokkos_CXX_COMPILER_ID NVIDIA): nvcc's own options (--fmad) go to nvcc, every
#    option nvcc_wrapper does not know goes to the host compiler (gcc), so host flags are given
#    plain (the "-Xcompiler=..." spelling is not understood by nvcc_wrapper 3.4).
#  - hipcc / clang: one compiler for host and device; -ffp-contract=off covers both (clang's HIP
#    default is fp-contract=fast for device code).
#  - a plain host compiler (Serial/OpenMP).
function(kboost_determinism_flags target)
  set(opts -fno-fast-math -ffp-contract=off -Wall -Wextra)
  if(KBOOST_WERROR)
    list(APPEND opts -Werror)
  endif()
  if(Kokkos_ENABLE_CUDA AND Kokkos_CXX_COMPILER_ID STREQUAL "NVIDIA")
    list(APPEND opts --fmad=false)
  endif()
  target_compile_options(${target} PRIVATE ${opts})
endfunction()

# The determinism options (no fast-math, no contraction) as INTERFACE options of `target`, for the
# C++ translation units of every project that links it — kboost's own tests and a user's code after
# find_package(kboost) alike — since they instantiate kboost's kernel templates. C and Fortran
# sources get nothing (they only call the C ABI).
function(kboost_consumer_flags target)
  set(opts -fno-fast-math -ffp-contract=off)
  if(Kokkos_ENABLE_CUDA AND Kokkos_CXX_COMPILER_ID STREQUAL "NVIDIA")
    list(APPEND opts --fmad=false)
  endif()
  foreach(o ${opts})
    target_compile_options(${target} INTERFACE $<$<COMPILE_LANGUAGE:CXX>:${o}>)
  endforeach()
endfunction()
