/// \file tweedie.cpp
/// TweedieRegression's host facts (upstream src/objective/regression_obj.cu: CheckLabel,
/// InitEstimation -> FitInterceptGlmLike, DefaultEvalMetric, SaveConfig).
#include <kboost/engine/objective/tweedie.hpp>

#include <kboost/engine/objective/intercept.hpp>
#include <kboost/engine/params.hpp>

#include <sstream>

namespace kboost {

ObjectiveCapabilities TweedieObjective::capabilities() const {
  ObjectiveCapabilities c;
  c.outputs = ObjectiveCapabilities::Outputs::kTargets;
  return c;
}

void TweedieObjective::check_labels(ObjectiveParams const&, float const* labels, std::size_t n,
                                    LabelFailure const& fail) const {
  for (std::size_t i = 0; i < n; ++i)
    if (!(labels[i] >= 0.0f)) fail(i, "is negative");
}

std::vector<float> TweedieObjective::intercept(ObjectiveParams const&, std::vector<float> const& labels,
                                               std::vector<float> const& weights, int,
                                               std::vector<std::uint32_t> const&) const {
  return {static_cast<float>(detail::weighted_mean(labels, weights))};
}

std::string TweedieObjective::default_metric(ObjectiveParams const& p) const {
  std::ostringstream os;  // upstream's "tweedie-nloglik@" << rho
  os << "tweedie-nloglik@" << p.tweedie_variance_power;
  return os.str();
}

ObjectiveConfig TweedieObjective::model_config(ObjectiveParams const& p) const {
  return {p.objective, "tweedie_regression_param",
          {{"tweedie_variance_power", param_float_string(p.tweedie_variance_power)}}};
}

}  // namespace kboost
