/// \file cox.cpp
/// CoxRegression's host facts (upstream src/objective/regression_obj.cu: DefaultEvalMetric;
/// src/objective/init_estimation.cc FitIntercept).
#include <kboost/engine/objective/cox.hpp>

#include <kboost/engine/objective/intercept.hpp>

namespace kboost {
namespace {

/// One output on one rank, a Newton step from 0 as intercept, its metric.
class CoxFacts final : public Objective {
 public:
  ObjectiveCapabilities capabilities() const override {
    return ObjectiveCapabilities(ObjectiveCapabilities::Outputs::kOne, " (its risk sets run over all rows in time order)");
  }

  std::vector<float> intercept(ObjectiveParams const&, std::vector<float> const& labels, std::vector<float> const& weights,
                               int, std::vector<std::uint32_t> const&) const override {
    // FitIntercept: a Newton step from margin 0, then PredTransform (exp)
    std::vector<float> const zero(labels.size(), 0.0f);
    std::vector<float> g(labels.size()), h(labels.size());
    detail::cox_gradients(zero.data(), labels.data(), weights.empty() ? nullptr : weights.data(), labels.size(), g.data(),
                          h.data());
    return {pmath::expf(static_cast<float>(detail::newton_step(g, h)))};
  }

  std::string default_metric(ObjectiveParams const&) const override { return "cox-nloglik"; }
};

}  // namespace

Objective const& CoxObjective::host() { return host_facts<CoxFacts>(); }

}  // namespace kboost
