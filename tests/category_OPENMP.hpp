#pragma once
// Backend selection for one instantiation of the test bodies (see tests/CMakeLists.txt).
#include <Kokkos_Core.hpp>
#define TEST_EXECSPACE Kokkos::OpenMP
#define TEST_MEMSPACE Kokkos::HostSpace
#define TEST_BACKEND "OPENMP"
