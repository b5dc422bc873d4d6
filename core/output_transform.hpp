#pragma once
/// \file output_transform.hpp
/// The transforms between margin and output space, each implemented once, with upstream XGBoost
/// 3.2's float arithmetic so results are bit-identical to its CPU build: margin -> output
/// (ObjFunction::PredTransform: src/common/math.h Sigmoid, Softmax, FindMaxIndex; regression_obj.cu
/// Poisson/Cox/Tweedie/Gamma expf; hinge.cu; aft_obj.cu) and output-space base_score -> margin
/// (ObjFunction::ProbToMargin: regression_loss.h logit, regression_obj.cu log). Which transform an
/// objective uses comes from the objective registry (core/objective.cpp). expf/logf/sigmoid come
/// from core/portable_math.hpp (glibc's bits on every backend). The softmax of the training
/// gradients is a separate variant (kernels/gradients.hpp explains why).
#include <kboost/core/objective.hpp>
#include <kboost/core/portable_math.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace kboost {

/// How margins become outputs.
enum class OutputTransform : int {
  kIdentity = 0,  ///< reg:squarederror, binary:logitraw, rank:*, reg:absoluteerror, ...
  kSigmoid,       ///< binary:logistic, reg:logistic (common::Sigmoid)
  kExp,           ///< count:poisson, reg:gamma, reg:tweedie, survival:cox, survival:aft (expf)
  kHinge,         ///< binary:hinge: margin > 0 ? 1 : 0
  kSoftmax,       ///< multi:softprob (common::Softmax, double sum)
  kArgmax,        ///< multi:softmax: index of the first maximum, one output column
};

/// How an output-space base_score becomes a margin (the inverse link of the objective).
enum class MarginLink : int {
  kIdentity = 0,  ///< every objective without a link
  kLogit,         ///< binary:logistic, reg:logistic
  kLog,           ///< count:poisson, reg:gamma, reg:tweedie, survival:cox, survival:aft
};

/// Output transform of an objective kind (the registry's column). Host.
OutputTransform output_transform(ObjectiveKind kind);

/// Margin link of an objective kind (the registry's column). Host.
MarginLink margin_link(ObjectiveKind kind);

/// Transform for an objective name (prediction: every name is_known_objective() accepts, including
/// the prediction-only binary:hinge). \throws std::runtime_error("unknown objective '<name>'") otherwise.
OutputTransform transform_for_objective(std::string const& objective);

/// Number of output columns per row: 1 for argmax, else `n_outputs`.
KOKKOS_INLINE_FUNCTION int transformed_columns(OutputTransform t, int n_outputs) {
  return t == OutputTransform::kArgmax ? 1 : n_outputs;
}

/// Upstream common::FindMaxIndex over `in(0..k)`: index of the first maximum (strict `>`).
template <class In>
KOKKOS_INLINE_FUNCTION int argmax(int k, In const& in) {
  int best = 0;
  for (int j = 1; j < k; ++j)
    if (in(j) > in(best)) best = j;
  return best;
}

/// The maximum of `in(0..k)` as upstream's common::Softmax takes it: fmaxf from the first element.
template <class In>
KOKKOS_INLINE_FUNCTION float softmax_max(int k, In const& in) {
  float wmax = in(0);
  for (int j = 1; j < k; ++j) {
    float const v = in(j);
    wmax = (v > wmax || wmax != wmax) ? v : wmax;  // fmaxf
  }
  return wmax;
}

/// The shift and the float-rounded denominator of upstream's common::Softmax over `in(0..k)`: the
/// maximum as fmaxf from the first element, and the sum of expf(x - max) in double.
struct SoftmaxScale {
  float wmax, sum;
};
template <class In>
KOKKOS_INLINE_FUNCTION SoftmaxScale softmax_scale(int k, In const& in) {
  float const wmax = softmax_max(k, in);
  double wsum = 0.0;
  for (int j = 0; j < k; ++j) wsum += pmath::expf(in(j) - wmax);
  return SoftmaxScale{wmax, static_cast<float>(wsum)};
}

/// Probability j of upstream's common::Softmax, from softmax_scale(k, in): the bits softmax() writes.
template <class In>
KOKKOS_INLINE_FUNCTION float softmax_at(In const& in, int j, SoftmaxScale const& scale) {
  return pmath::expf(in(j) - scale.wmax) / scale.sum;
}

/// Upstream common::Softmax of `in(0..k)` into `out(0..k)` (may alias): softmax_scale's maximum and
/// sum with each expf computed once (softmax_at recomputes it, for callers without a row buffer).
template <class In, class Out>
KOKKOS_INLINE_FUNCTION void softmax(int k, In const& in, Out const& out) {
  float const wmax = softmax_max(k, in);
  double wsum = 0.0;
  for (int j = 0; j < k; ++j) {
    float const e = pmath::expf(in(j) - wmax);
    out(j) = e;
    wsum += e;
  }
  float const s = static_cast<float>(wsum);
  for (int j = 0; j < k; ++j) out(j) = out(j) / s;
}

/// Apply `t` to one row's margins `in(0..k)` writing `out` (k values, or 1 for argmax).
/// `in` and `out` may alias. Same operation order as upstream.
template <class In, class Out>
KOKKOS_INLINE_FUNCTION void apply_transform(OutputTransform t, int k, In const& in, Out const& out) {
  switch (t) {
    case OutputTransform::kIdentity:
      for (int j = 0; j < k; ++j) out(j) = in(j);
      break;
    case OutputTransform::kSigmoid:
      for (int j = 0; j < k; ++j) out(j) = pmath::sigmoid(in(j));
      break;
    case OutputTransform::kExp:
      for (int j = 0; j < k; ++j) out(j) = pmath::expf(in(j));
      break;
    case OutputTransform::kHinge:
      for (int j = 0; j < k; ++j) out(j) = in(j) > 0.0f ? 1.0f : 0.0f;
      break;
    case OutputTransform::kSoftmax:
      softmax(k, in, out);
      break;
    case OutputTransform::kArgmax:
      out(0) = static_cast<float>(argmax(k, in));
      break;
  }
}

namespace detail {
/// Row accessor over a raw float array, for apply_transform / softmax / argmax on host buffers.
struct FloatRow {
  float* p;
  KOKKOS_INLINE_FUNCTION float& operator()(int j) const { return p[j]; }
};
struct ConstFloatRow {
  float const* p;
  KOKKOS_INLINE_FUNCTION float operator()(int j) const { return p[j]; }
};
}  // namespace detail

/// Upstream common::Softmax over `n` margins in place (see softmax()).
KOKKOS_INLINE_FUNCTION void softmax_inplace(float* x, int n) {
  softmax(n, detail::FloatRow{x}, detail::FloatRow{x});
}

/// Upstream common::FindMaxIndex: index of the first maximum of x[0..n) (multi:softmax output).
KOKKOS_INLINE_FUNCTION int argmax(float const* x, int n) { return argmax(n, detail::ConstFloatRow{x}); }

/// Element-wise output transform margin -> output (upstream ObjFunction::PredTransform) of one
/// value, for every kind except the multi-class ones, where it is the identity (their transform
/// works on whole rows: softmax_inplace / argmax). Host.
inline float pred_transform(ObjectiveKind k, float margin) {
  OutputTransform const t = output_transform(k);
  if (t == OutputTransform::kSoftmax || t == OutputTransform::kArgmax) return margin;
  float out = margin;
  apply_transform(t, 1, detail::FloatRow{&out}, detail::FloatRow{&out});
  return out;
}

/// Which of upstream's two ProbToMargin behaviours to follow.
enum class BaseScoreMode : int {
  /// Training (the learner configuring base_score): logit throws unless 0 < p < 1, log throws unless p > 0.
  kTraining = 0,
  /// A model's stored base_score at prediction: logit clamps p to [1e-6, 1 - 1e-6]
  /// (regression_loss.h LogisticRegression::ProbToMargin, kRtEps), log takes logf(p) as it is.
  kModel,
};

/// Output-space base_score -> margin (upstream ObjFunction::ProbToMargin), host. Logit:
/// -logf(1/p - 1); log: logf(p); otherwise (multi:* per class too) the identity. Both modes keep
/// NaN as NaN in kModel and reject it in kTraining.
/// \throws std::runtime_error in kTraining mode for a p outside the link's domain.
float prob_to_margin(ObjectiveKind k, float base_score, BaseScoreMode mode = BaseScoreMode::kTraining);
/// prob_to_margin for a training objective's parameters (kTraining mode).
inline float prob_to_margin(ObjectiveParams const& p, float base_score) {
  return prob_to_margin(objective_kind(p.objective), base_score, BaseScoreMode::kTraining);
}

/// Margin-space base score from a model file's output-space base_score, one per output
/// (prob_to_margin in kModel mode; identity for an objective name the registry does not know).
std::vector<float> base_margin_from_score(std::string const& objective, std::vector<float> const& base_score);

}  // namespace kboost
