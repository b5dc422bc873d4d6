// Stage test of kernels/leaves.hpp worked by hand: a finished tree's leaf values added to the
// margins of the rows in each leaf segment (upstream src/tree/updater_gpu_hist.cu
// UpdatePredictionCache), and a tree walked on raw values for other matrices: left iff x < cond,
// missing to the default side, categorical nodes right iff the category is in the node's set
// (upstream src/predictor/predict_fn.h GetNextNode, src/common/categorical.h Decision).
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include <kboost/core/model.hpp>
#include <kboost/kernels/leaves.hpp>
#include "tests/stage_util.hpp"
#include "tests/test_util.hpp"

namespace {

/// Margins (rows × 2 groups) on the host, row by row.
std::vector<float> host_margins(Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE> const& m) {
  auto const h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
  std::vector<float> out;
  for (std::size_t r = 0; r < h.extent(0); ++r)
    for (std::size_t g = 0; g < h.extent(1); ++g) out.push_back(h(r, g));
  return out;
}

}  // namespace

TEST_CASE("leaves " TEST_BACKEND ": each leaf segment's value is added to its rows' margins of one group",
          "[leaves][stage]") {
  // positions 0..1 (rows 2, 0) in a leaf of 0.5, positions 2..4 (rows 3, 1, 4) in a leaf of −1.25
  auto const ridx = kboost::test::to_device(std::vector<std::int32_t>{2, 0, 3, 1, 4});
  auto margin = kboost::test::to_device(std::vector<float>{1, 10, 2, 20, 3, 30, 4, 40, 5, 50}, 5, 2);
  std::vector<kboost::LeafSegment> const leaves = {{0, 2, 0.5f, 3}, {2, 5, -1.25f, 4}};
  kboost::UploadArena<TEST_EXECSPACE, TEST_MEMSPACE> uploads;
  kboost::add_leaf_values<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), uploads, ridx, leaves, margin, 1);
  TEST_EXECSPACE().fence();
  uploads.release();
  CHECK(host_margins(margin) == std::vector<float>{1, 10.5f, 2, 18.75f, 3, 30.5f, 4, 38.75f, 5, 48.75f});
}

TEST_CASE("leaves " TEST_BACKEND ": a tree walked on raw values, missing to the default side, category sets",
          "[leaves][stage]") {
  // node 0: feature 1 < 2 (missing right) -> leaf 1 (0.25) | node 2; node 2: feature 0 categorical,
  // categories {1, 3} right (missing left) -> leaf 3 (−0.5) | leaf 4 (1.5)
  kboost::TreeModel t;
  t.left_children = {1, -1, 3, -1, -1};
  t.right_children = {2, -1, 4, -1, -1};
  t.parents = {-1, 0, 0, 2, 2};
  t.split_indices = {1, 0, 0, 0, 0};
  t.split_conditions = {2.0f, 0.25f, 0.0f, -0.5f, 1.5f};
  t.default_left = {0, 0, 1, 0, 0};
  t.split_type = {0, 0, 1, 0, 0};
  t.categories_nodes = {2};
  t.categories_segments = {0};
  t.categories_sizes = {2};
  t.categories = {1, 3};
  float const nan = std::nanf("");
  // rows: (0, 1) leaf 1; (0, 2) 2 is not < 2, category 0 left: leaf 3; (3, NaN) missing right,
  // category 3 right: leaf 4; (NaN, 5) missing category left: leaf 3; (1, 3) leaf 4; (40, 3) beyond
  // the stored word: left, leaf 3; (−1, 3) not a category: left, leaf 3
  auto const X = kboost::test::to_device(std::vector<float>{0, 1, 0, 2, 3, nan, nan, 5, 1, 3, 40, 3, -1, 3}, 7, 2);
  Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE> margin("margin", 7, 2);
  Kokkos::deep_copy(margin, 1.0f);
  auto const d = kboost::upload_tree<TEST_MEMSPACE>(t);
  kboost::add_tree_margins<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), X, d, margin, 0);
  // DART's weight_drop: the leaf times the weight
  kboost::add_tree_margins<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), X, d, margin, 1, 2.0f);
  CHECK(host_margins(margin) == std::vector<float>{1.25f, 1.5f, 0.5f, 0.0f, 2.5f, 4.0f, 0.5f, 0.0f,
                                                   2.5f, 4.0f, 0.5f, 0.0f, 0.5f, 0.0f});
}
