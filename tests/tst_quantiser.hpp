// GradientQuantiser: upstream's rounding factor (power of two above max(Σpos, Σneg)/(1-2nε)),
// truncating fixed-point conversion, and sums that do not depend on backend or thread count.
#include <catch2/catch_test_macros.hpp>
#include <array>

#include <kboost/kernels/quantiser.hpp>
#include "tests/test_util.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace {

kboost::GradientQuantiser quantiser_of(std::vector<kboost::GradientPair> const& g) {
  Kokkos::View<kboost::GradientPair*, Kokkos::HostSpace> hg("hg", g.size());
  for (std::size_t i = 0; i < g.size(); ++i) hg(i) = g[i];
  auto dg = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hg);
  return kboost::make_quantiser(TEST_EXECSPACE(), Kokkos::View<const kboost::GradientPair*, TEST_MEMSPACE>(dg));
}

}  // namespace

TEST_CASE("quantiser " TEST_BACKEND ": rounding factor and fixed point", "[quantiser]") {
  // Σpos grad = 3.5, Σneg grad = 0.5, Σhess = 4: R_g = 4 (3.5/(1-6ε) < 4), R_h = 8 (4/(1-6ε) > 4)
  std::vector<kboost::GradientPair> g = {{1.5f, 1.0f}, {-0.5f, 1.0f}, {2.0f, 2.0f}};
  auto q = quantiser_of(g);
  CHECK(q.to_floating[0] == 4.0 / 4611686018427387904.0);
  CHECK(q.to_floating[1] == 8.0 / 4611686018427387904.0);
  CHECK(q.to_fixed[0] == 4611686018427387904.0 / 4.0);
  CHECK(q.to_fixed[1] == 4611686018427387904.0 / 8.0);
  auto a = q.to_fixed_point(g[0]);
  CHECK(a.grad == static_cast<std::int64_t>(1.5 * (4611686018427387904.0 / 4.0)));
  CHECK(a.hess == std::int64_t(1) << 59);
  // truncation toward zero (a positive hessian keeps one unit, as upstream 3.4.1), and back to double
  kboost::GradientPair const tiny{-1e-30f, 3e-30f};
  auto t = q.to_fixed_point(tiny);
  CHECK(t.grad == 0);
  CHECK(t.hess == 1);
  CHECK(q.to_fixed_point(kboost::GradientPair{0.0f, 0.0f}).hess == 0);
  CHECK(q.grad_to_double(a.grad) == 1.5);
  CHECK(kboost::create_rounding_factor(0.0, 10) == 1.0);  // frexp(0) -> exponent 0 -> 2^0
  CHECK(kboost::create_rounding_factor(1.0, 1) == 2.0);
  CHECK(kboost::create_rounding_factor(0.75, 1) == 1.0);
}

TEST_CASE("quantiser " TEST_BACKEND ": sums independent of backend/threads; quantise matches", "[quantiser]") {
  std::mt19937 rng(3);
  std::normal_distribution<float> nd(0.0f, 1.0f);
  std::size_t const n = 3 * 4096 + 17;
  std::vector<kboost::GradientPair> g(n);
  for (auto& x : g) x = {nd(rng), std::abs(nd(rng))};
  // host reference of the documented algorithm: exact maxima M of the four sign parts, each part
  // truncated to units of 2^(e-62) with M × n < 2^e, integer totals, total × unit
  auto const parts = [](kboost::GradientPair const& p) {
    return std::array<float, 4>{p.grad > 0 ? p.grad : 0.0f, p.hess > 0 ? p.hess : 0.0f, p.grad < 0 ? -p.grad : 0.0f,
                                p.hess < 0 ? -p.hess : 0.0f};
  };
  std::array<float, 4> mx{0, 0, 0, 0};
  for (auto const& p : g)
    for (int k = 0; k < 4; ++k) mx[k] = std::max(mx[k], parts(p)[k]);
  double tot[4] = {0, 0, 0, 0};
  for (int k = 0; k < 4; ++k) {
    if (mx[k] == 0) continue;
    int e = 0;
    std::frexp(static_cast<double>(mx[k]) * static_cast<double>(n), &e);
    std::int64_t units = 0;
    for (auto const& p : g) units += static_cast<std::int64_t>(std::ldexp(static_cast<double>(parts(p)[k]), 62 - e));
    tot[k] = std::ldexp(static_cast<double>(units), e - 62);
  }
  auto q = quantiser_of(g);
  for (int k = 0; k < 2; ++k) {
    double const r = kboost::create_rounding_factor(std::max(tot[k], tot[k + 2]), static_cast<int>(n));
    CHECK(q.to_floating[k] == r / 4611686018427387904.0);
  }
  Kokkos::View<kboost::GradientPair*, Kokkos::HostSpace> hg("hg", n);
  for (std::size_t i = 0; i < n; ++i) hg(i) = g[i];
  auto dg = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hg);
  Kokkos::View<kboost::GradientPairInt64*, TEST_MEMSPACE> out("out", n);
  kboost::quantise(TEST_EXECSPACE(), q, Kokkos::View<const kboost::GradientPair*, TEST_MEMSPACE>(dg), out);
  auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::int64_t sg = 0, sh = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bad += ho(i).grad != static_cast<std::int64_t>(static_cast<double>(g[i].grad) * q.to_fixed[0]);
    bad += ho(i).hess != static_cast<std::int64_t>(static_cast<double>(g[i].hess) * q.to_fixed[1]);
    sg += ho(i).grad;
    sh += ho(i).hess;
  }
  CHECK(bad == 0);
  // the integer total converts back within n quanta of the sum
  CHECK(std::abs(q.hess_to_double(sh) - tot[1]) <= n * q.to_floating[1]);
  kboost::GradientPairInt64 x{5, 7}, y{2, 3};
  CHECK((x + y) == kboost::GradientPairInt64{7, 10});
  CHECK((x - y) == kboost::GradientPairInt64{3, 4});
  (void)sg;
}

TEST_CASE("quantiser " TEST_BACKEND ": positive and negative parts equal the float compares bit for bit", "[quantiser]") {
  // The lane sums add positive_part(x) / negative_magnitude(x) where upstream writes x > 0 ? x : 0
  // and x < 0 ? -x : 0; every class of float must give the same bits.
  std::vector<float> xs = {0.0f, -0.0f, 1.0f, -1.0f, std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                           -std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min(),
                           -std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(),
                           -std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
                           -std::numeric_limits<float>::min()};
  std::mt19937 rng(11);
  for (int i = 0; i < 100000; ++i) {
    std::uint32_t const u = static_cast<std::uint32_t>(rng());
    float x;
    std::memcpy(&x, &u, 4);
    xs.push_back(x);
  }
  auto const bits = [](float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  };
  std::size_t bad = 0;
  for (float x : xs) {
    bad += bits(kboost::positive_part(x)) != bits(x > 0 ? x : 0.0f);
    bad += bits(kboost::negative_magnitude(x)) != bits(x < 0 ? -x : 0.0f);
  }
  CHECK(bad == 0);
}
