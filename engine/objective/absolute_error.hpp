#pragma once
/// \file absolute_error.hpp
/// reg:absoluteerror, as upstream XGBoost 3.2's MeanAbsoluteError (src/objective/regression_obj.cu):
/// sign gradients, the weighted median as intercept, and every new tree's leaves refit to the
/// median of their rows' residuals (src/objective/adaptive.cc; kernels/leaf_refit.hpp;
/// absolute_error.cpp).
#include <kboost/engine/objective/loss_family.hpp>

namespace kboost {

/// MeanAbsoluteError::GetGradient: (sign(m − y)·w, w).
struct AbsoluteErrorLoss : DeviceLoss<ObjectiveKind::kAbsoluteError> {
  explicit AbsoluteErrorLoss(ObjectiveParams const&) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float margin, float y, float w, GradientPair& out) const {
    float const d = margin - y;
    float const sign = static_cast<float>((d > 0) - (d < 0));
    out = GradientPair{sign * w, w};
    return true;
  }
};

/// The reg:absoluteerror family.
struct AbsoluteErrorObjective : LossFamily<AbsoluteErrorLoss> {
  static Objective const& host();
};

}  // namespace kboost
