#pragma once
/// \file importance.hpp
/// Feature importance of a tree model, equal to upstream XGBoost 3.2's
/// `Booster.get_score(fmap, importance_type)` (src/gbm/gbtree.h GBTree::FeatureScore,
/// src/c_api/c_api.cc XGBoosterFeatureScore, python-package/xgboost/core.py get_score).
#include <string>
#include <utility>
#include <vector>

#include <kboost/core/model.hpp>
#include <kboost/io/feature_map.hpp>

namespace kboost {

/// Upstream's importance types.
enum class ImportanceType { kWeight, kGain, kCover, kTotalGain, kTotalCover };

/// "weight", "gain", "cover", "total_gain" or "total_cover" to the type.
/// \throws std::runtime_error on any other name.
ImportanceType parse_importance_type(std::string const& name);

/// Feature name -> score, in upstream's key order (feature index ascending), only features used by
/// at least one split. Values are upstream's float32 scores widened to double, as Python's floats:
///   weight       number of splits on the feature
///   total_gain   sum of the splits' loss_changes, total_cover the sum of their sum_hessian
///   gain / cover the totals divided by max(1, splits) in float32
/// Sums run in float32 over trees in model order, nodes in upstream's WalkTree order (a stack:
/// root, then the right subtree before the left), so the values are bit-identical to upstream's.
/// Names come from `fmap`, else the model's feature_names, else "f<i>" (resolve_feature_map);
/// a repeated name keeps its first position and the later value (Python dict insertion).
using FeatureScores = std::vector<std::pair<std::string, double>>;

/// The scores of `model` (every tree; vector-leaf trees included).
/// \throws std::runtime_error when `fmap` is non-empty and does not have num_feature entries, or a
///         split's feature index is not below num_feature.
FeatureScores feature_importance(Model const& model, ImportanceType type, FeatureMap const& fmap = {});

}  // namespace kboost
