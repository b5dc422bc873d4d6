#pragma once
/// \file feature_map.hpp
/// XGBoost feature maps (`fmap` files) for model dumps and feature importance: one line per
/// feature, `<id> <name> <type>` separated by whitespace (upstream: include/xgboost/feature_map.h
/// FeatureMap::LoadText, GetType), and the map upstream builds when none is given
/// (src/c_api/c_api_utils.h GenerateFeatureMap).
#include <cstddef>
#include <string>
#include <vector>

#include <kboost/core/model.hpp>

namespace kboost {

/// A feature's type in a feature map, as upstream's FeatureMap::Type.
enum class FeatureMapType {
  kIndicator,    ///< "i": a 0/1 indicator (dumped as `[name]`, no threshold)
  kQuantitive,   ///< "q": a real number
  kInteger,      ///< "int": an integer (threshold rounded up to an integer in text/json dumps)
  kFloat,        ///< "float": a real number, dumped like "q"
  kCategorical,  ///< "c": categorical (its splits are category sets)
};

/// Names and types of features 0..size()-1.
struct FeatureMap {
  std::vector<std::string> names;
  std::vector<FeatureMapType> types;
  std::size_t size() const { return names.size(); }
  bool empty() const { return names.empty(); }
};

/// The type named `name` ("i", "q", "int", "float" or "c", as upstream's GetType).
/// \throws std::runtime_error "<where>: unknown feature type '<name>' ..." for anything else.
FeatureMapType feature_map_type(std::string const& name, std::string const& where);

/// Parse feature-map text. Each non-blank line holds exactly three whitespace-separated fields:
/// the feature id (0, 1, 2, ... in order, as upstream's PushBack requires), the name (no blanks)
/// and the type. Upstream stops reading silently at the first malformed token; kboost refuses it.
/// \throws std::runtime_error "<source>:<line>: field <k> (<id|name|type>): ..." on a wrong field
///         count, an id that is not the next integer, or an unknown type.
FeatureMap parse_feature_map(std::string const& text, std::string const& source);

/// Read the feature-map file `path` (see parse_feature_map).
/// \throws std::runtime_error naming `path` when it cannot be read or is malformed.
FeatureMap read_feature_map(std::string const& path);

/// The map a dump or an importance query uses, as upstream's GenerateFeatureMap: `given` when it
/// is not empty, else the model's feature_names (or "f<i>") with its feature_types (or "q"), one
/// entry per model feature.
/// \throws std::runtime_error when the result does not have exactly model.num_feature entries
///         (upstream's "Check failed: feature_map.Size() == n_features"), when the model's names or
///         types have another length, or when a model feature type is unknown.
FeatureMap resolve_feature_map(Model const& model, FeatureMap const& given);

}  // namespace kboost
