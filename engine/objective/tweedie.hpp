#pragma once
/// \file tweedie.hpp
/// reg:tweedie, as upstream XGBoost 3.2's TweedieRegression (src/objective/regression_obj.cu):
/// the log-link Tweedie deviance with variance power ρ (tweedie_variance_power), the label mean as
/// intercept.
#include <kboost/core/objective.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <Kokkos_Core.hpp>

namespace kboost {

/// TweedieRegression::GetGradient.
struct TweedieLoss {
  static constexpr bool kPerTarget = true;
  static constexpr bool kWholeRow = false;
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
class TweedieObjective final : public Objective {
 public:
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kTweedie; }

  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const& space, ObjectiveParams const& p, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    check_gradient_shapes(in.margin, in.label, in.weight, gpair, in.margin.extent(1));
    loss_gradients(space, p.objective, TweedieLoss(p), in.margin, in.label, in.weight, gpair);
  }

  ObjectiveCapabilities capabilities() const override;
  void check_labels(ObjectiveParams const& p, float const* labels, std::size_t n,
                    LabelFailure const& fail) const override;
  std::vector<float> intercept(ObjectiveParams const& p, std::vector<float> const& labels,
                               std::vector<float> const& weights, int n_groups,
                               std::vector<std::uint32_t> const& group_ptr) const override;
  std::string default_metric(ObjectiveParams const& p) const override;
  ObjectiveConfig model_config(ObjectiveParams const& p) const override;
};

}  // namespace kboost
