#pragma once
/// \file params.hpp
/// Training parameters with XGBoost's names, defaults and ranges (upstream src/tree/param.h
/// TrainParam, src/learner.cc LearnerTrainParam/LearnerModelParamLegacy, src/gbm/gbtree.h
/// GBTreeTrainParam, objective parameter structs), parsed from string key/value pairs as given on
/// the command line or in an XGBoost CLI config file (src/cli_main.cc, dmlc ConfigIterator).
#include <kboost/core/float_text.hpp>
#include <kboost/core/objective.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kboost {

/// All parameters of one training run. Names as XGBoost's; aliases accepted by parse_params.
struct TrainParams {
  // tree booster (TrainParam)
  float eta = 0.3f;               ///< learning_rate
  int max_depth = 6;
  float min_child_weight = 1.0f;
  float lambda = 1.0f;            ///< reg_lambda
  float alpha = 0.0f;             ///< reg_alpha
  float gamma = 0.0f;             ///< min_split_loss
  float max_delta_step = 0.0f;    ///< tree weight clip; count:poisson defaults it to 0.7 (as upstream 3.2)
  bool max_delta_step_set = false;///< user gave max_delta_step
  int max_bin = 256;
  int max_leaves = 0;
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
  /// Categorical features (DatasetInfo::feature_types) split on category sets as upstream's hist
  /// (src/tree/hist/evaluate_splits.h): one category against the rest when the feature has fewer
  /// than max_cat_to_onehot categories, else a partition of the categories sorted by their weight,
  /// at most max_cat_threshold categories on the side the search grows.
  int max_cat_to_onehot = 4;
  int max_cat_threshold = 64;
  /// false: categorical features are refused (upstream's Python refuses category columns unless
  /// enable_categorical is set; the CLI reads text columns as categories, so kboost's default is true).
  bool enable_categorical = true;
  // learner / objective
  std::string objective = "reg:squarederror";
  int num_class = 0;
  float scale_pos_weight = 1.0f;
  float tweedie_variance_power = 1.5f;
  float huber_slope = 1.0f;
  std::vector<float> quantile_alpha;  ///< "0.5" or "[0.1,0.5,0.9]"; reg:quantileerror needs it
  // rank:* (upstream ltr::LambdaRankParam; ObjectiveParams says what each does)
  std::string lambdarank_pair_method = "topk";  ///< "topk" | "mean"
  int lambdarank_num_pair_per_sample = 0;       ///< 0 = the method's default (topk 32, mean 1)
  bool lambdarank_normalization = true;
  bool lambdarank_score_normalization = true;
  float lambdarank_bias_norm = 1.0f;
  bool ndcg_exp_gain = true;
  std::string aft_loss_distribution = "normal";  ///< survival:aft: normal | logistic | extreme
  float aft_loss_distribution_scale = 1.0f;      ///< survival:aft: the distribution's scale σ
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
  // DART (upstream's DartTrainParam; booster = dart only)
  float rate_drop = 0.0f;                 ///< fraction of the trees dropped in a round
  float skip_drop = 0.0f;                 ///< probability of a round without drops
  bool one_drop = false;                  ///< drop at least one tree when any exist
  std::string sample_type = "uniform";    ///< "uniform" | "weighted" (by tree weight)
  std::string normalize_type = "tree";    ///< "tree" | "forest": how new and dropped trees are weighted
  // kboost tuning (not XGBoost parameters)
  std::int64_t min_shared = 2048; ///< kboost_min_shared: nodes with >= rows use the tile histogram
  std::int32_t tile_rows = 4096;  ///< kboost_tile_rows: rows per histogram tile
  bool hist_tune = true;          ///< kboost_hist_tune: measure tile_rows/min_shared on the first fit of a
                                  ///< shape (engine/hist_tuner.hpp); off when either is given explicitly
  /// kboost_sketch_method: how the histogram cuts are found, the same on every backend.
  /// "upstream_cpu": a host replica of upstream's CPU hist sketch (the cuts of xgboost's
  /// tree_method=hist on the CPU, bit for bit; engine/detail/sketch.hpp). "exact_quantile": exact
  /// weighted quantiles by a radix selection on the execution space, the matrix never copied to
  /// the host (engine/detail/exact_sketch.hpp); on a GPU it is tens of times faster at 10M rows.
  std::string sketch_method = "upstream_cpu";
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

/// The objective part of TrainParams (count:poisson's max_delta_step defaults to 0.7).
ObjectiveParams objective_params(TrainParams const& p);

/// The model file's "objective" object as upstream 3.2 writes it (io/model_writer.hpp
/// objective_config_json gives its text, e.g.
/// {"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}).
ObjectiveConfig objective_config(TrainParams const& p, ObjectiveParams const& obj);

/// quantile_alpha as upstream's ParamArray writes it into the model: "[1E-1,5E-1,9E-1]".
std::string quantile_alpha_string(std::vector<float> const& alpha);

}  // namespace kboost
