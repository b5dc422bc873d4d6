/// \file quantile.cpp
/// QuantileRegression's host facts (upstream src/objective/quantile_obj.cu: InitEstimation,
/// DefaultEvalMetric, SaveConfig; ObjInfo::UpdateTreeLeaf).
#include <kboost/engine/objective/quantile.hpp>

#include <kboost/engine/objective/intercept.hpp>
#include <kboost/engine/objective/shared_facts.hpp>
#include <kboost/engine/params.hpp>

namespace kboost {
namespace {

/// One output per alpha refit to its leaves' residual quantiles, the labels' quantiles as
/// intercepts, its metric and QuantileLossParam.
class QuantileFacts final : public Objective {
 public:
  ObjectiveCapabilities capabilities() const override {
    return detail::refitting_capabilities(ObjectiveCapabilities::Outputs::kQuantiles);
  }

  std::vector<float> intercept(ObjectiveParams const& p, std::vector<float> const& labels, std::vector<float> const& weights,
                               int, std::vector<std::uint32_t> const&) const override {
    std::vector<float> out;  // one quantile of the labels per alpha
    for (float a : p.quantile_alpha) out.push_back(detail::label_quantile(a, labels, weights));
    return out;
  }

  double leaf_quantile(ObjectiveParams const& p, int output) const override {
    return p.quantile_alpha[static_cast<std::size_t>(output)];
  }

  std::string default_metric(ObjectiveParams const&) const override { return "quantile"; }

  ObjectiveConfig model_config(ObjectiveParams const& p) const override {
    return {p.objective, "quantile_loss_param", {{"quantile_alpha", quantile_alpha_string(p.quantile_alpha)}}};
  }
};

}  // namespace

Objective const& QuantileObjective::host() { return host_facts<QuantileFacts>(); }

}  // namespace kboost
