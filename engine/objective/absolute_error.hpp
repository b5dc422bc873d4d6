#pragma once
/// \file absolute_error.hpp
/// reg:absoluteerror, as upstream XGBoost 3.2's MeanAbsoluteError (src/objective/regression_obj.cu):
/// sign gradients, the weighted median as intercept, and every new tree's leaves refit to the
/// median of their rows' residuals (src/objective/adaptive.cc; kernels/leaf_refit.hpp).
#include <kboost/core/objective.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <Kokkos_Core.hpp>

namespace kboost {

/// MeanAbsoluteError::GetGradient: (sign(m − y)·w, w).
struct AbsoluteErrorLoss {
  static constexpr bool kPerTarget = true;
  static constexpr bool kWholeRow = false;
  static constexpr char const* kInvalidLabel = "invalid label";
  explicit AbsoluteErrorLoss(ObjectiveParams const&) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float margin, float y, float w, GradientPair& out) const {
    float const d = margin - y;
    float const sign = static_cast<float>((d > 0) - (d < 0));
    out = GradientPair{sign * w, w};
    return true;
  }
};

/// The reg:absoluteerror family.
class AbsoluteErrorObjective final : public Objective {
 public:
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kAbsoluteError; }

  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const& space, ObjectiveParams const& p, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    check_gradient_shapes(in.margin, in.label, in.weight, gpair, in.margin.extent(1));
    loss_gradients(space, p.objective, AbsoluteErrorLoss(p), in.margin, in.label, in.weight, gpair);
  }

  ObjectiveCapabilities capabilities() const override;
  std::vector<float> intercept(ObjectiveParams const& p, std::vector<float> const& labels,
                               std::vector<float> const& weights, int n_groups,
                               std::vector<std::uint32_t> const& group_ptr) const override;
  std::string default_metric(ObjectiveParams const& p) const override;
};

}  // namespace kboost
