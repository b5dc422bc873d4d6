// Catch2 v3 main that owns Kokkos' lifetime: Kokkos is initialised once (OMP_NUM_THREADS picks the
// OpenMP thread count, see tests/CMakeLists.txt) and finalised after every test has run.
#include <catch2/catch_session.hpp>

#include <kboost/core/compat.hpp>

int main(int argc, char* argv[]) {
  kboost::compat::initialize(0);
  int rc = Catch::Session().run(argc, argv);
  Kokkos::finalize();
  return rc;
}
