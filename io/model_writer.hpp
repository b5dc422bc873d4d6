#pragma once
/// \file model_writer.hpp
/// Saves a kboost::Model as an XGBoost 3.x model file (JSON, or UBJSON for *.ubj) that upstream's
/// `xgboost.Booster(model_file=...)` loads. Schema as upstream 3.2 writes it (src/learner.cc
/// LearnerIO::SaveModel, LearnerModelParamLegacy::ToJson, src/gbm/gbtree_model.cc
/// GBTreeModel::SaveModel, src/gbm/gbtree.cc Dart::SaveModel, src/tree/tree_model.cc
/// RegTree::SaveModel): keys sorted, base_score a JSON-array string of shortest float32 text in
/// upstream's "1.985E0" style, root parent 2147483647, tree_param values as strings.
/// Numbers: float32 fields are float32 in the document (text JSON: shortest round-trip float32
/// digits; UBJSON: 'd' float32), integers as integers. UBJSON arrays are written untyped (each
/// element with its own marker), which upstream reads through its generic-array path.
/// Output bytes are a pure function of the Model (deterministic).
#include "core/model.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kboost {

/// nlohmann::json with float32 numbers, so dumps print shortest float32 digits and UBJSON writes 'd'.
using float_json = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t, std::uint64_t, float>;

/// Upstream's float text (src/common/charconv.cc ToChars, ryu-based): shortest round-trip digits
/// in scientific form "d[.ddd]E<exp>", e.g. 0.5f -> "5E-1", 1.985f -> "1.985E0", 0 -> "0E0".
std::string upstream_float_string(float v);

/// The model document. Throws std::runtime_error when array lengths in a tree disagree.
float_json model_to_json(Model const& model);

/// Text JSON bytes (compact, as upstream's default `save_model("x.json")`).
std::string model_to_json_bytes(Model const& model);

/// UBJSON bytes.
std::string model_to_ubjson_bytes(Model const& model);

/// Writes `model` to `path` atomically (temp file in the same directory, then rename): UBJSON when
/// the path ends in ".ubj", JSON otherwise. Throws std::runtime_error naming the path on I/O errors.
void save_model(Model const& model, std::string const& path);

}  // namespace kboost
