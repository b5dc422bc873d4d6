#pragma once
// Backend selection for one instantiation of the test bodies (see tests/CMakeLists.txt).
#include <Kokkos_Core.hpp>
#define TEST_EXECSPACE Kokkos::Experimental::HIP
#define TEST_MEMSPACE Kokkos::Experimental::HIPSpace
#define TEST_BACKEND "HIP"
