#pragma once
/// \file split_params.hpp
/// The parameters split evaluation reads (kernels/evaluate_splits.hpp): the regularisation of
/// upstream's CalcWeight/CalcGain and the categorical split limits (src/tree/param.h TrainParam),
/// plain data that the evaluation kernels copy to the device. The booster's TreeParams
/// (engine/params.hpp) extends it with the rest of the tree booster's parameters.
#include <cstdint>

namespace kboost {

/// Regularisation parameters the split search needs (XGBoost names; float as upstream's TrainParam).
struct SplitParams {
  float lambda = 1.0f;            ///< reg_lambda: L2 regularisation of leaf weights
  float alpha = 0.0f;             ///< reg_alpha: L1 regularisation of leaf weights
  float max_delta_step = 0.0f;    ///< tree weight clip; count:poisson defaults it to 0.7 (as upstream 3.2)
  float min_child_weight = 1.0f;  ///< minimum hessian sum in a child
  float gamma = 0.0f;             ///< min_split_loss
  /// Categorical features (DatasetInfo::feature_types) split on category sets as upstream's hist
  /// (src/tree/hist/evaluate_splits.h): one category against the rest when the feature has fewer
  /// than max_cat_to_onehot categories, else a partition of the categories sorted by their weight,
  /// at most max_cat_threshold categories on the side the search grows.
  std::int32_t max_cat_to_onehot = 4;
  std::int32_t max_cat_threshold = 64;  ///< partition splits: categories on the growing side
};

}  // namespace kboost
