// The summaries of upstream 3.4.1's GPU sketch (engine/detail/gpu_summary.hpp) on inputs small
// enough to follow by hand through upstream's kernels (src/common/quantile.cu): the budgets of
// LimitSizeLevel, PruneImpl's rank queries, ScanInput's folding of repeated values, MergeImpl's
// partitions and QueryCutValues. The bits of whole features against upstream's own cuts are
// tests/tst_upstream_gpu.hpp's.
#include <catch2/catch_test_macros.hpp>

#include <vector>

#include <kboost/engine/detail/gpu_summary.hpp>

namespace {

using kboost::gpu_sketch::Entry;
using kboost::gpu_sketch::Summary;

bool same(Summary const& got, Summary const& want) {
  if (got.size() != want.size()) return false;
  for (std::size_t k = 0; k < got.size(); ++k)
    if (got[k].rmin != want[k].rmin || got[k].rmax != want[k].rmax || got[k].wmin != want[k].wmin ||
        got[k].value != want[k].value)
      return false;
  return true;
}

}  // namespace

TEST_CASE("gpu summary: budgets as upstream's LimitSizeLevel with kFactor 2", "[sketch][upstream_gpu]") {
  // eps = 1/256, internal eps 1/512: limit = 512·nlevel + 1 for the first nlevel with 2^nlevel·limit >= rows
  CHECK(kboost::gpu_sketch::summary_budget(256, 7000) == 1537);        // nlevel 3
  CHECK(kboost::gpu_sketch::summary_budget(256, 1000000) == 4097);     // nlevel 8
  CHECK(kboost::gpu_sketch::batch_budget(256, 100) == 100);            // never more than the rows
  CHECK(kboost::gpu_sketch::summary_budget(64, 7000) == 513);          // eps 1/64: 128·4 + 1 (8·385 < 7000)
  CHECK(kboost::gpu_sketch::limit_size_level(0, 0.5) == 1);
}

TEST_CASE("gpu summary: PruneImpl keeps the first, the last and the rank queries' answers", "[sketch][upstream_gpu]") {
  // n = 10, to = 4: w = 9 - 1; idx 1: q = 8/3 + 1, 2q = 7.33 < rmin_next(3) + rmax_prev(4) = 8 -> 3;
  // idx 2: q = 16/3 + 1, 2q = 12.67 >= rmin_next(5) + rmax_prev(6) = 12 -> 6
  CHECK(kboost::gpu_sketch::prune_positions(10, 4) == std::vector<std::uint64_t>{0, 3, 6, 9});
  CHECK(kboost::gpu_sketch::prune_positions(3, 4) == std::vector<std::uint64_t>{0, 1, 2});
}

TEST_CASE("gpu summary: ScanInput folds a value's entries into its first, merge adds the other's ranks",
          "[sketch][upstream_gpu]") {
  std::vector<float> const values{1, 1, 1, 2, 2, 3};
  Summary const x = kboost::gpu_sketch::batch_summary(values.data(), nullptr, values.size(), 6);
  CHECK(same(x, {{0, 3, 3, 1}, {3, 5, 2, 2}, {5, 6, 1, 3}}));

  std::vector<float> const more{2, 4};
  Summary const y = kboost::gpu_sketch::batch_summary(more.data(), nullptr, more.size(), 2);
  CHECK(same(y, {{0, 1, 1, 2}, {1, 2, 1, 4}}));
  // 2 is in both: its entries add up; 3 takes y's entries below it (rmin_next of 2 = 1); 4 all of x
  CHECK(same(kboost::gpu_sketch::merge(x, y), {{0, 3, 3, 1}, {3, 6, 3, 2}, {6, 7, 1, 3}, {7, 8, 1, 4}}));
  CHECK(same(kboost::gpu_sketch::merge({}, y), y));
}

TEST_CASE("gpu summary: weighted entries take the running sums of the weights", "[sketch][upstream_gpu]") {
  std::vector<float> const values{1, 2, 2};
  std::vector<float> const scan{0.5f, 2.5f, 3.0f};  // weights 0.5, 2, 0.5
  CHECK(same(kboost::gpu_sketch::batch_summary(values.data(), scan.data(), 3, 3), {{0, 0.5f, 0.5f, 1}, {0.5f, 3.0f, 2.5f, 2}}));
}

TEST_CASE("gpu summary: QueryCutValues", "[sketch][upstream_gpu]") {
  // few entries: every value after the first, then the sentinel above the last
  Summary const s{{0, 1, 1, -1}, {1, 2, 1, 2}, {2, 3, 1, 3}};
  CHECK(kboost::gpu_sketch::query_cut_values(s, 256) == std::vector<float>{2, 3, 3 + (3 + 1e-5f)});
  CHECK(kboost::gpu_sketch::query_cut_values({}, 256) == std::vector<float>{1e-5f});
  // more entries than bins: rank queries at total·i/max_bin (total 4): 2·rank = 4 answers entry 1
  // (2·4 >= rmin + rmax of entry 1 = 3 moves the cursor; 4 < rmin_next(1) + rmax_prev(2) = 4 fails: entry 2)
  Summary const t{{0, 1, 1, 10}, {1, 2, 1, 20}, {2, 3, 1, 30}, {3, 4, 1, 40}};
  CHECK(kboost::gpu_sketch::query_cut_values(t, 2) == std::vector<float>{30, 40 + (40 + 1e-5f)});
}

TEST_CASE("gpu summary: a pruned summary keeps its ends and answers the rank queries", "[sketch][upstream_gpu]") {
  Summary s;
  for (int k = 0; k < 10; ++k) s.push_back(Entry{float(k), float(k + 1), 1, float(10 * k)});
  Summary const p = kboost::gpu_sketch::prune(s, 4);
  REQUIRE(p.size() == 4);
  CHECK(p[0].value == 0);
  CHECK(p[1].value == 30);
  CHECK(p[2].value == 60);
  CHECK(p[3].value == 90);
  CHECK(same(kboost::gpu_sketch::prune(s, 10), s));
}
