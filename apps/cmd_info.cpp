/// `kboost info --data FILE [data-loading flags]`: what the readers make of a dataset — rows, features,
/// storage, missing cells, label summary, weights, query groups and categorical columns.
/// `kboost info --model M`: what the model reader makes of a model — version, objective, booster,
/// features, outputs, trees, rounds, tree depths and leaves, best_iteration.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "commands.hpp"
#include "read_options.hpp"
#include <kboost/core/float_text.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/model_reader.hpp>

namespace kboost::cli {
namespace {

struct InfoArgs {
  std::string data, model;
  ReadOptions read;
  int max_categories = 10;
};

/// min, max, mean (double, summed in row order) and, when at most 20 distinct values, their counts.
void summarise(std::ostream& out, char const* what, float const* v, std::size_t n,
               std::vector<std::string> const& classes = {}) {
  double sum = 0;
  float lo = v[0], hi = v[0];
  std::map<float, std::size_t> counts;
  for (std::size_t i = 0; i < n; ++i) {
    sum += v[i];
    lo = std::min(lo, v[i]);
    hi = std::max(hi, v[i]);
    if (counts.size() <= 20) ++counts[v[i]];
  }
  out << what << "min " << ostream_float_string(lo) << ", max " << ostream_float_string(hi) << ", mean " << ostream_float_string(sum / static_cast<double>(n));
  if (counts.size() <= 20) {
    out << ", " << counts.size() << " distinct: ";
    bool first = true;
    for (auto const& [value, count] : counts) {
      out << (first ? "" : ", ") << ostream_float_string(value);
      auto code = static_cast<std::size_t>(value);
      if (!classes.empty() && code < classes.size()) out << " ('" << classes[code] << "')";
      out << " x" << count;
      first = false;
    }
  } else {
    out << ", more than 20 distinct";
  }
  out << "\n";
}

int run_info(InfoArgs const& a) {
  auto const fmt_name = resolve_format(a.data, a.read);
  HostDMatrix m = read_dataset(a.data, a.read);
  auto& out = std::cout;
  out << "file: " << a.data << "\n";
  out << "format: " << fmt_name;
  if (fmt_name == "csv") out << " (header: " << (m.info.feature_names.empty() ? "no" : "yes") << ")";
  out << "\n";
  out << "rows: " << m.n_rows << "\n";
  out << "features: " << m.n_features << "\n";
  std::size_t const cells = m.n_rows * m.n_features;
  if (m.is_sparse()) {
    auto nnz = static_cast<std::size_t>(m.csr.nnz());
    out << "storage: sparse CSR, " << nnz << " stored entries (" << std::fixed << std::setprecision(2)
        << (cells ? 100.0 * static_cast<double>(nnz) / static_cast<double>(cells) : 0.0) << "% of cells)\n";
    out.unsetf(std::ios::floatfield);
  } else {
    out << "storage: dense\n";
  }
  out << "missing: " << m.info.n_missing << "\n";
  if (m.has_labels() && m.n_targets > 1) {  // one line per label column
    std::vector<float> column(m.n_rows);
    for (std::size_t t = 0; t < m.n_targets; ++t) {
      for (std::size_t i = 0; i < m.n_rows; ++i) column[i] = m.label(i * m.n_targets + t);
      summarise(out, ("label " + std::to_string(t) + ": ").c_str(), column.data(), m.n_rows);
    }
  } else if (m.has_labels()) {
    std::string name = m.info.label_name.empty() ? "" : "'" + m.info.label_name + "' ";
    summarise(out, ("label: " + name).c_str(), m.label.data(), m.n_rows, m.info.label_classes);
  } else {
    out << "label: none\n";
  }
  if (m.has_weights()) summarise(out, "weights: ", m.weight.data(), m.n_rows);
  else out << "weights: none\n";
  if (m.group_ptr.extent(0) > 1) {
    std::size_t g = m.group_ptr.extent(0) - 1, lo = m.n_rows, hi = 0;
    for (std::size_t k = 0; k < g; ++k) {
      std::size_t s = m.group_ptr(k + 1) - m.group_ptr(k);
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    out << "groups: " << g << " (sizes " << lo << ".." << hi << ")\n";
  } else {
    out << "groups: none\n";
  }
  std::vector<int> cat;
  for (std::size_t j = 0; j < m.info.feature_types.size(); ++j)
    if (m.info.feature_types[j] == FeatureType::kCategorical) cat.push_back(static_cast<int>(j));
  out << "categorical: " << cat.size() << "\n";
  for (int j : cat) {
    out << "  feature " << j;
    if (static_cast<std::size_t>(j) < m.info.feature_names.size()) out << " '" << m.info.feature_names[j] << "'";
    auto it = m.info.categories.find(j);
    if (it == m.info.categories.end()) {
      out << ": numeric codes\n";
      continue;
    }
    auto const& c = it->second;
    out << ": " << c.size() << " categories: ";
    for (std::size_t k = 0; k < c.size() && static_cast<int>(k) < a.max_categories; ++k)
      out << (k ? ", " : "") << k << "='" << c[k] << "'";
    if (static_cast<int>(c.size()) > a.max_categories) out << ", ...";
    out << "\n";
  }
  return 0;
}

/// Depth (edges from the root to the deepest leaf) and leaf count of one tree.
std::pair<std::size_t, std::size_t> depth_and_leaves(TreeModel const& t) {
  std::size_t depth = 0, leaves = 0;
  std::vector<std::pair<int, std::size_t>> stack{{0, 0}};
  while (!stack.empty()) {
    auto [n, d] = stack.back();
    stack.pop_back();
    if (t.is_leaf(static_cast<std::size_t>(n))) {
      ++leaves;
      depth = std::max(depth, d);
      continue;
    }
    stack.push_back({t.left_children[n], d + 1});
    stack.push_back({t.right_children[n], d + 1});
  }
  return {depth, leaves};
}

void print_tree_stats(std::ostream& out, Model const& m) {
  std::size_t max_depth = 0, depth_sum = 0, leaves = 0, min_leaves = 0, max_leaves = 0;
  for (std::size_t i = 0; i < m.trees.size(); ++i) {
    auto const [d, l] = depth_and_leaves(m.trees[i]);
    max_depth = std::max(max_depth, d);
    depth_sum += d;
    leaves += l;
    min_leaves = i == 0 ? l : std::min(min_leaves, l);
    max_leaves = std::max(max_leaves, l);
  }
  double const n = m.trees.empty() ? 1.0 : static_cast<double>(m.trees.size());
  out << "depth: max " << max_depth << ", mean " << ostream_float_string(static_cast<double>(depth_sum) / n) << "\n";
  out << "leaves: " << leaves << " (per tree min " << min_leaves << ", mean "
      << ostream_float_string(static_cast<double>(leaves) / n) << ", max " << max_leaves << ")\n";
}

/// Up to `limit` items joined by ", ", then how many more there are.
std::string joined(std::vector<std::string> const& items, std::size_t limit = 20) {
  std::string s;
  for (std::size_t i = 0; i < std::min(items.size(), limit); ++i) s += (i ? ", " : "") + items[i];
  if (items.size() > limit) s += ", ... (" + std::to_string(items.size() - limit) + " more)";
  return s;
}

/// The feature names, and each categorical feature with its category list (the model's encoder) or
/// "codes" when the model stores none (inputs must then be coded as in training).
void print_features(std::ostream& out, Model const& m) {
  out << "feature_names: " << (m.feature_names.empty() ? "none (f0, f1, ...)" : joined(m.feature_names)) << "\n";
  std::vector<std::string> categorical;
  for (std::size_t f = 0; f < static_cast<std::size_t>(std::max(0, m.num_feature)); ++f) {
    bool const typed = f < m.feature_types.size() && m.feature_types[f] == "c";
    FeatureCategories const* enc = f < m.category_encoder.size() && !m.category_encoder[f].empty() ? &m.category_encoder[f] : nullptr;
    if (!typed && !enc) continue;
    std::string item = std::to_string(f);
    if (f < m.feature_names.size()) item += " '" + m.feature_names[f] + "'";
    if (!enc) {
      categorical.push_back(item + " (codes: no category list)");
      continue;
    }
    std::vector<std::string> cats = enc->strings;
    for (double v : enc->numbers) cats.push_back(ostream_float_string(v));
    categorical.push_back(item + " [" + joined(cats, 8) + "]");
  }
  out << "categorical features: " << (categorical.empty() ? "none" : std::to_string(categorical.size())) << "\n";
  for (auto const& c : categorical) out << "  " << c << "\n";
}

int run_model_info(InfoArgs const& a) {
  Model const m = read_model(a.model);
  auto& out = std::cout;
  out << "file: " << a.model << "\n";
  out << "version: " << m.version[0] << "." << m.version[1] << "." << m.version[2] << "\n";
  out << "objective: " << m.objective << "\n";
  out << "booster: " << m.booster << "\n";
  out << "num_feature: " << m.num_feature << "\n";
  print_features(out, m);
  out << "num_class: " << m.num_class << "\n";
  out << "num_target: " << m.num_target << "\n";
  out << "num_parallel_tree: " << m.num_parallel_tree << "\n";
  out << "trees: " << m.trees.size() << "\n";
  out << "rounds: " << m.num_rounds() << "\n";
  print_tree_stats(out, m);
  bool const vector_leaf = !m.trees.empty() && m.trees[0].size_leaf_vector > 1;
  out << "leaf type: " << (vector_leaf ? "vector (multi_output_tree)" : "scalar") << "\n";
  auto it = m.attributes.find("best_iteration");
  out << "best_iteration: " << (it == m.attributes.end() ? "none" : it->second) << "\n";
  return 0;
}

}  // namespace

Runner add_info(CLI::App& app) {
  auto args = std::make_shared<InfoArgs>();
  auto* sub = app.add_subcommand("info", "describe a dataset or a model as kboost reads it");
  auto* data = sub->add_option("--data,data", args->data, "dataset file (CSV/TSV, LibSVM, HDF5)");
  auto* model = sub->add_option("--model", args->model, "XGBoost JSON or UBJSON model file");
  data->excludes(model);
  model->excludes(data);
  sub->add_option("--max-categories", args->max_categories, "categories listed per categorical column");
  add_read_options(sub, args->read);
  return [args] {
    if (args->data.empty() == args->model.empty()) throw std::runtime_error("info: give exactly one of --data and --model");
    return args->model.empty() ? run_info(*args) : run_model_info(*args);
  };
}

}  // namespace kboost::cli
