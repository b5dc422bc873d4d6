/// \file predict_layout.cpp
/// Flattening a Model into the prediction layout (HostForest): dense or compact per tree.
#include <kboost/kernels/predict_layout.hpp>
#include <kboost/kernels/detail/tree_shape.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <stdexcept>
#include <utility>

namespace kboost {

namespace {

/// Writes node `nid` of `t` (K leaf values per vector leaf) into pool slot `slot` of `h`.
void fill_node(HostForest& h, TreeModel const& t, std::vector<std::vector<std::uint32_t>> const& cat_bits, int K,
               int nid, std::size_t slot) {
  PredictNode& n = h.nodes[slot];
  h.node_ids[slot] = nid;
  if (t.is_leaf(nid)) {
    n = PredictNode{t.split_conditions[nid], 0, -1, PredictNode::kLeaf};
    if (t.size_leaf_vector > 1) {
      n.child = static_cast<std::int32_t>(h.leaf_values.size());
      auto li = static_cast<std::size_t>(t.right_children[nid]) * K;
      h.leaf_values.insert(h.leaf_values.end(), t.leaf_weights.begin() + li, t.leaf_weights.begin() + li + K);
    }
    return;
  }
  n.value = t.split_conditions[nid];
  n.feature = t.split_indices[nid];
  n.flags = t.default_left[nid] ? PredictNode::kDefaultLeft : 0u;
  if (!t.split_type.empty() && t.split_type[nid] == 1) {
    n.flags |= PredictNode::kCategorical;
    h.has_categorical = true;
    if (h.cat_begin.size() < h.nodes.size()) {
      h.cat_begin.resize(h.nodes.size(), 0);
      h.cat_words.resize(h.nodes.size(), 0);
    }
    auto const& bits = cat_bits[static_cast<std::size_t>(nid)];
    h.cat_begin[slot] = static_cast<std::int32_t>(h.cat_bits.size());
    h.cat_words[slot] = static_cast<std::int32_t>(bits.size());
    h.cat_bits.insert(h.cat_bits.end(), bits.begin(), bits.end());
  }
}

/// Complete binary array from pool slot `base` (`n_slots` slots), then filled to full depth.
template <class Fill>
void place_dense(HostForest& h, TreeModel const& t, std::size_t base, std::size_t n_slots, Fill const& fill) {
  std::vector<std::pair<int, std::size_t>> stack{{0, 0}};
  while (!stack.empty()) {
    auto [nid, pos] = stack.back();
    stack.pop_back();
    fill(nid, base + pos);
    if (!t.is_leaf(nid)) {
      stack.push_back({t.left_children[nid], 2 * pos + 1});
      stack.push_back({t.right_children[nid], 2 * pos + 2});
    }
  }
  // Full-depth form for the host's fixed-step walk: every slot below a leaf becomes a copy of
  // that leaf (same value, pool id and leaf vector; feature 0 so a step may read it), so each
  // row takes exactly `depth` steps and ends on a slot that holds its leaf. The generic walk
  // still stops at the first leaf slot; both reach the same leaf.
  for (std::size_t pos = 0; pos < n_slots; ++pos) {
    PredictNode& n = h.nodes[base + pos];
    if (!(n.flags & PredictNode::kLeaf)) continue;
    n.feature = 0;
    for (std::size_t c = 2 * pos + 1; c <= 2 * pos + 2 && c < n_slots; ++c) {
      h.nodes[base + c] = n;
      h.node_ids[base + c] = h.node_ids[base + pos];
    }
  }
}

/// Breadth-first from pool slot `base`, siblings adjacent: a node's children get the next two free
/// positions; the pool is cut after the last one (unreachable, deleted nodes dropped).
template <class Fill>
void place_compact(HostForest& h, TreeModel const& t, std::size_t base, Fill const& fill) {
  std::deque<std::pair<int, std::size_t>> queue{{0, 0}};
  std::size_t next = 1;
  while (!queue.empty()) {
    auto [nid, pos] = queue.front();
    queue.pop_front();
    fill(nid, base + pos);
    if (!t.is_leaf(nid)) {
      h.nodes[base + pos].child = static_cast<std::int32_t>(next);
      queue.push_back({t.left_children[nid], next});
      queue.push_back({t.right_children[nid], next + 1});
      next += 2;
    }
  }
  h.nodes.resize(base + next);
  h.node_ids.resize(base + next);
}

/// Appends tree `t` (output column `group`, K leaf values per vector leaf) to `h`'s pool.
void append_tree(HostForest& h, TreeModel const& t, int group, int K, int max_dense_depth) {
  h.vector_leaf = h.vector_leaf || t.size_leaf_vector > 1;
  auto const cat_bits = detail::right_category_bits(t);
  int const depth = detail::tree_depth(t);
  h.max_depth = std::max(h.max_depth, depth);
  std::size_t const dense_size = (std::size_t{1} << (depth + 1)) - 1;
  bool const dense = depth <= max_dense_depth && dense_size <= std::max<std::size_t>(64, 4 * t.num_nodes());
  std::size_t const n_slots = dense ? dense_size : t.num_nodes();
  std::size_t const base = h.nodes.size();
  h.nodes.resize(base + n_slots, PredictNode{0.0f, 0, -1, PredictNode::kLeaf});
  h.node_ids.resize(base + n_slots, -1);
  auto const fill = [&](int nid, std::size_t slot) { fill_node(h, t, cat_bits, K, nid, slot); };
  if (dense) {
    place_dense(h, t, base, n_slots, fill);
    ++h.n_dense;
  } else {
    place_compact(h, t, base, fill);
    ++h.n_compact;
  }
  if (h.nodes.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw std::runtime_error("model too large for the predictor's 32-bit node pool");
  h.tree_begin.push_back(static_cast<std::int32_t>(h.nodes.size()));
  h.tree_group.push_back(group);
  bool numeric = true;
  for (std::size_t nid = 0; nid < t.split_type.size(); ++nid) numeric = numeric && t.split_type[nid] == 0;
  // 0: compact; 1: dense; 2 + depth: dense and numeric (host fixed-step walk, kernels/predict_kernel.hpp)
  h.tree_dense.push_back(!dense ? 0 : numeric ? static_cast<std::uint8_t>(2 + depth) : 1);
}

/// Every pool slot gets its (unused) category entry once any split is categorical.
void finish_categories(HostForest& h) {
  if (h.has_categorical) {
    h.cat_begin.resize(h.nodes.size(), 0);
    h.cat_words.resize(h.nodes.size(), 0);
  }
}

}  // namespace

HostForest flatten_forest(Model const& m, int max_dense_depth) {
  HostForest h;
  int const K = m.num_outputs();
  h.tree_begin.push_back(0);
  for (std::size_t ti = 0; ti < m.trees.size(); ++ti) append_tree(h, m.trees[ti], m.tree_info[ti], K, max_dense_depth);
  finish_categories(h);
  if (m.booster == "dart" || !m.weight_drop.empty()) h.tree_weight = m.weight_drop;
  return h;
}

HostForest flatten_tree(TreeModel const& t, int max_dense_depth) {
  HostForest h;
  h.tree_begin.push_back(0);
  append_tree(h, t, 0, std::max(1, static_cast<int>(t.size_leaf_vector)), max_dense_depth);
  finish_categories(h);
  return h;
}

}  // namespace kboost
