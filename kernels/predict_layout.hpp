#pragma once
/// \file predict_layout.hpp
/// The device-resident form of a tree ensemble for prediction: all trees flattened into one node
/// pool, uploaded once. Each tree uses one of two layouts, chosen from its shape:
///  - dense: a complete binary array (children of position p at 2p+1, 2p+2; no child pointers), used
///    for shallow trees whose complete array is not much larger than the tree;
///  - compact: breadth-first with siblings adjacent (left child at `child`, right at `child + 1`),
///    used for deep or unbalanced trees.
/// Upstream's CPU predictor unrolls the top levels of each tree into a similar array
/// (src/predictor/array_tree_layout.h); decisions are the same as its GetNextNode.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <kboost/core/model.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/split_rule.hpp>

namespace kboost {

/// One node, 16 bytes. For leaves `value` is the leaf value (scalar trees) and `child` the offset of
/// the leaf vector in leaf_values (vector-leaf trees).
struct PredictNode {
  float value;           ///< threshold (go left iff x < value) or leaf value
  std::int32_t child;    ///< compact layout: pool position of the left child (right = child + 1)
  std::int32_t feature;  ///< split feature, -1 for leaves
  std::uint32_t flags;   ///< kLeaf | kDefaultLeft | kCategorical
  static constexpr std::uint32_t kLeaf = 1u, kDefaultLeft = 2u, kCategorical = 4u;
  /// What the split rule (kernels/split_rule.hpp) reads of a split node.
  KOKKOS_INLINE_FUNCTION bool default_left() const { return (flags & kDefaultLeft) != 0; }
  KOKKOS_INLINE_FUNCTION bool is_categorical() const { return (flags & kCategorical) != 0; }
};

/// Host-side flattened ensemble (built once from a Model; see flatten_forest).
struct HostForest {
  std::vector<PredictNode> nodes;
  std::vector<std::int32_t> node_ids;          ///< original XGBoost node id of each pool slot (pred_leaf)
  std::vector<std::int32_t> cat_begin, cat_words;  ///< per pool slot: bitset words in cat_bits (categorical only)
  std::vector<std::uint32_t> cat_bits;         ///< bit c of a node's set: category c goes RIGHT
  std::vector<float> leaf_values;              ///< vector leaves, size_leaf_vector floats each
  std::vector<std::int32_t> tree_begin;        ///< pool offset of each tree, n_trees + 1 entries
  std::vector<std::uint8_t> tree_dense;        ///< 0: compact; 1: dense; 2 + depth: dense, numeric splits only
  std::vector<std::int32_t> tree_group;        ///< output column of a scalar tree (tree_info)
  std::vector<float> tree_weight;              ///< DART weight_drop (empty: plain gbtree)
  bool vector_leaf = false;
  bool has_categorical = false;
  int max_depth = 0;
  int n_dense = 0, n_compact = 0;
};

/// Flatten `m` (validated by read_model/validate_model). Layout per tree: dense when its depth
/// is <= `max_dense_depth` and the complete array has at most 4x (or 64) more slots than nodes.
HostForest flatten_forest(Model const& m, int max_dense_depth = 10);

/// Flatten the single tree `t` as flatten_forest lays out each tree: a one-tree forest with output
/// column 0 and no DART weight (training's margins of eval sets, kernels/leaves.hpp).
HostForest flatten_tree(TreeModel const& t, int max_dense_depth = 10);

/// The same arrays as Views in `MemorySpace` (uploaded once by upload_forest; owned by a Predictor,
/// which hands out non-owning DeviceForest handles to them).
template <class MemorySpace>
struct ForestArrays {
  Kokkos::View<const PredictNode*, MemorySpace> nodes;
  Kokkos::View<const std::int32_t*, MemorySpace> node_ids;
  Kokkos::View<const std::int32_t*, MemorySpace> cat_begin, cat_words;
  Kokkos::View<const std::uint32_t*, MemorySpace> cat_bits;
  Kokkos::View<const float*, MemorySpace> leaf_values;
  Kokkos::View<const std::int32_t*, MemorySpace> tree_begin;
  Kokkos::View<const std::uint8_t*, MemorySpace> tree_dense;
  Kokkos::View<const std::int32_t*, MemorySpace> tree_group;
  Kokkos::View<const float*, MemorySpace> tree_weight;  ///< extent 0 for gbtree
  bool vector_leaf = false;
  bool has_categorical = false;
  int n_trees = 0;
};

namespace detail {
/// An owning copy of `v` in MemorySpace, labelled `label` (the copy counted, core/transfers.hpp).
template <class MemorySpace, class T>
Kokkos::View<const T*, MemorySpace> upload(std::string const& label, std::vector<T> const& v) {
  Kokkos::View<T*, MemorySpace> d(Kokkos::view_alloc(label, Kokkos::WithoutInitializing), v.size());
  Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(v.data(), v.size());
  counted_deep_copy(d, h);
  return d;
}
}  // namespace detail

/// Copy a HostForest into `MemorySpace` (fenced: the forest is usable when this returns); the
/// Views are labelled `<prefix>::nodes`, `<prefix>::node_ids`, ...
template <class MemorySpace>
ForestArrays<MemorySpace> upload_forest(HostForest const& h, std::string const& prefix = "kboost::predict") {
  ForestArrays<MemorySpace> d;
  d.nodes = detail::upload<MemorySpace>(prefix + "::nodes", h.nodes);
  d.node_ids = detail::upload<MemorySpace>(prefix + "::node_ids", h.node_ids);
  d.cat_begin = detail::upload<MemorySpace>(prefix + "::cat_begin", h.cat_begin);
  d.cat_words = detail::upload<MemorySpace>(prefix + "::cat_words", h.cat_words);
  d.cat_bits = detail::upload<MemorySpace>(prefix + "::cat_bits", h.cat_bits);
  d.leaf_values = detail::upload<MemorySpace>(prefix + "::leaf_values", h.leaf_values);
  d.tree_begin = detail::upload<MemorySpace>(prefix + "::tree_begin", h.tree_begin);
  d.tree_dense = detail::upload<MemorySpace>(prefix + "::tree_dense", h.tree_dense);
  d.tree_group = detail::upload<MemorySpace>(prefix + "::tree_group", h.tree_group);
  d.tree_weight = detail::upload<MemorySpace>(prefix + "::tree_weight", h.tree_weight);
  d.vector_leaf = h.vector_leaf;
  d.has_categorical = h.has_categorical;
  d.n_trees = static_cast<int>(h.tree_group.size());
  Kokkos::fence();
  return d;
}

namespace detail {
/// Feature `f` of a row given as contiguous values (x[f]) ...
template <class T>
KOKKOS_INLINE_FUNCTION float feature_at(T* x, int f) {
  return x[f];
}
/// ... or as any accessor callable as x(f) (a View row, a user's particle storage).
template <class Row>
KOKKOS_INLINE_FUNCTION float feature_at(Row const& x, int f) {
  return x(f);
}

/// Row `row` of a rank-2 View (any layout) as an accessor x(feature).
template <class XView>
struct ViewRow {
  XView x;
  int row;
  KOKKOS_INLINE_FUNCTION float operator()(int f) const { return x(row, f); }
};
}  // namespace detail

/// Pool position of the leaf that row `x` reaches in tree `t`; `x` is a pointer to the row's
/// contiguous features or an accessor x(feature) -> float. Each split follows split_goes_left
/// (kernels/split_rule.hpp; missing: NaN or equal to `missing`).
template <class Forest, class Row>
KOKKOS_INLINE_FUNCTION std::int32_t traverse_tree(Forest const& f, int t, Row const& x, float missing) {
  std::int32_t const base = f.tree_begin(t);
  bool const dense = f.tree_dense(t) != 0;
  std::int32_t p = 0;  // position within the tree
  while (true) {
    PredictNode const n = f.nodes(base + p);
    if (n.flags & PredictNode::kLeaf) return base + p;
    bool const left = split_goes_left(f, base + p, n, detail::feature_at(x, n.feature), missing);
    p = (dense ? 2 * p + 1 : n.child) + (left ? 0 : 1);
  }
}

}  // namespace kboost
