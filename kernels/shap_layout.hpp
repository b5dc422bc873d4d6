#pragma once
/// \file shap_layout.hpp
/// The device-resident form of a tree ensemble for SHAP values: every tree's nodes in the model's own
/// node order (TreeSHAP walks both children of every split, so the prediction layout's dense arrays
/// would only add padding), each with its cover and the mean value of its subtree, uploaded once.
/// Mean values are upstream's FillNodeMeanValues (src/predictor/cpu_predictor.cc): for a split,
/// (mean(left) · cover(left) + mean(right) · cover(right)) / cover in float32, in that order.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include <kboost/core/model.hpp>
#include <kboost/kernels/predict_layout.hpp>

namespace kboost {

/// One node, 32 bytes: its split (or leaf value) as the predictor's PredictNode, with `split.child`
/// the pool slot of the left child, `right` that of the right child, the node's cover (upstream
/// Stat(nidx).sum_hess) and the mean leaf value below it.
struct ShapNode {
  PredictNode split;
  std::int32_t right;
  float cover;
  float mean_value;
  std::int32_t unused;
};

/// Host-side flattened ensemble for SHAP (see flatten_shap_forest).
struct HostShapForest {
  std::vector<ShapNode> nodes;
  std::vector<std::int32_t> cat_begin, cat_words;  ///< per pool slot (empty when no split is categorical)
  std::vector<std::uint32_t> cat_bits;             ///< bit c of a node's set: category c goes RIGHT
  std::vector<std::int32_t> tree_begin;            ///< pool slot of each tree's root, n_trees + 1 entries
  std::vector<std::int32_t> tree_group;            ///< output group of each tree (tree_info)
  /// Features each tree splits on, ascending and distinct: tree t's are
  /// tree_features[tree_features_begin[t] .. tree_features_begin[t + 1]).
  std::vector<std::int32_t> tree_features_begin, tree_features;
  std::vector<float> tree_weight;                  ///< DART weight_drop (empty: plain gbtree)
  int max_depth = 0;                               ///< deepest tree (root at depth 0)
};

/// Flatten every tree of `m` (validated by read_model/validate_model).
/// \throws std::runtime_error for vector-leaf trees, whose SHAP values upstream does not define
/// either (src/predictor/cpu_predictor.cc PredictContribution).
HostShapForest flatten_shap_forest(Model const& m);

/// The same arrays as Views in `MemorySpace`, owned by an Explainer.
template <class MemorySpace>
struct ShapForestArrays {
  Kokkos::View<const ShapNode*, MemorySpace> nodes;
  Kokkos::View<const std::int32_t*, MemorySpace> cat_begin, cat_words;
  Kokkos::View<const std::uint32_t*, MemorySpace> cat_bits;
  Kokkos::View<const std::int32_t*, MemorySpace> tree_begin, tree_group, tree_features_begin, tree_features;
  Kokkos::View<const float*, MemorySpace> tree_weight;  ///< extent 0 for gbtree
  int max_depth = 0;
};

/// Copy a HostShapForest into `MemorySpace` (fenced: usable when this returns).
template <class MemorySpace>
ShapForestArrays<MemorySpace> upload_shap_forest(HostShapForest const& h) {
  ShapForestArrays<MemorySpace> d;
  d.nodes = detail::upload<MemorySpace>("kboost::shap::nodes", h.nodes);
  d.cat_begin = detail::upload<MemorySpace>("kboost::shap::cat_begin", h.cat_begin);
  d.cat_words = detail::upload<MemorySpace>("kboost::shap::cat_words", h.cat_words);
  d.cat_bits = detail::upload<MemorySpace>("kboost::shap::cat_bits", h.cat_bits);
  d.tree_begin = detail::upload<MemorySpace>("kboost::shap::tree_begin", h.tree_begin);
  d.tree_group = detail::upload<MemorySpace>("kboost::shap::tree_group", h.tree_group);
  d.tree_features_begin = detail::upload<MemorySpace>("kboost::shap::tree_features_begin", h.tree_features_begin);
  d.tree_features = detail::upload<MemorySpace>("kboost::shap::tree_features", h.tree_features);
  d.tree_weight = detail::upload<MemorySpace>("kboost::shap::tree_weight", h.tree_weight);
  d.max_depth = h.max_depth;
  Kokkos::fence();
  return d;
}

}  // namespace kboost
