/// \file poisson.cpp
/// PoissonRegression's host facts (upstream src/objective/regression_obj.cu: CheckLabel,
/// InitEstimation -> FitInterceptGlmLike, DefaultEvalMetric, SaveConfig).
#include <kboost/engine/objective/poisson.hpp>

#include <kboost/engine/objective/shared_facts.hpp>
#include <kboost/engine/params.hpp>

namespace kboost {
namespace {

/// Non-negative labels, the label mean as intercept; its metric and PoissonRegressionParam.
class PoissonFacts final : public detail::NonNegativeMeanFacts {
 public:
  std::string default_metric(ObjectiveParams const&) const override { return "poisson-nloglik"; }
  ObjectiveConfig model_config(ObjectiveParams const& p) const override {
    return {p.objective, "poisson_regression_param", {{"max_delta_step", param_float_string(p.poisson_max_delta_step)}}};
  }
};

}  // namespace

Objective const& PoissonObjective::host() { return host_facts<PoissonFacts>(); }

}  // namespace kboost
