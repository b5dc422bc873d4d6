#pragma once
/// \file booster_rounds.hpp
/// BasicBooster::fit_rounds as named stages (included by engine/booster.hpp; not a header of its
/// own), following upstream's learner loop (src/learner.cc LearnerImpl::UpdateOneIter,
/// src/gbm/gbtree.cc DoBoost, python-package/xgboost/training.py train, callback.py
/// EvaluationMonitor / EarlyStopping): per round gradients → (row subsample) → per output group:
/// quantise, colsample_bytree, grow one tree, add its leaves to the margins; then the eval sets.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <kboost/core/device_memory.hpp>
#include <kboost/kernels/quantiser.hpp>
#include <kboost/kernels/leaf_refit.hpp>
#include <kboost/kernels/metric_terms.hpp>
#include <kboost/kernels/column_sampler.hpp>
#include <kboost/kernels/sampling.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/metrics.hpp>
#include <kboost/engine/objective/gradients.hpp>
#include <kboost/engine/detail/boosting_rounds.hpp>

namespace kboost {
namespace detail {

/// One eval set's margins on the host: rows × outputs, row-major.
struct HostMargins {
  std::vector<float> values;
  std::size_t rows = 0, outputs = 0;
};

/// Metric `m` as it is scored: mphe with the learner's huber_slope (upstream's EvalRowMPHE takes
/// its PseudoHuberParam), every other name as it is.
std::string scored_metric_name(TrainParams const& p, std::string const& m);

/// How metric `m` is scored from per-row terms computed where eval set `d`'s margins (rows ×
/// `outputs`) live (kernels/metric_terms.hpp), for objective `kind`; std::nullopt when it is
/// scored on the host (metric_term_spec's exceptions, multi-target or unlabelled sets).
/// \throws std::runtime_error for a missing or malformed @argument.
std::optional<MetricTermSpec> device_metric_spec(TrainParams const& p, ObjectiveKind kind, std::string const& m,
                                                 HostDMatrix const& d, std::size_t outputs);

/// One eval set's margins downloaded for the metrics scored on the host: predictions in output
/// space (softmax for classes; interval metrics on the raw margins, as upstream's AFT
/// EvalTransform), upstream's metric definitions (engine/metrics.hpp).
class HostEvalSet {
 public:
  explicit HostEvalSet(HostMargins margins) : margins_(std::move(margins)) {}
  /// Appends (name, m, value) to `out`. \throws std::runtime_error for a ranking metric on a
  /// weighted eval set, or as evaluate_metric.
  void score(TrainParams const& p, ObjectiveKind kind, std::string const& m, HostDMatrix const& d,
             std::string const& name, EvalRound& out);

 private:
  HostMargins margins_;
  std::vector<float> preds_;  ///< made on the first score
};

/// Refuses a round whose trees (model.trees[first ..]) hold a non-finite leaf value, or whose
/// gradients summed to a non-finite hessian or gradient at a root: training that diverged (eta
/// too large, labels or weights beyond float32) stops at the round it did, before the model
/// holds a tree its readers refuse. \throws std::runtime_error naming the round, tree and node.
void require_finite_trees(Model const& model, std::size_t first, int round);

/// Refuses a round whose metric came out NaN on an eval set (an inf metric, such as mape on a
/// label 0, is reported as upstream does). \throws std::runtime_error naming the round and metric.
void require_scored_metrics(EvalRound const& r, int round);

/// The metrics a fit scores: p.eval_metric, else the objective's default unless
/// disable_default_eval_metric. \throws std::runtime_error when early stopping would have none.
std::vector<std::string> fit_metrics(TrainParams const& p, ObjectiveParams const& obj, bool has_evals);

/// Upstream's EarlyStopping callback after round `round` scored `r`: a better last metric of the
/// last eval set becomes the model's best_iteration / best_score; early_stopping_rounds rounds
/// without one finish the fit (state.finished) and log the round kept.
void early_stopping_step(TrainParams const& p, std::vector<std::string> const& metrics, int round, EvalRound const& r,
                         TrainState& state, Model& model, std::ostream* log);

}  // namespace detail

template <class ExecutionSpace>
template <class BinT>
void BasicBooster<ExecutionSpace>::fit_rounds(FitContext& fit, BinCodes<BinT, memory_space> const& bins) {
  TreeParams const tree_params = tuned_tree_params(fit, bins);
  auto grower = [&] {  // its host histograms' sparse rows are part of binning
    PhaseTimer t(times_.binning);
    return TreeGrower<ExecutionSpace, Mem, BinT>(bins, fit.cuts, tree_params, *comm_);
  }();
  EvalSets sets = upload_eval_sets(fit);
  fit.metrics = detail::fit_metrics(fit.p, fit.plan.obj, !fit.evals.empty());
  RoundBuffers buffers = round_buffers(fit);
  replay_history(fit.log);
  auto const rounds = detail::make_boosting_rounds(space_, fit.p, model_, fit.dtrain, fit.base_margin);
  UpstreamEngine engine(fit.p.seed, state_.rng_draws);
  int const last_round = state_.base_rounds + fit.p.num_round;
  for (int round = state_.rounds_done; round < last_round && !state_.finished; ++round) {
    rounds->begin_round(round, fit.margin);
    round_gradients(fit, round, buffers);
    grow_round_trees(fit, grower, buffers, engine, *rounds, sets);
    detail::require_finite_trees(model_, static_cast<std::size_t>(model_.iteration_indptr.back()), round);
    model_.iteration_indptr.push_back(static_cast<int>(model_.trees.size()));
    {
      PhaseTimer t(times_.eval);
      rounds->end_round(sets);
    }
    state_.rounds_done = round + 1;
    state_.rng_draws = engine.draws();
    if (!fit.evals.empty()) record_evaluation(fit, round, sets);
    if (on_round_) on_round_(model_, state_);
  }
}

/// The grower's parameters, with the histogram kernel choice measured once per shape and device
/// when p.hist_tune (it never changes bits).
template <class ExecutionSpace>
template <class BinT>
TreeParams BasicBooster<ExecutionSpace>::tuned_tree_params(FitContext const& fit,
                                                           BinCodes<BinT, memory_space> const& bins) {
  TreeParams gp = fit.p;
  hist_tuning_ = HistTuneResult{};
  if (!fit.p.hist_tune) return gp;
  PhaseTimer t(times_.tune);
  hist_tuning_ = tuned_hist_choice<ExecutionSpace, Mem>(space_, bins, fit.cuts);
  if (hist_tuning_.source != HistTuneResult::Source::kDefault) {
    gp.min_shared = hist_tuning_.min_shared;
    gp.tile_rows = hist_tuning_.tile_rows;
  }
  if (fit.log && fit.p.verbosity >= 2) *fit.log << hist_tuning_.describe() << "\n";
  return gp;
}

/// The eval sets' rows and margins: the intercepts plus the trees the model already has.
template <class ExecutionSpace>
auto BasicBooster<ExecutionSpace>::upload_eval_sets(FitContext const& fit) const -> EvalSets {
  EvalSets sets;
  for (auto const& e : fit.evals) {
    sets.X.push_back(detail::upload_dense<Mem>(e.second));
    sets.margin.push_back(detail::intercept_margins<Mem>(e.second.n_rows, fit.base_margin));
    sets.metric_data.emplace_back();
    for (std::size_t k = 0; k < model_.trees.size(); ++k)
      add_tree_margins(space_, detail::ConstRows<Mem>(sets.X.back()), upload_tree<Mem>(model_.trees[k]),
                       sets.margin.back(), model_.tree_info[k]);
  }
  return sets;
}

/// The round loop's buffers, allocated once per fit.
template <class ExecutionSpace>
auto BasicBooster<ExecutionSpace>::round_buffers(FitContext const& fit) const -> RoundBuffers {
  std::size_t const rows = fit.dtrain.n_rows;
  RoundBuffers b;
  b.gpair = allocate_view<Gradients>("kboost::train::gpair", false, fit.plan.n_groups, rows);
  b.gq = allocate_view<Kokkos::View<GradientPairInt64*, Mem>>("kboost::train::gq", false, rows);
  b.first_row = static_cast<std::uint64_t>(comm_->exclusive_prefix_sum(static_cast<std::int64_t>(rows)));
  return b;
}

/// A resumed fit's history (and log) starts with the rounds before it.
template <class ExecutionSpace>
void BasicBooster<ExecutionSpace>::replay_history(std::ostream* log) {
  history_ = state_.history;
  if (!log) return;
  int const first = state_.rounds_done - static_cast<int>(history_.size());
  for (std::size_t k = 0; k < history_.size(); ++k) *log << format_eval_line(first + static_cast<int>(k), history_[k]) << "\n";
}

/// Round `round`'s gradients (rows × outputs) of the objective, or of the caller's, at the
/// training margins; rows left out by `subsample` get zero.
template <class ExecutionSpace>
void BasicBooster<ExecutionSpace>::round_gradients(FitContext const& fit, int round, RoundBuffers const& buffers) {
  Gradients const gpair = buffers.gpair;
  PhaseTimer t(times_.gradients);
  if (custom_gradients_) {
    custom_gradients_(fit.margin, fit.label, fit.weight, gpair);
  } else {
    GradientInputs<Mem> in;
    in.margin = detail::ConstRows<Mem>(fit.margin);
    in.label = fit.label;
    in.weight = fit.weight;
    in.has_bounds = true;
    in.lower = fit.dtrain.label_lower_bound;
    in.upper = fit.dtrain.label_upper_bound;
    in.host_weight = fit.dtrain.weight;
    in.group_ptr = &fit.query_groups;
    in.iteration = static_cast<std::uint32_t>(round);
    objective_gradients(space_, fit.plan.obj, in, gpair);
  }
}

/// For the objectives that refit leaves (upstream's ObjFunction::UpdateTreeLeaf): output group
/// `group`'s leaves re-estimated from the residual quantiles of their rows. Empty otherwise.
template <class ExecutionSpace>
LeafRefit<typename ExecutionSpace::memory_space> BasicBooster<ExecutionSpace>::leaf_refit(FitContext const& fit,
                                                                                          Gradients gpair,
                                                                                          int group) const {
  if (!fit.plan.caps.refits_leaves) return {};
  double const alpha = objective_family(fit.plan.kind).leaf_quantile(fit.plan.obj, group);
  return [this, &fit, gpair, group, alpha](Kokkos::View<const std::int32_t*, Mem> ridx, std::vector<LeafSegment>& leaves) {
    auto const q = leaf_residual_quantiles(space_, ridx, leaves, fit.label, detail::ConstRows<Mem>(fit.margin), group,
                                           fit.weight, Kokkos::View<const GradientPair**, Kokkos::LayoutRight, Mem>(gpair),
                                           alpha);
    // UpdateLeafValues: a leaf no row refits keeps its value, times the learning rate once more.
    for (std::size_t k = 0; k < leaves.size(); ++k) leaves[k].value = (std::isnan(q[k]) ? leaves[k].value : q[k]) * fit.p.eta;
  };
}

/// One tree per output group: its gradients quantised, its rows and features drawn from
/// upstream's engine in upstream's GPU order (the row seed, then the tree's, levels' and nodes'
/// feature samples), grown (its leaves added to the training margins), handed to the booster's
/// rounds and to the model.
template <class ExecutionSpace>
template <class BinT>
void BasicBooster<ExecutionSpace>::grow_round_trees(FitContext& fit, TreeGrower<ExecutionSpace, Mem, BinT>& grower,
                                                    RoundBuffers const& buffers, UpstreamEngine& engine,
                                                    detail::BoostingRounds<ExecutionSpace>& rounds, EvalSets& sets) {
  Gradients const gpair = buffers.gpair;
  auto const gq = buffers.gq;
  ColumnSampler columns(engine, fit.p.colsample_bynode, fit.p.colsample_bylevel, fit.p.colsample_bytree);
  for (int g = 0; g < fit.plan.n_groups; ++g) {
    GradientQuantiser q;
    {
      PhaseTimer t(times_.gradients);
      Kokkos::View<const GradientPair*, Mem> const gg = Kokkos::subview(gpair, g, Kokkos::ALL());
      q = make_quantiser(space_, gg, *comm_);
      quantise(space_, q, gg, gq);
    }
    if (fit.p.subsample < 1.0f) {
      PhaseTimer t(times_.gradients);
      upstream_subsample_rows(space_, fit.p.subsample, engine(), gq,
                              Kokkos::View<GradientPair*, Mem>(Kokkos::subview(gpair, g, Kokkos::ALL())),
                              buffers.first_row);
    }
    columns.start_tree(static_cast<int>(fit.dtrain.n_features));
    TreeModel tree = grower.grow(space_, Kokkos::View<const GradientPairInt64*, Mem>(gq), q, columns, fit.margin, g,
                                 times_, leaf_refit(fit, gpair, g));
    {
      PhaseTimer t(times_.eval);
      rounds.add_tree(tree, g, sets);
    }
    model_.trees.push_back(std::move(tree));
    model_.tree_info.push_back(g);
  }
}

/// The round's metrics on every eval set, logged, kept in the history and the checkpoint state,
/// and watched for early stopping.
template <class ExecutionSpace>
void BasicBooster<ExecutionSpace>::record_evaluation(FitContext const& fit, int round, EvalSets& sets) {
  EvalRound r;
  {
    PhaseTimer t(times_.eval);
    for (std::size_t e = 0; e < sets.margin.size(); ++e) score_eval_set(fit, e, sets, r);
  }
  detail::require_scored_metrics(r, round);
  history_.push_back(r);
  state_.history.push_back(r);
  if (fit.log) *fit.log << format_eval_line(round, r) << "\n" << std::flush;
  if (fit.p.early_stopping_rounds > 0) detail::early_stopping_step(fit.p, fit.metrics, round, r, state_, model_, fit.log);
}

/// Every metric of the fit on eval set e, appended to `r` in the fit's order: from per-row terms
/// computed where the margins live (only the terms travel; the host adds them in row order) where
/// the metric has them (detail::device_metric_spec), else from the margins downloaded once.
template <class ExecutionSpace>
void BasicBooster<ExecutionSpace>::score_eval_set(FitContext const& fit, std::size_t e, EvalSets& sets, EvalRound& r) {
  auto const& [name, d] = fit.evals[e];
  auto const& margin = sets.margin[e];
  std::optional<detail::HostEvalSet> host;
  for (auto const& m : fit.metrics) {
    if (auto const spec = detail::device_metric_spec(fit.p, fit.plan.kind, m, d, margin.extent(1))) {
      r.emplace_back(name, m, score_from_terms(detail::scored_metric_name(fit.p, m), *spec, e, fit, sets));
      continue;
    }
    if (!host) {
      auto const hm = counted_to_host(margin);
      host.emplace(detail::HostMargins{std::vector<float>(hm.data(), hm.data() + hm.size()), hm.extent(0), hm.extent(1)});
    }
    host->score(fit.p, fit.plan.kind, m, d, name, r);
  }
}

/// Metric `m` of eval set e from its per-row terms (kernels/metric_terms.hpp) computed on the
/// booster's space and summed on the host in row order: the bits of the host metric. The set's
/// labels and weights are uploaded on its first metric; class labels are checked once.
template <class ExecutionSpace>
double BasicBooster<ExecutionSpace>::score_from_terms(std::string const& m, MetricTermSpec const& spec, std::size_t e,
                                                      FitContext const& fit, EvalSets& sets) {
  HostDMatrix const& d = fit.evals[e].second;
  auto& dev = sets.metric_data[e];
  if (dev.terms.extent(0) != d.n_rows) {
    dev.label = counted_copy_to<Mem>(d.label);
    if (d.weight.extent(0) != 0) dev.weight = counted_copy_to<Mem>(d.weight);
    dev.terms = Kokkos::View<float*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::metrics::terms"), d.n_rows);
  }
  if (is_class_loss(spec.loss) && !dev.class_labels_checked) {
    check_class_labels(m, std::vector<float>(d.label.data(), d.label.data() + d.n_rows), static_cast<int>(sets.margin[e].extent(1)));
    dev.class_labels_checked = true;
  }
  metric_terms(space_, spec, Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(sets.margin[e]),
               Kokkos::View<const float*, Mem>(dev.label), Kokkos::View<const float*, Mem>(dev.weight), dev.terms);
  auto const terms = counted_to_host(dev.terms);
  return metric_from_terms(m, terms.data(), d.n_rows, d.weight.extent(0) != 0 ? d.weight.data() : nullptr);
}

}  // namespace kboost
