/// \file tweedie.cpp
/// TweedieRegression's host facts (upstream src/objective/regression_obj.cu: CheckLabel,
/// InitEstimation -> FitInterceptGlmLike, DefaultEvalMetric, SaveConfig).
#include <kboost/engine/objective/tweedie.hpp>

#include <kboost/engine/objective/shared_facts.hpp>
#include <kboost/engine/params.hpp>

#include <sstream>

namespace kboost {
namespace {

/// Non-negative labels, the label mean as intercept; its metric at ρ and TweedieRegressionParam.
class TweedieFacts final : public detail::NonNegativeMeanFacts {
 public:
  std::string default_metric(ObjectiveParams const& p) const override {
    std::ostringstream os;  // upstream's "tweedie-nloglik@" << rho
    os << "tweedie-nloglik@" << p.tweedie_variance_power;
    return os.str();
  }
  ObjectiveConfig model_config(ObjectiveParams const& p) const override {
    return {p.objective, "tweedie_regression_param",
            {{"tweedie_variance_power", param_float_string(p.tweedie_variance_power)}}};
  }
};

}  // namespace

Objective const& TweedieObjective::host() { return host_facts<TweedieFacts>(); }

}  // namespace kboost
