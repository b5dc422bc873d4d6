/// Categorical features of a training matrix (engine/categories.hpp).
#include <kboost/engine/categories.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace kboost {
namespace {

std::string feature_label(HostDMatrix const& d, std::size_t f) {
  std::string s = "feature " + std::to_string(f);
  if (f < d.info.feature_names.size() && !d.info.feature_names[f].empty()) s += " ('" + d.info.feature_names[f] + "')";
  return s;
}

void check_category(HostDMatrix const& d, std::size_t row, std::size_t f, float v) {
  if (v != v) return;  // missing
  if (v >= 0.0f && v <= static_cast<float>(kMaxTrainCategory) && std::trunc(v) == v) return;
  std::string const source = d.info.source.empty() ? "training data" : d.info.source;
  std::ostringstream value;
  value << v;
  throw std::runtime_error(source + ": row " + std::to_string(d.info.first_row + row) + " (0-based), " +
                           feature_label(d, f) + ": categorical value " + value.str() +
                           " is not a category (an integer in [0, " + std::to_string(kMaxTrainCategory) + "])");
}

}  // namespace

std::vector<std::uint8_t> categorical_features(TrainParams const& p, HostDMatrix const& d) {
  std::vector<std::uint8_t> flags(d.n_features, 0);
  bool any = false;
  for (std::size_t f = 0; f < d.info.feature_types.size() && f < d.n_features; ++f)
    if (d.info.feature_types[f] == FeatureType::kCategorical) flags[f] = 1, any = true;
  if (!any) return {};
  if (!p.enable_categorical) {
    std::size_t f = 0;
    while (flags[f] == 0) ++f;
    throw std::runtime_error("train: " + feature_label(d, f) + " of " + d.info.source +
                             " is categorical but enable_categorical is false");
  }
  if (d.is_sparse()) {
    auto const checked = checked_csr(d);
    for (std::size_t i = 0; i + 1 < checked.row_map.extent(0); ++i)
      for (auto k = checked.row_map(i); k < checked.row_map(i + 1); ++k) {
        auto const f = static_cast<std::size_t>(checked.entries(k));
        if (flags[f]) check_category(d, i, f, checked.values(k));
      }
  } else {
    for (std::size_t i = 0; i < d.n_rows; ++i)
      for (std::size_t f = 0; f < d.n_features; ++f)
        if (flags[f]) check_category(d, i, f, d.dense(i, f));
  }
  return flags;
}

std::vector<FeatureCategories> training_category_encoder(HostDMatrix const& d) {
  if (d.info.categories.empty()) return {};
  std::vector<FeatureCategories> enc(d.n_features);
  for (auto const& [f, strings] : d.info.categories)
    if (f >= 0 && static_cast<std::size_t>(f) < d.n_features) enc[static_cast<std::size_t>(f)].strings = strings;
  return enc;
}

std::vector<std::string> model_feature_types(HostDMatrix const& d, std::vector<std::uint8_t> const& categorical) {
  if (d.info.feature_names.empty() && categorical.empty()) return {};
  std::vector<std::string> types(d.n_features, "q");
  for (std::size_t f = 0; f < categorical.size(); ++f)
    if (categorical[f]) types[f] = "c";
  return types;
}

}  // namespace kboost
