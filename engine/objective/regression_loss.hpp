#pragma once
/// \file regression_loss.hpp
/// reg:squarederror (reg:linear), reg:squaredlogerror, reg:logistic, binary:logistic,
/// binary:logitraw and reg:gamma: upstream XGBoost 3.2's RegLossObj<Loss> (src/objective/
/// regression_obj.cu) over the losses of src/objective/regression_loss.h (LinearSquareLoss,
/// SquaredLogError, LogisticClassification, LogisticRaw, GammaDeviance). The device losses are
/// here; the host facts (labels, intercept, metric, model-file parameters) in regression_loss.cpp.
#include <kboost/core/cuda_math.hpp>
#include <kboost/engine/objective/loss_family.hpp>

namespace kboost {

/// What the RegLossObj losses but SquaredLogError share: rows with label 1 weighted by
/// scale_pos_weight (RegLossParam) before Loss::pair(fn, margin, label, weight, out) gives the
/// pair, `fn` the special functions of the build it reproduces.
template <class Loss, ObjectiveKind K>
struct ScalePosWeightLoss : DeviceLoss<K> {
  float scale_pos_weight;
  pmath::SpecialFunctions fn;
  explicit ScalePosWeightLoss(ObjectiveParams const& p)
      : scale_pos_weight(p.scale_pos_weight), fn(special_functions(p)) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float margin, float y, float w, GradientPair& out) const {
    if (y == 1.0f) w *= scale_pos_weight;
    return Loss::pair(fn, margin, y, w, out);
  }
};

/// LinearSquareLoss, rows with label 1 weighted by scale_pos_weight.
struct SquaredErrorLoss : ScalePosWeightLoss<SquaredErrorLoss, ObjectiveKind::kSquaredError> {
  using ScalePosWeightLoss::ScalePosWeightLoss;
  KOKKOS_INLINE_FUNCTION static bool pair(pmath::SpecialFunctions, float pr, float y, float w, GradientPair& out) {
    out = GradientPair{(pr - y) * w, 1.0f * w};
    return true;
  }
};

/// LogisticClassification (reg:logistic, binary:logistic): the sigmoid of the margin against a label in [0, 1].
struct LogisticLoss : ScalePosWeightLoss<LogisticLoss, ObjectiveKind::kLogistic> {
  static constexpr char const* kInvalidLabel = "label must be in [0,1] for logistic regression";
  using ScalePosWeightLoss::ScalePosWeightLoss;
  KOKKOS_INLINE_FUNCTION static bool pair(pmath::SpecialFunctions fn, float margin, float y, float w,
                                          GradientPair& out) {
    float const pr = fn.sigmoid(margin);
    float const h = pr * (1.0f - pr);
    out = GradientPair{(pr - y) * w, (h > 1e-16f ? h : 1e-16f) * w};
    return y >= 0.0f && y <= 1.0f;
  }
  /// What the host gradient loop calls for a row ahead (kernels/gradients.hpp).
  KOKKOS_INLINE_FUNCTION void prefetch(float margin) const { fn.prefetch_sigmoid(margin); }
};

/// LogisticRaw (binary:logitraw): LogisticClassification's gradients, raw margins as outputs.
struct LogitRawLoss : LogisticLoss {
  static constexpr ObjectiveKind kKind = ObjectiveKind::kLogitRaw;
  using LogisticLoss::LogisticLoss;
};

/// GammaDeviance (3.x: RegLossObj<GammaDeviance>, so scale_pos_weight applies).
struct GammaLoss : ScalePosWeightLoss<GammaLoss, ObjectiveKind::kGamma> {
  static constexpr char const* kInvalidLabel = "GammaRegression: label must be positive";
  using ScalePosWeightLoss::ScalePosWeightLoss;
  KOKKOS_INLINE_FUNCTION static bool pair(pmath::SpecialFunctions fn, float margin, float y, float w,
                                          GradientPair& out) {
    float const pr = fn.exp(margin);
    out = GradientPair{(1.0f - y / pr) * w, (y / pr) * w};
    return y > 0.0f;
  }
  KOKKOS_INLINE_FUNCTION void prefetch(float margin) const { fn.prefetch_exp(margin); }
};

/// SquaredLogError: the prediction floored at -1 + 1e-6, the hessian's (p + 1)^2 in double
/// (std::pow promotes) and floored at 1e-6; log1p is kboost's portable one.
struct SquaredLogErrorLoss : DeviceLoss<ObjectiveKind::kSquaredLogError> {
  static constexpr char const* kInvalidLabel =
      "label must be greater than -1 for rmsle so that log(label + 1) can be valid.";
  explicit SquaredLogErrorLoss(ObjectiveParams const&) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float margin, float y, float w, GradientPair& out) const {
    float const floor = static_cast<float>(-1 + 1e-6);
    float const pr = margin > floor ? margin : floor;  // fmaxf: NaN takes the floor too
    float const lp = pmath::log1pf(pr), ly = pmath::log1pf(y);
    float const g = (lp - ly) / (pr + 1);
    double const p1 = static_cast<double>(pr + 1);
    float const h = static_cast<float>(static_cast<double>(-lp + ly + 1) / (p1 * p1));
    out = GradientPair{g * w, (h > 1e-6f ? h : 1e-6f) * w};
    return y > -1.0f;
  }
};

/// RegLossObj<Loss>: the family of one loss above (host facts in regression_loss.cpp).
template <class Loss>
struct RegLossObjective : LossFamily<Loss> {
  static Objective const& host();
};

}  // namespace kboost
