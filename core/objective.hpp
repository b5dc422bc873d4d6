#pragma once
/// \file objective.hpp
/// Learning objectives: parameters and the objective registry, following upstream XGBoost 3.2
/// (src/objective/*). The registry (core/objective.cpp) is one table: objective name -> kind, output
/// transform, margin link, what prediction needs. The transforms themselves are in
/// core/output_transform.hpp; everything training needs (gradients, intercept, labels, default
/// metric, model-file parameters) is in the objective's family unit under engine/objective/.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace kboost {

/// Objective configuration (XGBoost parameter names). `num_class` only for multi:*.
struct ObjectiveParams {
  std::string objective = "reg:squarederror";  ///< the objective's name, e.g. "binary:logistic"
  int num_class = 0;
  float scale_pos_weight = 1;
  float tweedie_variance_power = 1.5f;
  float huber_slope = 1;
  /// count:poisson's own `max_delta_step` (PoissonRegressionParam, default 0.7): it enters the
  /// hessian. Not a parameter of its own: engine/params.hpp objective_params() sets it from the
  /// tree booster's max_delta_step.
  float poisson_max_delta_step = 0.7f;
  /// reg:quantileerror's `quantile_alpha` (QuantileLossParam), "0.5" or "[0.1,0.5,0.9]": one output
  /// per alpha, each in [0, 1]; reg:quantileerror needs it.
  std::vector<float> quantile_alpha;
  /// rank:* (upstream ltr::LambdaRankParam): "topk" pairs each of the first k documents of the
  /// model's ranking with every lower one; "mean" draws lambdarank_num_pair_per_sample partners
  /// per document outside its relevance level (upstream 3.2's std::minstd_rand draws, replicated).
  std::string lambdarank_pair_method = "topk";
  int lambdarank_num_pair_per_sample = 0;  ///< 0: the method's default (topk: k = 32; mean: 1 pair)
  bool lambdarank_normalization = true;    ///< scale a group's gradients (topk: log2(1+Σλ)/Σλ; mean: 1/pairs)
  bool lambdarank_score_normalization = true;  ///< divide Δmetric by |Δscore| + 0.01
  float lambdarank_bias_norm = 1.0f;       ///< only with lambdarank_unbiased, which kboost refuses
  bool ndcg_exp_gain = true;               ///< NDCG gain 2^rel − 1 (true) or rel
  /// survival:aft (upstream AFTParam): the noise distribution ("normal", "logistic", "extreme") and
  /// its scale σ.
  std::string aft_loss_distribution = "normal";
  float aft_loss_distribution_scale = 1.0f;
  /// kboost_math_functions: whose float exp/log the gradients and intercepts reproduce:
  /// "upstream_gpu" (default; CUDA's, as upstream's device=cuda build) or "upstream_cpu" (glibc's,
  /// as its CPU build). Either gives the same bits on every backend (core/cuda_math.hpp).
  std::string math_functions = "upstream_gpu";
};

/// Objectives kboost knows. All but kHinge train (kCox's, kAft's and kRank's gradients on the host).
enum class ObjectiveKind : int {
  kSquaredError,   ///< reg:squarederror (also reg:linear)
  kSquaredLogError,///< reg:squaredlogerror
  kLogistic,       ///< reg:logistic, binary:logistic
  kLogitRaw,       ///< binary:logitraw
  kSoftprob,       ///< multi:softprob
  kSoftmax,        ///< multi:softmax
  kPoisson,        ///< count:poisson
  kGamma,          ///< reg:gamma
  kTweedie,        ///< reg:tweedie
  kPseudoHuber,    ///< reg:pseudohubererror
  kAbsoluteError,  ///< reg:absoluteerror
  kQuantile,       ///< reg:quantileerror
  kCox,            ///< survival:cox (risk-set gradients on the host)
  kAft,            ///< survival:aft (interval likelihood gradients on the host)
  kRank,           ///< rank:pairwise, rank:ndcg, rank:map (LambdaMART gradients on the host)
  kHinge,          ///< binary:hinge (prediction only; objective_kind() does not accept it)
};

/// Kind of a training objective name (every registered name except binary:hinge, which kboost reads
/// and predicts but has never accepted as a training objective).
/// \throws std::runtime_error("objective: unknown objective '<name>'") for any other name.
ObjectiveKind objective_kind(std::string const& name);

/// True for the objectives kboost knows how to turn margins into outputs for (upstream's list in
/// src/objective/*: reg:*, binary:*, multi:*, count:poisson, survival:cox/aft, rank:*).
bool is_known_objective(std::string const& name);

/// Every objective name is_known_objective accepts, in kboost's table order.
std::vector<std::string> known_objective_names();

/// The model file's "objective" object as upstream 3.2 writes it: the objective's name and, for an
/// objective with parameters, one parameter object (upstream's parameter struct, e.g.
/// "reg_loss_param" of RegLossParam) whose values are strings as upstream's parameter manager
/// prints them. Made by the objective's family (engine/objective), written by io/model_writer.
struct ObjectiveConfig {
  std::string name;
  std::string param_object;                                 ///< e.g. "reg_loss_param"; "": none
  std::vector<std::pair<std::string, std::string>> params;  ///< (parameter, value as text)
};

}  // namespace kboost
