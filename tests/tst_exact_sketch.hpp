// sketch_method = exact_quantile (engine/detail/exact_sketch.hpp): the radix selection on
// TEST_EXECSPACE gives, bit for bit, the cuts of a sort-based reference of the same definition,
// on columns that exercise every branch (many distinct values, few, max_bin + 1 and + 2 distinct,
// heavy ties, -0 and +0, missing, empty), unweighted and weighted; a hand-worked case; and the
// upstream cuts wherever a feature has at most max_bin + 1 distinct values.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <kboost/engine/detail/exact_sketch.hpp>
#include <kboost/engine/detail/sketch.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/kernels/densify.hpp>
#include "tests/test_util.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <vector>

namespace {

using HostMatrix = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace>;

struct HostCuts {
  std::vector<std::uint32_t> ptrs;
  std::vector<std::uint32_t> value_bits, min_bits;
};

std::uint32_t bits(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}

HostCuts to_host(kboost::HistogramCuts<TEST_MEMSPACE> const& cuts) {
  auto p = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.ptrs);
  auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.values);
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.min_vals);
  HostCuts h;
  h.ptrs.assign(p.data(), p.data() + p.extent(0));
  for (std::size_t i = 0; i < v.extent(0); ++i) h.value_bits.push_back(bits(v(i)));
  for (std::size_t i = 0; i < m.extent(0); ++i) h.min_bits.push_back(bits(m(i)));
  return h;
}

HostCuts to_host(std::vector<kboost::FeatureCuts> const& per_feature) {
  HostCuts h;
  h.ptrs.push_back(0);
  for (auto const& f : per_feature) {
    for (float v : f.values) h.value_bits.push_back(bits(v));
    h.ptrs.push_back(static_cast<std::uint32_t>(h.value_bits.size()));
    h.min_bits.push_back(bits(f.min_val));
  }
  return h;
}

/// The definition of engine/detail/exact_sketch.hpp, by sorting: `qw` are the fixed-point weights.
kboost::FeatureCuts reference_feature(std::vector<float> const& x, std::vector<std::uint64_t> const& qw, int max_bin) {
  std::map<float, std::uint64_t> weight_of;  // -0 == +0: one key (the first inserted sign is kept)
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isnan(x[i]) && qw[i] != 0) weight_of[x[i] == 0.0f ? 0.0f : x[i]] += qw[i];
  if (weight_of.empty()) return kboost::empty_feature_cuts();
  std::vector<float> v;
  std::vector<std::uint64_t> below;
  std::uint64_t total = 0;
  for (auto const& [value, w] : weight_of) {
    v.push_back(value);
    below.push_back(total);
    total += w;
  }
  std::vector<float> a;
  if (v.size() <= static_cast<std::size_t>(max_bin) + 1) {
    a = v;
  } else {
    std::uint64_t const n = max_bin;
    a.push_back(v.front());
    for (std::uint64_t k = 1; k < n; ++k) {
      std::size_t j = 0;  // the value with below_j <= k·W/n < below_j + w_j
      while (j + 1 < v.size() && n * below[j + 1] <= k * total) ++j;
      if (a.back() != v[j]) a.push_back(v[j]);
    }
    if (a.back() != v.back()) a.push_back(v.back());
  }
  return kboost::cuts_from_summary(a, static_cast<std::size_t>(max_bin));
}

HostCuts reference_cuts(HostMatrix const& x, std::vector<float> const& w, int max_bin) {
  std::size_t const rows = x.extent(0);
  std::vector<std::uint64_t> qw(rows, 1);
  if (!w.empty()) {
    float const wmax = *std::max_element(w.begin(), w.end());
    double const scale = std::ldexp(1.0, kboost::sketch_weight_shift(rows, wmax));
    for (std::size_t i = 0; i < rows; ++i) qw[i] = static_cast<std::uint64_t>(std::floor(double(w[i]) * scale + 0.5));
  }
  std::vector<kboost::FeatureCuts> per_feature;
  for (std::size_t f = 0; f < x.extent(1); ++f) {
    std::vector<float> col(rows);
    for (std::size_t i = 0; i < rows; ++i) col[i] = x(i, f);
    per_feature.push_back(reference_feature(col, qw, max_bin));
  }
  return to_host(per_feature);
}

HostCuts device_cuts(HostMatrix const& x, std::vector<float> const& w, int max_bin) {
  Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> X = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), x);
  Kokkos::View<float*, Kokkos::HostSpace> hw("hw", w.size());
  for (std::size_t i = 0; i < w.size(); ++i) hw(i) = w[i];
  Kokkos::View<const float*, TEST_MEMSPACE> dw = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hw);
  return to_host(kboost::exact_quantile_cuts<TEST_MEMSPACE>(TEST_EXECSPACE(), X, dw, max_bin));
}

/// Columns: 0 continuous (normal), 1 ten integers with 10 % missing, 2 60 % ±0 then continuous,
/// 3 all missing, 4 exactly 256 distinct values, 5 exactly 258, 6 wide magnitudes of both signs,
/// 7 one value.
HostMatrix test_matrix(std::size_t rows) {
  std::mt19937 rng(20261201u);
  std::normal_distribution<float> normal(3.0f, 2.0f);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  float const nan = std::numeric_limits<float>::quiet_NaN();
  HostMatrix x("x", rows, 8);
  for (std::size_t i = 0; i < rows; ++i) {
    x(i, 0) = normal(rng);
    x(i, 1) = unit(rng) < 0.1f ? nan : static_cast<float>(i % 10);
    float const u = unit(rng);
    x(i, 2) = u < 0.3f ? 0.0f : u < 0.6f ? -0.0f : normal(rng);
    x(i, 3) = nan;
    x(i, 4) = static_cast<float>(i % 256) * 0.5f - 20.0f;
    x(i, 5) = static_cast<float>(i % 258) * 0.25f;
    x(i, 6) = (unit(rng) < 0.5f ? -1.0f : 1.0f) * std::ldexp(unit(rng), static_cast<int>(i % 60) - 30);
    x(i, 7) = 1.5f;
  }
  return x;
}

void check_against_reference(HostMatrix const& x, std::vector<float> const& w, int max_bin) {
  HostCuts const got = device_cuts(x, w, max_bin);
  HostCuts const want = reference_cuts(x, w, max_bin);
  INFO("max_bin " << max_bin << (w.empty() ? "" : " weighted"));
  CHECK(got.ptrs == want.ptrs);
  CHECK(got.value_bits == want.value_bits);
  CHECK(got.min_bits == want.min_bits);
}

}  // namespace

TEST_CASE("exact sketch " TEST_BACKEND ": radix selection equals the sorted definition, bit for bit", "[cuts][exact_sketch]") {
  HostMatrix const x = test_matrix(20000);
  std::vector<float> w(x.extent(0));
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = 0.25f + static_cast<float>(i % 13) * 0.7f;
  for (int max_bin : {256, 16, 2}) {
    check_against_reference(x, {}, max_bin);
    check_against_reference(x, w, max_bin);
  }
  // 20,000 bins: over 100 MB of counters per feature, so the eight features go in several batches
  check_against_reference(x, w, 20000);
  HostCuts const c = device_cuts(x, {}, 256);
  CHECK(c.ptrs[2] - c.ptrs[1] == 10);   // ten integers: one bin each
  CHECK(c.ptrs[4] - c.ptrs[3] == 1);    // all missing: the sentinel only
  CHECK(c.ptrs[5] - c.ptrs[4] == 256);  // 256 distinct: one bin per value
  CHECK(c.ptrs[6] - c.ptrs[5] == 256);  // 258 distinct: max_bin bins
  CHECK(c.ptrs[8] - c.ptrs[7] == 1);    // one value: one bin
}

TEST_CASE("exact sketch " TEST_BACKEND ": hand-worked quantiles of 1..10 with max_bin 4", "[cuts][exact_sketch]") {
  // W = 10, targets k·10/4 = 2.5, 5, 7.5 fall on the values 3, 6, 8; a = {1, 3, 6, 8, 10}
  HostMatrix x("x", 10, 1);
  for (int i = 0; i < 10; ++i) x(9 - i, 0) = static_cast<float>(i + 1);
  HostCuts const c = device_cuts(x, {}, 4);
  REQUIRE(c.ptrs == std::vector<std::uint32_t>{0, 4});
  CHECK(c.value_bits[0] == bits(3.0f));
  CHECK(c.value_bits[1] == bits(6.0f));
  CHECK(c.value_bits[2] == bits(8.0f));
  CHECK(c.value_bits[3] == bits(static_cast<float>(10.0 + (10.0 + 1e-5))));
  CHECK(c.min_bits[0] == bits(1.0f - 1.0f - 1e-5f));
  // weight 7 on the value 1: W = 16, targets 4, 8, 12 fall on 1 (the minimum again), 3 and 7;
  // a = {1, 3, 7, 10} is shorter than max_bin + 1, so the maximum is a cut too (as upstream)
  std::vector<float> w(10, 1.0f);
  w[9] = 7.0f;  // row 9 holds the value 1
  HostCuts const cw = device_cuts(x, w, 4);
  REQUIRE(cw.ptrs == std::vector<std::uint32_t>{0, 4});
  CHECK(cw.value_bits[0] == bits(3.0f));
  CHECK(cw.value_bits[1] == bits(7.0f));
  CHECK(cw.value_bits[2] == bits(10.0f));
  CHECK(cw.value_bits[3] == bits(static_cast<float>(10.0 + (10.0 + 1e-5))));
}

TEST_CASE("exact sketch " TEST_BACKEND ": features with few distinct values get upstream's cuts (agaricus)", "[cuts][exact_sketch]") {
  kboost::ReadOptions lib;
  lib.format = "libsvm";
  auto const host = kboost::read_dataset(kboost::test::shared_path("data/agaricus/agaricus.txt.train"), lib);
  auto const dense = kboost::densify(host);
  Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> X = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), dense);
  Kokkos::View<const float*, TEST_MEMSPACE> no_weight = Kokkos::View<float*, TEST_MEMSPACE>("w", 0);
  HostCuts const exact = to_host(kboost::exact_quantile_cuts<TEST_MEMSPACE>(TEST_EXECSPACE(), X, no_weight, 256));
  HostCuts const upstream = to_host(kboost::sketch_cuts(TEST_EXECSPACE(), X, no_weight, 256));
  CHECK(exact.ptrs == upstream.ptrs);
  CHECK(exact.value_bits == upstream.value_bits);
  CHECK(exact.min_bits == upstream.min_bits);
}

TEST_CASE("exact sketch " TEST_BACKEND ": bad weights and max_bin are refused", "[cuts][exact_sketch]") {
  HostMatrix const x = test_matrix(100);
  std::vector<float> w(100, 1.0f);
  w[42] = -1.0f;
  CHECK_THROWS_WITH(device_cuts(x, w, 256), Catch::Matchers::ContainsSubstring("negative or not finite"));
  w[42] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH(device_cuts(x, w, 256), Catch::Matchers::ContainsSubstring("negative or not finite"));
  CHECK_THROWS_WITH(device_cuts(x, std::vector<float>(7, 1.0f), 256), Catch::Matchers::ContainsSubstring("7 entries for 100 rows"));
  CHECK_THROWS_WITH(device_cuts(x, {}, 1), Catch::Matchers::ContainsSubstring("max_bin must be at least 2"));
}
