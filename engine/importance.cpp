/// Feature importance as upstream's GBTree::FeatureScore (see importance.hpp).
#include <kboost/engine/importance.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <stdexcept>

namespace kboost {

ImportanceType parse_importance_type(std::string const& name) {
  if (name == "weight") return ImportanceType::kWeight;
  if (name == "gain") return ImportanceType::kGain;
  if (name == "cover") return ImportanceType::kCover;
  if (name == "total_gain") return ImportanceType::kTotalGain;
  if (name == "total_cover") return ImportanceType::kTotalCover;
  throw std::runtime_error("unknown importance type '" + name +
                           "' (expected weight, gain, cover, total_gain or total_cover)");
}

namespace {

/// Split counts and float32 sums per feature, accumulated in upstream's node order.
struct Tally {
  std::vector<std::size_t> splits;
  std::vector<float> sums;
};

void tally_tree(TreeModel const& t, ImportanceType type, std::size_t tree_index, Tally& out) {
  std::vector<int> stack{0};  // upstream's WalkTree: pop a node, push left then right
  while (!stack.empty()) {
    int const n = stack.back();
    stack.pop_back();
    if (t.left_children[n] == -1) continue;
    auto const f = static_cast<std::size_t>(t.split_indices[n]);
    if (f >= out.splits.size())
      throw std::runtime_error("feature importance: tree " + std::to_string(tree_index) + " node " +
                               std::to_string(n) + " splits on feature " + std::to_string(f) +
                               " beyond num_feature");
    ++out.splits[f];
    if (type == ImportanceType::kWeight) {
      out.sums[f] = static_cast<float>(out.splits[f]);
    } else if (type == ImportanceType::kGain || type == ImportanceType::kTotalGain) {
      out.sums[f] += t.loss_changes.empty() ? 0.0f : t.loss_changes[n];
    } else {
      out.sums[f] += t.sum_hessian.empty() ? 0.0f : t.sum_hessian[n];
    }
    stack.push_back(t.left_children[n]);
    stack.push_back(t.right_children[n]);
  }
}

}  // namespace

FeatureScores feature_importance(Model const& model, ImportanceType type, FeatureMap const& fmap) {
  FeatureMap const names = resolve_feature_map(model, fmap);
  auto const n = static_cast<std::size_t>(model.num_feature);
  Tally tally{std::vector<std::size_t>(n, 0), std::vector<float>(n, 0.0f)};
  for (std::size_t i = 0; i < model.trees.size(); ++i) tally_tree(model.trees[i], type, i, tally);
  if (type == ImportanceType::kGain || type == ImportanceType::kCover)
    for (std::size_t f = 0; f < n; ++f) tally.sums[f] /= std::max(1.0f, static_cast<float>(tally.splits[f]));
  FeatureScores out;
  std::map<std::string, std::size_t> position;
  for (std::size_t f = 0; f < n; ++f) {
    if (tally.splits[f] == 0) continue;
    auto const [it, fresh] = position.emplace(names.names[f], out.size());
    if (fresh) out.emplace_back(names.names[f], static_cast<double>(tally.sums[f]));
    else out[it->second].second = static_cast<double>(tally.sums[f]);
  }
  return out;
}

}  // namespace kboost
