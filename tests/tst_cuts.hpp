// Histogram cuts and binning against upstream XGBoost 3.2's CPU hist cuts (goldens from
// tests/golden/make_cuts_goldens.py: DMatrix.get_quantile_cut(), which lists min_val then the cuts).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <kboost/kernels/binning.hpp>
#include <kboost/kernels/densify.hpp>
#include <kboost/kernels/hist_cuts.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/engine/detail/sketch.hpp>
#include "tests/test_util.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>

namespace {

struct CutsCheck {
  std::size_t values_equal = 0, values_total = 0, features_equal = 0;
};

CutsCheck compare_cuts(kboost::HistogramCuts<TEST_MEMSPACE> const& cuts, nlohmann::json const& c) {
  auto ptrs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.ptrs);
  auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.values);
  auto mins = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.min_vals);
  std::vector<std::uint32_t> gptrs = c["ptrs"];
  std::vector<std::uint32_t> gbits = c["values_bits"];
  REQUIRE(gptrs.size() == ptrs.extent(0));
  CutsCheck r;
  for (std::size_t f = 0; f + 1 < gptrs.size(); ++f) {
    std::vector<float> mine{mins(f)};
    for (std::uint32_t k = ptrs(f); k < ptrs(f + 1); ++k) mine.push_back(vals(k));
    std::size_t const n = gptrs[f + 1] - gptrs[f];
    bool same = n == mine.size();
    for (std::size_t k = 0; k < n; ++k) {
      std::uint32_t mb = 0;
      if (k < mine.size()) std::memcpy(&mb, &mine[k], 4);
      ++r.values_total;
      if (k < mine.size() && mb == gbits[gptrs[f] + k]) ++r.values_equal; else same = false;
    }
    r.features_equal += same;
  }
  return r;
}

void check_dataset(std::string const& name, std::string const& file, std::string const& label_column) {
  kboost::ReadOptions ro;
  ro.label_column = label_column;
  auto host = kboost::read_dataset(kboost::test::shared_path("data/" + file), ro);
  auto dense = kboost::densify(host);
  Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> X =
      Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), dense);
  nlohmann::json g;
  std::ifstream(kboost::test::golden_path("cuts_" + name + ".json")) >> g;
  REQUIRE(g["cases"].size() > 0);
  for (auto const& c : g["cases"]) {
    int const max_bin = c["max_bin"];
    Kokkos::View<float*, TEST_MEMSPACE> w("w", 0);
    if (c.contains("weights")) {  // 1 + (i % 7) / 4, as the golden script
      auto hw = Kokkos::View<float*, Kokkos::HostSpace>("hw", host.n_rows);
      for (std::size_t i = 0; i < host.n_rows; ++i) hw(i) = 1.0f + float(i % 7) / 4;
      w = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hw);
    }
    auto cuts = kboost::sketch_cuts(TEST_EXECSPACE(), X, Kokkos::View<const float*, TEST_MEMSPACE>(w), max_bin);
    auto r = compare_cuts(cuts, c);
    INFO(name << " max_bin " << max_bin << (c.contains("weights") ? " weighted" : "") << ": " << r.values_equal
              << "/" << r.values_total << " cut values equal");
    CHECK(r.values_equal == r.values_total);
    CHECK(r.features_equal == host.n_features);
    CHECK(cuts.total_bins == cuts.values.extent(0));
  }
}

}  // namespace

TEST_CASE("cuts " TEST_BACKEND ": agaricus equals upstream 3.2 hist cuts bit for bit", "[cuts]") {
  check_dataset("agaricus", "agaricus/agaricus.txt.train", "");
}

TEST_CASE("cuts " TEST_BACKEND ": california_housing (> max_bin distinct) equals upstream CPU sketch", "[cuts][shared]") {
  check_dataset("california_housing", "california_housing/housing.csv", "median_house_value");
}

TEST_CASE("cuts " TEST_BACKEND ": lightgbm_binary equals upstream CPU sketch", "[cuts][shared]") {
  check_dataset("lightgbm_binary", "lightgbm_binary/binary.train", "0");
}

TEST_CASE("cuts " TEST_BACKEND ": one bin per distinct value, upstream layout", "[cuts]") {
  // feature 0: {3, 1, 2, NaN, 1}; feature 1: all missing; feature 2: one value
  float const nan = std::numeric_limits<float>::quiet_NaN();
  float const data[5][3] = {{3, nan, -2}, {1, nan, -2}, {2, nan, -2}, {nan, nan, -2}, {1, nan, -2}};
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> hx("hx", 5, 3);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) hx(i, j) = data[i][j];
  Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> X = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hx);
  auto cuts = kboost::sketch_cuts(TEST_EXECSPACE(), X, Kokkos::View<const float*, TEST_MEMSPACE>(Kokkos::View<float*, TEST_MEMSPACE>("w", 0)), 256);
  auto ptrs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.ptrs);
  auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.values);
  auto mins = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.min_vals);
  REQUIRE(ptrs(0) == 0);
  REQUIRE(ptrs(1) == 3);  // cuts 2, 3, sentinel
  REQUIRE(ptrs(2) == 4);  // empty feature: one sentinel bin
  REQUIRE(ptrs(3) == 5);
  CHECK(vals(0) == 2.0f);
  CHECK(vals(1) == 3.0f);
  CHECK(vals(2) == static_cast<float>(3.0 + (3.0 + 1e-5)));
  CHECK(mins(0) == 1.0f - 1.0f - 1e-5f);
  CHECK(mins(1) == 1e-5f);
  CHECK(mins(2) == -2.0f - 2.0f - 1e-5f);
  CHECK(vals(4) == static_cast<float>(-2.0 + (2.0 + 1e-5)));

  auto bins = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kboost::bin_matrix(TEST_EXECSPACE(), X, cuts));
  std::int32_t const expect[5][3] = {{2, -1, 4}, {0, -1, 4}, {1, -1, 4}, {-1, -1, 4}, {0, -1, 4}};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) CHECK(bins(i, j) == expect[i][j]);

  // compressed codes: local bin (global − ptrs[f]), the feature's bin count for missing
  std::vector<std::uint32_t> const hp{0, 3, 4, 5};
  CHECK(kboost::bin_code_bytes(hp) == 1);
  auto c8 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kboost::bin_codes<std::uint8_t>(TEST_EXECSPACE(), X, cuts, hp));
  auto c16 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kboost::bin_codes<std::uint16_t>(TEST_EXECSPACE(), X, cuts, hp));
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) {
      std::uint32_t const want = expect[i][j] < 0 ? hp[j + 1] - hp[j] : static_cast<std::uint32_t>(expect[i][j]) - hp[j];
      CHECK(c8(i, j) == want);
      CHECK(c16(i, j) == want);
    }
}

TEST_CASE("binning " TEST_BACKEND ": code width from the widest feature (bins + the missing code)", "[cuts]") {
  CHECK(kboost::bin_code_bytes({0, 255, 256}) == 1);
  CHECK(kboost::bin_code_bytes({0, 256, 257}) == 2);
  CHECK(kboost::bin_code_bytes({0, 1, 65536}) == 2);
  CHECK_THROWS_WITH(kboost::bin_code_bytes({0, 65536}), Catch::Matchers::ContainsSubstring("65,535"));
}

TEST_CASE("binning " TEST_BACKEND ": upper_bound clamped to the last bin, NaN -> -1", "[cuts]") {
  std::vector<float> values = {0.5f, 1.0f, 1.5f, 4.0f};
  auto fc = kboost::sketch_feature(values, {}, 2);  // 4 distinct values, max_bin 2
  REQUIRE(fc.values.size() == 2);
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> hx("hx", 6, 1);
  float const probe[6] = {-100.0f, fc.values[0], std::nextafter(fc.values[0], -1e30f), 1e30f,
                          std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
  for (int i = 0; i < 6; ++i) hx(i, 0) = probe[i];
  Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> X = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hx);
  auto cuts = kboost::sketch_cuts(TEST_EXECSPACE(), X, Kokkos::View<const float*, TEST_MEMSPACE>(Kokkos::View<float*, TEST_MEMSPACE>("w", 0)), 2);
  auto bins = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kboost::bin_matrix(TEST_EXECSPACE(), X, cuts));
  auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.values);
  // a value equal to a cut goes to the next bin (upper_bound); beyond the sentinel clamps
  std::int32_t const nb = static_cast<std::int32_t>(vals.extent(0));
  for (int i = 0; i < 5; ++i) {
    auto it = std::upper_bound(vals.data(), vals.data() + nb, probe[i]);
    std::int32_t e = static_cast<std::int32_t>(it - vals.data());
    if (e == nb) --e;
    CHECK(bins(i, 0) == e);
  }
  CHECK(bins(5, 0) == -1);
  CHECK_THROWS_AS(kboost::sketch_feature(values, {}, 1), std::runtime_error);
}

TEST_CASE("binning " TEST_BACKEND ": branch-free search equals std::upper_bound on a 256-bin feature", "[cuts]") {
  // 20,000 distinct values -> 256 sketched bins; probes: every cut, its neighbours, and values between
  std::vector<float> values;
  for (int i = 0; i < 20000; ++i) values.push_back(static_cast<float>((i * 7919) % 20000) * 0.37f - 3000.0f);
  auto fc = kboost::sketch_feature(values, {}, 256);
  REQUIRE(fc.values.size() > 200);
  std::vector<float> probe;
  for (float c : fc.values) {
    probe.push_back(c);
    probe.push_back(std::nextafter(c, -1e30f));
    probe.push_back(std::nextafter(c, 1e30f));
  }
  for (int i = 0; i < 997; ++i) probe.push_back(-3100.0f + 13.1f * static_cast<float>(i));
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> hx("hx", probe.size(), 1);
  for (std::size_t i = 0; i < probe.size(); ++i) hx(i, 0) = probe[i];
  Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> X = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hx);
  auto cuts = kboost::sketch_cuts(TEST_EXECSPACE(), X, Kokkos::View<const float*, TEST_MEMSPACE>(Kokkos::View<float*, TEST_MEMSPACE>("w", 0)), 256);
  auto bins = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kboost::bin_matrix(TEST_EXECSPACE(), X, cuts));
  auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cuts.values);
  std::int32_t const nb = static_cast<std::int32_t>(vals.extent(0));
  REQUIRE(nb > 3);
  int mismatches = 0;
  for (std::size_t i = 0; i < probe.size(); ++i) {
    std::int32_t e = static_cast<std::int32_t>(std::upper_bound(vals.data(), vals.data() + nb, probe[i]) - vals.data());
    if (e == nb) --e;
    mismatches += bins(i, 0) != e;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("cuts " TEST_BACKEND ": the radix-sorted sketch queue gives upstream std::sort's cuts", "[cuts]") {
  // Unit weights take the radix path in make_summary; explicit weights of 1 take std::sort (upstream's
  // order). 300,000 rows with runs of repeats, ties across chunks, negatives and +0 (no -0): several
  // queue flushes at max_bin 256 and 16. The two must agree bit for bit.
  std::vector<float> values;
  std::uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 300000; ++i) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    float v = static_cast<float>(static_cast<std::int64_t>(x % 40000) - 20000) * 0.125f;
    if (i % 11 == 0) v = 0.0f;
    int const repeat = (i % 97 == 0) ? 5 : 1;
    for (int r = 0; r < repeat; ++r) values.push_back(v);
  }
  std::vector<float> ones(values.size(), 1.0f);
  for (int max_bin : {256, 16}) {
    auto const radix = kboost::sketch_feature(values, {}, max_bin);
    auto const sorted = kboost::sketch_feature(values, ones, max_bin);
    REQUIRE(radix.values.size() == sorted.values.size());
    CHECK(radix.values.size() > static_cast<std::size_t>(max_bin / 2));
    CHECK(std::memcmp(radix.values.data(), sorted.values.data(), radix.values.size() * sizeof(float)) == 0);
    CHECK(std::memcmp(&radix.min_val, &sorted.min_val, sizeof(float)) == 0);
  }
}
