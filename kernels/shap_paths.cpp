/// \file shap_paths.cpp
/// Root-to-leaf path extraction for the path-parallel TreeSHAP kernel (HostShapPaths).
#include <kboost/kernels/shap_paths.hpp>

#include <algorithm>
#include <cstddef>
#include <utility>

namespace kboost {

namespace {

/// Leaves below each node of the tree whose root is pool slot `root`, indexed by slot - root.
std::vector<std::int32_t> leaf_counts(HostShapForest const& h, std::int32_t root, std::int32_t end) {
  std::vector<std::int32_t> leaves(static_cast<std::size_t>(end - root), 0);
  // Children have larger node ids than their parent in every XGBoost tree but not in every pool, so
  // the counts come from an explicit post-order walk.
  std::vector<std::pair<std::int32_t, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto const [slot, expanded] = stack.back();
    stack.pop_back();
    ShapNode const& n = h.nodes[static_cast<std::size_t>(slot)];
    auto& count = leaves[static_cast<std::size_t>(slot - root)];
    if (n.split.flags & PredictNode::kLeaf) {
      count = 1;
    } else if (expanded) {
      count = leaves[static_cast<std::size_t>(n.split.child - root)] + leaves[static_cast<std::size_t>(n.right - root)];
    } else {
      stack.push_back({slot, true});
      stack.push_back({n.right, false});
      stack.push_back({n.split.child, false});
    }
  }
  return leaves;
}

/// Appends the path ending at the current DFS position: its steps and its terms' columns (the
/// distinct split features in upstream's path order at the leaf: a repeated feature is unwound from
/// its place and extended again at the end).
void append_path(HostShapForest const& h, int tree, std::vector<ShapPathStep> const& steps, HostShapPaths& out) {
  std::vector<std::int32_t> features;
  for (std::size_t j = 0; j + 1 < steps.size(); ++j) {
    std::int32_t const f = h.nodes[static_cast<std::size_t>(steps[j].node)].split.feature;
    features.erase(std::remove(features.begin(), features.end(), f), features.end());
    features.push_back(f);
  }
  auto const first = h.tree_features.begin() + h.tree_features_begin[static_cast<std::size_t>(tree)];
  auto const last = h.tree_features.begin() + h.tree_features_begin[static_cast<std::size_t>(tree) + 1];
  std::uint64_t mask = last - first > 64 ? ~std::uint64_t{0} : 0;
  for (std::int32_t f : features) {
    auto const column = static_cast<std::int32_t>(std::lower_bound(first, last, f) - first);
    out.term_column.push_back(column);
    if (column < 64) mask |= std::uint64_t{1} << column;
  }
  out.column_mask.push_back(mask);
  out.term_begin.push_back(static_cast<std::int32_t>(out.term_column.size()));
  out.steps.insert(out.steps.end(), steps.begin(), steps.end());
  out.step_begin.push_back(static_cast<std::int32_t>(out.steps.size()));
  out.path_tree.push_back(tree);
}

/// The paths of tree `t`, left child first.
void extract_tree_paths(HostShapForest const& h, int t, HostShapPaths& out) {
  std::int32_t const root = h.tree_begin[static_cast<std::size_t>(t)];
  auto const leaves = leaf_counts(h, root, h.tree_begin[static_cast<std::size_t>(t) + 1]);
  // Depth-first with the path as the stack; right_pending[j]: step j went left, its right child is
  // still to come.
  std::vector<ShapPathStep> path{{root, 0}};
  std::vector<char> right_pending{0};
  auto leaves_below = [&](std::int32_t slot) { return leaves[static_cast<std::size_t>(slot - root)]; };
  while (!path.empty()) {
    ShapNode const& n = h.nodes[static_cast<std::size_t>(path.back().node)];
    if (!(n.split.flags & PredictNode::kLeaf)) {
      path.back().other_leaves = leaves_below(n.right);
      right_pending.back() = 1;
      path.push_back({n.split.child, 0});
      right_pending.push_back(0);
      continue;
    }
    append_path(h, t, path, out);
    while (!path.empty() && !right_pending.back()) {
      path.pop_back();
      right_pending.pop_back();
    }
    if (path.empty()) break;
    ShapNode const& split = h.nodes[static_cast<std::size_t>(path.back().node)];
    path.back().other_leaves = leaves_below(split.split.child);
    right_pending.back() = 0;
    path.push_back({split.right, 0});
    right_pending.push_back(0);
  }
  out.tree_path_begin.push_back(static_cast<std::int32_t>(out.step_begin.size() - 1));
  int const columns = h.tree_features_begin[static_cast<std::size_t>(t) + 1] - h.tree_features_begin[static_cast<std::size_t>(t)] + 1;
  out.column_tree.insert(out.column_tree.end(), static_cast<std::size_t>(columns), t);
}

}  // namespace

HostShapPaths extract_shap_paths(HostShapForest const& h) {
  HostShapPaths out;
  out.tree_path_begin.push_back(0);
  out.step_begin.push_back(0);
  out.term_begin.push_back(0);
  int const n_trees = static_cast<int>(h.tree_begin.size()) - 1;
  for (int t = 0; t < n_trees; ++t) extract_tree_paths(h, t, out);
  return out;
}

}  // namespace kboost
