/// \file absolute_error.cpp
/// MeanAbsoluteError's host facts (upstream src/objective/regression_obj.cu: InitEstimation,
/// DefaultEvalMetric; ObjInfo::UpdateTreeLeaf).
#include <kboost/engine/objective/absolute_error.hpp>

#include <kboost/engine/objective/intercept.hpp>
#include <kboost/engine/objective/shared_facts.hpp>

namespace kboost {
namespace {

/// One output per label column refit to its leaves' residual medians, the weighted median as
/// intercept, its metric.
class AbsoluteErrorFacts final : public Objective {
 public:
  ObjectiveCapabilities capabilities() const override {
    return detail::refitting_capabilities(ObjectiveCapabilities::Outputs::kTargets);
  }

  std::vector<float> intercept(ObjectiveParams const&, std::vector<float> const& labels, std::vector<float> const& weights,
                               int, std::vector<std::uint32_t> const&) const override {
    // The weighted median, scaled by the weight sum and back (VecScaMul then VecScaDiv on the float
    // intercept, through double), which can move its last bit.
    double sum_weight = static_cast<double>(labels.size());
    if (!weights.empty()) {
      sum_weight = 0;
      for (float v : weights) sum_weight += v;
    }
    float const median = detail::label_quantile(0.5, labels, weights);
    if (sum_weight == 0) return {0.0f};
    float const scaled = static_cast<float>(median * sum_weight);
    return {static_cast<float>(scaled / sum_weight)};
  }

  std::string default_metric(ObjectiveParams const&) const override { return "mae"; }
};

}  // namespace

Objective const& AbsoluteErrorObjective::host() { return host_facts<AbsoluteErrorFacts>(); }

}  // namespace kboost
