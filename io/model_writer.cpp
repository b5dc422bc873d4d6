/// \file model_writer.cpp
/// The model is first put into a small typed document (objects with sorted keys, generic arrays,
/// typed arrays f32/i32/i64/u8, strings, integers, float32 numbers), then serialised exactly as
/// upstream's JsonWriter / UBJWriter (src/common/json.cc) do. nlohmann::json's to_ubjson cannot be
/// used: upstream's reader requires 'L'-length keys, objects without a count and int32/uint8 typed
/// arrays for tree fields, which nlohmann does not emit; nlohmann is still used for string escaping
/// and for the verbatim objective/attribute objects.
#include <kboost/io/model_writer.hpp>

#include <nlohmann/json.hpp>

#include <kboost/core/atomic_file.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <unistd.h>

namespace kboost {
namespace {

/// A node of the typed document.
struct Node {
  enum class Kind { kObject, kArray, kF32Array, kI32Array, kI64Array, kU8Array, kI8Array, kString, kInteger, kFloat };
  Kind kind = Kind::kObject;
  std::vector<std::pair<std::string, Node>> members;  // kObject, kept sorted by key
  std::vector<Node> items;                            // kArray
  std::vector<float> floats;                          // kF32Array
  std::vector<std::int64_t> ints;                     // k*Array (integers)
  std::string str;                                    // kString
  std::int64_t integer = 0;
  float number = 0;

  static Node object() { return Node{}; }
  static Node array() {
    Node n;
    n.kind = Kind::kArray;
    return n;
  }
  static Node string(std::string s) {
    Node n;
    n.kind = Kind::kString;
    n.str = std::move(s);
    return n;
  }
  static Node integer_value(std::int64_t v) {
    Node n;
    n.kind = Kind::kInteger;
    n.integer = v;
    return n;
  }
  static Node float_value(float v) {
    Node n;
    n.kind = Kind::kFloat;
    n.number = v;
    return n;
  }
  static Node f32(std::vector<float> const& v) {
    Node n;
    n.kind = Kind::kF32Array;
    n.floats = v;
    return n;
  }
  template <class T>
  static Node typed(Kind k, std::vector<T> const& v) {
    Node n;
    n.kind = k;
    n.ints.assign(v.begin(), v.end());
    return n;
  }
  Node& set(std::string const& key, Node value) {
    auto it = std::lower_bound(members.begin(), members.end(), key,
                               [](auto const& m, std::string const& k) { return m.first < k; });
    if (it != members.end() && it->first == key) {
      it->second = std::move(value);
      return it->second;
    }
    return members.insert(it, {key, std::move(value)})->second;
  }
};

Node strings(std::vector<std::string> const& v) {
  Node a = Node::array();
  for (auto const& s : v) a.items.push_back(Node::string(s));
  return a;
}

Node ints_generic(std::vector<int> const& v) {
  Node a = Node::array();
  for (int x : v) a.items.push_back(Node::integer_value(x));
  return a;
}

/// The model file's "objective" object (upstream's ObjFunction::SaveConfig): the name and the
/// objective's parameter object, every value a string. An empty config is {"name": objective}.
Node objective_node(ObjectiveConfig const& config, std::string const& objective) {
  Node o = Node::object();
  o.set("name", Node::string(config.name.empty() ? objective : config.name));
  if (!config.param_object.empty()) {
    Node params = Node::object();
    for (auto const& [key, value] : config.params) params.set(key, Node::string(value));
    o.set(config.param_object, std::move(params));
  }
  return o;
}

Node tree_node(TreeModel const& t, int id, int num_feature) {
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
  // A vector-leaf tree of 2.x carries no loss_changes or sum_hessian (model_reader); 3.x's schema
  // requires them, so they are written as the zeros that kboost's dumps and importance read for
  // absent ones.
  bool const vector_leaf = t.size_leaf_vector > 1;
  std::vector<float> const absent(n, 0.0f);
  auto const& loss_changes = vector_leaf && t.loss_changes.empty() ? absent : t.loss_changes;
  auto const& sum_hessian = vector_leaf && t.sum_hessian.empty() ? absent : t.sum_hessian;
  check(loss_changes.size(), "loss_changes");
  check(sum_hessian.size(), "sum_hessian");
  // vector-leaf trees (size_leaf_vector k > 1) keep k base weights per node
  check(t.base_weights.size(), "base_weights", static_cast<std::size_t>(std::max(t.size_leaf_vector, 1)));
  if (!t.split_type.empty()) check(t.split_type.size(), "split_type");
  using K = Node::Kind;
  Node j = Node::object();
  j.set("base_weights", Node::f32(t.base_weights));
  j.set("categories", Node::typed(K::kI32Array, t.categories));
  j.set("categories_nodes", Node::typed(K::kI32Array, t.categories_nodes));
  j.set("categories_segments", Node::typed(K::kI64Array, t.categories_segments));
  j.set("categories_sizes", Node::typed(K::kI64Array, t.categories_sizes));
  j.set("default_left", Node::typed(K::kU8Array, t.default_left));
  j.set("id", Node::integer_value(id));
  j.set("left_children", Node::typed(K::kI32Array, t.left_children));
  j.set("loss_changes", Node::f32(loss_changes));
  // Upstream's RegTree writes Node::Parent(), the 31-bit field: 2147483647 for the root; its
  // MultiTargetTree (vector leaves) writes -1.
  std::vector<std::int64_t> parents(t.parents.begin(), t.parents.end());
  for (auto& p : parents)
    if (p < 0 && !vector_leaf) p = 2147483647;
  j.set("parents", Node::typed(K::kI32Array, parents));
  j.set("right_children", Node::typed(K::kI32Array, t.right_children));
  j.set("split_conditions", Node::f32(t.split_conditions));
  j.set("split_indices", Node::typed(K::kI32Array, t.split_indices));
  j.set("split_type", t.split_type.empty() ? Node::typed(K::kU8Array, std::vector<std::uint8_t>(n, 0))
                                           : Node::typed(K::kU8Array, t.split_type));
  j.set("sum_hessian", Node::f32(sum_hessian));
  Node tp = Node::object();
  tp.set("num_deleted", Node::string("0"));
  tp.set("num_feature", Node::string(std::to_string(t.num_feature > 0 ? t.num_feature : num_feature)));
  tp.set("num_nodes", Node::string(std::to_string(n)));
  tp.set("size_leaf_vector", Node::string(std::to_string(t.size_leaf_vector)));
  j.set("tree_param", std::move(tp));
  if (t.size_leaf_vector > 1) j.set("leaf_weights", Node::f32(t.leaf_weights));
  return j;
}

/// Position order of one feature's categories as upstream's sorted_idx (src/encoder/ordinal.h:
/// a stable argsort; strings compared byte by byte as signed int8, a prefix first).
std::vector<int> category_order(FeatureCategories const& f) {
  std::size_t const n = f.strings.empty() ? f.numbers.size() : f.strings.size();
  std::vector<int> idx(n);
  for (std::size_t i = 0; i < n; ++i) idx[i] = static_cast<int>(i);
  auto const string_less = [&f](int a, int b) {
    auto const& x = f.strings[static_cast<std::size_t>(a)];
    auto const& y = f.strings[static_cast<std::size_t>(b)];
    return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(), [](char p, char q) {
      return static_cast<signed char>(p) < static_cast<signed char>(q);
    });
  };
  auto const number_less = [&f](int a, int b) { return f.numbers[static_cast<std::size_t>(a)] < f.numbers[static_cast<std::size_t>(b)]; };
  if (!f.strings.empty()) std::stable_sort(idx.begin(), idx.end(), string_less);
  else std::stable_sort(idx.begin(), idx.end(), number_less);
  return idx;
}

/// gradient_booster.model.cats as upstream's CatContainer::SaveJson (src/data/cat_container.cc):
/// one enc entry per feature ({"offsets", "values"} bytes for strings, {"type", "values"} for
/// numbers, empty lists for a numerical feature), feature_segments (features + 1 prefix sums of
/// the category counts) and sorted_idx; all three empty when the model has no encoder.
Node category_encoder_node(Model const& m) {
  using K = Node::Kind;
  Node cats = Node::object();
  Node enc = Node::array();
  std::vector<int> segments, sorted;
  if (m.has_category_encoder()) {
    segments.push_back(0);
    for (auto const& f : m.category_encoder) {
      Node e = Node::object();
      if (!f.numbers.empty()) {
        e.set("type", Node::integer_value(f.type));
        std::vector<std::int64_t> values(f.numbers.begin(), f.numbers.end());
        K const kind = f.type == 9 ? K::kI8Array : f.type == 10 ? K::kU8Array : f.type <= 14 ? K::kI32Array : K::kI64Array;
        e.set("values", Node::typed(kind, values));
      } else {
        std::vector<int> offsets, bytes;
        for (auto const& str : f.strings) {
          if (offsets.empty()) offsets.push_back(0);
          for (char ch : str) bytes.push_back(static_cast<signed char>(ch));
          offsets.push_back(static_cast<int>(bytes.size()));
        }
        e.set("offsets", Node::typed(K::kI32Array, offsets));
        e.set("values", Node::typed(K::kI8Array, bytes));
      }
      enc.items.push_back(std::move(e));
      auto const order = category_order(f);
      sorted.insert(sorted.end(), order.begin(), order.end());
      segments.push_back(segments.back() + static_cast<int>(order.size()));
    }
  }
  cats.set("enc", std::move(enc));
  cats.set("feature_segments", Node::typed(K::kI32Array, segments));
  cats.set("sorted_idx", Node::typed(K::kI32Array, sorted));
  return cats;
}

Node model_node(Model const& m) {
  if (m.tree_info.size() != m.trees.size())
    throw std::runtime_error("save_model: tree_info has " + std::to_string(m.tree_info.size()) + " entries for " +
                             std::to_string(m.trees.size()) + " trees");
  Node trees = Node::array();
  for (std::size_t t = 0; t < m.trees.size(); ++t)
    trees.items.push_back(tree_node(m.trees[t], static_cast<int>(t), m.num_feature));
  std::vector<int> indptr = m.iteration_indptr;
  if (indptr.empty()) indptr.push_back(0);
  Node cats = category_encoder_node(m);
  Node gbparam = Node::object();
  gbparam.set("num_parallel_tree", Node::string(std::to_string(m.num_parallel_tree)));
  gbparam.set("num_trees", Node::string(std::to_string(m.trees.size())));
  Node model = Node::object();
  model.set("cats", std::move(cats));
  model.set("gbtree_model_param", std::move(gbparam));
  model.set("iteration_indptr", ints_generic(indptr));
  model.set("tree_info", ints_generic(m.tree_info));
  model.set("trees", std::move(trees));
  Node gbtree = Node::object();
  gbtree.set("model", std::move(model));
  gbtree.set("name", Node::string("gbtree"));
  Node booster;
  if (m.booster == "dart") {
    std::vector<float> wd = m.weight_drop;
    if (wd.empty()) wd.assign(m.trees.size(), 1.0f);
    booster = Node::object();
    booster.set("gbtree", std::move(gbtree));
    booster.set("name", Node::string("dart"));
    Node w = Node::array();  // upstream stores weight_drop as a generic array of numbers
    for (float x : wd) w.items.push_back(Node::float_value(x));
    booster.set("weight_drop", std::move(w));
  } else {
    booster = std::move(gbtree);
  }
  std::string bs = "[";
  for (std::size_t i = 0; i < m.base_score.size(); ++i) bs += (i ? "," : "") + upstream_float_string(m.base_score[i]);
  bs += "]";
  Node lmp = Node::object();
  lmp.set("base_score", Node::string(bs));
  lmp.set("boost_from_average", Node::string(m.boost_from_average ? "1" : "0"));
  lmp.set("num_class", Node::string(std::to_string(m.num_class)));
  lmp.set("num_feature", Node::string(std::to_string(m.num_feature)));
  lmp.set("num_target", Node::string(std::to_string(m.num_target)));
  Node objective = objective_node(m.objective_config, m.objective);
  Node learner = Node::object();
  Node attributes = Node::object();
  for (auto const& [key, value] : m.attributes) attributes.set(key, Node::string(value));
  learner.set("attributes", std::move(attributes));
  learner.set("feature_names", strings(m.feature_names));
  learner.set("feature_types", strings(m.feature_types));
  learner.set("gradient_booster", std::move(booster));
  learner.set("learner_model_param", std::move(lmp));
  learner.set("objective", std::move(objective));
  Node doc = Node::object();
  doc.set("learner", std::move(learner));
  doc.set("version", ints_generic({m.version[0], m.version[1], m.version[2]}));
  return doc;
}

// ---- text JSON (upstream JsonWriter: compact, numbers via ToChars)

void write_json(Node const& n, std::string& out) {
  using K = Node::Kind;
  switch (n.kind) {
    case K::kObject: {
      out += '{';
      bool first = true;
      for (auto const& [k, v] : n.members) {
        if (!first) out += ',';
        first = false;
        out += nlohmann::json(k).dump();
        out += ':';
        write_json(v, out);
      }
      out += '}';
      break;
    }
    case K::kArray: {
      out += '[';
      for (std::size_t i = 0; i < n.items.size(); ++i) {
        if (i) out += ',';
        write_json(n.items[i], out);
      }
      out += ']';
      break;
    }
    case K::kF32Array: {
      out += '[';
      for (std::size_t i = 0; i < n.floats.size(); ++i) {
        if (i) out += ',';
        out += upstream_float_string(n.floats[i]);
      }
      out += ']';
      break;
    }
    case K::kI32Array:
    case K::kI64Array:
    case K::kU8Array:
    case K::kI8Array: {
      out += '[';
      for (std::size_t i = 0; i < n.ints.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(n.ints[i]);
      }
      out += ']';
      break;
    }
    case K::kString: out += nlohmann::json(n.str).dump(); break;
    case K::kInteger: out += std::to_string(n.integer); break;
    case K::kFloat: out += upstream_float_string(n.number); break;
  }
}

// ---- UBJSON (upstream UBJWriter: big-endian, 'L' lengths, typed arrays, no container end for arrays)

template <class T>
void put_be(std::string& out, T v) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  for (std::size_t i = 0; i < sizeof(T); ++i) out += static_cast<char>(b[sizeof(T) - 1 - i]);
}

void put_length(std::string& out, std::size_t n) {
  out += 'L';
  put_be<std::int64_t>(out, static_cast<std::int64_t>(n));
}

void write_ubj(Node const& n, std::string& out) {
  using K = Node::Kind;
  auto typed_header = [&](char t, std::size_t count) {
    out += '[';
    out += '$';
    out += t;
    out += '#';
    put_length(out, count);
  };
  switch (n.kind) {
    case K::kObject:
      out += '{';
      for (auto const& [k, v] : n.members) {
        put_length(out, k.size());
        out += k;
        write_ubj(v, out);
      }
      out += '}';
      break;
    case K::kArray:
      out += '[';
      out += '#';
      put_length(out, n.items.size());
      for (auto const& v : n.items) write_ubj(v, out);
      break;
    case K::kF32Array:
      typed_header('d', n.floats.size());
      for (float v : n.floats) put_be<float>(out, v);
      break;
    case K::kI32Array:
      typed_header('l', n.ints.size());
      for (auto v : n.ints) put_be<std::int32_t>(out, static_cast<std::int32_t>(v));
      break;
    case K::kI64Array:
      typed_header('L', n.ints.size());
      for (auto v : n.ints) put_be<std::int64_t>(out, v);
      break;
    case K::kU8Array:
      typed_header('U', n.ints.size());
      for (auto v : n.ints) out += static_cast<char>(static_cast<std::uint8_t>(v));
      break;
    case K::kI8Array:
      typed_header('i', n.ints.size());
      for (auto v : n.ints) out += static_cast<char>(static_cast<std::int8_t>(v));
      break;
    case K::kString:
      out += 'S';
      put_length(out, n.str.size());
      out += n.str;
      break;
    case K::kInteger: {
      std::int64_t const i = n.integer;  // smallest type, strict bounds as upstream
      if (i > INT8_MIN && i < INT8_MAX) {
        out += 'i';
        put_be<std::int8_t>(out, static_cast<std::int8_t>(i));
      } else if (i > INT16_MIN && i < INT16_MAX) {
        out += 'I';
        put_be<std::int16_t>(out, static_cast<std::int16_t>(i));
      } else if (i > INT32_MIN && i < INT32_MAX) {
        out += 'l';
        put_be<std::int32_t>(out, static_cast<std::int32_t>(i));
      } else {
        out += 'L';
        put_be<std::int64_t>(out, i);
      }
      break;
    }
    case K::kFloat:
      out += 'd';
      put_be<float>(out, n.number);
      break;
  }
}

}  // namespace

std::string objective_config_json(ObjectiveConfig const& config) {
  std::string out;
  write_json(objective_node(config, config.name), out);
  return out;
}

std::string model_to_json_bytes(Model const& m) {
  std::string out;
  write_json(model_node(m), out);
  return out;
}

std::string model_to_ubjson_bytes(Model const& m) {
  std::string out;
  write_ubj(model_node(m), out);
  return out;
}

void save_model(Model const& m, std::string const& path) {
  bool const ubj = path.size() >= 4 && path.compare(path.size() - 4, 4, ".ubj") == 0;
  write_file_atomic(path, ubj ? model_to_ubjson_bytes(m) : model_to_json_bytes(m));
}

}  // namespace kboost
