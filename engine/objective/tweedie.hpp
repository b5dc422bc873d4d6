#pragma once
/// \file tweedie.hpp
/// reg:tweedie, as upstream XGBoost 3.2's TweedieRegression (src/objective/regression_obj.cu):
/// the log-link Tweedie deviance with variance power ρ (tweedie_variance_power), the label mean as
/// intercept (tweedie.cpp).
#include <kboost/core/portable_math.hpp>
#include <kboost/engine/objective/loss_family.hpp>

namespace kboost {

/// TweedieRegression::GetGradient.
struct TweedieLoss : DeviceLoss<ObjectiveKind::kTweedie> {
  static constexpr char const* kInvalidLabel = "TweedieRegression: label must be nonnegative";
  float rho;
  explicit TweedieLoss(ObjectiveParams const& p) : rho(p.tweedie_variance_power) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float pr, float y, float w, GradientPair& out) const {
    float const g = -y * pmath::expf((1 - rho) * pr) + pmath::expf((2 - rho) * pr);
    float const h = -y * (1 - rho) * pmath::expf((1 - rho) * pr) + (2 - rho) * pmath::expf((2 - rho) * pr);
    out = GradientPair{g * w, h * w};
    return !(y < 0.0f);
  }
};

/// The reg:tweedie family.
struct TweedieObjective : LossFamily<TweedieLoss> {
  static Objective const& host();
};

}  // namespace kboost
