// Stage test of kernels/row_partitioner.hpp on 8 rows worked by hand: each split sends a segment's
// rows left or right by their bin code, missing codes to the default side, keeping the parent's row
// order inside each child (upstream src/tree/gpu_hist/row_partitioner.cuh UpdatePositionBatch), and
// leaves every position outside the split segments where it was.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <vector>

#include <kboost/core/upload_arena.hpp>
#include <kboost/kernels/row_partitioner.hpp>
#include "tests/stage_util.hpp"
#include "tests/test_util.hpp"

namespace {

kboost::PartitionSplit numerical(std::int32_t begin, std::int32_t end, std::int32_t feature, std::int32_t split_bin,
                                 std::int32_t default_left, std::int32_t missing_code) {
  kboost::PartitionSplit s;
  s.begin = begin;
  s.end = end;
  s.feature = feature;
  s.split_bin = split_bin;
  s.default_left = default_left;
  s.missing_code = missing_code;
  return s;
}

}  // namespace

TEST_CASE("row_partitioner " TEST_BACKEND ": rows to left and right in parent order, missing to the default side",
          "[row_partitioner][stage]") {
  using Space = TEST_EXECSPACE;
  using Mem = TEST_MEMSPACE;
  // codes of rows 0..7 (column-major, as the grower passes them); feature 0 has 4 bins (missing
  // code 4), feature 1 has 3 (missing code 3)
  std::vector<std::uint8_t> const codes = {3, 0, 4, 1, 2, 1, 4, 0,   // feature 0
                                           2, 0, 3, 2, 1, 3, 0, 1};  // feature 1
  std::vector<std::uint8_t> by_row(16);
  for (int r = 0; r < 8; ++r)
    for (int f = 0; f < 2; ++f) by_row[static_cast<std::size_t>(r * 2 + f)] = codes[static_cast<std::size_t>(f * 8 + r)];
  auto const bins = kboost::test::to_device<std::uint8_t, Kokkos::LayoutLeft>(by_row, 8, 2);
  kboost::RowPartitioner<Space, Mem> rp(8);
  kboost::UploadArena<Space, Mem> uploads;
  rp.reset(Space());

  // root: feature 0, codes <= 1 left, missing (rows 2, 6) right
  CHECK(rp.split(Space(), uploads, bins, {numerical(0, 8, 0, 1, 0, 4)}) == std::vector<std::int32_t>{4});
  CHECK(kboost::test::to_vector(rp.ridx()) == std::vector<std::int32_t>{1, 3, 5, 7, 0, 2, 4, 6});
  uploads.release();

  // both children at once, queued (the counts on the device and, after a wait, on the host). Left
  // {1, 3, 5, 7}: feature 1 categorical, category 2 right (word 0b100), missing (row 5) left. Right
  // {0, 2, 4, 6}: feature 1, codes <= 0 left, missing (row 2) left.
  auto cat = numerical(0, 4, 1, 0, 1, 3);
  cat.cat_begin = 0;
  cat.cat_words = 1;
  rp.split_queued(Space(), uploads, bins, {cat, numerical(4, 8, 1, 0, 1, 3)}, {0b100u});
  Space().fence();
  CHECK(std::vector<std::int32_t>{rp.left_count_on_host(0), rp.left_count_on_host(1)} == std::vector<std::int32_t>{3, 2});
  auto const device_counts = kboost::test::to_vector(rp.left_counts());
  CHECK(std::vector<std::int32_t>(device_counts.begin(), device_counts.begin() + 2) == std::vector<std::int32_t>{3, 2});
  CHECK(kboost::test::to_vector(rp.ridx()) == std::vector<std::int32_t>{1, 5, 7, 3, 2, 6, 0, 4});
  uploads.release();

  // one segment [0, 3) = rows {1, 5, 7} on feature 0, code 0 left: positions 3..7 stay
  CHECK(rp.split(Space(), uploads, bins, {numerical(0, 3, 0, 0, 0, 4)}) == std::vector<std::int32_t>{2});
  CHECK(kboost::test::to_vector(rp.ridx()) == std::vector<std::int32_t>{1, 7, 5, 3, 2, 6, 0, 4});
  uploads.release();

  // a category beyond the stored words (code 2 with no word for it here: cat_words 0) goes left
  auto none = numerical(4, 8, 1, 0, 0, 3);
  none.cat_begin = 0;
  none.cat_words = 0;
  CHECK(rp.split(Space(), uploads, bins, {none}, {0b100u}) == std::vector<std::int32_t>{3});
  CHECK(kboost::test::to_vector(rp.ridx()) == std::vector<std::int32_t>{1, 7, 5, 3, 6, 0, 4, 2});
  uploads.release();
}
