#pragma once
/// \file objective.hpp
/// Learning objectives: parameters and the objective registry, following upstream XGBoost 3.2
/// (src/objective/*). The registry (core/objective.cpp) is one table: objective name -> kind, output
/// transform, margin link. The transforms themselves are in core/output_transform.hpp, the training
/// gradients in kernels/gradients.hpp.
#include <cstddef>
#include <string>
#include <vector>

namespace kboost {

/// Objective configuration (XGBoost parameter names). `num_class` only for multi:*.
struct ObjectiveParams {
  std::string name = "reg:squarederror";
  int num_class = 0;
  float scale_pos_weight = 1;
  float tweedie_variance_power = 1.5f;
  float huber_slope = 1;
  /// count:poisson's own `max_delta_step` (PoissonRegressionParam, default 0.7): it enters the hessian.
  float poisson_max_delta_step = 0.7f;
  /// reg:quantileerror's `quantile_alpha` (QuantileLossParam): one output per alpha, each in [0, 1].
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

/// True when the objective trains one tree per class per round (multi:softprob / multi:softmax).
inline bool is_multiclass(ObjectiveKind k) { return k == ObjectiveKind::kSoftprob || k == ObjectiveKind::kSoftmax; }

/// True when upstream re-estimates every leaf of a new tree from the quantiles of its rows'
/// residuals (ObjInfo::UpdateTreeLeaf: reg:absoluteerror at alpha 0.5, reg:quantileerror at each
/// quantile_alpha; src/objective/adaptive.cc).
inline bool refits_leaves(ObjectiveKind k) { return k == ObjectiveKind::kAbsoluteError || k == ObjectiveKind::kQuantile; }

/// True when the objective's loss is element-wise over a label matrix, so that several label
/// columns train one output each (upstream's `Targets(info) = labels.Shape(1)`: RegLossObj,
/// squared log error, pseudo-Huber, Poisson, Tweedie, absolute error; src/objective/regression_obj.cu).
constexpr bool is_multi_target(ObjectiveKind k) {
  switch (k) {
    case ObjectiveKind::kSquaredError:
    case ObjectiveKind::kLogistic:
    case ObjectiveKind::kLogitRaw:
    case ObjectiveKind::kPoisson:
    case ObjectiveKind::kGamma:
    case ObjectiveKind::kTweedie:
    case ObjectiveKind::kPseudoHuber:
    case ObjectiveKind::kSquaredLogError:
    case ObjectiveKind::kAbsoluteError: return true;
    default: return false;
  }
}

/// Outputs (trees per round) a training objective has: num_class for multi:*, one per
/// quantile_alpha for reg:quantileerror, one per label column (n_targets) for the multi-target
/// objectives, else 1.
inline int objective_outputs(ObjectiveParams const& p, ObjectiveKind k, std::size_t n_targets = 1) {
  if (is_multiclass(k)) return p.num_class;
  if (k == ObjectiveKind::kQuantile) return static_cast<int>(p.quantile_alpha.size());
  if (is_multi_target(k)) return static_cast<int>(n_targets);
  return 1;
}

}  // namespace kboost
