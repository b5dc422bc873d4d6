// Stage test of kernels/leaf_refit.hpp worked by hand: each leaf's quantile of the residuals
// label − margin over its rows with a non-zero hessian, interpolated between order statistics
// without weights, the first value whose weight prefix sum reaches alpha × total with weights
// (upstream src/objective/adaptive.cc UpdateTreeLeaf, src/common/stats.h Quantile / WeightedQuantile).
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include <kboost/kernels/leaf_refit.hpp>
#include "tests/stage_util.hpp"
#include "tests/test_util.hpp"

namespace {

/// Seven rows in three leaves:
///   row        0    1    2    3    4    5    6
///   label      3   10    1    7    7    2    0
///   margin     1    2  0.5    1    2   −1    0   (group 1; group 0 holds 100s)
///   residual   2    8  0.5    6    5    3    0
///   hessian    1    1    0    1    1    1    0   (rows 2 and 6 are left out)
///   weight     1    4    1    1    1    1    1
/// leaves: positions [0, 3) = rows 4, 1, 0; [3, 6) = rows 5, 2, 3; [6, 7) = row 6.
std::vector<float> refit(double alpha, bool weighted) {
  using Mem = TEST_MEMSPACE;
  auto const ridx = kboost::test::to_device(std::vector<std::int32_t>{4, 1, 0, 5, 2, 3, 6});
  auto const label = kboost::test::to_device(std::vector<float>{3, 10, 1, 7, 7, 2, 0});
  auto const margin = kboost::test::to_device(std::vector<float>{100, 1, 100, 2, 100, 0.5f, 100, 1, 100, 2, 100, -1, 100, 0}, 7, 2);
  std::vector<float> const w = {1, 4, 1, 1, 1, 1, 1};
  auto const weight = kboost::test::to_device(weighted ? w : std::vector<float>{});
  std::vector<kboost::GradientPair> g(14, kboost::GradientPair{0.5f, 1.0f});
  g[7 + 2] = g[7 + 6] = kboost::GradientPair{0.5f, 0.0f};  // group 1, rows 2 and 6
  auto const gpair = kboost::test::to_device(g, 2, 7);
  std::vector<kboost::LeafSegment> const leaves = {{0, 3, 0.0f, 3}, {3, 6, 0.0f, 4}, {6, 7, 0.0f, 5}};
  return kboost::leaf_residual_quantiles<TEST_EXECSPACE, Mem>(TEST_EXECSPACE(), ridx, leaves, label, margin, 1, weight,
                                                              gpair, alpha);
}

}  // namespace

TEST_CASE("leaf_refit " TEST_BACKEND ": residual quantiles of each leaf by hand", "[leaf_refit][stage]") {
  SECTION("median without weights: the middle value, or the mean of the two middle ones") {
    auto const q = refit(0.5, false);
    REQUIRE(q.size() == 3);
    CHECK(q[0] == 5.0f);  // {2, 5, 8}
    CHECK(q[1] == 4.5f);  // {3, 6}: row 2's 0.5 has no hessian
    CHECK(std::isnan(q[2]));  // no row with a hessian
  }
  SECTION("alpha 0.375 without weights: x = alpha (n + 1), between order statistics floor(x) and floor(x) + 1") {
    auto const q = refit(0.375, false);
    CHECK(q[0] == 3.5f);    // x = 1.5: 2 + 0.5 (5 − 2)
    CHECK(q[1] == 3.375f);  // x = 1.125: 3 + 0.125 (6 − 3)
  }
  SECTION("median with weights: the first value whose weight prefix reaches half the total") {
    auto const q = refit(0.5, true);
    CHECK(q[0] == 8.0f);  // weights 1, 1, 4 in value order: prefixes 1, 2, 6 reach 3 at the third
    CHECK(q[1] == 3.0f);  // weights 1, 1: prefix 1 reaches 1 at the first
    CHECK(std::isnan(q[2]));
  }
}
