#pragma once
/// \file model.hpp
/// In-memory XGBoost tree ensemble, field for field as XGBoost's JSON/UBJSON model schema
/// (upstream: src/tree/tree_model.cc RegTree::SaveModel/LoadModel, src/gbm/gbtree_model.cc,
/// src/learner.cc LearnerModelParam). Host-side; the predictor flattens it for the device.

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <kboost/core/objective.hpp>

namespace kboost {

/// One tree; every array has num_nodes entries (node 0 is the root). A node is a leaf iff
/// left_children[i] == -1; then split_conditions[i] holds its leaf value (eta already applied).
struct TreeModel {
  std::vector<std::int32_t> left_children, right_children, parents, split_indices;
  std::vector<float> split_conditions;   ///< threshold (go left iff x < cond) or leaf value
  std::vector<std::uint8_t> default_left; ///< 1: missing goes left
  std::vector<std::uint8_t> split_type;   ///< 0 numerical, 1 categorical (empty in old models = all 0)
  std::vector<float> loss_changes, sum_hessian, base_weights;
  /// Categorical splits: for categories_nodes[k], the set that goes RIGHT is
  /// categories[categories_segments[k] .. + categories_sizes[k]].
  std::vector<std::int32_t> categories_nodes;
  std::vector<std::int64_t> categories_segments, categories_sizes;
  std::vector<std::int32_t> categories;
  std::int32_t num_feature = 0;
  std::int32_t size_leaf_vector = 1;  ///< > 1: vector-leaf (multi-target) tree
  std::vector<float> leaf_weights;    ///< vector leaves: num_leaves... laid out per node × size_leaf_vector

  std::size_t num_nodes() const { return left_children.size(); }
  bool is_leaf(std::size_t i) const { return left_children[i] == -1; }
};

/// One feature's entry of the category encoder XGBoost >= 3.1 stores in a model
/// (gradient_booster.model.cats.enc, upstream src/data/cat_container.cc): the raw training
/// categories, whose POSITION is the code the trees split on. Exactly one list is non-empty for a
/// categorical feature; both are empty for a numerical one.
struct FeatureCategories {
  std::vector<std::string> strings;  ///< string categories (pandas object/string categories)
  std::vector<double> numbers;       ///< numeric categories (pandas integer/float categories)
  std::int32_t type = 15;            ///< numbers' array type as upstream's Value::ValueKind (15: int64)
  bool empty() const { return strings.empty() && numbers.empty(); }
};

/// A whole booster as XGBoost saves it.
struct Model {
  std::array<int, 3> version{3, 2, 0};     ///< XGBoost version that wrote the file
  std::string booster = "gbtree";          ///< "gbtree" or "dart"
  std::string objective = "reg:squarederror";
  /// The model file's "objective" object: its parameter object as read or as the objective's family
  /// made it (engine/objective); an empty name writes {"name": objective}.
  ObjectiveConfig objective_config;
  std::vector<float> base_score{0.5f};     ///< OUTPUT space, one per class/target (or one)
  bool boost_from_average = true;
  int num_class = 0;                       ///< 0 or 1 for single-output objectives
  int num_target = 1;
  int num_feature = 0;
  int num_parallel_tree = 1;
  std::vector<TreeModel> trees;
  std::vector<int> tree_info;              ///< output group (class/target) of each tree
  std::vector<int> iteration_indptr;       ///< trees of round r: [indptr[r], indptr[r+1])
  std::vector<float> weight_drop;          ///< DART per-tree weights (empty = all 1)
  std::vector<std::string> feature_names, feature_types;
  std::map<std::string, std::string> attributes;  ///< learner attributes, e.g. best_iteration, best_score
  /// Category encoder (one entry per feature) when the model stores one (XGBoost >= 3.1); empty
  /// otherwise. Inputs must then be re-coded through it (see io/model_reader.hpp recode_categories).
  std::vector<FeatureCategories> category_encoder;

  /// True when the model holds a category encoder with at least one categorical feature.
  bool has_category_encoder() const {
    for (auto const& f : category_encoder)
      if (!f.empty()) return true;
    return false;
  }

  /// Number of outputs per row (classes, targets or 1).
  int num_outputs() const { return num_class > 1 ? num_class : (num_target > 1 ? num_target : 1); }
  int num_rounds() const { return iteration_indptr.empty() ? 0 : int(iteration_indptr.size()) - 1; }
};

}  // namespace kboost
