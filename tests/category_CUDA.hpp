#pragma once
// Backend selection for one instantiation of the test bodies (see tests/CMakeLists.txt).
#include <Kokkos_Core.hpp>
#define TEST_EXECSPACE Kokkos::Cuda
#define TEST_MEMSPACE Kokkos::CudaSpace
#define TEST_BACKEND "CUDA"
