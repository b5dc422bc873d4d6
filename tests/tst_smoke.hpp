#include <catch2/catch_test_macros.hpp>
#include "tests/test_util.hpp"
TEST_CASE("smoke " TEST_BACKEND ": the Kokkos backend runs an int64 team reduction", "[smoke]") {
  using policy = Kokkos::TeamPolicy<TEST_EXECSPACE>;
  Kokkos::View<long long*, TEST_MEMSPACE> out("out", 1);
  Kokkos::parallel_for("kboost::test::smoke", policy(TEST_EXECSPACE(), 8, Kokkos::AUTO),
    KOKKOS_LAMBDA(policy::member_type const& m) {
      // once per team: on a GPU the team has many threads
      Kokkos::single(Kokkos::PerTeam(m), [&] { Kokkos::atomic_fetch_add(&out(0), (long long)(m.league_rank() + 1)); });
    });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  REQUIRE(h(0) == 36);
}
