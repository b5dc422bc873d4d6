#pragma once
/// \file pseudo_huber.hpp
/// reg:pseudohubererror, as upstream XGBoost 3.2's PseudoHuberRegression
/// (src/objective/regression_obj.cu): the pseudo-Huber loss with slope δ (huber_slope), the
/// intercept a Newton step from 0 (pseudo_huber.cpp).
#include <kboost/core/compat.hpp>
#include <kboost/engine/objective/loss_family.hpp>

namespace kboost {

/// PseudoHuberRegression::GetGradient.
struct PseudoHuberLoss : DeviceLoss<ObjectiveKind::kPseudoHuber> {
  float slope;
  explicit PseudoHuberLoss(ObjectiveParams const& p) : slope(p.huber_slope) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float margin, float y, float w, GradientPair& out) const {
    float const z = margin - y;
    float const scale_sqrt = compat::math::sqrt(1 + (z * z) / (slope * slope));
    float const g = z / scale_sqrt;
    float const scale = slope * slope + z * z;
    float const h = slope * slope / (scale * scale_sqrt);
    out = GradientPair{g * w, h * w};
    return true;
  }
};

/// The reg:pseudohubererror family.
struct PseudoHuberObjective : LossFamily<PseudoHuberLoss> {
  static Objective const& host();
};

}  // namespace kboost
