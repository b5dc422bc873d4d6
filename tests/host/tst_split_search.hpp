// kernels/evaluate_splits.hpp: the host backends' split search of a numerical feature
// (detail::whole_feature_split, which skips candidates that repeat the previous one's sums and
// takes one gain where no row is missing, and its FMA build) returns the bytes of the team search
// every backend shares (detail::best_numerical_split over the feature's bins), on histograms with
// empty bins, no missing rows, negative gradients, min_child_weight, L1/L2 terms and monotone
// constraints.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include <kboost/kernels/evaluate_splits.hpp>
#include "tests/test_util.hpp"

namespace {

using kboost::GradientPairInt64;
using kboost::SplitCandidate;

struct Case {
  Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, Kokkos::HostSpace> hist{"test::hist", 1, 0};
  Kokkos::View<float*, Kokkos::HostSpace> values{"test::values", 0}, min_vals{"test::min_vals", 1};
  kboost::EvalNode node;
};

/// One feature of `bins` bins from a splitmix64 stream: `empty` of every 8 bins hold nothing, the
/// rest random gradients (either sign) and hessians; missing rows added to the node's sum unless
/// `no_missing`.
Case make_case(std::uint64_t seed, std::uint32_t bins, int empty, bool no_missing) {
  Case c;
  c.hist = decltype(c.hist)("test::hist", 1, bins);
  c.values = decltype(c.values)("test::values", bins);
  c.min_vals(0) = -1.0f;
  GradientPairInt64 sum{};
  for (std::uint32_t b = 0; b < bins; ++b) {
    std::uint64_t const r = kboost::test::splitmix64(seed * 1000 + b);
    c.values(b) = static_cast<float>(b) * 0.5f;
    if (static_cast<int>(r % 8) < empty) continue;
    c.hist(0, b).grad = static_cast<std::int64_t>((r >> 8) % 200001) - 100000;
    c.hist(0, b).hess = static_cast<std::int64_t>((r >> 30) % 50000) + 1;
    sum = sum + c.hist(0, b);
  }
  if (!no_missing) {
    sum.grad += static_cast<std::int64_t>(kboost::test::splitmix64(seed) % 400001) - 200000;
    sum.hess += 30000;
  }
  c.node.sum = sum;
  return c;
}

SplitCandidate team_search(Case const& c, kboost::SplitParams const& p, kboost::GradientQuantiser const& q, int mono) {
  std::uint32_t const bins = static_cast<std::uint32_t>(c.hist.extent(1));
  GradientPairInt64 total{};
  for (std::uint32_t b = 0; b < bins; ++b) total = total + c.hist(0, b);
  auto const gain_of = [&](GradientPairInt64 const& l, GradientPairInt64 const& r) {
    return mono != 0 ? kboost::constrained_split_gain(p, q, l, r, -0.5f, 0.5f, mono) : kboost::split_gain(p, q, l, r);
  };
  return kboost::detail::best_numerical_split(c.hist, c.node, 0, 0, kboost::detail::BinRun{0, bins}, GradientPairInt64{},
                                              c.node.sum - total, c.values, c.min_vals, gain_of);
}

void check_same(SplitCandidate const& a, SplitCandidate const& b) {
  INFO("feature " << a.feature << "/" << b.feature << " bin " << a.split_bin << "/" << b.split_bin << " gain "
                  << a.loss_chg << "/" << b.loss_chg);
  CHECK(std::memcmp(&a, &b, sizeof a) == 0);
}

}  // namespace

TEST_CASE("split search " TEST_BACKEND ": the host's whole-feature search gives the team search's bytes",
          "[train][splits]") {
  kboost::GradientQuantiser q;
  q.to_floating[0] = 1.0 / 4096;
  q.to_floating[1] = 1.0 / 8192;
  kboost::SplitParams plain;
  kboost::SplitParams regularised;
  regularised.lambda = 2.5f;
  regularised.alpha = 0.75f;
  regularised.min_child_weight = 3.0f;
  regularised.max_delta_step = 0.4f;
  int checked = 0, found = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed)
    for (int empty : {0, 3, 7})
      for (bool no_missing : {false, true})
        for (int mono : {0, 1, -1})
          for (kboost::SplitParams const* p : {&plain, &regularised}) {
            std::uint32_t const n_bins = seed % 5 == 0 ? 3 : seed % 7 == 0 ? 240 + 4 * static_cast<std::uint32_t>(seed) : seed % 11 == 0 ? 256 : 64 + static_cast<std::uint32_t>(seed);
            Case const c = make_case(seed, n_bins, empty, no_missing);
            std::uint32_t const bins = static_cast<std::uint32_t>(c.hist.extent(1));
            auto const gain_of = [&](GradientPairInt64 const& l, GradientPairInt64 const& r) {
              return mono != 0 ? kboost::constrained_split_gain(*p, q, l, r, -0.5f, 0.5f, mono)
                               : kboost::split_gain(*p, q, l, r);
            };
            SplitCandidate const want = team_search(c, *p, q, mono);
            check_same(kboost::detail::host_feature_split(false, *p, q, c.hist, c.node, 0, 0, bins, c.values, c.min_vals, mono != 0 ? &gain_of : nullptr),
                       want);
            if (kboost::compat::host_has_fma())
              check_same(kboost::detail::host_feature_split(true, *p, q, c.hist, c.node, 0, 0, bins, c.values, c.min_vals, mono != 0 ? &gain_of : nullptr),
                         want);
            ++checked;
            found += want.feature == 0 ? 1 : 0;
          }
  CHECK(checked == 40 * 3 * 2 * 3 * 2);
  CHECK(found > checked / 2);  // most cases have a split, so the comparison is not of empty results
}
