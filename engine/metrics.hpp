#pragma once
/// \file metrics.hpp
/// Evaluation metrics on the host, in double with a fixed (row) order, following upstream 3.2
/// (src/metric/elementwise_metric.cu, multiclass_metric.cu, auc.cc): per-row loss in float times
/// the weight, summed in double, then the metric's GetFinal.
#include <kboost/core/objective.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/kernels/metric_terms.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kboost {

/// Metric `name` of predictions `preds` (rows × n_groups, row-major, TRANSFORMED outputs as
/// upstream's metrics see them: probabilities for binary:* and multi:* — also multi:softmax, whose
/// EvalTransform gives probabilities — exp-transformed for count/gamma/tweedie), labels (rows),
/// weights (rows or empty = 1). Multi-target: labels rows × n_groups like preds (one label
/// column per output), each element a sample with its row's weight (upstream's EvalEWiseBase);
/// the element-wise metrics only.
/// Names: rmse, rmsle, mae, mape, mphe, logloss, error, error@t, auc, mlogloss, merror,
/// poisson-nloglik, gamma-nloglik, gamma-deviance, tweedie-nloglik@rho, quantile (mean pinball
/// loss over rows and `quantile_alpha`, one output group per alpha: upstream QuantileError),
/// cox-nloglik (negative partial log-likelihood per event: upstream EvalCox).
/// auc with only one class present returns NaN (as upstream). Throws std::runtime_error on an
/// unknown metric or mismatched sizes, naming the metric.
double evaluate_metric(std::string const& name, std::vector<float> const& preds, std::vector<float> const& labels,
                       std::vector<float> const& weights, int n_groups = 1,
                       std::vector<float> const& quantile_alpha = {});

/// Metric `name` as the addends kernels/metric_terms.hpp's `metric_terms` computes where the
/// margins live, for outputs of `outputs` columns made by `transform` (the objective's): the
/// element-wise metrics with one output (not rmsle and poisson-nloglik, whose losses are libm's)
/// and mlogloss / merror with more; std::nullopt for every other metric and for multi-target
/// labels (evaluate_metric scores those on the host). Throws std::runtime_error as evaluate_metric
/// does for a missing or malformed @argument.
std::optional<MetricTermSpec> metric_term_spec(std::string const& name, OutputTransform transform, int outputs,
                                               bool multi_target);

/// Metric `name` (one metric_term_spec accepts) from its addends `terms` (rows: loss · weight, as
/// metric_terms computes them) and the weights (rows, or null = all 1): summed in double in row
/// order and reduced as evaluate_metric does, so both give the same bits. Throws
/// std::runtime_error for another metric.
double metric_from_terms(std::string const& name, float const* terms, std::size_t rows, float const* weights);

/// Throws std::runtime_error naming metric `name`, the row and its label when a class label
/// (truncated to an integer) is outside [0, n_classes), as evaluate_metric does for mlogloss and
/// merror.
void check_class_labels(std::string const& name, std::vector<float> const& labels, int n_classes);

/// Upstream ObjFunction::DefaultEvalMetric for an objective name (e.g. "rmse" for
/// reg:squarederror, "logloss" for binary:logistic, "tweedie-nloglik@1.5" for reg:tweedie with
/// tweedie_variance_power = 1.5). Throws std::runtime_error for an unknown objective.
std::string default_metric(std::string const& objective, float tweedie_variance_power = 1.5f);

/// The default metric of an objective with its parameters: default_metric(name, tweedie power),
/// except rank:* with lambdarank_pair_method = topk, whose metric is truncated at the objective's
/// k as upstream's RankEvalMetric names it ("ndcg@32", "map@8"). rank_default_k gives the k that
/// evaluate_rank_metric takes for it when its name has none.
std::string default_metric(ObjectiveParams const& obj);
std::size_t rank_default_k(ObjectiveParams const& obj);

/// True when `name` is a metric kboost evaluates (evaluate_metric's names, with a numeric argument
/// after '@' where the metric takes one: error@t, tweedie-nloglik@rho, mphe@slope; the ranking
/// metrics of is_rank_metric with a valid @k; the survival metrics of is_interval_metric), so a
/// misspelt eval_metric is refused when the parameters are read, before any data is.
bool is_known_metric(std::string const& name);

/// Every metric name kboost evaluates, without arguments (suggestions for a misspelt eval_metric).
std::vector<std::string> known_metric_names();

/// Whether a larger value of metric `name` (with any @argument) is better: auc, ndcg, map and pre
/// (upstream python-package/xgboost/callback.py EarlyStopping's maximize_metrics).
bool metric_maximize(std::string const& name);

/// True for the survival:aft metrics aft-nloglik and interval-regression-accuracy.
bool is_interval_metric(std::string const& name);

/// survival:aft metric `name` (is_interval_metric) of log-time margins `margin` (rows, untransformed
/// as upstream's AFT EvalTransform leaves them) for interval labels lower/upper (rows) and weights
/// (rows or empty = 1), as upstream 3.2's survival_metric.cu: aft-nloglik the weighted mean of the
/// AFT loss with `distribution` ("normal", "logistic", "extreme") and `scale`;
/// interval-regression-accuracy the weighted share of rows whose exp(margin) lies in [lower,
/// upper]. Throws std::runtime_error on mismatched sizes or an unknown name or distribution.
double evaluate_interval_metric(std::string const& name, std::vector<float> const& margin,
                                std::vector<float> const& lower, std::vector<float> const& upper,
                                std::vector<float> const& weights, std::string const& distribution = "normal",
                                float scale = 1.0f);

/// True for the learning-to-rank metrics: ndcg, map and pre, each alone or as name@k, name@k-,
/// name@- (src/metric/rank_metric.cc).
bool is_rank_metric(std::string const& name);

/// Ranking metric `name` (is_rank_metric) of scores `preds` (rows) for relevance labels (rows) over
/// query groups (group_ptr: n_groups + 1 row offsets; empty = every row one group), averaged over
/// the groups as upstream 3.2's CPU EvalNDCG / EvalMAPScore / EvalPrecision: positions by stable
/// descending score, the first k counted (no @k: k = `default_k`, upstream's 32 unless the metric
/// is the default of rank:ndcg/rank:pairwise with lambdarank_pair_method = mean, which counts
/// every position as upstream's DefaultMetricConfig hands it the objective's parameters), a group
/// without relevant rows scoring 1 (0 with the trailing '-'). ndcg's gain is 2^rel − 1
/// (ndcg_exp_gain) or rel. Throws std::runtime_error on mismatched sizes, labels the metric does
/// not take (ndcg with exponential gain: integers in [0, 31]; map, pre: 0 or 1), or a bad @k.
double evaluate_rank_metric(std::string const& name, std::vector<float> const& preds, std::vector<float> const& labels,
                            std::vector<std::uint32_t> const& group_ptr, bool ndcg_exp_gain = true,
                            std::size_t default_k = 32);

}  // namespace kboost
