#pragma once
/// \file model_reader.hpp
/// Loader for XGBoost model files (JSON and UBJSON, every schema from 1.0 to 3.4) into kboost::Model.
/// Upstream: src/learner.cc (LearnerIO::LoadModel, LearnerModelParamLegacy::FromJson),
/// src/gbm/gbtree_model.cc (GBTreeModel::LoadModel), src/gbm/gbtree.cc (Dart::LoadModel),
/// src/tree/tree_model.cc (RegTree::LoadModel, LoadCategoricalSplit),
/// src/tree/multi_target_tree_model.cc (vector leaves).
#include <string>

#include "core/model.hpp"

namespace kboost {

/// Read an XGBoost model file. The format is detected from the content (text JSON starts with `{`
/// followed by `"`/`}`/whitespace; anything else is parsed as UBJSON), so the extension does not
/// matter. Thresholds and leaf values are read as float32 directly from the number text (never via
/// double); bare `NaN`/`Infinity` tokens written by XGBoost 1.4–3.0 are accepted.
/// The returned model is validated (see validate_model).
/// \throws std::runtime_error naming the file, the tree index and the field on any malformed input
///         (bad JSON/UBJSON, truncated file, missing field, wrong array length, child index out of
///         range, cycle, NaN threshold on a numerical split, unknown objective, gblinear booster).
Model read_model(std::string const& path);

/// Same as read_model for a file's bytes already in memory; `source` names it in error messages.
Model parse_model(std::string const& bytes, std::string const& source);

/// Structural checks the predictor relies on; throws std::runtime_error("<source>: tree <t>: <field>: ...").
/// Checks array lengths, child/feature indices, that every reachable node has one parent (no cycles
/// or shared subtrees), no NaN thresholds on numerical splits or NaN leaves, category sets, tree_info
/// and iteration_indptr ranges, weight_drop length, base_score length.
void validate_model(Model const& model, std::string const& source);

/// True for the objectives kboost knows how to turn margins into outputs for (upstream's list in
/// src/objective/*: reg:*, binary:*, multi:*, count:poisson, survival:cox/aft, rank:*).
bool is_known_objective(std::string const& name);

}  // namespace kboost
