/// \file param_table.cpp
/// The training parameters: names, help, ranges as upstream's DMLC_DECLARE_FIELD bounds
/// (src/tree/param.h, src/learner.cc, src/gbm/gbtree.h, the objectives' parameter structs), and the
/// setters that check a value and store it.
#include <kboost/engine/detail/param_table.hpp>

#include <kboost/core/float_text.hpp>
#include <kboost/engine/detail/nearest_name.hpp>
#include <kboost/engine/metrics.hpp>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace kboost::detail {
namespace {

std::string trim(std::string const& s) { return trim_blanks(s); }

[[noreturn]] void bad(std::string const& key, std::string const& value, std::string const& why) {
  throw std::runtime_error("parameter " + key + " = '" + value + "': " + why);
}

double to_double(std::string const& key, std::string const& v) {
  char* end = nullptr;
  errno = 0;
  double const d = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || errno == ERANGE) bad(key, v, "not a number");
  return d;
}

long long to_int(std::string const& key, std::string const& v) {
  double const d = to_double(key, v);
  if (d != std::floor(d) || std::fabs(d) > 9.2e18) bad(key, v, "not an integer");
  return static_cast<long long>(d);
}

bool to_bool(std::string const& key, std::string const& v) {
  if (v == "1" || v == "true" || v == "True") return true;
  if (v == "0" || v == "false" || v == "False") return false;
  bad(key, v, "not a boolean (0/1/true/false)");
}

std::vector<std::string> split_list(std::string const& v) {
  std::vector<std::string> out;
  std::stringstream ss(v);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item = trim(item);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

/// A list parameter as upstream writes it: "[a,b]" (JSON array), "(a,b)" (Python tuple text) or a
/// single value "a"; elements as text.
std::vector<std::string> list_items(std::string const& key, std::string const& v) {
  std::string t = trim(v);
  if (!t.empty() && (t.front() == '[' || t.front() == '(')) {
    char const close = t.front() == '[' ? ']' : ')';
    if (t.back() != close) bad(key, v, std::string("a list must end with '") + close + "'");
    t = t.substr(1, t.size() - 2);
  }
  std::vector<std::string> out;
  std::stringstream ss(t);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(trim(item));
  if (out.size() == 1 && out[0].empty()) out.clear();
  for (auto const& i : out)
    if (i.empty()) bad(key, v, "empty list element");
  return out;
}

/// interaction_constraints: a JSON array of arrays of feature indices.
std::vector<std::vector<int>> index_sets(std::string const& key, std::string const& v) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(v);
  } catch (nlohmann::json::exception const& e) {
    bad(key, v, std::string("not a JSON list of feature index lists, e.g. [[0,1],[2,3]] (") + e.what() + ")");
  }
  if (!j.is_array()) bad(key, v, "not a list of feature index lists, e.g. [[0,1],[2,3]]");
  std::vector<std::vector<int>> out;
  for (auto const& set : j) {
    if (!set.is_array()) bad(key, v, "every element must be a list of feature indices");
    std::vector<int> s;
    for (auto const& f : set) {
      if (!f.is_number_integer() || f.get<long long>() < 0 || f.get<long long>() > 2147483647)
        bad(key, v, "feature indices must be non-negative integers (kboost does not resolve feature names here)");
      s.push_back(f.get<int>());
    }
    out.push_back(std::move(s));
  }
  return out;
}

/// upstream's device strings (src/context.cc ParseDevice): cpu, cuda, gpu, optionally :<ordinal>.
bool is_device_name(std::string const& v) {
  std::string const type = v.substr(0, v.find(':'));
  if (type != "cpu" && type != "cuda" && type != "gpu") return false;
  if (v.size() == type.size()) return true;
  std::string const ordinal = v.substr(type.size() + 1);
  return type != "cpu" && !ordinal.empty() && ordinal.size() < 10 &&
         ordinal.find_first_not_of("0123456789") == std::string::npos;
}

/// The objective names kboost trains (suggestions for a misspelt objective).
std::vector<std::string> trainable_objective_names() {
  std::vector<std::string> out;
  for (auto const& name : known_objective_names())
    if (name != "binary:hinge") out.push_back(name);
  return out;
}


/// A value type: its setter (bound to a TrainParams field), its description and the field's default.
struct Kind {
  ParamSetter set;
  std::string type;
  std::string default_value;
};

std::string bound_text(double b) { return std::isinf(b) ? "inf" : param_float_string(static_cast<float>(b)); }

Kind real(float& dst, double lo, double hi, bool lo_open = false, bool hi_open = false) {
  std::string const range = std::string(lo_open ? "(" : "[") + bound_text(lo) + ", " + bound_text(hi) + (hi_open ? ")" : "]");
  auto set = [&dst, lo, hi, lo_open, hi_open, range](std::string const& k, std::string const& v) {
    double const d = to_double(k, v);
    bool const ok = (lo_open ? d > lo : d >= lo) && (hi_open ? d < hi : d <= hi);
    if (!ok || std::isnan(d)) bad(k, v, "out of range " + range);
    // kboost's parameters are float32, as upstream's: a value that is not a finite float32 would
    // train a model of inf or NaN leaves
    if (std::isinf(d)) bad(k, v, "must be finite");
    if (std::fabs(d) > std::numeric_limits<float>::max())
      bad(k, v, "overflows float32 (the largest is 3.40282347e+38)");
    dst = static_cast<float>(d);
  };
  // six digits: 0.3, not the 0.300000012 the model file holds
  return {set, "FLOAT in " + range, ostream_float_string(dst, 6)};
}

template <class Int>
Kind integer(Int& dst, long long lo, long long hi) {
  auto set = [&dst, lo, hi](std::string const& k, std::string const& v) {
    long long const i = to_int(k, v);
    if (i < lo || i > hi) bad(k, v, "out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    dst = static_cast<Int>(i);
  };
  std::string const type = hi >= 2147483647 ? "INT >= " + std::to_string(lo)
                                            : "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return {set, type, std::to_string(dst)};
}

Kind boolean(bool& dst) {
  return {[&dst](std::string const& k, std::string const& v) { dst = to_bool(k, v); }, "BOOL (0/1/true/false)",
          dst ? "1" : "0"};
}

Kind choice(std::string& dst, std::vector<std::string> allowed) {
  std::string list, alternatives;
  for (auto const& a : allowed) {
    list += (list.empty() ? "" : ", ") + a;
    alternatives += (alternatives.empty() ? "" : "|") + a;
  }
  auto set = [&dst, allowed, list](std::string const& k, std::string const& v) {
    for (auto const& a : allowed)
      if (a == v) {
        dst = v;
        return;
      }
    bad(k, v, "must be one of: " + list);
  };
  return {set, "{" + alternatives + "}", dst};
}

/// A value type written by hand: `type` says what it takes.
Kind custom(std::string type, std::string default_value, ParamSetter set) {
  return {std::move(set), std::move(type), std::move(default_value)};
}

/// An integer option that also turns the histogram tuner off (an explicit kernel choice is never re-tuned).
template <class Int>
Kind untuned(TrainParams& p, Int& dst, long long lo, long long hi) {
  Kind k = integer(dst, lo, hi);
  k.set = [&p, set = k.set](std::string const& key, std::string const& v) {
    set(key, v);
    p.hist_tune = false;
  };
  return k;
}

char const* const kTree = "Tree booster (upstream TrainParam)";
char const* const kTask = "Learning task";
char const* const kRank = "Learning to rank (upstream LambdaRankParam)";
char const* const kRun = "Run control";
char const* const kDart = "DART booster (booster = dart)";
char const* const kTuning = "kboost tuning (not XGBoost parameters)";

}  // namespace

std::string trim_blanks(std::string const& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<ParamEntry> param_table(TrainParams& p) {  // declarative table: one entry per parameter
  constexpr double kInf = INFINITY;
  constexpr long long kIntMax = 2147483647;
  std::vector<ParamEntry> t;
  auto add = [&t](char const* group, std::string name, Kind kind, std::string help,
                  std::vector<std::string> aliases = {}) {
    t.push_back({ParamDoc{std::move(name), std::move(aliases), group, std::move(kind.type),
                          std::move(kind.default_value), std::move(help)},
                 std::move(kind.set)});
  };
  // tree booster
  add(kTree, "eta", real(p.eta, 0, kInf), "step size shrinkage applied to each new tree's leaf values",
      {"learning_rate"});
  add(kTree, "max_depth", integer(p.max_depth, 0, kIntMax), "maximum tree depth (0: unlimited, lossguide only)");
  add(kTree, "min_child_weight", real(p.min_child_weight, 0, kInf), "minimum hessian sum in a child");
  add(kTree, "lambda", real(p.lambda, 0, kInf), "L2 regularisation of leaf weights", {"reg_lambda"});
  add(kTree, "alpha", real(p.alpha, 0, kInf), "L1 regularisation of leaf weights", {"reg_alpha"});
  add(kTree, "gamma", real(p.gamma, 0, kInf), "minimum loss reduction to make a split", {"min_split_loss"});
  add(kTree, "max_delta_step",
      custom("FLOAT in [0, inf]", "0 (count:poisson: 0.7)",
             [&p](std::string const& k, std::string const& v) {
               double const d = to_double(k, v);
               if (!(d >= 0)) bad(k, v, "out of range [0, inf]");
               p.max_delta_step = static_cast<float>(d);
               p.max_delta_step_set = true;
             }),
      "clip of each leaf's weight step (0: none)");
  // a feature gets at most max_bin + 1 cut values, and kboost's 16-bit bin codes hold 65,535
  add(kTree, "max_bin", integer(p.max_bin, 2, 65534), "histogram bins per feature");
  add(kTree, "max_leaves", integer(p.max_leaves, 0, kIntMax), "maximum leaves per tree (0: unlimited)");
  add(kTree, "grow_policy", choice(p.grow_policy, {"depthwise", "lossguide"}),
      "split level by level, or the node with the largest gain first");
  add(kTree, "subsample", real(p.subsample, 0, 1, true, false), "fraction of rows sampled for each tree");
  add(kTree, "sampling_method", choice(p.sampling_method, {"uniform"}), "how rows are subsampled");
  add(kTree, "colsample_bytree", real(p.colsample_bytree, 0, 1, true, false), "fraction of features per tree");
  add(kTree, "colsample_bylevel", real(p.colsample_bylevel, 0, 1, true, false), "fraction of features per level");
  add(kTree, "colsample_bynode", real(p.colsample_bynode, 0, 1, true, false), "fraction of features per node");
  add(kTree, "seed", integer(p.seed, 0, static_cast<long long>(9.2e18)), "random seed (sampling, DART drops)",
      {"random_state"});
  add(kTree, "monotone_constraints",
      custom("LIST of -1|0|1, e.g. (1,0,-1)", "()",
             [&p](std::string const& k, std::string const& v) {
               p.monotone_constraints.clear();
               for (auto const& item : list_items(k, v)) {
                 long long const c = to_int(k, item);
                 if (c < -1 || c > 1) bad(k, v, "each constraint must be -1, 0 or 1");
                 p.monotone_constraints.push_back(static_cast<int>(c));
               }
             }),
      "per feature: +1 increasing, -1 decreasing, 0 free");
  add(kTree, "interaction_constraints",
      custom("JSON list of feature index lists, e.g. [[0,1],[2,3]]", "[]",
             [&p](std::string const& k, std::string const& v) { p.interaction_constraints = index_sets(k, v); }),
      "feature sets a branch may combine");
  add(kTree, "max_cat_to_onehot", integer(p.max_cat_to_onehot, 1, kIntMax),
      "below this many categories, split one category against the rest");
  add(kTree, "max_cat_threshold", integer(p.max_cat_threshold, 1, kIntMax),
      "most categories on the side a partition split grows");
  add(kTree, "enable_categorical", boolean(p.enable_categorical), "0: refuse categorical features");
  // learning task
  add(kTask, "objective",
      custom("NAME, e.g. binary:logistic", p.objective,
             [&p](std::string const& k, std::string const& v) {
               try {
                 (void)objective_kind(v);
               } catch (std::exception const&) {
                 if (is_known_objective(v)) bad(k, v, "kboost predicts " + v + " models but does not train them");
                 bad(k, v, "unknown objective" + did_you_mean(v, trainable_objective_names()));
               }
               p.objective = v;
             }),
      "learning objective");
  add(kTask, "num_class", integer(p.num_class, 0, kIntMax), "classes of multi:softmax / multi:softprob");
  add(kTask, "scale_pos_weight", real(p.scale_pos_weight, 0, kInf, true, false),
      "weight of positive rows (binary objectives)");
  add(kTask, "tweedie_variance_power", real(p.tweedie_variance_power, 1, 2, false, true),
      "reg:tweedie's variance power");
  add(kTask, "huber_slope", real(p.huber_slope, 0, kInf, true, false), "reg:pseudohubererror's slope");
  add(kTask, "quantile_alpha",
      custom("FLOAT or LIST in [0, 1], e.g. [0.1,0.5,0.9]", "",
             [&p](std::string const& k, std::string const& v) {
               p.quantile_alpha.clear();
               for (auto const& item : list_items(k, v)) {
                 double const a = to_double(k, item);
                 if (!(a >= 0.0 && a <= 1.0)) bad(k, v, "quantile alpha must be in the range [0.0, 1.0]");
                 p.quantile_alpha.push_back(static_cast<float>(a));
               }
               if (p.quantile_alpha.empty()) bad(k, v, "no quantile given");
             }),
      "reg:quantileerror's quantiles (one output each)");
  add(kTask, "aft_loss_distribution", choice(p.aft_loss_distribution, {"normal", "logistic", "extreme"}),
      "survival:aft's noise distribution");
  add(kTask, "aft_loss_distribution_scale", real(p.aft_loss_distribution_scale, 0, kInf, true, false),
      "survival:aft's distribution scale");
  add(kTask, "base_score",
      custom("FLOAT (finite)", "estimated",
             [&p](std::string const& k, std::string const& v) {
               double const d = to_double(k, v);
               if (!std::isfinite(d)) bad(k, v, "must be finite");
               p.base_score = static_cast<float>(d);
             }),
      "initial prediction, in output space");
  add(kTask, "boost_from_average", boolean(p.boost_from_average),
      "estimate the intercept when base_score is not given (0: 0.5)");
  add(kTask, "eval_metric",
      custom("NAME[,NAME...], e.g. auc,logloss", "the objective's",
             [&p](std::string const& k, std::string const& v) {
               for (auto const& m : split_list(v)) {
                 if (!is_known_metric(m))
                   bad(k, v, "unknown metric '" + m + "'" + did_you_mean(m.substr(0, m.find('@')), known_metric_names()));
                 p.eval_metric.push_back(m);
               }
             }),
      "metrics of the eval sets (repeats accumulate)");
  add(kTask, "disable_default_eval_metric", boolean(p.disable_default_eval_metric),
      "1: no metric unless eval_metric names one");
  // learning to rank
  add(kRank, "lambdarank_pair_method", choice(p.lambdarank_pair_method, {"topk", "mean"}), "how pairs are chosen");
  add(kRank, "lambdarank_num_pair_per_sample", integer(p.lambdarank_num_pair_per_sample, 1, kIntMax),
      "pairs per document (default: topk 32, mean 1)");
  add(kRank, "lambdarank_normalization", boolean(p.lambdarank_normalization), "normalise gradients by pair count");
  add(kRank, "lambdarank_score_normalization", boolean(p.lambdarank_score_normalization),
      "normalise delta metrics by score differences");
  add(kRank, "lambdarank_bias_norm", real(p.lambdarank_bias_norm, 0, kInf), "position-bias normalisation");
  add(kRank, "lambdarank_unbiased",
      custom("BOOL (0 only)", "0",
             [](std::string const& k, std::string const& v) {
               if (to_bool(k, v))
                 bad(k, v, "unbiased LambdaMART (position-bias estimation) is not implemented by kboost");
             }),
      "position-bias estimation (refused)");
  add(kRank, "ndcg_exp_gain", boolean(p.ndcg_exp_gain), "NDCG gain 2^rel - 1 (0: rel)");
  // run control
  add(kRun, "num_round", integer(p.num_round, 0, kIntMax), "boosting rounds", {"num_boost_round", "n_estimators"});
  add(kRun, "early_stopping_rounds", integer(p.early_stopping_rounds, 0, kIntMax),
      "stop after this many rounds without improvement of the last eval set's last metric (0: off)");
  add(kRun, "nthread", integer(p.nthread, 0, kIntMax), "host threads (0: Kokkos' own)", {"n_jobs"});
  add(kRun, "verbosity", integer(p.verbosity, 0, 3), "0: no phase times, 2: histogram tuning too");
  add(kRun, "tree_method",
      custom("{hist|auto}", "hist",
             [&p](std::string const& k, std::string const& v) {
               if (v != "hist" && v != "auto") bad(k, v, "kboost implements only tree_method = hist");
               p.tree_method = "hist";
             }),
      "histogram tree construction");
  add(kRun, "device",
      custom("{cpu|cuda[:N]|gpu[:N]}", "the build's default space",
             [&p](std::string const& k, std::string const& v) {
               if (!is_device_name(v)) bad(k, v, "expected cpu, cuda, cuda:<ordinal>, gpu or gpu:<ordinal>");
               p.device = v;
             }),
      "must name the space kboost runs on");
  add(kRun, "booster",
      custom("{gbtree|dart}", p.booster,
             [&p](std::string const& k, std::string const& v) {
               if (v == "gblinear") bad(k, v, "linear boosters are not implemented by kboost (gbtree and dart are)");
               if (v != "gbtree" && v != "dart") bad(k, v, "expected gbtree or dart");
               p.booster = v;
             }),
      "tree ensemble, or trees with dropout");
  add(kRun, "multi_strategy",
      custom("{one_output_per_tree}", p.multi_strategy,
             [&p](std::string const& k, std::string const& v) {
               if (v == "multi_output_tree")
                 bad(k, v, "vector-leaf trees are not implemented by kboost (one_output_per_tree is)");
               if (v != "one_output_per_tree") bad(k, v, "expected one_output_per_tree or multi_output_tree");
               p.multi_strategy = v;
             }),
      "one tree per target per round with several label columns");
  add(kRun, "validate_parameters",
      custom("BOOL (1 only)", "1",
             [](std::string const& k, std::string const& v) {
               if (!to_bool(k, v)) bad(k, v, "kboost always validates parameters: an unknown one is an error");
             }),
      "unknown parameters are errors (always)");
  // DART
  add(kDart, "rate_drop", real(p.rate_drop, 0, 1), "fraction of the trees dropped in a round");
  add(kDart, "skip_drop", real(p.skip_drop, 0, 1), "probability of a round without drops");
  add(kDart, "one_drop", boolean(p.one_drop), "drop at least one tree");
  add(kDart, "sample_type", choice(p.sample_type, {"uniform", "weighted"}), "how dropped trees are chosen");
  add(kDart, "normalize_type", choice(p.normalize_type, {"tree", "forest"}), "how new and dropped trees are weighted");
  // kboost tuning
  add(kTuning, "min_shared", untuned(p, p.min_shared, 0, static_cast<long long>(9.2e18)),
      "nodes with at least this many rows use the tiled histogram", {"kboost_min_shared"});
  add(kTuning, "tile_rows", untuned(p, p.tile_rows, 1, kIntMax), "rows per histogram tile", {"kboost_tile_rows"});
  add(kTuning, "lossguide_lookahead", boolean(p.lossguide_lookahead),
      "lossguide: build several waiting nodes' children per step (the same trees, fewer device steps)",
      {"kboost_lossguide_lookahead"});
  add(kTuning, "hist_tune", boolean(p.hist_tune), "measure tile_rows/min_shared on a shape's first fit",
      {"kboost_hist_tune"});
  add(kTuning, "sketch_method", choice(p.sketch_method, {"upstream_gpu", "upstream_cpu", "exact_quantile"}),
      "histogram cuts: upstream's GPU sketch (device=cuda's cuts), upstream's CPU sketch, or exact quantiles on the device", {"kboost_sketch_method"});
  add(kTuning, "math_functions", choice(p.math_functions, {"upstream_gpu", "upstream_cpu"}),
      "float exp/log of the gradients and intercepts: CUDA's (device=cuda's) or glibc's (upstream's CPU build)",
      {"kboost_math_functions"});
  return t;
}

}  // namespace kboost::detail
