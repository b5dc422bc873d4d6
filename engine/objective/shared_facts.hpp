#pragma once
/// \file shared_facts.hpp
/// Host facts that several objective families share, as upstream XGBoost 3.2's objectives repeat
/// them (src/objective/regression_obj.cu, quantile_obj.cu, adaptive.cc): one output per label
/// column; the adaptive objectives' leaf refit; the count regressions' label check and intercept.
#include <kboost/engine/objective/intercept.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kboost::detail {

/// One output per label column (the element-wise objectives; several label columns: multi-target).
class PerTargetFacts : public Objective {
 public:
  ObjectiveCapabilities capabilities() const override {
    return ObjectiveCapabilities(ObjectiveCapabilities::Outputs::kTargets);
  }
};

/// PoissonRegression's and TweedieRegression's: labels must not be negative (CheckLabel), the
/// weighted label mean is the intercept (FitInterceptGlmLike), one output per label column.
class NonNegativeMeanFacts : public PerTargetFacts {
 public:
  void check_labels(ObjectiveParams const&, float const* labels, std::size_t n, LabelFailure const& fail) const override {
    for (std::size_t i = 0; i < n; ++i)
      if (!(labels[i] >= 0.0f)) fail(i, "is negative");
  }
  std::vector<float> intercept(ObjectiveParams const&, std::vector<float> const& labels, std::vector<float> const& weights,
                               int, std::vector<std::uint32_t> const&) const override {
    return {static_cast<float>(weighted_mean(labels, weights))};
  }
};

/// The capabilities of an adaptive objective (upstream's ObjInfo::UpdateTreeLeaf): `outputs`
/// outputs, and every new tree's leaves refit to a quantile of their rows' residuals, which takes
/// all rows on one rank.
inline ObjectiveCapabilities refitting_capabilities(ObjectiveCapabilities::Outputs outputs) {
  ObjectiveCapabilities c(outputs, " (its leaf refit takes quantiles of each leaf's residuals over all rows)");
  c.refits_leaves = true;
  return c;
}

}  // namespace kboost::detail
