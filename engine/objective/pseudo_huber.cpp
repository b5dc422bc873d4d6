/// \file pseudo_huber.cpp
/// PseudoHuberRegression's host facts (upstream src/objective/regression_obj.cu: InitEstimation
/// -> FitStump, DefaultEvalMetric, SaveConfig).
#include <kboost/engine/objective/pseudo_huber.hpp>

#include <kboost/engine/objective/intercept.hpp>
#include <kboost/engine/objective/shared_facts.hpp>
#include <kboost/engine/params.hpp>

#include <cmath>

namespace kboost {
namespace {

/// One output per label column, a Newton step from 0 as intercept, its metric and PseudoHuberParam.
class PseudoHuberFacts final : public detail::PerTargetFacts {
 public:
  std::vector<float> intercept(ObjectiveParams const& p, std::vector<float> const& labels, std::vector<float> const& weights,
                               int, std::vector<std::uint32_t> const&) const override {
    // FitStump from margin 0 with the host's sqrt
    double const leaf = detail::newton_step_from_zero(labels, weights, [&p](float label, float wi, float* g, float* h) {
      float const z = 0.0f - label;
      float const slope = p.huber_slope;
      float const scale_sqrt = std::sqrt(1 + (z * z) / (slope * slope));
      float const scale = slope * slope + z * z;
      *g = z / scale_sqrt * wi;
      *h = slope * slope / (scale * scale_sqrt) * wi;
    });
    return {static_cast<float>(leaf)};
  }

  std::string default_metric(ObjectiveParams const&) const override { return "mphe"; }

  ObjectiveConfig model_config(ObjectiveParams const& p) const override {
    return {p.objective, "pseudo_huber_param", {{"huber_slope", param_float_string(p.huber_slope)}}};
  }
};

}  // namespace

Objective const& PseudoHuberObjective::host() { return host_facts<PseudoHuberFacts>(); }

}  // namespace kboost
