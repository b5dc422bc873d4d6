#pragma once
/// \file model_reader.hpp
/// Loader for XGBoost model files (JSON and UBJSON, every schema from 1.0 to 3.4) into kboost::Model.
/// Upstream: src/learner.cc (LearnerIO::LoadModel, LearnerModelParamLegacy::FromJson),
/// src/gbm/gbtree_model.cc (GBTreeModel::LoadModel), src/gbm/gbtree.cc (Dart::LoadModel),
/// src/tree/tree_model.cc (RegTree::LoadModel, LoadCategoricalSplit),
/// src/tree/multi_target_tree_model.cc (vector leaves).
#include <string>
#include <vector>

#include <kboost/core/dmatrix.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/objective.hpp>

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
/// Checks array lengths (node statistics too: loss_changes and sum_hessian one per node, base_weights
/// size_leaf_vector per node; only a vector-leaf tree may lack the first two, as 2.x's did),
/// child/feature indices, that every reachable node has one parent (no cycles
/// or shared subtrees), no NaN thresholds on numerical splits or NaN leaves, category sets, tree_info
/// and iteration_indptr ranges, weight_drop length, base_score length.
void validate_model(Model const& model, std::string const& source);

/// Re-code the categorical columns of host data `data` (rows × features, dense or CSR) in place
/// to the codes a model's trees use. `encoder` has one entry per feature (Model::category_encoder,
/// or one built from training data); an empty vector means "no encoder".
/// For feature j with a non-empty encoder entry, each non-missing value becomes the POSITION of
/// its category in the entry: text cells (data.info.categories[j] gives the string of each
/// per-file code) are looked up as strings, numeric cells as numbers (or as their shortest decimal
/// text when the encoder holds strings, e.g. cylinders 8 -> "8"). A category the entry lacks is an
/// error under UnseenCategory::kError, as upstream 3.4.1's re-coder refuses it
/// (src/encoder/ordinal.h Recode, "Found a category not in the training set"); under kMissing it
/// becomes NaN and is counted in data.info.unseen_categories (per feature: cells, first value, row).
/// A text column of a feature without an encoder entry is accepted only when all its strings are
/// booleans (true/false, any case: coded 0/1).
/// \throws std::runtime_error naming data.info.source, the column and its first string when a text
///         column has no encoder entry (its per-file codes would shift when a category is absent),
///         or naming the source, the 1-based data row, the column and the value of the first unseen
///         category under kError.
void recode_categories(std::vector<FeatureCategories> const& encoder, HostDMatrix& data,
                       UnseenCategory unseen = UnseenCategory::kError);

}  // namespace kboost
