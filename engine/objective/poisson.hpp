#pragma once
/// \file poisson.hpp
/// count:poisson, as upstream XGBoost 3.2's PoissonRegression (src/objective/regression_obj.cu):
/// gradients exp(m) − y and exp(m + max_delta_step), the label mean as intercept.
#include <kboost/core/objective.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <Kokkos_Core.hpp>

namespace kboost {

/// PoissonRegression::GetGradient; max_delta_step (PoissonRegressionParam, default 0.7) enters the hessian.
struct PoissonLoss {
  static constexpr bool kPerTarget = true;
  static constexpr bool kWholeRow = false;
  static constexpr char const* kInvalidLabel = "PoissonRegression: label must be nonnegative";
  float max_delta_step;
  explicit PoissonLoss(ObjectiveParams const& p) : max_delta_step(p.poisson_max_delta_step) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float pr, float y, float w, GradientPair& out) const {
    out = GradientPair{(pmath::expf(pr) - y) * w, pmath::expf(pr + max_delta_step) * w};
    return !(y < 0.0f);
  }
};

/// The count:poisson family.
class PoissonObjective final : public Objective {
 public:
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kPoisson; }

  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const& space, ObjectiveParams const& p, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    check_gradient_shapes(in.margin, in.label, in.weight, gpair, in.margin.extent(1));
    loss_gradients(space, p.objective, PoissonLoss(p), in.margin, in.label, in.weight, gpair);
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
