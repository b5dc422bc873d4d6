// sketch_method = upstream_gpu (engine/detail/gpu_sketch.hpp): the radix selection on the
// execution space gives the host implementation's cuts bit for bit (features below and above the
// batch budget, few values, all missing, constant, repeated values, zeros, infinities; one sketch
// batch and several, whose ends fall inside rows); the
// batch layout (values before each batch per feature, rows each batch spans) equals a direct count
// with small batches; a value -0 (whose bits a cut takes by its row order) goes to the host
// implementation, which keeps zeros in row order as upstream's stable sort. Against upstream's own cuts: tests/tst_upstream_gpu.hpp.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <kboost/engine/detail/gpu_sketch.hpp>
#include "tests/test_util.hpp"

namespace {
using kboost::test::kNaN;


std::uint32_t hash32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

/// rows × 7: many distinct values, 7 levels, all missing, 30 % missing with repeats, constant,
/// zeros among other values, infinities.
Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> sketch_matrix(std::size_t rows) {
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> X("X", rows, 7);
  for (std::size_t i = 0; i < rows; ++i) {
    std::uint32_t const h = hash32(static_cast<std::uint32_t>(i));
    X(i, 0) = static_cast<float>(h % 100000) / 7.0f - 5000.0f;
    X(i, 1) = static_cast<float>(h % 7);
    X(i, 2) = kNaN;
    X(i, 3) = h % 10 < 3 ? kNaN : static_cast<float>((h >> 8) % 900) * 0.25f;
    X(i, 4) = 3.5f;
    X(i, 5) = h % 5 < 2 ? 0.0f : static_cast<float>(static_cast<int>(h % 41) - 20);
    X(i, 6) = h % 97 == 0 ? INFINITY : h % 89 == 0 ? -INFINITY : static_cast<float>(h % 3000);
  }
  return X;
}

void check_same_cuts(kboost::HistogramCuts<Kokkos::HostSpace> const& want, kboost::HistogramCuts<TEST_MEMSPACE> const& got) {
  auto ptrs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), got.ptrs);
  auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), got.values);
  auto mins = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), got.min_vals);
  REQUIRE(ptrs.extent(0) == want.ptrs.extent(0));
  for (std::size_t f = 0; f < ptrs.extent(0); ++f) CHECK(ptrs(f) == want.ptrs(f));
  REQUIRE(vals.extent(0) == want.values.extent(0));
  std::size_t differ = 0;
  for (std::size_t k = 0; k < vals.extent(0); ++k) differ += std::memcmp(&vals(k), &want.values(k), 4) != 0;
  CHECK(differ == 0);
  for (std::size_t f = 0; f < mins.extent(0); ++f) CHECK(mins(f) == -std::numeric_limits<float>::infinity());
}

}  // namespace

TEST_CASE("gpu sketch " TEST_BACKEND ": counted on the execution space, the host implementation's cuts",
          "[sketch][upstream_gpu]") {
  for (std::size_t rows : {std::size_t(300), std::size_t(5000)}) {
    auto const hX = sketch_matrix(rows);
    Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> X =
        Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hX);
    for (int max_bin : {256, 16, 2}) {
      INFO(rows << " rows, max_bin " << max_bin);
      auto const host = kboost::gpu_sketch_cuts_from_host<Kokkos::HostSpace>(
          Kokkos::DefaultHostExecutionSpace(), hX, Kokkos::View<const float*, Kokkos::HostSpace>(), max_bin);
      auto const counted = kboost::gpu_sketch_cuts_on_space<TEST_MEMSPACE>(TEST_EXECSPACE(), X, max_bin);
      REQUIRE(counted.has_value());
      check_same_cuts(host, *counted);
    }
  }
}

TEST_CASE("gpu sketch " TEST_BACKEND ": several batches counted on the execution space, the host implementation's cuts",
          "[sketch][upstream_gpu]") {
  // batches of a few thousand values: their ends fall inside rows, between missing values, and
  // the summaries of up to 29 batches are merged
  auto const hX = sketch_matrix(5000);
  Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> X = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hX);
  for (std::uint64_t batch_values : {std::uint64_t(1000), std::uint64_t(7777), std::uint64_t(28000)}) {
    for (int max_bin : {256, 16, 2}) {
      INFO("batches of " << batch_values << " values, max_bin " << max_bin);
      auto const host = kboost::gpu_sketch_cuts_from_host<Kokkos::HostSpace>(
          Kokkos::DefaultHostExecutionSpace(), hX, Kokkos::View<const float*, Kokkos::HostSpace>(), max_bin,
          kboost::local_collective(), {}, batch_values);
      auto const counted = kboost::gpu_sketch_cuts_on_space<TEST_MEMSPACE>(TEST_EXECSPACE(), X, max_bin, batch_values);
      REQUIRE(counted.has_value());
      check_same_cuts(host, *counted);
    }
  }
  // the batches change the cuts: the one-batch cuts differ from these somewhere
  auto const one = kboost::gpu_sketch_cuts_from_host<Kokkos::HostSpace>(
      Kokkos::DefaultHostExecutionSpace(), hX, Kokkos::View<const float*, Kokkos::HostSpace>(), 256);
  auto const many = kboost::gpu_sketch_cuts_from_host<Kokkos::HostSpace>(
      Kokkos::DefaultHostExecutionSpace(), hX, Kokkos::View<const float*, Kokkos::HostSpace>(), 256,
      kboost::local_collective(), {}, 1000);
  bool differ = one.values.extent(0) != many.values.extent(0);
  for (std::size_t k = 0; !differ && k < one.values.extent(0); ++k) differ = one.values(k) != many.values(k);
  CHECK(differ);
}

TEST_CASE("gpu sketch " TEST_BACKEND ": -0 and +0 keep their row order", "[sketch][upstream_gpu]") {
  // rows -1, a, b, 1 with {a, b} = {-0, +0}: the zeros are one summary entry, the first in row
  // order, and the first cut is its value
  for (bool negative_first : {false, true}) {
    Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> hX("X", 4, 1);
    hX(0, 0) = -1.0f;
    hX(1, 0) = negative_first ? -0.0f : 0.0f;
    hX(2, 0) = negative_first ? 0.0f : -0.0f;
    hX(3, 0) = 1.0f;
    auto const host = kboost::gpu_sketch_cuts_from_host<Kokkos::HostSpace>(
        Kokkos::DefaultHostExecutionSpace(), hX, Kokkos::View<const float*, Kokkos::HostSpace>(), 256);
    REQUIRE(host.values.extent(0) == 3);  // 0, 1, the sentinel
    CHECK(host.values(0) == 0.0f);
    CHECK(std::signbit(host.values(0)) == negative_first);
    Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> X =
        Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hX);
    CHECK_FALSE(kboost::gpu_sketch_cuts_on_space<TEST_MEMSPACE>(TEST_EXECSPACE(), X, 256).has_value());
  }
}

TEST_CASE("gpu sketch " TEST_BACKEND ": the batch layout equals a direct count", "[sketch][upstream_gpu]") {
  // 40 rows × 3, row i holding (i % 4) values: batches of 7 values split rows and features
  std::size_t const rows = 40, features = 3;
  auto row_values = [](std::size_t i, auto&& add) {
    for (std::size_t f = 0; f < features; ++f)
      if (f < i % 4) add(f, static_cast<float>(i));
  };
  kboost::detail::ValueLocator<decltype(row_values)> const where(rows, features, row_values);
  auto const layout = kboost::detail::sketch_batches(where, kboost::local_collective(), 7);
  // direct: the global value index of each (row, feature) and the batch it falls in
  std::vector<std::size_t> row_of;  // row of each value in row-major order
  std::vector<std::size_t> feature_of;
  for (std::size_t i = 0; i < rows; ++i)
    row_values(i, [&](std::size_t f, float) {
      row_of.push_back(i);
      feature_of.push_back(f);
    });
  std::size_t const batches = (row_of.size() + 6) / 7;
  REQUIRE(layout.batches == batches);
  for (std::size_t b = 0; b < batches; ++b) {
    std::size_t const lo = 7 * b, hi = std::min(row_of.size(), lo + 7) - 1;
    CHECK(layout.rows[b] == row_of[hi] - row_of[lo] + 1);
    for (std::size_t f = 0; f < features; ++f) {
      std::uint64_t before = 0;
      for (std::size_t k = 0; k < lo; ++k) before += feature_of[k] == f;
      CHECK(layout.split[f * (batches + 1) + b] == before);
    }
  }
  for (std::size_t f = 0; f < features; ++f) {
    std::uint64_t all = 0;
    for (std::size_t k = 0; k < feature_of.size(); ++k) all += feature_of[k] == f;
    CHECK(layout.split[f * (batches + 1) + batches] == all);
  }
}
