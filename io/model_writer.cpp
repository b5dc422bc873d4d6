/// \file model_writer.cpp
#include "io/model_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace kboost {
namespace {

template <class T>
float_json int_array(std::vector<T> const& v) {
  float_json a = float_json::array();
  for (T x : v) a.push_back(static_cast<std::int64_t>(x));
  return a;
}

float_json float_array(std::vector<float> const& v) {
  float_json a = float_json::array();
  for (float x : v) a.push_back(x);
  return a;
}

float_json string_array(std::vector<std::string> const& v) {
  float_json a = float_json::array();
  for (auto const& x : v) a.push_back(x);
  return a;
}

/// Converts a double-typed nlohmann::json (objective config, attributes) to float_json.
float_json to_float_json(nlohmann::json const& j) {
  return float_json::parse(j.dump());
}

float_json tree_to_json(TreeModel const& t, int id, int num_feature) {
  std::size_t const n = t.num_nodes();
  auto check = [&](std::size_t len, char const* field, std::size_t per_node = 1) {
    if (len != n * per_node)
      throw std::runtime_error("save_model: tree " + std::to_string(id) + ": " + field + " has " + std::to_string(len) +
                               " entries for " + std::to_string(n) + " nodes" +
                               (per_node > 1 ? " x " + std::to_string(per_node) : ""));
  };
  check(t.right_children.size(), "right_children");
  check(t.parents.size(), "parents");
  check(t.split_indices.size(), "split_indices");
  check(t.split_conditions.size(), "split_conditions");
  check(t.default_left.size(), "default_left");
  check(t.loss_changes.size(), "loss_changes");
  check(t.sum_hessian.size(), "sum_hessian");
  // vector-leaf trees (size_leaf_vector k > 1) keep k base weights per node
  check(t.base_weights.size(), "base_weights", static_cast<std::size_t>(std::max(t.size_leaf_vector, 1)));
  if (!t.split_type.empty()) check(t.split_type.size(), "split_type");
  float_json j = float_json::object();
  j["base_weights"] = float_array(t.base_weights);
  j["categories"] = int_array(t.categories);
  j["categories_nodes"] = int_array(t.categories_nodes);
  j["categories_segments"] = int_array(t.categories_segments);
  j["categories_sizes"] = int_array(t.categories_sizes);
  j["default_left"] = int_array(t.default_left);
  j["id"] = id;
  j["left_children"] = int_array(t.left_children);
  j["loss_changes"] = float_array(t.loss_changes);
  // Upstream writes Node::Parent(), the 31-bit field: 2147483647 for the root.
  std::vector<std::int64_t> parents(t.parents.begin(), t.parents.end());
  for (auto& p : parents)
    if (p < 0) p = 2147483647;
  j["parents"] = int_array(parents);
  j["right_children"] = int_array(t.right_children);
  j["split_conditions"] = float_array(t.split_conditions);
  j["split_indices"] = int_array(t.split_indices);
  j["split_type"] = t.split_type.empty() ? int_array(std::vector<std::uint8_t>(n, 0)) : int_array(t.split_type);
  j["sum_hessian"] = float_array(t.sum_hessian);
  j["tree_param"] = {{"num_deleted", "0"},
                     {"num_feature", std::to_string(t.num_feature > 0 ? t.num_feature : num_feature)},
                     {"num_nodes", std::to_string(n)},
                     {"size_leaf_vector", std::to_string(t.size_leaf_vector)}};
  if (t.size_leaf_vector > 1) j["leaf_weights"] = float_array(t.leaf_weights);
  return j;
}

void write_atomic(std::string const& path, std::string const& bytes) {
  namespace fs = std::filesystem;
  fs::path const target(path);
  fs::path tmp = target;
  tmp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot open temporary file " + tmp.string() + " for writing");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw std::runtime_error(path + ": write failed");
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error(path + ": cannot rename temporary file into place: " + ec.message());
  }
}

}  // namespace

std::string upstream_float_string(float v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0E0" : "0E0";
  char buf[48];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string s(buf, res.ptr);  // e.g. "1.985e+00"
  auto const e = s.find('e');
  std::string mant = s.substr(0, e);
  int const exp = std::atoi(s.c_str() + e + 1);
  return mant + "E" + std::to_string(exp);
}

float_json model_to_json(Model const& m) {
  if (m.tree_info.size() != m.trees.size())
    throw std::runtime_error("save_model: tree_info has " + std::to_string(m.tree_info.size()) + " entries for " +
                             std::to_string(m.trees.size()) + " trees");
  float_json trees = float_json::array();
  for (std::size_t t = 0; t < m.trees.size(); ++t) trees.push_back(tree_to_json(m.trees[t], static_cast<int>(t), m.num_feature));
  std::vector<int> indptr = m.iteration_indptr;
  if (indptr.empty()) indptr.push_back(0);
  float_json model = float_json::object();
  model["cats"] = {{"enc", float_json::array()}, {"feature_segments", float_json::array()}, {"sorted_idx", float_json::array()}};
  model["gbtree_model_param"] = {{"num_parallel_tree", std::to_string(m.num_parallel_tree)},
                                 {"num_trees", std::to_string(m.trees.size())}};
  model["iteration_indptr"] = int_array(indptr);
  model["tree_info"] = int_array(m.tree_info);
  model["trees"] = std::move(trees);
  float_json gbtree = {{"model", std::move(model)}, {"name", "gbtree"}};
  float_json booster;
  if (m.booster == "dart") {
    std::vector<float> wd = m.weight_drop;
    if (wd.empty()) wd.assign(m.trees.size(), 1.0f);
    booster = {{"gbtree", std::move(gbtree)}, {"name", "dart"}, {"weight_drop", float_array(wd)}};
  } else {
    booster = std::move(gbtree);
  }
  std::string bs = "[";
  for (std::size_t i = 0; i < m.base_score.size(); ++i) bs += (i ? "," : "") + upstream_float_string(m.base_score[i]);
  bs += "]";
  float_json objective = m.objective_config.is_object() && !m.objective_config.empty()
                             ? to_float_json(m.objective_config)
                             : float_json{{"name", m.objective}};
  float_json attrs = m.attributes.is_object() ? to_float_json(m.attributes) : float_json::object();
  float_json learner = float_json::object();
  learner["attributes"] = std::move(attrs);
  learner["feature_names"] = string_array(m.feature_names);
  learner["feature_types"] = string_array(m.feature_types);
  learner["gradient_booster"] = std::move(booster);
  learner["learner_model_param"] = {{"base_score", bs},
                                    {"boost_from_average", m.boost_from_average ? "1" : "0"},
                                    {"num_class", std::to_string(m.num_class)},
                                    {"num_feature", std::to_string(m.num_feature)},
                                    {"num_target", std::to_string(m.num_target)}};
  learner["objective"] = std::move(objective);
  float_json doc = float_json::object();
  doc["learner"] = std::move(learner);
  doc["version"] = {m.version[0], m.version[1], m.version[2]};
  return doc;
}

std::string model_to_json_bytes(Model const& m) { return model_to_json(m).dump(); }

std::string model_to_ubjson_bytes(Model const& m) {
  std::vector<std::uint8_t> out = float_json::to_ubjson(model_to_json(m), /*use_size=*/true, /*use_type=*/false);
  return std::string(out.begin(), out.end());
}

void save_model(Model const& m, std::string const& path) {
  bool const ubj = path.size() >= 4 && path.compare(path.size() - 4, 4, ".ubj") == 0;
  write_atomic(path, ubj ? model_to_ubjson_bytes(m) : model_to_json_bytes(m));
}

}  // namespace kboost
