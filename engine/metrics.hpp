#pragma once
/// \file metrics.hpp
/// Evaluation metrics on the host, in double with a fixed (row) order, following upstream 3.2
/// (src/metric/elementwise_metric.cu, multiclass_metric.cu, auc.cc): per-row loss in float times
/// the weight, summed in double, then the metric's GetFinal.
#include <string>
#include <vector>

namespace kboost {

/// Metric `name` of predictions `preds` (rows × n_groups, row-major, TRANSFORMED outputs as
/// upstream's metrics see them: probabilities for binary:* and multi:* — also multi:softmax, whose
/// EvalTransform gives probabilities — exp-transformed for count/gamma/tweedie), labels (rows),
/// weights (rows or empty = 1).
/// Names: rmse, rmsle, mae, mape, mphe, logloss, error, error@t, auc, mlogloss, merror,
/// poisson-nloglik, gamma-nloglik, gamma-deviance, tweedie-nloglik@rho, quantile (mean pinball
/// loss over rows and `quantile_alpha`, one output group per alpha: upstream QuantileError),
/// cox-nloglik (negative partial log-likelihood per event: upstream EvalCox).
/// auc with only one class present returns NaN (as upstream). Throws std::runtime_error on an
/// unknown metric or mismatched sizes, naming the metric.
double evaluate_metric(std::string const& name, std::vector<float> const& preds, std::vector<float> const& labels,
                       std::vector<float> const& weights, int n_groups = 1,
                       std::vector<float> const& quantile_alpha = {});

/// Upstream ObjFunction::DefaultEvalMetric for an objective name (e.g. "rmse" for
/// reg:squarederror, "logloss" for binary:logistic, "tweedie-nloglik@1.5" for reg:tweedie with
/// tweedie_variance_power = 1.5). Throws std::runtime_error for an unknown objective.
std::string default_metric(std::string const& objective, float tweedie_variance_power = 1.5f);

}  // namespace kboost
