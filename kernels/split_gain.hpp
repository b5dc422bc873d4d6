#pragma once
/// \file split_gain.hpp
/// The gain of a split from its children's integer sums, as upstream 3.4.1 (src/tree/param.h
/// CalcWeight/CalcGainGivenWeight, src/tree/split_evaluator.h CalcSplitGain with IsValidSplit and
/// monotone constraints), and the candidate a split search keeps: every split search of
/// kernels/evaluate_splits.hpp and kernels/detail/host_split_search.hpp takes its gains from here.
/// Gains use IEEE division (no __fdividef) so every backend gives the same bits.
#include <Kokkos_Core.hpp>

#include <cfloat>
#include <cstdint>

#include <kboost/core/portable_math.hpp>
#include <kboost/kernels/quantiser.hpp>
#include <kboost/kernels/split_params.hpp>

namespace kboost {

/// kRtEps of upstream (src/tree/param.h): loss changes at or below it are no split.
constexpr float kRtEps = 1e-6f;

/// Kind of a split: numerical threshold, or a categorical set (upstream's split_type 1) from one
/// category (one-hot) or from a prefix of the categories sorted by weight (partition).
enum SplitKind : std::int32_t { kNumericalSplit = 0, kOneHotSplit = 1, kPartitionSplit = 2 };

/// One node's best split. Numerical: `split_bin` is the GLOBAL bin index of the last bin that goes
/// left (`ptrs[f] - 1` when no non-missing value goes left); rows with bin <= split_bin go left,
/// missing rows follow default_left; `fvalue` is the XGBoost split condition (left iff x < fvalue).
/// Categorical (kind != kNumericalSplit): the categories of the right-going set are written to the
/// evaluator's category words (one-hot: the category of global bin `split_bin`; partition: the
/// first `cat_count` categories in weight order); every other category goes left.
struct SplitCandidate {
  float loss_chg = -FLT_MAX;  ///< split gain − parent gain; −FLT_MAX = no split
  std::int32_t feature = -1;
  std::int32_t split_bin = -1;
  float fvalue = 0.0f;
  std::int32_t default_left = 0;
  std::int32_t kind = kNumericalSplit;
  std::int32_t cat_count = 0;
  /// The 4 bytes the compiler would pad with before the 8-byte sums, named so that every byte of
  /// a candidate is written: the host copies whole candidates (compute-sanitizer initcheck
  /// reports copies of never-written padding).
  std::int32_t unused = 0;
  GradientPairInt64 left_sum{}, right_sum{};
};
static_assert(sizeof(SplitCandidate) == 64, "SplitCandidate has no padding left");

/// A node to evaluate: its histogram slot, total (grad, hess), and the bounds its
/// children's weights are clamped to under monotone constraints (upstream TreeEvaluator's
/// lower_bounds_/upper_bounds_; ±FLT_MAX when unconstrained). A node with parent_slot ≥ 0 has
/// its histogram made by the evaluator, hist(slot) = hist(parent_slot) − hist(built_slot), each
/// feature's bins right before they are searched (the subtraction trick without a pass of its own).
struct EvalNode {
  std::int32_t slot = 0;
  std::int32_t parent_slot = -1;
  GradientPairInt64 sum{};
  float lower = -FLT_MAX, upper = FLT_MAX;
  std::int32_t built_slot = -1;
  /// The 4 bytes the compiler would pad with (named: every byte of an uploaded node is written).
  std::int32_t unused = 0;
};
static_assert(sizeof(EvalNode) == 40, "EvalNode has no padding left");

namespace detail {
KOKKOS_INLINE_FUNCTION double threshold_l1(double g, double alpha) {
  if (g > alpha) return g - alpha;
  if (g < -alpha) return g + alpha;
  return 0.0;
}
KOKKOS_INLINE_FUNCTION double to_double_grad(GradientQuantiser const& q, std::int64_t v) {
  return static_cast<double>(v) * q.to_floating[0];
}
KOKKOS_INLINE_FUNCTION double to_double_hess(GradientQuantiser const& q, std::int64_t v) {
  return static_cast<double>(v) * q.to_floating[1];
}
}  // namespace detail

/// Leaf weight of a node with gradient sum G and hessian sum H (upstream 3.4.1 tree::CalcWeight in
/// double, returned as float by SplitEvaluator::CalcWeight; clipped to ±max_delta_step when set);
/// 0 when H <= 0.
KOKKOS_INLINE_FUNCTION float calc_weight(SplitParams const& p, double G, double H) {
  if (H <= 0.0) return 0.0f;
  double dw = -detail::threshold_l1(G, p.alpha) / (H + static_cast<double>(p.lambda));
  if (p.max_delta_step != 0.0f && (dw < 0 ? -dw : dw) > static_cast<double>(p.max_delta_step)) {
    dw = dw < 0 ? -static_cast<double>(p.max_delta_step) : static_cast<double>(p.max_delta_step);
  }
  return static_cast<float>(dw);
}

/// Gain of a node with sums G, H at its weight (upstream 3.4.1 SplitEvaluator::CalcGainGivenWeight
/// at SplitEvaluator::CalcWeight, tree::CalcGainGivenWeight<double, float>): the sums in double,
/// the weight and its square in float, the two products nvcc fuses into the sum as fma (as its
/// device code, compiled with nvcc's default contraction), the result rounded to float. Used for
/// both children of a split and for the parent subtracted from their sum.
KOKKOS_INLINE_FUNCTION float child_gain(SplitParams const& p, double G, double H) {
  if (H <= 0.0) return 0.0f;
  float const w = calc_weight(p, G, H);
  double const alpha = static_cast<double>(p.alpha);
  double const s = pmath::detail::fma(G + G, static_cast<double>(w), (H + static_cast<double>(p.lambda)) * static_cast<double>(w * w));
  return -static_cast<float>(pmath::detail::fma(alpha + alpha, static_cast<double>(w < 0 ? -w : w), s));
}

/// Gain of a split into (left, right), −FLT_MAX when a side's hessian is not positive or below
/// min_child_weight (upstream SplitEvaluator::CalcSplitGain with IsValidSplit; −inf there, −FLT_MAX
/// here: same order).
KOKKOS_INLINE_FUNCTION float split_gain_of(SplitParams const& p, double gl, double hl, double gr, double hr) {
  if (!(hl > 0.0 && hr > 0.0) || hl < static_cast<double>(p.min_child_weight) ||
      hr < static_cast<double>(p.min_child_weight)) {
    return -FLT_MAX;  // never beats the initial candidate
  }
  return child_gain(p, gl, hl) + child_gain(p, gr, hr);
}
/// split_gain_of the integer sums l (left) and r (right).
KOKKOS_INLINE_FUNCTION float split_gain(SplitParams const& p, GradientQuantiser const& q,
                                        GradientPairInt64 const& l, GradientPairInt64 const& r) {
  return split_gain_of(p, detail::to_double_grad(q, l.grad), detail::to_double_hess(q, l.hess),
                       detail::to_double_grad(q, r.grad), detail::to_double_hess(q, r.hess));
}

/// `w` clamped to [lower, upper] (upstream SplitEvaluator::CalcWeight under constraints).
KOKKOS_INLINE_FUNCTION float clamp_weight(float w, float lower, float upper) {
  return w < lower ? lower : (w > upper ? upper : w);
}

/// Gain of one child given its weight, in float as upstream's constrained path
/// (SplitEvaluator::CalcGainGivenWeight -> tree::CalcGainGivenWeight<ParamT, float>).
KOKKOS_INLINE_FUNCTION float gain_given_weight(SplitParams const& p, double G, double H, float w) {
  if (H <= 0.0) return 0.0f;
  float const g = static_cast<float>(G), h = static_cast<float>(H);
  return -(2.0f * g * w + (h + p.lambda) * (w * w));
}

/// split_gain under monotone constraints (upstream SplitEvaluator::CalcSplitGain with
/// has_constraint): both children's weights are clamped to the node's bounds, gains are taken
/// given those weights, and a split whose weights go against the feature's constraint `c` (+1
/// increasing, −1 decreasing, 0 free) is −FLT_MAX (upstream's −inf: the same order).
KOKKOS_INLINE_FUNCTION float constrained_split_gain(SplitParams const& p, GradientQuantiser const& q,
                                                    GradientPairInt64 const& l, GradientPairInt64 const& r,
                                                    float lower, float upper, int c) {
  double const gl = detail::to_double_grad(q, l.grad), hl = detail::to_double_hess(q, l.hess);
  double const gr = detail::to_double_grad(q, r.grad), hr = detail::to_double_hess(q, r.hess);
  if (hl < static_cast<double>(p.min_child_weight) || hr < static_cast<double>(p.min_child_weight)) return -FLT_MAX;
  float const wl = clamp_weight(calc_weight(p, gl, hl), lower, upper);
  float const wr = clamp_weight(calc_weight(p, gr, hr), lower, upper);
  float const gain = gain_given_weight(p, gl, hl, wl) + gain_given_weight(p, gr, hr, wr);
  if (c > 0) return wl <= wr ? gain : -FLT_MAX;
  if (c < 0) return wl >= wr ? gain : -FLT_MAX;
  return gain;
}

namespace detail {
/// Candidate b of feature f (bins from b0; bins < b go left, `scan` their sum) with the missing rows
/// left (gain g_ml) or right (g_mr; right on ties): into `best` when it gains strictly more, so the
/// lowest bin wins ties. fvalue: the cut below b (min_vals(f) for the first bin).
template <class Values>
KOKKOS_FORCEINLINE_FUNCTION void keep_if_better(SplitCandidate& best, EvalNode const& node, int f, std::uint32_t b0,
                                                std::uint32_t b, GradientPairInt64 const& scan,
                                                GradientPairInt64 const& missing, float g_ml, float g_mr,
                                                Values const& values, Values const& min_vals) {
  bool const missing_left = g_ml > g_mr;
  float const gain = missing_left ? g_ml : g_mr;
  if (!(gain > best.loss_chg)) return;
  best.loss_chg = gain;
  best.feature = f;
  best.split_bin = static_cast<std::int32_t>(b) - 1;
  best.fvalue = b == b0 ? min_vals(f) : values(b - 1);
  best.default_left = missing_left ? 1 : 0;
  best.left_sum = missing_left ? scan + missing : scan;
  best.right_sum = node.sum - best.left_sum;
}
}  // namespace detail

}  // namespace kboost
