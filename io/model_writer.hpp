#pragma once
/// \file model_writer.hpp
/// Saves a kboost::Model as an XGBoost 3.x model file (JSON, or UBJSON for *.ubj) that upstream's
/// `xgboost.Booster(model_file=...)` loads. Schema as upstream 3.2 writes it (src/learner.cc
/// LearnerIO::SaveModel, LearnerModelParamLegacy::ToJson, src/gbm/gbtree_model.cc
/// GBTreeModel::SaveModel, src/gbm/gbtree.cc Dart::SaveModel, src/tree/tree_model.cc
/// RegTree::SaveModel): keys sorted, base_score a JSON-array string of shortest float32 text in
/// upstream's "1.985E0" style, root parent 2147483647, tree_param values as strings.
/// Serialised like upstream's JsonWriter/UBJWriter (src/common/json.cc): text JSON compact with
/// float32 numbers as shortest round-trip digits in "9.624231E-1" form; UBJSON big-endian with
/// 'L'-length keys, typed arrays (f32 'd', i32 'l', i64 'L', u8 'U') for tree fields and integers
/// in the smallest marker. For a model upstream 3.2 wrote, the bytes are identical to upstream's.
/// Output bytes are a pure function of the Model (deterministic).
#include <kboost/core/float_text.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/objective.hpp>

#include <string>

namespace kboost {

/// The model file's "objective" object of `config` as compact JSON text, keys in upstream's
/// (sorted) order, e.g. {"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}, as
/// the model writers write it.
std::string objective_config_json(ObjectiveConfig const& config);

/// Text JSON bytes (compact, as upstream's `save_model("x.json")`). Throws std::runtime_error
/// when a tree's array lengths disagree or tree_info does not match the trees.
std::string model_to_json_bytes(Model const& model);

/// UBJSON bytes.
std::string model_to_ubjson_bytes(Model const& model);

/// Writes `model` to `path` atomically (temp file in the same directory, then rename): UBJSON when
/// the path ends in ".ubj", JSON otherwise. Throws std::runtime_error naming the path on I/O errors.
void save_model(Model const& model, std::string const& path);

}  // namespace kboost
