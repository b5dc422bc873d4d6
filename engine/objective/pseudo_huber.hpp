#pragma once
/// \file pseudo_huber.hpp
/// reg:pseudohubererror, as upstream XGBoost 3.2's PseudoHuberRegression
/// (src/objective/regression_obj.cu): the pseudo-Huber loss with slope δ (huber_slope), the
/// intercept a Newton step from 0.
#include <kboost/core/compat.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <Kokkos_Core.hpp>

namespace kboost {

/// PseudoHuberRegression::GetGradient.
struct PseudoHuberLoss {
  static constexpr bool kPerTarget = true;
  static constexpr bool kWholeRow = false;
  static constexpr char const* kInvalidLabel = "invalid label";
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
class PseudoHuberObjective final : public Objective {
 public:
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kPseudoHuber; }

  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const& space, ObjectiveParams const& p, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    check_gradient_shapes(in.margin, in.label, in.weight, gpair, in.margin.extent(1));
    loss_gradients(space, p.objective, PseudoHuberLoss(p), in.margin, in.label, in.weight, gpair);
  }

  ObjectiveCapabilities capabilities() const override;
  std::vector<float> intercept(ObjectiveParams const& p, std::vector<float> const& labels,
                               std::vector<float> const& weights, int n_groups,
                               std::vector<std::uint32_t> const& group_ptr) const override;
  std::string default_metric(ObjectiveParams const& p) const override;
  ObjectiveConfig model_config(ObjectiveParams const& p) const override;
};

}  // namespace kboost
