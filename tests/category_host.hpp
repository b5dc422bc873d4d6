#pragma once
// The host test bodies (tests/host/, see tests/CMakeLists.txt): compiled once, not per backend.
// Kokkos is there for host Views; TEST_EXECSPACE and TEST_MEMSPACE are left undefined, so a host
// body that uses the execution space does not compile (it belongs in tests/ as a backend body).
#include <Kokkos_Core.hpp>
#define TEST_BACKEND "host"
