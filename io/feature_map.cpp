/// Feature-map reader and upstream's default map (see feature_map.hpp).
#include <kboost/io/feature_map.hpp>

#include <kboost/core/read_file.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace kboost {

FeatureMapType feature_map_type(std::string const& name, std::string const& where) {
  if (name == "i") return FeatureMapType::kIndicator;
  if (name == "q") return FeatureMapType::kQuantitive;
  if (name == "int") return FeatureMapType::kInteger;
  if (name == "float") return FeatureMapType::kFloat;
  if (name == "c") return FeatureMapType::kCategorical;
  throw std::runtime_error(where + ": unknown feature type '" + name +
                           "' (expected i, q, int, float or c)");
}

namespace {

/// One line's fields appended to `out`; `where` is "<source>:<line>".
void parse_line(std::string const& line, std::string const& where, FeatureMap& out) {
  std::istringstream in(line);
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  if (fields.empty()) return;  // blank lines carry nothing (upstream reads across whitespace)
  if (fields.size() != 3)
    throw std::runtime_error(where + ": expected 3 fields '<id> <name> <type>', found " +
                             std::to_string(fields.size()));
  std::string const expected = std::to_string(out.size());
  if (fields[0] != expected)
    throw std::runtime_error(where + ": field 1 (id): '" + fields[0] + "', expected " + expected +
                             " (ids count up from 0, one line per feature)");
  out.types.push_back(feature_map_type(fields[2], where + ": field 3 (type)"));
  out.names.push_back(fields[1]);
}

}  // namespace

FeatureMap parse_feature_map(std::string const& text, std::string const& source) {
  FeatureMap out;
  std::istringstream in(text);
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) parse_line(line, source + ":" + std::to_string(++line_no), out);
  return out;
}

FeatureMap read_feature_map(std::string const& path) {
  return parse_feature_map(read_file(path, "feature map"), path);
}

FeatureMap resolve_feature_map(Model const& model, FeatureMap const& given) {
  auto const n = static_cast<std::size_t>(model.num_feature);
  if (!given.empty()) {
    if (given.size() != n)
      throw std::runtime_error("the feature map has " + std::to_string(given.size()) + " features, the model " +
                               std::to_string(n) + " (upstream requires one entry per model feature)");
    return given;
  }
  if (!model.feature_names.empty() && model.feature_names.size() != n)
    throw std::runtime_error("the model has " + std::to_string(model.feature_names.size()) +
                             " feature_names for " + std::to_string(n) + " features");
  if (!model.feature_types.empty() && model.feature_types.size() != n)
    throw std::runtime_error("the model has " + std::to_string(model.feature_types.size()) +
                             " feature_types for " + std::to_string(n) + " features");
  FeatureMap out;
  for (std::size_t i = 0; i < n; ++i) {
    out.names.push_back(model.feature_names.empty() ? "f" + std::to_string(i) : model.feature_names[i]);
    out.types.push_back(model.feature_types.empty()
                            ? FeatureMapType::kQuantitive
                            : feature_map_type(model.feature_types[i], "feature_types[" + std::to_string(i) + "]"));
  }
  return out;
}

}  // namespace kboost
