/// \file cox.cpp
/// CoxRegression's host facts (upstream src/objective/regression_obj.cu: DefaultEvalMetric;
/// src/objective/init_estimation.cc FitIntercept).
#include <kboost/engine/objective/cox.hpp>

#include <kboost/engine/objective/intercept.hpp>

namespace kboost {

ObjectiveCapabilities CoxObjective::capabilities() const {
  ObjectiveCapabilities c;
  c.single_rank_reason = " (its risk sets run over all rows in time order)";
  return c;
}

std::vector<float> CoxObjective::intercept(ObjectiveParams const&, std::vector<float> const& labels,
                                           std::vector<float> const& weights, int,
                                           std::vector<std::uint32_t> const&) const {
  // FitIntercept: a Newton step from margin 0, then PredTransform (exp)
  std::vector<float> const zero(labels.size(), 0.0f);
  std::vector<float> g(labels.size()), h(labels.size());
  detail::cox_gradients(zero.data(), labels.data(), weights.empty() ? nullptr : weights.data(), labels.size(), g.data(),
                        h.data());
  return {pmath::expf(static_cast<float>(detail::newton_step(g, h)))};
}

std::string CoxObjective::default_metric(ObjectiveParams const&) const { return "cox-nloglik"; }

}  // namespace kboost
