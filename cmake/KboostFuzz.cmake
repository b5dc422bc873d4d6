# Sanitizer and coverage flags for a libFuzzer build (-DKBOOST_FUZZ=ON). Included before the
# libraries are defined, so kboost's own objects carry the instrumentation libFuzzer steers by and
# ASan/UBSan's checks; the fuzz targets themselves link libFuzzer's main (fuzz/CMakeLists.txt).
# Kokkos comes prebuilt and uninstrumented: its code is not what is fuzzed.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "KBOOST_FUZZ needs clang (libFuzzer), e.g. -DCMAKE_CXX_COMPILER=clang++-16; "
                      "got ${CMAKE_CXX_COMPILER_ID}")
endif()
# -fno-sanitize-recover: undefined behaviour aborts the run, so libFuzzer records it as a crash.
set(KBOOST_FUZZ_SANITIZERS -fsanitize=address,undefined -fno-sanitize-recover=undefined)
add_compile_options(-fsanitize=fuzzer-no-link ${KBOOST_FUZZ_SANITIZERS} -fno-omit-frame-pointer -g)
add_link_options(${KBOOST_FUZZ_SANITIZERS})
