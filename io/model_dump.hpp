#pragma once
/// \file model_dump.hpp
/// Human-readable tree dumps, byte for byte as upstream XGBoost 3.2's `Booster.get_dump` and
/// `Booster.dump_model` (src/tree/tree_model.cc TextGenerator, JsonGenerator, GraphvizGenerator
/// with default parameters, RegTree::DumpModel; src/gbm/gbtree_model.h DumpModel;
/// python-package/xgboost/core.py dump_model). DART models dump like gbtree: upstream's dump
/// ignores weight_drop.
#include <string>
#include <vector>

#include <kboost/core/model.hpp>
#include <kboost/io/feature_map.hpp>

namespace kboost {

/// Output format of a dump: upstream's "text", "json" and "dot" (graphviz).
enum class DumpFormat { kText, kJson, kDot };

/// "text", "json" or "dot" to the format. \throws std::runtime_error on any other name.
DumpFormat parse_dump_format(std::string const& name);

/// What to dump and how.
struct DumpOptions {
  DumpFormat format = DumpFormat::kText;
  bool with_stats = false;  ///< gain and cover of split nodes, cover of leaves
  /// Feature names and types; empty: the model's feature_names/feature_types, else "f<i>" and "q"
  /// (see resolve_feature_map). A non-empty map must have one entry per model feature.
  FeatureMap fmap;
};

/// One string per tree (model.trees order), each exactly what upstream's
/// `Booster.get_dump(fmap, with_stats, dump_format)` returns for it: float32 values at 9
/// significant digits (`setprecision(max_digits10)`), categorical splits as sorted category sets,
/// indicator ("i") features without threshold, integer ("int") thresholds rounded up. Vector-leaf
/// trees print their leaves as `[v0, v1, v2]` (`[v0, ..., vlast]` beyond three targets).
/// \throws std::runtime_error, as upstream refuses the same dumps: a feature map whose length is not
///         num_feature; a categorical split on a feature whose map type is not "c" (or a numerical
///         split on a "c" feature) in text/json; with_stats on vector-leaf trees.
std::vector<std::string> dump_trees(Model const& model, DumpOptions const& options);

/// The bytes upstream's `Booster.dump_model(fout, fmap, with_stats, dump_format)` writes: for json
/// "[\n" + trees joined by ",\n" + "\n]", for text and dot "booster[<i>]:\n" + tree, per tree.
/// \throws std::runtime_error as dump_trees.
std::string dump_model_file(Model const& model, DumpOptions const& options);

}  // namespace kboost
