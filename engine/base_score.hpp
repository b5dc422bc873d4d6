#pragma once
/// \file base_score.hpp
/// Intercept estimation (boost_from_average) and the training label check, by the objective's
/// family (engine/objective/), as upstream XGBoost 3.2
/// (src/objective/init_estimation.cc FitIntercept::InitEstimation, src/objective/regression_obj.cu
/// RegLossObj::InitEstimation -> common::FitInterceptGlmLike, src/common/stats.cc SampleMean /
/// WeightedSampleMean / Quantile, src/objective/multiclass_obj.cu).
#include <kboost/core/objective.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kboost {

/// Base score in OUTPUT space (what the model file stores), one per output group (or one).
/// labels: rows; weights: rows or empty (= 1).
///  - reg:squarederror, reg:logistic, binary:*, count:poisson, reg:gamma, reg:tweedie: weighted
///    label mean (FitInterceptGlmLike), or, when scale_pos_weight != 1, one Newton step from margin
///    0 (FitStump: -Σg/Σh in double) mapped through the output transform;
///  - reg:pseudohubererror, reg:squaredlogerror: the Newton step from 0;
///  - survival:cox: the Newton step from 0 of the Cox gradients, through exp (FitIntercept);
///  - rank:*: the Newton step from 0 of the LambdaMART gradients of round 0 (FitIntercept);
///  - reg:absoluteerror: weighted median (common::Quantile / WeightedQuantile at 0.5), times the
///    weight sum and divided by it again, as upstream;
///  - reg:quantileerror: the labels' quantile at each quantile_alpha (one value per alpha);
///  - multi:*: log(class frequency + 1e-6) − mean over classes (n_groups values), in float as
///    upstream's MulticlassInitEstimation (multiclass_obj).
/// Throws std::runtime_error on empty labels or size mismatch.
/// Checks training labels (n values) against what the objective requires, before any intercept
/// is estimated, as upstream's CheckLabel (src/objective/regression_loss.h LogisticRegression:
/// "label must be in [0,1] for logistic regression"; multiclass_obj: "label must be in
/// [0, num_class)"; count:poisson: non-negative; reg:gamma, reg:tweedie: non-negative/positive).
/// Throws std::runtime_error naming `source` (the file), the label and its 1-based row; first_row:
/// the file row of labels[0] (a shard's offset); n_targets: labels per row (n = rows × n_targets).
void check_labels(ObjectiveParams const& params, float const* labels, std::size_t n, std::string const& source,
                  std::size_t first_row = 0, std::size_t n_targets = 1);

/// group_ptr: query groups (n_groups + 1 offsets; rank:* only, empty = one group).
/// Multi-target objectives (ObjectiveCapabilities::Outputs::kTargets) with n_groups > 1 take labels as
/// rows × n_groups (row-major) and estimate each column's intercept as above (upstream's
/// SampleMean / FitStump / Median loop over targets).
std::vector<float> estimate_base_score(ObjectiveParams const& params, std::vector<float> const& labels,
                                       std::vector<float> const& weights, int n_groups,
                                       std::vector<std::uint32_t> const& group_ptr = {});

}  // namespace kboost
