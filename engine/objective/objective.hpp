#pragma once
/// \file objective.hpp
/// One training objective family's host facts, as upstream XGBoost 3.2's ObjFunction
/// (include/xgboost/objective.h: InitEstimation, DefaultEvalMetric, SaveConfig, Task, Targets):
/// what the booster asks of an objective besides its gradients, and the registry that finds the
/// family of an objective. Each family is one unit in this folder: its header declares the family
/// (a type with static `handles(kind)`, `gradients(space, params, inputs, gpair)` and `host()`)
/// with its device loss or host gradients, its .cpp defines its host facts (an Objective) and
/// `host()`; engine/objective/families.hpp lists the families.
#include <kboost/core/objective.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kboost {

/// What an objective family can train with and how many outputs it has (upstream ObjInfo and
/// ObjFunction::Targets).
struct ObjectiveCapabilities {
  /// Outputs (trees per round): one; num_class (multi:*); one per quantile_alpha; one per label column.
  enum class Outputs { kOne, kClasses, kQuantiles, kTargets };
  Outputs outputs = Outputs::kOne;
  bool row_weights = true;           ///< false: row weights refused (rank:* weighs query groups)
  bool query_groups = false;         ///< learns over query groups (rank:*)
  bool label_bounds = false;         ///< learns from interval labels, not labels (survival:aft)
  bool estimates_intercept = true;   ///< false: boost_from_average leaves upstream's 0.5 (survival:aft)
  bool refits_leaves = false;        ///< leaves re-estimated from residual quantiles (ObjInfo::UpdateTreeLeaf)
  /// Why the objective does not train on several ranks yet (appended to the refusal); nullptr: it does.
  char const* single_rank_reason = nullptr;

  /// What an objective learns from: a label per row (row weights taken), relevance labels over
  /// query groups (row weights refused: upstream weighs whole groups), or label intervals.
  enum class Labels { kPerRow, kQueryGroups, kIntervals };

  ObjectiveCapabilities() = default;
  /// `o` outputs learnt from `labels`, trained on one rank only when `reason` (why not on several)
  /// is given.
  explicit ObjectiveCapabilities(Outputs o, char const* reason = nullptr, Labels labels = Labels::kPerRow)
      : outputs(o), row_weights(labels != Labels::kQueryGroups), query_groups(labels == Labels::kQueryGroups),
        label_bounds(labels == Labels::kIntervals), single_rank_reason(reason) {}
};

/// Called on a label an objective cannot take: (index into the labels, what is wrong with it, e.g.
/// "is negative"); throws.
using LabelFailure = std::function<void(std::size_t, std::string const&)>;

/// The host facts of one objective family. Families are stateless singletons found by
/// objective_family(); their parameters come with each call.
class Objective {
 public:
  virtual ~Objective() = default;

  virtual ObjectiveCapabilities capabilities() const = 0;

  /// Calls `fail` on the first of the n labels the objective cannot take (upstream's CheckLabel).
  /// Default: every label is valid.
  virtual void check_labels(ObjectiveParams const& p, float const* labels, std::size_t n,
                            LabelFailure const& fail) const;

  /// Intercepts in OUTPUT space (upstream InitEstimation): one per output, or one for all; labels
  /// (rows; one column of a multi-target label matrix), weights (rows or empty = 1), n_groups
  /// outputs, group_ptr the query groups (rank:* only; empty = one group). Throws
  /// std::runtime_error on labels it cannot estimate from.
  virtual std::vector<float> intercept(ObjectiveParams const& p, std::vector<float> const& labels,
                                       std::vector<float> const& weights, int n_groups,
                                       std::vector<std::uint32_t> const& group_ptr) const = 0;

  /// Upstream ObjFunction::DefaultEvalMetric, e.g. "rmse" or "tweedie-nloglik@1.5".
  virtual std::string default_metric(ObjectiveParams const& p) const = 0;

  /// The default metric as the learner configures it with the objective's parameters (upstream's
  /// DefaultMetricConfig; rank:* truncates at its k). Default: default_metric.
  virtual std::string configured_metric(ObjectiveParams const& p) const { return default_metric(p); }

  /// The k a ranking metric without @k counts when it is this objective's default (32 unless the
  /// objective hands the metric its own parameters).
  virtual std::size_t default_metric_k(ObjectiveParams const& p) const;

  /// The quantile of its rows' residuals that a new tree's leaf of output `output` is refit to
  /// (capabilities().refits_leaves only; upstream's UpdateTreeLeaf alpha). Default: 0.5, the median.
  virtual double leaf_quantile(ObjectiveParams const& p, int output) const;

  /// The model file's "objective" object (upstream SaveConfig). Default: the name alone.
  virtual ObjectiveConfig model_config(ObjectiveParams const& p) const;
};

/// The one instance of the host facts F (a stateless Objective subclass): what a family's host()
/// returns.
template <class F>
Objective const& host_facts() {
  static F const facts;
  return facts;
}

/// The family of a training objective (engine/objective/families.hpp).
/// \throws std::runtime_error("objective: unknown objective '<name>'") as objective_kind(): any
/// name that is not a training objective (binary:hinge included).
Objective const& objective_family(std::string const& name);

/// The family of an objective kind (every kind has one, kHinge included).
Objective const& objective_family(ObjectiveKind kind);

/// Outputs (trees per round) of a training objective: num_class for multi:*, one per
/// quantile_alpha for reg:quantileerror, one per label column (n_targets) for the multi-target
/// objectives, else 1.
int objective_outputs(ObjectiveParams const& p, std::size_t n_targets = 1);

}  // namespace kboost
