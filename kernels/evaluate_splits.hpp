#pragma once
/// \file evaluate_splits.hpp
/// Best split per node from its integer histogram, as upstream's GPU evaluator
/// (src/tree/gpu_hist/evaluate_splits.cu EvaluateSplitAgent::Numerical, LossChangeMissing;
/// src/tree/split_evaluator.h; src/tree/param.h CalcWeight/CalcGain; expand_entry.cuh IsValid).
/// Gains use IEEE division (no __fdividef) so every backend gives the same bits.
#include <Kokkos_Core.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include <kboost/core/compat.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/kernels/hist_subtraction.hpp>
#include <kboost/kernels/quantiser.hpp>
#include <kboost/kernels/split_params.hpp>
#include <kboost/kernels/split_gain.hpp>
#include <kboost/kernels/detail/host_split_search.hpp>

namespace kboost {

/// What evaluate_splits needs for categorical features (all empty when no feature is).
template <class Mem>
struct CategoricalEval {
  Kokkos::View<const std::uint8_t*, Mem> categorical;             ///< features: 1 = categorical
  /// features: where feature f's categories start in a row of order/weight (categorical f only)
  Kokkos::View<const std::uint32_t*, Mem> base;
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, Mem> order;   ///< n_nodes × categories of all categorical features
  Kokkos::View<float**, Kokkos::LayoutRight, Mem> weight;         ///< n_nodes × the same: category weights
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, Mem> words;  ///< n_nodes × words: right-going categories
};

namespace detail {
/// Best categorical split of one node on categorical feature f, whose bins [b0, b1) hold the
/// categories 0 … n−1, as upstream (src/tree/hist/evaluate_splits.h; 3.4.1's GPU evaluator,
/// src/tree/gpu_hist/evaluate_splits.cu, for the one-hot ties):
/// - n < max_cat_to_onehot: one-hot. Category c alone goes right, every other one left; missing
///   rows go left only when that gains strictly more than right (GPU OneHot's LossChangeMissing),
///   and the first strictly larger gain over the categories wins.
/// - otherwise EnumeratePart: the categories sorted by CalcWeightCat (the unclamped leaf weight;
///   stable: ties keep category order), then a forward scan growing the right set from the lowest
///   weight (missing left) and a backward scan growing the left set from the highest (missing
///   right), each at most min(max_cat_threshold, n) − 1 steps; either way the right-going set is a
///   prefix of the sorted order, recorded as cat_count.
/// The sort ranks each category by counting (ties by index), so every team size gives the same
/// order; the scans run on team rank 0. order/weight: the node's row of the evaluator's scratch,
/// feature f's part from s0. Every team member calls this; the result is meaningful on rank 0.
template <class Member, class HistRow, class OrderRow, class WeightRow, class GainOf>
KOKKOS_INLINE_FUNCTION SplitCandidate categorical_split(Member const& m, SplitParams const& p, GradientQuantiser const& q,
                                                        HistRow const& hist, EvalNode const& node, int f,
                                                        std::uint32_t b0, std::uint32_t b1, std::uint32_t s0,
                                                        GradientPairInt64 const& missing, OrderRow const& order,
                                                        WeightRow const& weight, GainOf const& gain_of) {
  std::int32_t const n = static_cast<std::int32_t>(b1 - b0);
  SplitCandidate best;
  auto const consider = [&](GradientPairInt64 const& left, int default_left, SplitKind kind, std::int32_t bin,
                            std::int32_t count) {
    float const gain = gain_of(left, node.sum - left);
    if (gain > best.loss_chg) {
      best.loss_chg = gain;
      best.feature = f;
      best.split_bin = bin;
      best.fvalue = 0.0f;
      best.default_left = default_left;
      best.kind = kind;
      best.cat_count = count;
      best.left_sum = left;
      best.right_sum = node.sum - left;
    }
  };
  if (n < p.max_cat_to_onehot) {
    if (m.team_rank() == 0) {
      for (std::int32_t c = 0; c < n; ++c) {
        GradientPairInt64 const cat = hist(b0 + c);
        consider(node.sum - (cat + missing), 0, kOneHotSplit, static_cast<std::int32_t>(b0) + c, 1);
        consider(node.sum - cat, 1, kOneHotSplit, static_cast<std::int32_t>(b0) + c, 1);
      }
    }
    return best;
  }
  int const nt = m.team_size(), t = m.team_rank();
  for (std::int32_t c = t; c < n; c += nt) {
    GradientPairInt64 const h = hist(b0 + c);
    weight(s0 + c) = calc_weight(p, detail::to_double_grad(q, h.grad), detail::to_double_hess(q, h.hess));
  }
  m.team_barrier();
  for (std::int32_t c = t; c < n; c += nt) {
    float const w = weight(s0 + c);
    std::int32_t rank = 0;
    for (std::int32_t o = 0; o < n; ++o) {
      float const wo = weight(s0 + o);
      rank += (wo < w || (wo == w && o < c)) ? 1 : 0;
    }
    order(s0 + rank) = c;
  }
  m.team_barrier();
  if (t == 0) {
    std::int32_t const steps = (p.max_cat_threshold < n ? p.max_cat_threshold : n) - 1;
    GradientPairInt64 right{};
    for (std::int32_t i = 0; i < steps; ++i) {
      right = right + hist(b0 + order(s0 + i));
      consider(node.sum - right, 1, kPartitionSplit, -1, i + 1);
    }
    GradientPairInt64 left{};
    for (std::int32_t i = n - 1; i > n - 1 - steps; --i) {
      left = left + hist(b0 + order(s0 + i));
      consider(left, 0, kPartitionSplit, -1, i);
    }
  }
  return best;
}

/// Right-going category words of a categorical candidate `s` of feature f (bins from b0, sorted
/// categories from s0 in `order`) into `words` (one node's row; bit c of word c/32: category c goes
/// right), as upstream's cat_bits.
template <class OrderRow, class WordsRow>
KOKKOS_INLINE_FUNCTION void write_category_words(SplitCandidate const& s, std::uint32_t b0, std::uint32_t s0,
                                                 OrderRow const& order, WordsRow const& words) {
  for (std::size_t w = 0; w < words.extent(0); ++w) words(w) = 0u;
  auto const set = [&](std::int32_t c) { words(c >> 5) |= 1u << (c & 31); };
  if (s.kind == kOneHotSplit) set(s.split_bin - static_cast<std::int32_t>(b0));
  if (s.kind == kPartitionSplit)
    for (std::int32_t i = 0; i < s.cat_count; ++i) set(order(s0 + i));
}

/// The bins [lo, hi) of a feature's bins [b0, b1) that team member t of nt scans: a contiguous run of
/// ceil((b1 − b0) / nt) bins (shorter or empty at the end), so the runs follow member order.
struct BinRun {
  std::uint32_t lo, hi;
};
KOKKOS_INLINE_FUNCTION BinRun team_bin_run(std::uint32_t b0, std::uint32_t b1, int nt, int t) {
  std::uint32_t const per = (b1 - b0 + nt - 1) / nt;
  std::uint32_t const lo = b0 + per * t < b1 ? b0 + per * t : b1;
  std::uint32_t const hi = lo + per < b1 ? lo + per : b1;
  return BinRun{lo, hi};
}

/// Sum of hist(slot, b) over the bins of `run`, in bin order.
template <class Hist>
KOKKOS_INLINE_FUNCTION GradientPairInt64 run_sum(Hist const& hist, std::int32_t slot, BinRun const& run) {
  GradientPairInt64 local{};
  for (std::uint32_t b = run.lo; b < run.hi; ++b) local = local + hist(slot, b);
  return local;
}

/// A member's exclusive prefix of the team's sums (`before`: the members before it) and the total.
struct TeamScan {
  GradientPairInt64 before{}, total{};
};

/// Exclusive scan over the team of each member's `local` sum, in member order (int64: exact).
/// `part`: team scratch of one pair per member. Every member calls this (it holds a barrier).
template <class Member>
KOKKOS_INLINE_FUNCTION TeamScan team_exclusive_scan(Member const& m, GradientPairInt64* part, GradientPairInt64 const& local) {
  int const nt = m.team_size(), t = m.team_rank();
  part[t] = local;
  m.team_barrier();
  TeamScan s;
  for (int u = 0; u < nt; ++u) {
    if (u == t) s.before = s.total;
    s.total = s.total + part[u];
  }
  return s;
}


/// Best numerical split of node `node` on feature f (bins from b0) among the candidates b of `run`:
/// b sends bins < b left (`scan`: the sum of bins [b0, run.lo)), missing rows to the side with the
/// larger gain_of(left, right) (right on ties); the lowest bin wins ties. fvalue: the cut below b
/// (min_vals(f) for the first bin).
template <class Hist, class Values, class GainOf>
KOKKOS_INLINE_FUNCTION SplitCandidate best_numerical_split(Hist const& hist, EvalNode const& node, int f, std::uint32_t b0,
                                                           BinRun const& run, GradientPairInt64 scan,
                                                           GradientPairInt64 const& missing, Values const& values,
                                                           Values const& min_vals, GainOf const& gain_of) {
  SplitCandidate best;
  for (std::uint32_t b = run.lo; b < run.hi; ++b) {
    GradientPairInt64 const left_m = scan + missing;
    float const g_ml = gain_of(left_m, node.sum - left_m);
    keep_if_better(best, node, f, b0, b, scan, missing, g_ml, gain_of(scan, node.sum - scan), values, min_vals);
    scan = scan + hist(node.slot, b);
  }
  return best;
}


/// The best of cand[0 .. n): a strict '>' in order, so the lowest index wins ties.
KOKKOS_INLINE_FUNCTION SplitCandidate first_best(SplitCandidate const* cand, int n) {
  SplitCandidate r = cand[0];
  for (int u = 1; u < n; ++u)
    if (cand[u].loss_chg > r.loss_chg) r = cand[u];
  return r;
}

/// evaluate_splits' arguments (see there), handed to its stages.
template <class Mem>
struct SplitEvalArgs {
  Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, Mem> hist;
  Kokkos::View<const std::uint32_t*, Mem> ptrs;
  Kokkos::View<const float*, Mem> values, min_vals;
  Kokkos::View<const EvalNode*, Mem> nodes;
  Kokkos::View<const std::uint8_t**, Kokkos::LayoutRight, Mem> feature_mask;
  Kokkos::View<const std::int8_t*, Mem> monotone;
  Kokkos::View<SplitCandidate**, Kokkos::LayoutRight, Mem> scratch;
  Kokkos::View<SplitCandidate*, Mem> out;
  int n_nodes;
  CategoricalEval<Mem> cats;
  int n_features() const { return static_cast<int>(ptrs.extent(0)) - 1; }
  bool constrained() const { return monotone.extent(0) != 0; }
};

/// Node k's histogram over the bins [b0, b1) of one feature, made by the team as parent − built
/// when node k is made by subtraction (EvalNode::parent_slot ≥ 0; exact, integer). Every member
/// calls this (it holds a barrier when it subtracts).
template <class Member, class Hist>
KOKKOS_INLINE_FUNCTION void make_feature_bins(Member const& m, Hist const& hist, EvalNode const& node, std::uint32_t b0,
                                              std::uint32_t b1) {
  if (node.parent_slot < 0) return;
  HistSubtraction const made{node.parent_slot, node.built_slot, node.slot};
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, b0, b1), [&](std::uint32_t b) { subtract_bin(hist, made, b); });
  m.team_barrier();
}

/// The (node, feature) of team i of n_nodes × n_features. Host backends with an even number of
/// nodes take the nodes two by two, feature by feature (i → node 2(i / 2F) + i mod 2, feature
/// (i / 2) mod F): a child and its sibling made by subtraction from it are searched one after the
/// other, while the feature's bins of the first are still in the core's cache.
struct NodeFeature {
  int k, f;
};
KOKKOS_INLINE_FUNCTION NodeFeature node_feature_of(int i, int n_nodes, int n_features, bool pairs) {
  if (!pairs || n_nodes % 2 != 0) return NodeFeature{i / n_features, i % n_features};
  return NodeFeature{2 * (i / (2 * n_features)) + i % 2, (i / 2) % n_features};
}

/// Stage 1 of evaluate_splits: a.scratch(k, f) = the best split of node k on feature f (a default
/// candidate where a.feature_mask(k, f) = 0), node k's histogram made first where it is made by
/// subtraction (all of its features, masked or not: its children may be made from it).
template <class ExecutionSpace, class Mem>
void evaluate_feature_splits(ExecutionSpace const& space, SplitParams const& p, GradientQuantiser const& q,
                             SplitEvalArgs<Mem> const& a) {
  int const n_features = a.n_features();
  bool const constrained = a.constrained();
  // One team per (node, feature); each thread takes a contiguous run of the feature's bins. The
  // team's exclusive scan is over int64 sums (exact), each bin's gain depends only on its own
  // prefix, and the best is picked in bin order with a strict '>' (the lowest bin wins ties), so the
  // answer is the same for every team size: 32 threads on GPUs, 1 on host backends.
  using policy_t = Kokkos::TeamPolicy<ExecutionSpace>;
  using member_t = typename policy_t::member_type;
  // Host backends search a numerical feature with one thread (detail/host_split_search.hpp: the
  // same answer, fewer gains, FMA and AVX instructions where the core has them).
  constexpr bool kHost = Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible;
  int const team = kHost ? 1 : 32;
  [[maybe_unused]] bool const fma = kHost && compat::host_has_avx2_fma();  // (unused in device passes)
  bool const pairs = kHost;  // node_feature_of's order: siblings one after the other on host cores
  std::size_t const shmem = static_cast<std::size_t>(team) * (sizeof(GradientPairInt64) + sizeof(SplitCandidate));
  Kokkos::parallel_for(
      "kboost::splits::per_feature",
      policy_t(space, a.n_nodes * n_features, team).set_scratch_size(0, Kokkos::PerTeam(shmem)),
      KOKKOS_LAMBDA(member_t const& m) {
        NodeFeature const nf = node_feature_of(m.league_rank(), a.n_nodes, n_features, pairs);
        int const k = nf.k, f = nf.f;
        int const nt = m.team_size(), t = m.team_rank();
        auto* part = static_cast<GradientPairInt64*>(m.team_scratch(0).get_shmem(nt * sizeof(GradientPairInt64)));
        auto* cand = static_cast<SplitCandidate*>(m.team_scratch(0).get_shmem(nt * sizeof(SplitCandidate)));
        EvalNode const node = a.nodes(k);
        std::uint32_t const b0 = a.ptrs(f), b1 = a.ptrs(f + 1);
        make_feature_bins(m, a.hist, node, b0, b1);
        if (!a.feature_mask(k, f)) {  // the whole team leaves together: no barrier is skipped by part of it
          if (t == 0) a.scratch(k, f) = SplitCandidate{};
          return;
        }
        int const c = constrained ? static_cast<int>(a.monotone(f)) : 0;
        auto const gain_of = [&](GradientPairInt64 const& l, GradientPairInt64 const& r) {
          return constrained ? constrained_split_gain(p, q, l, r, node.lower, node.upper, c) : split_gain(p, q, l, r);
        };
        bool const categorical = a.cats.categorical.extent(0) != 0 && a.cats.categorical(f) != 0;
        // (a run-time test of a constant: nvcc's extended lambdas may not capture inside if constexpr)
        if (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible && !categorical) {  // a team of one
#ifdef KBOOST_HOST_PASS
          a.scratch(k, f) = host_feature_split(fma, p, q, a.hist, node, f, b0, b1, a.values, a.min_vals,
                                               constrained ? &gain_of : nullptr);
#endif
          return;
        }
        BinRun const run = team_bin_run(b0, b1, nt, t);
        TeamScan const scan = team_exclusive_scan(m, part, run_sum(a.hist, node.slot, run));
        GradientPairInt64 const missing = node.sum - scan.total;
        if (categorical) {  // uniform over the team
          SplitCandidate const best = categorical_split(
              m, p, q, Kokkos::subview(a.hist, node.slot, Kokkos::ALL), node, f, b0, b1, a.cats.base(f), missing,
              Kokkos::subview(a.cats.order, k, Kokkos::ALL), Kokkos::subview(a.cats.weight, k, Kokkos::ALL), gain_of);
          if (t == 0) a.scratch(k, f) = best;
          return;
        }
        cand[t] = best_numerical_split(a.hist, node, f, b0, run, scan.before, missing, a.values, a.min_vals, gain_of);
        m.team_barrier();
        if (t == 0) a.scratch(k, f) = first_best(cand, nt);
      });
}

/// Stage 2 of evaluate_splits: a.out(k) = node k's best split over a.scratch(k, ·) (lowest feature
/// wins ties), its loss_chg less the parent's gain, and its right-going categories in a.cats.words.
template <class ExecutionSpace, class Mem>
void pick_node_splits(ExecutionSpace const& space, SplitParams const& p, GradientQuantiser const& q,
                      SplitEvalArgs<Mem> const& a) {
  int const n_features = a.n_features();
  bool const constrained = a.constrained();
  Kokkos::parallel_for(
      "kboost::splits::per_node", Kokkos::RangePolicy<ExecutionSpace>(space, 0, a.n_nodes),
      KOKKOS_LAMBDA(int k) {
        SplitCandidate best;
        for (int f = 0; f < n_features; ++f) {
          if (a.scratch(k, f).loss_chg > best.loss_chg) best = a.scratch(k, f);
        }
        EvalNode const node = a.nodes(k);
        double const G = to_double_grad(q, node.sum.grad), H = to_double_hess(q, node.sum.hess);
        // Under monotone constraints the parent's gain is taken at its clamped weight, as upstream's
        // CPU evaluator does (hist/evaluate_splits.h root_gain = SplitEvaluator::CalcGain). The GPU
        // evaluator subtracts the unconstrained gain instead, which never splits a node whose weight
        // sits on a bound; the CPU's rule is the one upstream's hist users get.
        float const parent = constrained ? gain_given_weight(p, G, H, clamp_weight(calc_weight(p, G, H), node.lower, node.upper))
                                         : child_gain(p, G, H);
        if (best.feature >= 0) best.loss_chg = best.loss_chg - parent;
        if (best.kind != kNumericalSplit)
          write_category_words(best, a.ptrs(best.feature), a.cats.base(best.feature),
                               Kokkos::subview(a.cats.order, k, Kokkos::ALL), Kokkos::subview(a.cats.words, k, Kokkos::ALL));
        a.out(k) = best;
      });
}
}  // namespace detail

/// Best split of every node in `nodes` (extent n_nodes) over the allowed features.
/// hist: slots × total_bins, read, and written only in the slots of nodes made by subtraction
/// (EvalNode::parent_slot ≥ 0: hist(slot) = hist(parent_slot) − hist(built_slot), all bins);
/// cuts: ptrs (features+1), values (total_bins), min_vals (features);
/// feature_mask: n_nodes × features (1 = may split on it; colsample, interaction constraints);
/// monotone: features (−1/0/+1), or extent 0 for no monotone constraints (upstream's
/// unconstrained gain arithmetic). Result: out (n_nodes).
/// Per feature, candidate b (0 ≤ b < bins of f) sends bins < b left (exclusive scan), missing to
/// the side with the larger gain (right on ties); lowest bin wins ties within a feature, lowest
/// feature across features. loss_chg = gain − parent gain (float). `scratch`: n_nodes × features.
/// Categorical features (cats.categorical(f) = 1; detail::categorical_split) write the best
/// split's right-going categories to cats.words (n_nodes × words, bit c of word c/32), using
/// cats.order and cats.weight (n_nodes × the categories of all categorical features, feature f's
/// from cats.base(f)) as scratch.
template <class ExecutionSpace, class Mem>
void evaluate_splits(ExecutionSpace const& space, SplitParams const& p, GradientQuantiser const& q,
                     Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, Mem> hist,
                     Kokkos::View<const std::uint32_t*, Mem> ptrs, Kokkos::View<const float*, Mem> values,
                     Kokkos::View<const float*, Mem> min_vals, Kokkos::View<const EvalNode*, Mem> nodes,
                     Kokkos::View<const std::uint8_t**, Kokkos::LayoutRight, Mem> feature_mask,
                     Kokkos::View<const std::int8_t*, Mem> monotone,
                     Kokkos::View<SplitCandidate**, Kokkos::LayoutRight, Mem> scratch,
                     Kokkos::View<SplitCandidate*, Mem> out, int n_nodes,
                     CategoricalEval<Mem> const& cats = CategoricalEval<Mem>{}) {
  compat::ScopedRegion region("kboost::evaluate_splits");
  detail::SplitEvalArgs<Mem> const args{hist, ptrs, values, min_vals, nodes, feature_mask, monotone, scratch, out, n_nodes, cats};
  detail::evaluate_feature_splits(space, p, q, args);
  detail::pick_node_splits(space, p, q, args);
}

/// Whether a split may be applied (upstream GPUExpandEntry::IsValid without the depth/leaf limits).
inline bool split_is_valid(SplitCandidate const& s, SplitParams const& p) {
  if (s.feature < 0) return false;
  if (!(s.loss_chg > kRtEps)) return false;
  if (s.left_sum.hess == 0 || s.right_sum.hess == 0) return false;
  if (s.loss_chg < p.gamma) return false;
  return true;
}

}  // namespace kboost
