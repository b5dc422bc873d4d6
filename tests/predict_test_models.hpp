#pragma once
// A hand-written 5-node XGBoost 3.2 JSON model shared by the loader and predictor tests:
//   node 0: x0 < 0.5 ? node 1 : node 2   (missing -> left)
//   node 1: leaf -1
//   node 2: x1 < 1.5 ? node 3 : node 4   (missing -> right)
//   node 3: leaf 2,  node 4: leaf 3;  base_score 0.5 (reg:squarederror: margin 0.5)
#include <nlohmann/json.hpp>

#include <string>

namespace kboost::test {

inline nlohmann::json tiny_model_json() {
  return nlohmann::json::parse(R"({"version":[3,2,0],"learner":{"attributes":{},"feature_names":[],"feature_types":[],
"learner_model_param":{"base_score":"[5E-1]","boost_from_average":"1","num_class":"0","num_feature":"2","num_target":"1"},
"objective":{"name":"reg:squarederror","reg_loss_param":{"scale_pos_weight":"1"}},
"gradient_booster":{"name":"gbtree","model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1"},
"iteration_indptr":[0,1],"tree_info":[0],"trees":[{"id":0,
"tree_param":{"num_deleted":"0","num_feature":"2","num_nodes":"5","size_leaf_vector":"1"},
"left_children":[1,-1,3,-1,-1],"right_children":[2,-1,4,-1,-1],"parents":[2147483647,0,0,2,2],
"split_indices":[0,0,1,0,0],"split_conditions":[0.5,-1.0,1.5,2.0,3.0],"default_left":[1,0,0,0,0],
"split_type":[0,0,0,0,0],"categories":[],"categories_nodes":[],"categories_segments":[],"categories_sizes":[],
"base_weights":[0,0,0,0,0],"loss_changes":[0,0,0,0,0],"sum_hessian":[1,1,1,1,1]}]}}}})");
}

}  // namespace kboost::test
