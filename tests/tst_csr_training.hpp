// CSR input is sketched and binned without a dense float copy (bin_codes_csr,
// sketch_cuts_from_host_csr, exact_quantile_cuts_csr). The contract is bit identity with the
// densified matrix: the same cuts, the same codes and the same model bytes, for both sketch
// methods, with weights, NaN values stored in the CSR arrays and empty rows and columns. Malformed
// CSR arrays are refused with the row and entry named.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <kboost/core/dmatrix.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/detail/exact_sketch.hpp>
#include <kboost/engine/detail/sketch.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/io/model_writer.hpp>
#include <kboost/kernels/binning.hpp>
#include <kboost/kernels/densify.hpp>
#include "tests/test_util.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

/// rows × features CSR with about `density` of the cells stored: values from a few distinct levels
/// (ties) and a continuous range, some stored values NaN, row 3 and column 5 empty; labels and weights.
kboost::HostDMatrix make_csr(std::size_t rows, std::size_t features, double density, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::int64_t> row_map{0};
  std::vector<std::int32_t> cols;
  std::vector<float> vals;
  kboost::HostDMatrix d;
  d.n_rows = rows;
  d.n_features = features;
  d.label = Kokkos::View<float*, Kokkos::HostSpace>("label", rows);
  d.weight = Kokkos::View<float*, Kokkos::HostSpace>("weight", rows);
  for (std::size_t i = 0; i < rows; ++i) {
    double score = 0;
    for (std::size_t f = 0; f < features; ++f) {
      if (i == 3 || f == 5 || u(rng) >= density) continue;
      float v = (f % 3 == 0) ? static_cast<float>(std::floor(u(rng) * 4)) : static_cast<float>(u(rng) * 100 - 30);
      if (u(rng) < 0.02) v = std::numeric_limits<float>::quiet_NaN();
      if (v == v) score += (f % 2 ? 1 : -1) * v / 50.0;
      cols.push_back(static_cast<std::int32_t>(f));
      vals.push_back(v);
    }
    row_map.push_back(static_cast<std::int64_t>(cols.size()));
    d.label(i) = static_cast<float>(score + u(rng) > 0.5);
    d.weight(i) = 0.5f + static_cast<float>(i % 4) * 0.5f;
  }
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> rm("row_map", row_map.size());
  Kokkos::View<std::int32_t*, Kokkos::HostSpace> ci("entries", cols.size());
  Kokkos::View<float*, Kokkos::HostSpace> va("values", vals.size());
  std::memcpy(rm.data(), row_map.data(), row_map.size() * sizeof(std::int64_t));
  std::memcpy(ci.data(), cols.data(), cols.size() * sizeof(std::int32_t));
  std::memcpy(va.data(), vals.data(), vals.size() * sizeof(float));
  d.csr = kboost::HostDMatrix::csr_type("csr", static_cast<std::int32_t>(rows), static_cast<std::int32_t>(features),
                                        static_cast<std::int64_t>(vals.size()), va, rm, ci);
  return d;
}

/// The same matrix stored dense (NaN = missing).
kboost::HostDMatrix dense_copy(kboost::HostDMatrix const& s) {
  kboost::HostDMatrix d = s;
  d.csr = kboost::HostDMatrix::csr_type();
  d.dense = kboost::densify(Kokkos::DefaultHostExecutionSpace(), s);
  return d;
}

std::vector<std::uint32_t> cut_bits(kboost::HistogramCuts<TEST_MEMSPACE> const& c) {
  auto p = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.ptrs);
  auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.values);
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.min_vals);
  std::vector<std::uint32_t> out(p.data(), p.data() + p.extent(0));
  for (std::size_t i = 0; i < v.extent(0); ++i) {
    std::uint32_t b;
    std::memcpy(&b, &v(i), 4);
    out.push_back(b);
  }
  for (std::size_t i = 0; i < m.extent(0); ++i) {
    std::uint32_t b;
    std::memcpy(&b, &m(i), 4);
    out.push_back(b);
  }
  return out;
}

template <class T>
auto on_test_space(T const& host_view) {
  return Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), host_view);
}

}  // namespace

TEST_CASE("csr " TEST_BACKEND ": cuts and bin codes of CSR input equal those of its dense copy, bit for bit", "[csr][cuts]") {
  auto const s = make_csr(3000, 24, 0.35, 11);
  auto const d = dense_copy(s);
  auto const h = kboost::checked_csr(s);
  kboost::CsrArrays<TEST_MEMSPACE> const x{on_test_space(h.row_map), on_test_space(h.entries), on_test_space(h.values),
                                           h.n_features};
  auto const dX = on_test_space(d.dense);
  auto const w = on_test_space(s.weight);
  for (int max_bin : {16, 256}) {
    INFO("max_bin " << max_bin);
    auto const ref = kboost::sketch_cuts_from_host<TEST_MEMSPACE>(TEST_EXECSPACE(), d.dense, s.weight, max_bin);
    auto const csr = kboost::sketch_cuts_from_host_csr<TEST_MEMSPACE>(TEST_EXECSPACE(), h.row_map, h.entries, h.values,
                                                                       h.n_features, s.weight, max_bin);
    CHECK(cut_bits(csr) == cut_bits(ref));
    auto const eref = kboost::exact_quantile_cuts<TEST_MEMSPACE>(
        TEST_EXECSPACE(), Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE>(dX),
        Kokkos::View<const float*, TEST_MEMSPACE>(w), max_bin);
    auto const ecsr = kboost::exact_quantile_cuts_csr<TEST_MEMSPACE>(TEST_EXECSPACE(), x.row_map, x.entries, x.values,
                                                                      x.n_features, Kokkos::View<const float*, TEST_MEMSPACE>(w),
                                                                      max_bin);
    CHECK(cut_bits(ecsr) == cut_bits(eref));
    REQUIRE(ref.total_bins > 24u);  // the data has more than one bin per feature

    auto const codes_ref = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), kboost::bin_codes<std::uint16_t>(TEST_EXECSPACE(),
                                                              Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE>(dX),
                                                              ref, ref.host_ptrs));
    auto const codes_csr = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), kboost::bin_codes_csr<std::uint16_t>(TEST_EXECSPACE(), x.row_map, x.entries, x.values,
                                                                  x.n_features, ref, ref.host_ptrs));
    REQUIRE(codes_csr.extent(0) == codes_ref.extent(0));
    REQUIRE(codes_csr.extent(1) == codes_ref.extent(1));
    CHECK(std::memcmp(codes_csr.data(), codes_ref.data(), codes_ref.size() * sizeof(std::uint16_t)) == 0);
    // the host rows coded in chunks of 7 rows (a partial last chunk) where they are uploaded
    auto const codes_chunked = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), kboost::bin_host_rows<std::uint16_t>(TEST_EXECSPACE(), d.dense, ref, ref.host_ptrs,
                                                                  7 * 24 * sizeof(float)));
    REQUIRE(codes_chunked.extent(0) == codes_ref.extent(0));
    CHECK(std::memcmp(codes_chunked.data(), codes_ref.data(), codes_ref.size() * sizeof(std::uint16_t)) == 0);
    // the empty column and row carry the missing code of each feature
    CHECK(codes_csr(7, 5) == ref.host_ptrs[6] - ref.host_ptrs[5]);
    CHECK(codes_csr(3, 0) == ref.host_ptrs[1] - ref.host_ptrs[0]);
  }
}

TEST_CASE("csr " TEST_BACKEND ": training on CSR input gives the model bytes of its dense copy", "[csr][train][bits]") {
  auto const s = make_csr(4000, 20, 0.4, 5);
  auto const d = dense_copy(s);
  for (char const* method : {"upstream_cpu", "exact_quantile"}) {
    INFO("sketch_method " << method);
    std::map<std::string, std::string> const kv{{"objective", "binary:logistic"}, {"num_round", "6"},
                                                {"max_depth", "5"}, {"max_bin", "64"},
                                                {"kboost_sketch_method", method}};
    kboost::BasicBooster<TEST_EXECSPACE> from_csr, from_dense;
    from_csr.train(kboost::parse_params(kv), s, {{"eval", s}});
    from_dense.train(kboost::parse_params(kv), d, {{"eval", d}});
    std::string const a = kboost::model_to_json_bytes(from_csr.model());
    REQUIRE(from_csr.model().trees.size() == 6);
    REQUIRE(from_csr.model().trees[0].num_nodes() > 7);
    CHECK(a == kboost::model_to_json_bytes(from_dense.model()));
    CHECK(from_csr.eval_history() == from_dense.eval_history());
  }
}

TEST_CASE("csr " TEST_BACKEND ": malformed CSR arrays are refused with the row and entry named", "[csr][errors]") {
  auto s = make_csr(50, 8, 0.5, 3);
  s.info.source = "mem.libsvm";
  REQUIRE(s.csr.graph.row_map(2) - s.csr.graph.row_map(1) >= 2);
  SECTION("a column out of range") {
    s.csr.graph.entries(s.csr.graph.row_map(1)) = 8;
    REQUIRE_THROWS_WITH(kboost::checked_csr(s),
                        Catch::Matchers::ContainsSubstring("mem.libsvm: row 1 entry 0: column 8 is outside [0, 8)"));
  }
  SECTION("columns not increasing") {
    auto const k = s.csr.graph.row_map(1);
    s.csr.graph.entries(k + 1) = s.csr.graph.entries(k);
    REQUIRE_THROWS_WITH(kboost::checked_csr(s), Catch::Matchers::ContainsSubstring("row 1 entry 1: column"));
    kboost::BasicBooster<TEST_EXECSPACE> b;
    REQUIRE_THROWS_WITH(b.train(kboost::parse_params({{"num_round", "1"}}), s),
                        Catch::Matchers::ContainsSubstring("is not above the previous column"));
  }
}
