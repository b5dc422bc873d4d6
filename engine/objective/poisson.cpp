/// \file poisson.cpp
/// PoissonRegression's host facts (upstream src/objective/regression_obj.cu: CheckLabel,
/// InitEstimation -> FitInterceptGlmLike, DefaultEvalMetric, SaveConfig).
#include <kboost/engine/objective/poisson.hpp>

#include <kboost/engine/objective/intercept.hpp>
#include <kboost/engine/params.hpp>

namespace kboost {

ObjectiveCapabilities PoissonObjective::capabilities() const {
  ObjectiveCapabilities c;
  c.outputs = ObjectiveCapabilities::Outputs::kTargets;
  return c;
}

void PoissonObjective::check_labels(ObjectiveParams const&, float const* labels, std::size_t n,
                                    LabelFailure const& fail) const {
  for (std::size_t i = 0; i < n; ++i)
    if (!(labels[i] >= 0.0f)) fail(i, "is negative");
}

std::vector<float> PoissonObjective::intercept(ObjectiveParams const&, std::vector<float> const& labels,
                                               std::vector<float> const& weights, int,
                                               std::vector<std::uint32_t> const&) const {
  return {static_cast<float>(detail::weighted_mean(labels, weights))};
}

std::string PoissonObjective::default_metric(ObjectiveParams const&) const { return "poisson-nloglik"; }

ObjectiveConfig PoissonObjective::model_config(ObjectiveParams const& p) const {
  return {p.objective, "poisson_regression_param", {{"max_delta_step", param_float_string(p.poisson_max_delta_step)}}};
}

}  // namespace kboost
