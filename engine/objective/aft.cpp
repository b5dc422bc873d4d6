/// \file aft.cpp
/// AFTObj's host facts (upstream src/objective/aft_obj.cu: DefaultEvalMetric, SaveConfig; the
/// intercept is ObjFunction's default).
#include <kboost/engine/objective/aft.hpp>

#include <kboost/engine/params.hpp>

namespace kboost {
namespace {

/// Interval labels, one output on one rank, upstream's fixed intercept; its metric and AFTParam.
class AftFacts final : public Objective {
 public:
  ObjectiveCapabilities capabilities() const override {
    ObjectiveCapabilities c(ObjectiveCapabilities::Outputs::kOne, "", ObjectiveCapabilities::Labels::kIntervals);
    c.estimates_intercept = false;  // upstream's AFTObj keeps the default base_score 0.5
    return c;
  }

  std::vector<float> intercept(ObjectiveParams const&, std::vector<float> const&, std::vector<float> const&, int,
                               std::vector<std::uint32_t> const&) const override {
    return {0.5f};
  }

  std::string default_metric(ObjectiveParams const&) const override { return "aft-nloglik"; }

  ObjectiveConfig model_config(ObjectiveParams const& p) const override {
    return {p.objective, "aft_loss_param",
            {{"aft_loss_distribution", p.aft_loss_distribution},
             {"aft_loss_distribution_scale", param_float_string(p.aft_loss_distribution_scale)}}};
  }
};

}  // namespace

Objective const& AftObjective::host() { return host_facts<AftFacts>(); }

}  // namespace kboost
