/// \file booster_rounds.cpp
/// The host steps of a boosting round (engine/detail/booster_rounds.hpp): scoring the eval sets
/// (upstream's Learner::EvalOneIter) and early stopping (python-package/xgboost/callback.py
/// EarlyStopping).
#include <kboost/engine/booster.hpp>

#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>

#include <kboost/core/float_text.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/engine/metrics.hpp>

namespace kboost::detail {
namespace {

/// Output-space predictions (rows × outputs, row-major) of one eval set's margins.
std::vector<float> eval_predictions(ObjectiveKind kind, HostMargins const& m) {
  bool const classes = objective_family(kind).capabilities().outputs == ObjectiveCapabilities::Outputs::kClasses;
  std::size_t const groups = m.outputs;
  std::vector<float> preds(m.values.size());
  for (std::size_t i = 0; i < m.rows; ++i) {
    float const* row = m.values.data() + i * groups;
    float* out = preds.data() + i * groups;
    if (classes) {
      std::copy(row, row + groups, out);
      softmax_inplace(out, static_cast<int>(groups));
    } else {
      for (std::size_t g = 0; g < groups; ++g) out[g] = pred_transform(kind, row[g]);
    }
  }
  return preds;
}

std::vector<float> host_vector(Kokkos::View<float*, Kokkos::HostSpace> const& v) {
  return std::vector<float>(v.data(), v.data() + v.extent(0));
}

/// Metric `m` on eval set `name` (data `d`, margins `margins`, output-space `preds`).
double score_metric(TrainParams const& p, std::string const& m, std::string const& name, HostDMatrix const& d,
                    HostMargins const& margins, std::vector<float> const& preds) {
  std::vector<float> const labels = host_vector(d.label), weights = host_vector(d.weight);
  if (is_interval_metric(m))  // on the untransformed margins, as upstream's AFT EvalTransform
    return evaluate_interval_metric(m, margins.values, host_vector(d.label_lower_bound),
                                    host_vector(d.label_upper_bound), weights, p.aft_loss_distribution,
                                    p.aft_loss_distribution_scale);
  if (is_rank_metric(m)) {
    if (!weights.empty())
      throw std::runtime_error("metric " + m + " on eval set '" + name + "': ranking metrics take no row weights");
    std::size_t const k = p.eval_metric.empty() ? rank_default_k(objective_params(p)) : 32;
    return evaluate_rank_metric(m, preds, labels, group_offsets(d), p.ndcg_exp_gain, k);
  }
  return evaluate_metric(scored_metric_name(p, m), preds, labels, weights, static_cast<int>(margins.outputs),
                         p.quantile_alpha);
}

}  // namespace

std::string scored_metric_name(TrainParams const& p, std::string const& m) {
  if (m != "mphe") return m;
  // upstream's mphe takes the learner's huber_slope (EvalRowMPHE's PseudoHuberParam)
  char slope[32];
  std::snprintf(slope, sizeof slope, "@%.9g", static_cast<double>(p.huber_slope));
  return m + slope;
}

std::optional<MetricTermSpec> device_metric_spec(TrainParams const& p, ObjectiveKind kind, std::string const& m,
                                                 HostDMatrix const& d, std::size_t outputs) {
  if (d.n_rows == 0 || d.label.extent(0) != d.n_rows) return std::nullopt;  // multi-target or unlabelled
  return metric_term_spec(scored_metric_name(p, m), output_transform(kind), static_cast<int>(outputs), false);
}

void HostEvalSet::score(TrainParams const& p, ObjectiveKind kind, std::string const& m, HostDMatrix const& d,
                        std::string const& name, EvalRound& out) {
  if (preds_.empty() && !margins_.values.empty()) preds_ = eval_predictions(kind, margins_);
  out.emplace_back(name, m, score_metric(p, m, name, d, margins_, preds_));
}

void require_finite_trees(Model const& model, std::size_t first, int round) {
  auto const refuse = [round](std::size_t tree, std::size_t node, std::string const& what, float v) {
    throw std::runtime_error("train: round " + std::to_string(round) + ", tree " + std::to_string(tree) + ", node " +
                             std::to_string(node) + ": " + what + " is " + ostream_float_string(v) +
                             ": the boosting diverged (eta or another parameter too large, or labels, weights or a "
                             "base_margin beyond float32); no model is written");
  };
  for (std::size_t k = first; k < model.trees.size(); ++k) {
    TreeModel const& t = model.trees[k];
    if (t.num_nodes() == 0) continue;
    if (!t.sum_hessian.empty() && !std::isfinite(t.sum_hessian[0]))
      refuse(k, 0, "the hessian sum of the gradients", t.sum_hessian[0]);
    if (!t.base_weights.empty() && !std::isfinite(t.base_weights[0]))
      refuse(k, 0, "the root's weight (the gradients' sum)", t.base_weights[0]);
    for (std::size_t i = 0; i < t.num_nodes(); ++i)
      if (t.is_leaf(i) && !std::isfinite(t.split_conditions[i])) refuse(k, i, "the leaf value", t.split_conditions[i]);
    for (std::size_t i = 0; i < t.leaf_weights.size(); ++i)
      if (!std::isfinite(t.leaf_weights[i]))
        refuse(k, i / static_cast<std::size_t>(t.size_leaf_vector), "a vector leaf's value", t.leaf_weights[i]);
  }
}

void require_scored_metrics(EvalRound const& r, int round) {
  for (auto const& [set, metric, value] : r)
    if (std::isnan(value))
      throw std::runtime_error("train: round " + std::to_string(round) + ": " + set + "-" + metric +
                               " is NaN: the set's labels or weights lie outside the metric's domain, or the "
                               "boosting diverged (eta or another parameter too large, labels beyond float32); no "
                               "model is written");
}

std::vector<std::string> fit_metrics(TrainParams const& p, ObjectiveParams const& obj, bool has_evals) {
  std::vector<std::string> metrics = p.eval_metric;
  if (metrics.empty() && !p.disable_default_eval_metric) metrics.push_back(default_metric(obj));
  if (p.early_stopping_rounds > 0 && !has_evals)
    throw std::runtime_error("train: early_stopping_rounds needs an eval set to watch (--eval name=file), as "
                             "upstream's train() does");
  if (metrics.empty() && p.early_stopping_rounds > 0 && has_evals)
    throw std::runtime_error("train: early_stopping_rounds needs a metric, and disable_default_eval_metric = 1 "
                             "with no eval_metric leaves none");
  return metrics;
}

void early_stopping_step(TrainParams const& p, std::vector<std::string> const& metrics, int round, EvalRound const& r,
                         TrainState& state, Model& model, std::ostream* log) {
  bool const maximize = !metrics.empty() && metric_maximize(metrics.back());
  double const score = std::get<2>(r.back());
  bool const better = state.best_iteration < 0 || (maximize ? score > state.best_score : score < state.best_score);
  if (better) {
    state.best_score = score;
    state.best_iteration = round;
    model.attributes["best_iteration"] = std::to_string(round);
    model.attributes["best_score"] = python_float_repr(score);
    return;
  }
  if (round - state.best_iteration < p.early_stopping_rounds) return;
  state.finished = true;
  int const first_logged = state.rounds_done - static_cast<int>(state.history.size());
  std::size_t const best = static_cast<std::size_t>(state.best_iteration - first_logged);
  if (log && best < state.history.size())  // as upstream's EarlyStopping callback: the round kept
    *log << "Stopping. Best iteration:\n" << format_eval_line(state.best_iteration, state.history[best]) << "\n"
         << std::flush;
}

}  // namespace kboost::detail
