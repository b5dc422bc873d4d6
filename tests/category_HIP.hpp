#pragma once
// Backend selection for one instantiation of the test bodies (see tests/CMakeLists.txt).
// HIP lives in Kokkos::Experimental in 3.4 and in Kokkos from 4.0 on: core/compat.hpp picks.
#include <kboost/core/compat.hpp>
#define TEST_EXECSPACE kboost::compat::HIP
#define TEST_MEMSPACE kboost::compat::HIPSpace
#define TEST_BACKEND "HIP"
