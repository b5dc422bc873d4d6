#pragma once
/// \file params.hpp
/// Training parameters with XGBoost's names, defaults and ranges (upstream src/tree/param.h
/// TrainParam, src/learner.cc LearnerTrainParam/LearnerModelParamLegacy, src/gbm/gbtree.h
/// GBTreeTrainParam and DartTrainParam, objective parameter structs), parsed from string key/value
/// pairs as given on the command line or in an XGBoost CLI config file (src/cli_main.cc, dmlc
/// ConfigIterator).
#include <kboost/core/float_text.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/kernels/split_params.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kboost {

/// DART's parameters (upstream's DartTrainParam; booster = dart only; engine/detail/dart.hpp
/// draws the drops and weighs the trees with them).
struct DartParams {
  /// fraction of the trees dropped in a round (float, as upstream's: the drop tests compare a
  /// double draw with float arithmetic)
  float rate_drop = 0.0f;
  float skip_drop = 0.0f;                 ///< probability of a round without drops
  bool one_drop = false;                  ///< drop at least one tree when any exist
  std::string sample_type = "uniform";    ///< "uniform" | "weighted" (by tree weight)
  std::string normalize_type = "tree";    ///< "tree" | "forest": how new and dropped trees are weighted
};

/// The tree booster's parameters (upstream src/tree/param.h TrainParam) and kboost's histogram
/// kernel choice: what growing one tree reads (engine/detail/tree_grower.hpp). Its SplitParams
/// part is what split evaluation reads on the device.
struct TreeParams : SplitParams {
  float eta = 0.3f;               ///< learning_rate
  int max_depth = 6;              ///< 0: unlimited (lossguide only)
  int max_bin = 256;
  int max_leaves = 0;             ///< 0: unlimited
  std::string grow_policy = "depthwise";  ///< "depthwise" | "lossguide"
  float subsample = 1.0f;
  std::string sampling_method = "uniform";
  float colsample_bytree = 1.0f, colsample_bylevel = 1.0f, colsample_bynode = 1.0f;
  std::uint64_t seed = 0;         ///< random_state
  /// monotone_constraints "(1,0,-1)" or "[1,0,-1]": per feature (from 0; missing trailing features
  /// are 0) +1 increasing, -1 decreasing, 0 free. Empty: no constraint (and upstream's unconstrained
  /// gain arithmetic).
  std::vector<int> monotone_constraints;
  /// interaction_constraints "[[0,1],[2,3,4]]": feature index sets; a branch may only use features
  /// that share a set with every feature already used on its path. Empty: none.
  std::vector<std::vector<int>> interaction_constraints;
  // kboost tuning (not XGBoost parameters)
  std::int64_t min_shared = 2048; ///< kboost_min_shared: nodes with >= rows use the tile histogram
  std::int32_t tile_rows = 4096;  ///< kboost_tile_rows: rows per histogram tile
  /// kboost_lossguide_lookahead: lossguide prepares several nodes' children per device step (the
  /// same tree; without column draws per node or level: engine/detail/tree_grower.hpp lookahead_nodes)
  bool lossguide_lookahead = true;
};

/// All parameters of one training run. Names as XGBoost's; aliases accepted by parse_params. The
/// tree booster's (TreeParams), the objective's (ObjectiveParams, core/objective.hpp; `objective`
/// names it) and DART's (DartParams) are its parts, which the grower, the objective and the drops
/// take as they are; the learner's and the run's are its own.
struct TrainParams : TreeParams, ObjectiveParams, DartParams {
  bool max_delta_step_set = false;///< user gave max_delta_step (else count:poisson sets it to 0.7)
  /// false: categorical features are refused (upstream's Python refuses category columns unless
  /// enable_categorical is set; the CLI reads text columns as categories, so kboost's default is true).
  bool enable_categorical = true;
  // learner
  std::optional<float> base_score;  ///< OUTPUT space, every output's; unset = estimated (boost_from_average)
  bool boost_from_average = true;   ///< false without base_score: intercept 0.5 (upstream's default)
  std::vector<std::string> eval_metric;  ///< empty = objective's default
  bool disable_default_eval_metric = false;  ///< true: no metric unless eval_metric names one
  // run control
  int num_round = 10;             ///< num_boost_round, n_estimators
  int early_stopping_rounds = 0;  ///< 0 = off
  int nthread = 0;                ///< 0 = backend default
  int verbosity = 1;
  std::string tree_method = "hist";  ///< only "hist" (and "auto", mapped to hist)
  std::string device;             ///< "" = not given; else must name the kind of space the fit runs on
  std::string booster = "gbtree";  ///< "gbtree" or "dart"
  // kboost tuning (not XGBoost parameters)
  bool hist_tune = true;          ///< kboost_hist_tune: measure tile_rows/min_shared on the first fit of a
                                  ///< shape (engine/hist_tuner.hpp); off when either is given explicitly
  /// kboost_sketch_method: how the histogram cuts are found, the same on every backend.
  /// "upstream_gpu" (default): a replica of upstream 3.4.1's GPU sketch (the cuts of device=cuda
  /// hist, bit for bit, on any backend and rank count; engine/detail/gpu_sketch.hpp).
  /// "upstream_cpu": a host replica of upstream's CPU hist sketch (the cuts of xgboost's
  /// tree_method=hist on the CPU, bit for bit; engine/detail/sketch.hpp). "exact_quantile": exact
  /// weighted quantiles by a radix selection on the execution space, the matrix never copied to
  /// the host (engine/detail/exact_sketch.hpp).
  std::string sketch_method = "upstream_gpu";
  /// multi_strategy: with several label columns (multi-target), one tree per target per round
  /// ("one_output_per_tree", upstream's default); upstream's vector-leaf "multi_output_tree" is
  /// refused.
  std::string multi_strategy = "one_output_per_tree";
};

/// Parses key/value strings into TrainParams. Keys are XGBoost's (aliases: learning_rate,
/// reg_lambda, reg_alpha, min_split_loss, random_state, num_boost_round, n_estimators);
/// `eval_metric` takes a comma-separated list. Throws std::runtime_error naming the parameter on
/// an unknown key, an unparsable value or a value out of XGBoost's range.
TrainParams parse_params(std::map<std::string, std::string> const& kv);

/// How one training parameter is documented (what `kboost train --help` lists).
struct ParamDoc {
  std::string name;                  ///< XGBoost's name, e.g. "max_depth"
  std::vector<std::string> aliases;  ///< other names parse_params takes, e.g. "learning_rate" for eta
  std::string group;                 ///< help section, e.g. "Tree booster (upstream TrainParam)"
  std::string type;                  ///< value type and range, e.g. "FLOAT in [0, inf]"
  std::string default_value;         ///< the value without the key, as text
  std::string help;                  ///< one line
};

/// Every parameter parse_params takes (aliases beside their name), grouped as upstream documents
/// them, in a fixed order. Throws nothing.
std::vector<ParamDoc> train_param_docs();

/// The objective part of TrainParams, its poisson_max_delta_step taken from the tree's
/// max_delta_step when the user gave one, else 0.7 (count:poisson's own default).
ObjectiveParams objective_params(TrainParams const& p);

/// The model file's "objective" object as upstream 3.2 writes it (io/model_writer.hpp
/// objective_config_json gives its text, e.g.
/// {"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}).
ObjectiveConfig objective_config(TrainParams const& p, ObjectiveParams const& obj);

/// quantile_alpha as upstream's ParamArray writes it into the model: "[1E-1,5E-1,9E-1]".
std::string quantile_alpha_string(std::vector<float> const& alpha);

}  // namespace kboost
