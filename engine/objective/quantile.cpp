/// \file quantile.cpp
/// QuantileRegression's host facts (upstream src/objective/quantile_obj.cu: InitEstimation,
/// DefaultEvalMetric, SaveConfig; ObjInfo::UpdateTreeLeaf).
#include <kboost/engine/objective/quantile.hpp>

#include <kboost/engine/objective/intercept.hpp>
#include <kboost/engine/params.hpp>

namespace kboost {

ObjectiveCapabilities QuantileObjective::capabilities() const {
  ObjectiveCapabilities c;
  c.outputs = ObjectiveCapabilities::Outputs::kQuantiles;
  c.refits_leaves = true;
  c.single_rank_reason = " (its leaf refit takes quantiles of each leaf's residuals over all rows)";
  return c;
}

std::vector<float> QuantileObjective::intercept(ObjectiveParams const& p, std::vector<float> const& labels,
                                                std::vector<float> const& weights, int,
                                                std::vector<std::uint32_t> const&) const {
  std::vector<float> out;  // one quantile of the labels per alpha
  for (float a : p.quantile_alpha) out.push_back(detail::label_quantile(a, labels, weights));
  return out;
}

double QuantileObjective::leaf_quantile(ObjectiveParams const& p, int output) const {
  return p.quantile_alpha[static_cast<std::size_t>(output)];
}

std::string QuantileObjective::default_metric(ObjectiveParams const&) const { return "quantile"; }

ObjectiveConfig QuantileObjective::model_config(ObjectiveParams const& p) const {
  return {p.objective, "quantile_loss_param", {{"quantile_alpha", quantile_alpha_string(p.quantile_alpha)}}};
}

}  // namespace kboost
