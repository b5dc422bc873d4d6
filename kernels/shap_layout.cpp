/// \file shap_layout.cpp
/// Flattening a Model into the SHAP layout (HostShapForest).
#include <kboost/kernels/shap_layout.hpp>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include <kboost/kernels/detail/tree_shape.hpp>

namespace kboost {

namespace {

/// Upstream's FillNodeMeanValues for the subtree at `nid`, written into mean[nid] (post-order).
float fill_mean_values(TreeModel const& t, int nid, std::vector<float>& mean) {
  float result;
  if (t.is_leaf(static_cast<std::size_t>(nid))) {
    result = t.split_conditions[static_cast<std::size_t>(nid)];
  } else {
    int const l = t.left_children[static_cast<std::size_t>(nid)], r = t.right_children[static_cast<std::size_t>(nid)];
    result = fill_mean_values(t, l, mean) * t.sum_hessian[static_cast<std::size_t>(l)];
    result += fill_mean_values(t, r, mean) * t.sum_hessian[static_cast<std::size_t>(r)];
    result /= t.sum_hessian[static_cast<std::size_t>(nid)];
  }
  mean[static_cast<std::size_t>(nid)] = result;
  return result;
}

}  // namespace

HostShapForest flatten_shap_forest(Model const& m) {
  HostShapForest h;
  h.tree_begin.push_back(0);
  h.tree_features_begin.push_back(0);
  bool categorical = false;
  for (std::size_t ti = 0; ti < m.trees.size(); ++ti) {
    TreeModel const& t = m.trees[ti];
    if (t.size_leaf_vector > 1)
      throw std::runtime_error("SHAP values: tree " + std::to_string(ti) +
                               " has vector leaves (multi_strategy=multi_output_tree); upstream defines no SHAP values for them");
    std::vector<float> mean(t.num_nodes());
    fill_mean_values(t, 0, mean);
    auto const cat_bits = detail::right_category_bits(t);
    h.max_depth = std::max(h.max_depth, detail::tree_depth(t));
    auto const base = static_cast<std::int32_t>(h.nodes.size());
    std::vector<std::int32_t> features;
    for (std::size_t nid = 0; nid < t.num_nodes(); ++nid) {
      ShapNode n{};
      n.cover = t.sum_hessian[nid];
      n.mean_value = mean[nid];
      n.split.value = t.split_conditions[nid];
      if (t.is_leaf(nid)) {
        n.split.child = n.right = -1;
        n.split.feature = -1;
        n.split.flags = PredictNode::kLeaf;
      } else {
        n.split.child = base + t.left_children[nid];
        n.right = base + t.right_children[nid];
        n.split.feature = t.split_indices[nid];
        n.split.flags = t.default_left[nid] ? PredictNode::kDefaultLeft : 0u;
        features.push_back(t.split_indices[nid]);
        if (!t.split_type.empty() && t.split_type[nid] == 1) {
          n.split.flags |= PredictNode::kCategorical;
          if (!categorical) {
            categorical = true;
            h.cat_begin.assign(h.nodes.size(), 0);
            h.cat_words.assign(h.nodes.size(), 0);
          }
        }
      }
      h.nodes.push_back(n);
      if (categorical) {
        auto const& bits = cat_bits[nid];
        bool const cat = (n.split.flags & PredictNode::kCategorical) != 0;
        h.cat_begin.push_back(static_cast<std::int32_t>(h.cat_bits.size()));
        h.cat_words.push_back(cat ? static_cast<std::int32_t>(bits.size()) : 0);
        if (cat) h.cat_bits.insert(h.cat_bits.end(), bits.begin(), bits.end());
      }
    }
    std::sort(features.begin(), features.end());
    features.erase(std::unique(features.begin(), features.end()), features.end());
    h.tree_features.insert(h.tree_features.end(), features.begin(), features.end());
    h.tree_features_begin.push_back(static_cast<std::int32_t>(h.tree_features.size()));
    h.tree_begin.push_back(static_cast<std::int32_t>(h.nodes.size()));
    h.tree_group.push_back(ti < m.tree_info.size() ? m.tree_info[ti] : 0);
  }
  h.tree_weight = m.weight_drop;
  return h;
}

}  // namespace kboost
