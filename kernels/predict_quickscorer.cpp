/// \file predict_quickscorer.cpp
/// QuickScorer's tables (kernels/predict_quickscorer.hpp; Lucchese et al., SIGIR 2015): leaves numbered
/// left to right by an in-order walk of each flattened tree, the masks of its split nodes, and every
/// feature's nodes sorted by threshold. Plain host code, also compiled (never run) in CUDA/HIP builds.
#include <kboost/kernels/predict_quickscorer.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace kboost {

namespace {

/// One split node on its way into the tables.
struct QuickScorerNode {
  std::int32_t feature, tree;
  float threshold;
  std::uint64_t mask;
  bool default_left;
};

/// The order of thresholds along a feature's scan: a present value v goes left iff v < threshold,
/// which is monotone in the threshold for numbers (±0 equal, ±inf at the ends); a NaN threshold sends
/// every present value right, so it sorts with -inf, first.
float scan_key(float threshold) { return std::isnan(threshold) ? -std::numeric_limits<float>::infinity() : threshold; }

/// In-order walk of one flattened tree (HostForest layout: dense children 2p+1, 2p+2, compact
/// `child`, `child + 1`, both positions within the tree as traverse_tree reads them): numbers its leaves left to right into leaf values, records each split node
/// with its mask. False when the tree has more than kQuickScorerMaxLeaves leaves or a categorical split.
struct TreeNumbering {
  HostForest const& h;
  int tree;
  std::vector<float>& leaves;
  std::vector<QuickScorerNode>& nodes;
  int n_leaves = 0;
  std::string why;

  bool walk(std::int32_t pos, int depth) {
    std::int32_t const base = h.tree_begin[static_cast<std::size_t>(tree)];
    PredictNode const& n = h.nodes[static_cast<std::size_t>(base + pos)];
    if (n.flags & PredictNode::kLeaf) {
      if (n_leaves == kQuickScorerMaxLeaves) return refuse("more than " + std::to_string(kQuickScorerMaxLeaves) + " leaves");
      leaves.push_back(n.value);
      ++n_leaves;
      return true;
    }
    if (n.is_categorical()) return refuse("a categorical split");
    if (depth >= kQuickScorerMaxLeaves - 1) return refuse("more than " + std::to_string(kQuickScorerMaxLeaves) + " leaves");
    bool const dense = h.tree_dense[static_cast<std::size_t>(tree)] != 0;
    std::int32_t const left = dense ? 2 * pos + 1 : n.child;
    int const first = n_leaves;
    if (!walk(left, depth + 1)) return false;
    int const count = n_leaves - first;
    std::uint64_t const ones = count == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << count) - 1);
    nodes.push_back(QuickScorerNode{n.feature, tree, n.value, ~(ones << first), n.default_left()});
    return walk(left + 1, depth + 1);
  }

  bool refuse(std::string const& reason) {
    why = "tree " + std::to_string(tree) + " has " + reason;
    return false;
  }
};

/// The per-feature offsets of `nodes` (sorted by feature) for `n_features` features.
std::vector<std::int32_t> feature_offsets(std::vector<QuickScorerNode> const& nodes, int n_features) {
  std::vector<std::int32_t> begin(static_cast<std::size_t>(n_features) + 1, 0);
  for (auto const& n : nodes) ++begin[static_cast<std::size_t>(n.feature) + 1];
  for (std::size_t j = 1; j < begin.size(); ++j) begin[j] += begin[j - 1];
  return begin;
}

/// The tables' leaves and split nodes of every tree of `h` (refusal in `why`, else empty).
std::vector<QuickScorerNode> number_trees(HostForest const& h, QuickScorerForest& qs, std::string& why) {
  std::vector<QuickScorerNode> nodes;
  qs.n_trees = static_cast<int>(h.tree_group.size());
  for (int t = 0; t < qs.n_trees; ++t) {
    qs.leaf_begin.push_back(static_cast<std::int32_t>(qs.leaf_value.size()));
    TreeNumbering numbering{h, t, qs.leaf_value, nodes, 0, ""};
    if (!numbering.walk(0, 0)) {
      why = numbering.why;
      return {};
    }
  }
  return nodes;
}

/// Why the forest `h` as a whole is not QuickScorer's, or "".
std::string forest_refusal(HostForest const& h, int n_outputs) {
  if (h.vector_leaf) return "vector leaves";
  if (n_outputs > kHostBlockAccFloats)
    return std::to_string(n_outputs) + " outputs (at most " + std::to_string(kHostBlockAccFloats) + ")";
  return "";
}

}  // namespace

std::string quickscorer_refusal(HostForest const& h, int n_outputs) {
  std::string why = forest_refusal(h, n_outputs);
  if (!why.empty()) return why;
  QuickScorerForest qs;
  number_trees(h, qs, why);
  return why;
}

QuickScorerForest build_quickscorer(HostForest const& h, int n_outputs) {
  std::string why = forest_refusal(h, n_outputs);
  QuickScorerForest qs;
  std::vector<QuickScorerNode> nodes;
  if (why.empty()) nodes = number_trees(h, qs, why);
  if (!why.empty()) throw std::invalid_argument("QuickScorer cannot serve this model: " + why);
  std::stable_sort(nodes.begin(), nodes.end(), [](QuickScorerNode const& a, QuickScorerNode const& b) {
    return a.feature != b.feature ? a.feature < b.feature : scan_key(a.threshold) < scan_key(b.threshold);
  });
  for (auto const& n : nodes) qs.n_features = std::max(qs.n_features, n.feature + 1);
  qs.feature_begin = feature_offsets(nodes, qs.n_features);
  std::vector<QuickScorerNode> default_right;
  for (auto const& n : nodes) {
    qs.threshold.push_back(n.threshold);
    qs.tree.push_back(n.tree);
    qs.mask.push_back(n.mask);
    if (!n.default_left) default_right.push_back(n);
  }
  qs.missing_begin = feature_offsets(default_right, qs.n_features);
  for (auto const& n : default_right) {
    qs.missing_tree.push_back(n.tree);
    qs.missing_mask.push_back(n.mask);
  }
  return qs;
}

}  // namespace kboost
