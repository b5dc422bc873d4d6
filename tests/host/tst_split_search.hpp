// kernels/evaluate_splits.hpp: the host backends' split search of a numerical feature
// (detail::whole_feature_split, which skips candidates that repeat the previous one's sums and
// takes one gain where no row is missing, and its FMA build) returns the bytes of the team search
// every backend shares (detail::best_numerical_split over the feature's bins), on histograms with
// empty bins, no missing rows, negative gradients, min_child_weight, L1/L2 terms and monotone
// constraints.
#include <catch2/catch_test_macros.hpp>

#include <climits>
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
/// rest random gradients (either sign) and hessians, times 2^shift (sums beyond 2^53, as the
/// quantiser's fixed point makes them); missing rows added to the node's sum unless `no_missing`.
Case make_case(std::uint64_t seed, std::uint32_t bins, int empty, bool no_missing, int shift) {
  Case c;
  c.hist = decltype(c.hist)("test::hist", 1, bins);
  c.values = decltype(c.values)("test::values", bins);
  c.min_vals(0) = -1.0f;
  GradientPairInt64 sum{};
  for (std::uint32_t b = 0; b < bins; ++b) {
    std::uint64_t const r = kboost::test::splitmix64(seed * 1000 + b);
    c.values(b) = static_cast<float>(b) * 0.5f;
    if (static_cast<int>(r % 8) < empty) continue;
    c.hist(0, b).grad = (static_cast<std::int64_t>((r >> 8) % 200001) - 100000) * (std::int64_t{1} << shift);
    c.hist(0, b).hess = (static_cast<std::int64_t>((r >> 30) % 50000) + 1) * (std::int64_t{1} << shift) + (r >> 50);
    sum = sum + c.hist(0, b);
  }
  if (!no_missing) {
    sum.grad += (static_cast<std::int64_t>(kboost::test::splitmix64(seed) % 400001) - 200000) * (std::int64_t{1} << shift);
    sum.hess += 30000 * (std::int64_t{1} << shift);
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
  kboost::GradientQuantiser small, large;  // large: for sums times 2^36
  small.to_floating[0] = 1.0 / 4096;
  small.to_floating[1] = 1.0 / 8192;
  large.to_floating[0] = small.to_floating[0] / 68719476736.0;
  large.to_floating[1] = small.to_floating[1] / 68719476736.0;
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
            int const shift = seed % 3 == 0 ? 36 : 0;
            kboost::GradientQuantiser const& q = shift != 0 ? large : small;
            Case const c = make_case(seed, n_bins, empty, no_missing, shift);
            std::uint32_t const bins = static_cast<std::uint32_t>(c.hist.extent(1));
            auto const gain_of = [&](GradientPairInt64 const& l, GradientPairInt64 const& r) {
              return mono != 0 ? kboost::constrained_split_gain(*p, q, l, r, -0.5f, 0.5f, mono)
                               : kboost::split_gain(*p, q, l, r);
            };
            SplitCandidate const want = team_search(c, *p, q, mono);
            check_same(kboost::detail::host_feature_split(false, *p, q, c.hist, c.node, 0, 0, bins, c.values, c.min_vals, mono != 0 ? &gain_of : nullptr),
                       want);
            if (kboost::compat::host_has_avx2_fma())
              check_same(kboost::detail::host_feature_split(true, *p, q, c.hist, c.node, 0, 0, bins, c.values, c.min_vals, mono != 0 ? &gain_of : nullptr),
                         want);
            ++checked;
            found += want.feature == 0 ? 1 : 0;
          }
  CHECK(checked == 40 * 3 * 2 * 3 * 2);
  CHECK(found > checked / 2);  // most cases have a split, so the comparison is not of empty results
}

#ifdef KBOOST_HOST_FMA
namespace {
/// int64_to_double_x4 of in[0..4) into out (a function built for AVX2, as the search's callers).
__attribute__((target("avx2,fma"))) void convert_four(std::int64_t const* in, double* out) {
  _mm256_storeu_pd(out, kboost::detail::int64_to_double_x4(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(in))));
}
}  // namespace

TEST_CASE("split search " TEST_BACKEND ": the AVX2 int64 to double conversion rounds as the scalar one",
          "[train][splits]") {
  if (!kboost::compat::host_has_avx2_fma()) SKIP("this core has no AVX2 and FMA");
  std::vector<std::int64_t> v{0, 1, -1, INT64_MAX, INT64_MIN, INT64_MIN + 1, (std::int64_t{1} << 53) + 1,
                              -(std::int64_t{1} << 53) - 1, (std::int64_t{1} << 54) + 2, (std::int64_t{1} << 54) + 6,
                              0xFFFFFFFFLL, -0xFFFFFFFFLL, 0x100000000LL, (std::int64_t{1} << 62) + 0x3FF};
  for (std::uint64_t i = 0; i < 400000; ++i) {  // every magnitude, random low bits (ties included)
    std::uint64_t const r = kboost::test::splitmix64(i);
    std::int64_t const x = static_cast<std::int64_t>(r >> (i % 64));
    v.push_back(i % 3 == 0 ? (x & ~std::int64_t{0x3FF}) | 0x200 : x);  // halfway between doubles near 2^63
    if (v.back() != INT64_MIN) v.push_back(-v.back());
  }
  while (v.size() % 4 != 0) v.push_back(7);
  int differ = 0;
  for (std::size_t i = 0; i < v.size(); i += 4) {
    double got[4];
    convert_four(&v[i], got);
    for (int j = 0; j < 4; ++j) {
      double const want = static_cast<double>(v[i + j]);
      differ += std::memcmp(&got[j], &want, sizeof want) != 0 ? 1 : 0;
    }
  }
  CHECK(differ == 0);
}
#endif
