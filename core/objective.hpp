#pragma once
/// \file objective.hpp
/// Learning objectives: parameters, kind lookup and the scalar transforms between margin and output
/// space, following upstream XGBoost 3.2 (src/objective/regression_loss.h, regression_obj.cu,
/// multiclass_obj.cu, src/common/math.h). Gradients live in kernels/gradients.hpp.
#include "core/portable_math.hpp"

#include <Kokkos_Core.hpp>

#include <string>

namespace kboost {

/// Objective configuration (XGBoost parameter names). `num_class` only for multi:*.
struct ObjectiveParams {
  std::string name = "reg:squarederror";
  int num_class = 0;
  float scale_pos_weight = 1;
  float tweedie_variance_power = 1.5f;
  float huber_slope = 1;
  /// count:poisson's own `max_delta_step` (PoissonRegressionParam, default 0.7): it enters the hessian.
  float poisson_max_delta_step = 0.7f;
};

/// Objectives kboost knows. Training gradients exist for all but kCox and kRank*.
enum class ObjectiveKind : int {
  kSquaredError,   ///< reg:squarederror (also reg:linear)
  kSquaredLogError,///< reg:squaredlogerror
  kLogistic,       ///< reg:logistic, binary:logistic
  kLogitRaw,       ///< binary:logitraw
  kSoftprob,       ///< multi:softprob
  kSoftmax,        ///< multi:softmax
  kPoisson,        ///< count:poisson
  kGamma,          ///< reg:gamma
  kTweedie,        ///< reg:tweedie
  kPseudoHuber,    ///< reg:pseudohubererror
  kAbsoluteError,  ///< reg:absoluteerror
  kQuantile,       ///< reg:quantileerror (prediction only)
  kCox,            ///< survival:cox (prediction only)
  kAft,            ///< survival:aft (prediction only)
  kRank,           ///< rank:pairwise, rank:ndcg, rank:map (prediction only)
};

/// Kind of an objective name; throws std::runtime_error naming the objective when unknown.
ObjectiveKind objective_kind(std::string const& name);

/// True when the objective trains one tree per class per round (multi:softprob / multi:softmax).
inline bool is_multiclass(ObjectiveKind k) { return k == ObjectiveKind::kSoftprob || k == ObjectiveKind::kSoftmax; }

/// Element-wise output transform margin -> output (upstream ObjFunction::PredTransform), for every
/// kind except the multi-class ones (use softmax_inplace / argmax). Identity for raw-output kinds.
/// logistic: common::Sigmoid; poisson/gamma/tweedie/cox: expf; aft: expf (upstream survival:aft exp).
KOKKOS_INLINE_FUNCTION float pred_transform(ObjectiveKind k, float margin) {
  switch (k) {
    case ObjectiveKind::kLogistic: return pmath::sigmoid(margin);
    case ObjectiveKind::kPoisson:
    case ObjectiveKind::kGamma:
    case ObjectiveKind::kTweedie:
    case ObjectiveKind::kCox:
    case ObjectiveKind::kAft: return pmath::expf(margin);
    default: return margin;
  }
}

/// Upstream common::Softmax over `n` margins in place (wmax from the first element, double sum,
/// each p = expf(x - wmax) / float(sum)).
KOKKOS_INLINE_FUNCTION void softmax_inplace(float* x, int n) {
  float wmax = x[0];
  for (int i = 1; i < n; ++i) wmax = x[i] > wmax ? x[i] : wmax;  // fmaxf (no NaN in margins)
  double wsum = 0.0;
  for (int i = 0; i < n; ++i) {
    x[i] = pmath::expf(x[i] - wmax);
    wsum += x[i];
  }
  for (int i = 0; i < n; ++i) x[i] /= static_cast<float>(wsum);
}

/// Upstream common::FindMaxIndex: index of the first maximum (multi:softmax output).
KOKKOS_INLINE_FUNCTION int argmax(float const* x, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i) if (x[i] > x[best]) best = i;
  return best;
}

/// Output-space base_score -> margin (upstream ObjFunction::ProbToMargin), host.
/// logistic: -logf(1/p - 1) (throws unless 0 < p < 1); poisson/gamma/tweedie/cox: logf(p) (throws
/// unless p > 0); otherwise identity. multi:*: identity per class (3.2 stores margins... see base_score.hpp).
float prob_to_margin(ObjectiveKind k, float base_score);
inline float prob_to_margin(ObjectiveParams const& p, float base_score) {
  return prob_to_margin(objective_kind(p.name), base_score);
}

}  // namespace kboost
