#pragma once
/// \file shap_paths.hpp
/// Every root-to-leaf path of every tree of a SHAP layout (kernels/shap_layout.hpp), extracted once
/// for the path-parallel TreeSHAP kernel (kernels/tree_shap_paths.hpp), as GPUTreeShap extracts them
/// (upstream XGBoost's src/predictor/gpu_predictor.cu ExtractPaths; github.com/rapidsai/gputreeshap).
/// Unlike GPUTreeShap's, a path keeps every node in root-to-leaf order (repeated features included):
/// the kernel replays upstream's CPU recursion (src/predictor/treeshap.cc) along it, and repeated
/// features are where that recursion unwinds.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include <kboost/kernels/predict_layout.hpp>
#include <kboost/kernels/shap_layout.hpp>

namespace kboost {

/// Deepest tree (root at depth 0) the path-parallel kernel replays: its per-thread path buffer has
/// kShapPathMaxDepth + 1 elements. Deeper forests use the per-row kernel.
inline constexpr int kShapPathMaxDepth = 32;

/// One node of a root-to-leaf path: its pool slot and, for a split, how many leaves lie below its
/// child that the path does NOT take (the leaves a row visits first when that child is its hot one,
/// which is how a leaf's rank in the row's visit order is found).
struct ShapPathStep {
  std::int32_t node;
  std::int32_t other_leaves;
};

/// Host-side paths of a HostShapForest. Tree t's paths are [tree_path_begin[t], tree_path_begin[t + 1]),
/// in the tree's left-first order (path_tree[p]: p's tree); path p's nodes are steps[step_begin[p] .. step_begin[p + 1]) from
/// the root to its leaf. Its terms (one per distinct split feature on the path, in the order
/// upstream's path holds them at the leaf: by last occurrence) are [term_begin[p], term_begin[p + 1]),
/// each the term's column in its tree's split features (HostShapForest::tree_features, from the
/// tree's tree_features_begin).
struct HostShapPaths {
  std::vector<std::int32_t> tree_path_begin, path_tree, step_begin, term_begin;
  std::vector<ShapPathStep> steps;
  std::vector<std::int32_t> term_column;
  /// Per path, bit k set when its terms include column k (k < 64); all bits set in trees of more
  /// than 64 split features, where only the terms tell.
  std::vector<std::uint64_t> column_mask;
  /// Tree of each value column: tree t's columns (its split features, then its bias) are
  /// [tree_features_begin[t] + t, tree_features_begin[t + 1] + t + 1).
  std::vector<std::int32_t> column_tree;
};

/// The paths of every tree of `h` (any depth; the kernel checks kShapPathMaxDepth).
HostShapPaths extract_shap_paths(HostShapForest const& h);

/// The same arrays as Views in `MemorySpace`.
template <class MemorySpace>
struct ShapPathArrays {
  Kokkos::View<const std::int32_t*, MemorySpace> tree_path_begin, path_tree, step_begin, term_begin;
  Kokkos::View<const ShapPathStep*, MemorySpace> steps;
  Kokkos::View<const std::int32_t*, MemorySpace> term_column, column_tree;
  Kokkos::View<const std::uint64_t*, MemorySpace> column_mask;
};

/// Copy HostShapPaths into `MemorySpace` (fenced: usable when this returns).
template <class MemorySpace>
ShapPathArrays<MemorySpace> upload_shap_paths(HostShapPaths const& h) {
  ShapPathArrays<MemorySpace> d;
  d.tree_path_begin = detail::upload<MemorySpace>("kboost::shap::tree_path_begin", h.tree_path_begin);
  d.path_tree = detail::upload<MemorySpace>("kboost::shap::path_tree", h.path_tree);
  d.step_begin = detail::upload<MemorySpace>("kboost::shap::step_begin", h.step_begin);
  d.term_begin = detail::upload<MemorySpace>("kboost::shap::term_begin", h.term_begin);
  d.term_column = detail::upload<MemorySpace>("kboost::shap::term_column", h.term_column);
  d.column_tree = detail::upload<MemorySpace>("kboost::shap::column_tree", h.column_tree);
  d.steps = detail::upload<MemorySpace>("kboost::shap::steps", h.steps);
  d.column_mask = detail::upload<MemorySpace>("kboost::shap::column_mask", h.column_mask);
  Kokkos::fence();
  return d;
}

}  // namespace kboost
