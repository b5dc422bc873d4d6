// Stage test of kernels/evaluate_splits.hpp on a histogram small enough to work by hand: the
// quantiser is the identity (to_floating = 1), so the histogram's integers are the gradient and
// hessian sums, lambda = 1, and every gain is G²/(H + 1) per child in float, less the parent's
// G²/(H + 1) in double (upstream src/tree/gpu_hist/evaluate_splits.cu, src/tree/param.h CalcGain).
#include <catch2/catch_test_macros.hpp>

#include <cfloat>
#include <cstring>
#include <cstdint>
#include <vector>

#include <kboost/kernels/evaluate_splits.hpp>
#include "tests/stage_util.hpp"
#include "tests/test_util.hpp"

namespace {

using kboost::GradientPairInt64;
using kboost::SplitCandidate;

/// What evaluate_splits wrote: the best split of each node and, for a categorical evaluation,
/// each node's first category word (bit c: category c goes right).
struct Evaluated {
  std::vector<SplitCandidate> splits;
  std::vector<std::uint32_t> words;
  std::vector<GradientPairInt64> hist;  ///< the histogram after the evaluation, slot by slot
};

/// Cuts and one histogram slot of a tiny matrix.
struct TinyHistogram {
  std::vector<std::uint32_t> ptrs;
  std::vector<float> values, min_vals;
  std::vector<GradientPairInt64> bins;

  /// evaluate_splits of `nodes` (all of slot 0) with `mask` (nodes × features); `categorical`:
  /// one flag per feature (empty: all numerical; at most one categorical feature here); `slots`:
  /// the histogram, slot by slot, when it is not the one slot `bins`.
  Evaluated evaluate(kboost::SplitParams const& p, std::vector<kboost::EvalNode> const& nodes,
                     std::vector<std::uint8_t> const& mask, std::vector<std::uint8_t> const& categorical = {},
                     std::vector<GradientPairInt64> const& slots = {}) const {
    using Mem = TEST_MEMSPACE;
    std::size_t const n_features = ptrs.size() - 1;
    std::vector<GradientPairInt64> const& all = slots.empty() ? bins : slots;
    auto const hist = kboost::test::to_device(all, all.size() / bins.size(), bins.size());
    kboost::CategoricalEval<Mem> cats;
    if (!categorical.empty()) {
      cats.categorical = kboost::test::to_device(categorical);
      cats.base = kboost::test::to_device(std::vector<std::uint32_t>(n_features, 0));
      cats.order = Kokkos::View<std::int32_t**, Kokkos::LayoutRight, Mem>("order", nodes.size(), bins.size());
      cats.weight = Kokkos::View<float**, Kokkos::LayoutRight, Mem>("weight", nodes.size(), bins.size());
      cats.words = Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, Mem>("words", nodes.size(), 1);
    }
    Kokkos::View<SplitCandidate**, Kokkos::LayoutRight, Mem> scratch("scratch", nodes.size(), n_features);
    Kokkos::View<SplitCandidate*, Mem> out("out", nodes.size());
    kboost::evaluate_splits<TEST_EXECSPACE, Mem>(
        TEST_EXECSPACE(), p, kboost::GradientQuantiser{}, hist,
        kboost::test::to_device(ptrs), kboost::test::to_device(values), kboost::test::to_device(min_vals),
        kboost::test::to_device(nodes), kboost::test::to_device(mask, nodes.size(), n_features),
        Kokkos::View<const std::int8_t*, Mem>(), scratch, out, static_cast<int>(nodes.size()), cats);
    Evaluated e{kboost::test::to_vector(out), {}, {}};
    auto const h_hist = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hist);
    for (std::size_t slot = 0; slot < h_hist.extent(0); ++slot)
      for (std::size_t b = 0; b < h_hist.extent(1); ++b) e.hist.push_back(h_hist(slot, b));
    if (!categorical.empty()) {
      auto const w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cats.words);
      for (std::size_t k = 0; k < nodes.size(); ++k) e.words.push_back(w(k, 0));
    }
    return e;
  }
};

/// Node of slot 0 with sums (G, H) = (−2, 8): its own gain is 4/9, subtracted from every split's.
kboost::EvalNode node_of_slot0() {
  kboost::EvalNode n;
  n.sum = GradientPairInt64{-2, 8};
  return n;
}

float const kParentGain = static_cast<float>(4.0 / 9.0);

}  // namespace

TEST_CASE("evaluate_splits " TEST_BACKEND ": best numerical split, its bin, value and missing side by hand",
          "[evaluate_splits][stage]") {
  // feature 0: bins (−4, 2) (1, 2) (3, 2), missing = node − bins = (−2, 2); feature 1: bins (−3, 3)
  // (0, 3), missing (1, 2). Candidates (left = bins before b, missing on the better side, right on ties):
  //   f0 b=0: {missing} | rest: 4/3 + 0;          b=1: {b0, missing} | rest: 36/5 + 16/5 (best);
  //   f0 b=2: {b0, b1, missing} | rest: 25/7 + 9/3 (missing right: 9/5 + 1/5);
  //   f1 b=0: {missing} | rest: 1/3 + 9/7;        b=1: {b0} | {b1, missing}: 9/4 + 1/6 (missing left: 4/6 + 0).
  TinyHistogram const h{{0, 3, 5}, {1.0f, 2.0f, 3.0f, 10.0f, 20.0f}, {0.5f, 5.0f},
                        {{-4, 2}, {1, 2}, {3, 2}, {-3, 3}, {0, 3}}};
  kboost::SplitParams const p;
  // node 0 may split on both features, node 1 only on feature 1
  auto const s = h.evaluate(p, {node_of_slot0(), node_of_slot0()}, {1, 1, 0, 1}).splits;
  REQUIRE(s.size() == 2);
  CHECK(s[0].feature == 0);
  CHECK(s[0].kind == kboost::kNumericalSplit);
  CHECK(s[0].split_bin == 0);   // global bin 0 is the last one to go left
  CHECK(s[0].fvalue == 1.0f);   // left iff x < values[0]
  CHECK(s[0].default_left == 1);
  CHECK(s[0].loss_chg == 36.0f / 5.0f + 16.0f / 5.0f - kParentGain);
  CHECK(s[0].left_sum == GradientPairInt64{-6, 4});
  CHECK(s[0].right_sum == GradientPairInt64{4, 4});
  CHECK(kboost::split_is_valid(s[0], p));

  CHECK(s[1].feature == 1);
  CHECK(s[1].split_bin == 3);    // feature 1's first bin, global index 3
  CHECK(s[1].fvalue == 10.0f);
  CHECK(s[1].default_left == 0);
  CHECK(s[1].loss_chg == 9.0f / 4.0f + 1.0f / 6.0f - kParentGain);
  CHECK(s[1].left_sum == GradientPairInt64{-3, 3});
  CHECK(s[1].right_sum == GradientPairInt64{1, 5});

  kboost::SplitParams high_gamma;
  high_gamma.gamma = 11.0f;  // above node 0's loss change (10.4 − 4/9)
  CHECK_FALSE(kboost::split_is_valid(s[0], high_gamma));
}

TEST_CASE("evaluate_splits " TEST_BACKEND ": no split when every side is below min_child_weight",
          "[evaluate_splits][stage]") {
  // bins (1, 1) (2, 2), no missing: the only cut leaves hessian 1 on the left, below 2
  TinyHistogram const h{{0, 2}, {1.0f, 2.0f}, {0.0f}, {{1, 1}, {2, 2}}};
  kboost::SplitParams p;
  p.min_child_weight = 2.0f;
  kboost::EvalNode n;
  n.sum = GradientPairInt64{3, 3};
  auto const s = h.evaluate(p, {n}, {1}).splits;
  CHECK(s[0].feature == -1);
  CHECK(s[0].loss_chg == -FLT_MAX);
  CHECK_FALSE(kboost::split_is_valid(s[0], p));
}

TEST_CASE("evaluate_splits " TEST_BACKEND ": categorical splits, one-hot and partition, by hand",
          "[evaluate_splits][stage]") {
  // One categorical feature, categories 0, 1, 2 with sums (−4, 2) (1, 2) (3, 2), missing (−2, 2).
  TinyHistogram const h{{0, 3}, {0.0f, 1.0f, 2.0f}, {0.0f}, {{-4, 2}, {1, 2}, {3, 2}}};
  SECTION("3 categories < max_cat_to_onehot 4: one category right, missing on either side") {
    // category 0 right: missing left 4/7 + 16/3, missing right with it 16/5 + 36/5 (best);
    // category 1: 9/7 + 1/3 and 1/5 + 1/5; category 2: 25/7 + 9/3 and 9/5 + 1/5
    auto const e = h.evaluate(kboost::SplitParams{}, {node_of_slot0()}, {1}, {1});
    auto const& s = e.splits;
    CHECK(s[0].kind == kboost::kOneHotSplit);
    CHECK(s[0].split_bin == 0);
    CHECK(s[0].default_left == 0);
    CHECK(s[0].cat_count == 1);
    CHECK(s[0].loss_chg == 16.0f / 5.0f + 36.0f / 5.0f - kParentGain);
    CHECK(s[0].left_sum == GradientPairInt64{4, 4});
    CHECK(s[0].right_sum == GradientPairInt64{-6, 4});
    CHECK(e.words == std::vector<std::uint32_t>{0b001u});
  }
  SECTION("max_cat_to_onehot 1: a prefix of the categories sorted by weight goes right") {
    // weights −G/(H + 1): 4/3, −1/3, −1 -> order 2, 1, 0. Forward (missing left): {2} right
    // 25/7 + 9/3, {2, 1} right 36/5 + 16/5 (best); backward (missing right): {0} left 16/3 + 4/7,
    // {0, 1} left 9/5 + 1/5.
    kboost::SplitParams p;
    p.max_cat_to_onehot = 1;
    auto const e = h.evaluate(p, {node_of_slot0()}, {1}, {1});
    auto const& s = e.splits;
    CHECK(s[0].kind == kboost::kPartitionSplit);
    CHECK(s[0].default_left == 1);
    CHECK(s[0].cat_count == 2);
    CHECK(s[0].loss_chg == 36.0f / 5.0f + 16.0f / 5.0f - kParentGain);
    CHECK(s[0].left_sum == GradientPairInt64{-6, 4});
    CHECK(s[0].right_sum == GradientPairInt64{4, 4});
    CHECK(e.words == std::vector<std::uint32_t>{0b110u});
  }
}

TEST_CASE("evaluate_splits " TEST_BACKEND ": a sibling made by subtraction while searching gives the made histogram's splits",
          "[evaluate_splits][stage]") {
  // slot 0: the parent (the first test's bins, sum (−2, 8)); slot 1: the child built from its rows
  // (sum (−1, 4)); slot 2: the sibling, parent − built = (−3, 1) (0, 1) (3, 2) (−1, 2) (0, 2)
  // with sum (−1, 4), left unwritten (garbage) when the evaluator makes it.
  TinyHistogram const h{{0, 3, 5}, {1.0f, 2.0f, 3.0f, 10.0f, 20.0f}, {0.5f, 5.0f},
                        {{-4, 2}, {1, 2}, {3, 2}, {-3, 3}, {0, 3}}};
  std::vector<GradientPairInt64> const parent = h.bins;
  std::vector<GradientPairInt64> const built{{-1, 1}, {1, 1}, {0, 0}, {-2, 1}, {0, 1}};
  std::vector<GradientPairInt64> const sibling{{-3, 1}, {0, 1}, {3, 2}, {-1, 2}, {0, 2}};
  std::vector<GradientPairInt64> const garbage(5, GradientPairInt64{99, 99});
  auto const slots = [&](std::vector<GradientPairInt64> const& third) {
    std::vector<GradientPairInt64> v = parent;
    v.insert(v.end(), built.begin(), built.end());
    v.insert(v.end(), third.begin(), third.end());
    return v;
  };
  kboost::EvalNode b, s;
  b.slot = 1;
  b.sum = GradientPairInt64{-1, 4};
  s.slot = 2;
  s.sum = GradientPairInt64{-1, 4};
  kboost::EvalNode made = s;
  made.parent_slot = 0;
  made.built_slot = 1;
  // the sibling may not split on feature 0: its bins are made all the same (its children need them)
  std::vector<std::uint8_t> const mask{1, 1, 0, 1};
  auto const direct = h.evaluate(kboost::SplitParams{}, {b, s}, mask, {}, slots(sibling));
  REQUIRE(direct.splits[0].feature >= 0);
  REQUIRE(direct.splits[1].feature == 1);
  for (bool sibling_first : {false, true}) {
    CAPTURE(sibling_first);
    auto const e = sibling_first
                       ? h.evaluate(kboost::SplitParams{}, {made, b}, {0, 1, 1, 1}, {}, slots(garbage))
                       : h.evaluate(kboost::SplitParams{}, {b, made}, mask, {}, slots(garbage));
    CHECK(e.hist == slots(sibling));
    std::size_t const at_b = sibling_first ? 1 : 0, at_s = 1 - at_b;
    CHECK(std::memcmp(&e.splits[at_b], &direct.splits[0], sizeof(SplitCandidate)) == 0);
    CHECK(std::memcmp(&e.splits[at_s], &direct.splits[1], sizeof(SplitCandidate)) == 0);
  }
}
