#pragma once
/// \file poisson.hpp
/// count:poisson, as upstream XGBoost 3.2's PoissonRegression (src/objective/regression_obj.cu):
/// gradients exp(m) − y and exp(m + max_delta_step), the label mean as intercept (poisson.cpp).
#include <kboost/engine/objective/loss_family.hpp>

namespace kboost {

/// PoissonRegression::GetGradient; max_delta_step (PoissonRegressionParam, default 0.7) enters the hessian.
struct PoissonLoss : DeviceLoss<ObjectiveKind::kPoisson> {
  static constexpr char const* kInvalidLabel = "PoissonRegression: label must be nonnegative";
  float max_delta_step;
  pmath::SpecialFunctions fn;
  explicit PoissonLoss(ObjectiveParams const& p)
      : max_delta_step(p.poisson_max_delta_step), fn(special_functions(p)) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float pr, float y, float w, GradientPair& out) const {
    out = GradientPair{(fn.exp(pr) - y) * w, fn.exp(pr + max_delta_step) * w};
    return !(y < 0.0f);
  }
};

/// The count:poisson family.
struct PoissonObjective : LossFamily<PoissonLoss> {
  static Objective const& host();
};

}  // namespace kboost
