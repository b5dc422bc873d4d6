#pragma once
/// \file booster.hpp
/// kboost::Booster: training entry point. Follows upstream's learner loop (src/learner.cc
/// LearnerImpl::UpdateOneIter, src/gbm/gbtree.cc DoBoost, python-package/xgboost/training.py train,
/// callback.py EvaluationMonitor/EarlyStopping) with the GPU hist tree method (integer histograms):
/// per round gradients → (row subsample) → per output group: quantise, colsample_bytree, grow one tree,
/// add its leaves to the margins. Everything from binning on stays on the device; models are
/// bit-identical across backends, thread counts and runs.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <kboost/core/device_memory.hpp>
#include <kboost/core/float_text.hpp>
#include <kboost/core/collective.hpp>
#include <kboost/core/compat.hpp>
#include <kboost/core/dmatrix.hpp>
#include <kboost/core/memory_meter.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/binning.hpp>
#include <kboost/kernels/densify.hpp>
#include <kboost/kernels/gradients.hpp>
#include <kboost/kernels/leaf_refit.hpp>
#include <kboost/kernels/leaves.hpp>
#include <kboost/kernels/quantiser.hpp>
#include <kboost/kernels/sampling.hpp>
#include <kboost/io/model_writer.hpp>
#include <kboost/engine/base_score.hpp>
#include <kboost/engine/categories.hpp>
#include <kboost/engine/hist_tuner.hpp>
#include <kboost/engine/metrics.hpp>
#include <kboost/engine/objective/gradients.hpp>
#include <kboost/engine/objective/objective.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/engine/phase_times.hpp>
#include <kboost/engine/detail/dart.hpp>
#include <kboost/engine/detail/run_params.hpp>
#include <kboost/engine/detail/exact_sketch.hpp>
#include <kboost/engine/detail/sketch.hpp>
#include <kboost/engine/detail/tree_grower.hpp>

namespace kboost {

/// Whether a larger value of metric `name` is better (upstream callback.py EarlyStopping maximize_metrics).
bool metric_maximize(std::string const& name);

/// The query groups of `d` as row offsets (n_groups + 1; empty when it has none).
inline std::vector<std::uint32_t> group_offsets(HostDMatrix const& d) {
  return std::vector<std::uint32_t>(d.group_ptr.data(), d.group_ptr.data() + d.group_ptr.extent(0));
}

/// Evaluation results of one round: (data name, metric name, value) in print order.
using EvalRound = std::vector<std::tuple<std::string, std::string, double>>;

/// Upstream's per-round line: "[r]\tname-metric:0.12345..." (5 decimals, as xgboost.train prints).
std::string format_eval_line(int round, EvalRound const& r);

/// Where a fit stands between rounds: what a checkpoint stores besides the model, and what a
/// resumed or continued fit starts from. Rounds are counted over the whole model, so the sampling
/// streams (keyed by round) and the early-stopping rounds of a resumed fit are those of a run that
/// was never interrupted.
struct TrainState {
  int base_rounds = 0;      ///< rounds of the model a fit continued from (--model-in); 0 from scratch
  int rounds_done = 0;      ///< rounds in the model so far (base_rounds included)
  int best_iteration = -1;  ///< early stopping: best round so far (-1: none yet)
  double best_score = 0;    ///< its score
  bool finished = false;    ///< early stopping ended the fit
  std::vector<EvalRound> history;  ///< every evaluated round's results, in order
};

/// Trains a gbtree model on ExecutionSpace (and its memory space).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
class BasicBooster {
 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using matrix = Kokkos::View<float**, Kokkos::LayoutRight, memory_space>;

  /// comm: the ranks of a distributed fit (core/collective.hpp; must outlive the booster). Each
  /// rank passes its own shard of the training rows, in rank order of the global row order; the
  /// eval sets are whole on every rank. The model is the same bytes on any number of ranks.
  explicit BasicBooster(ExecutionSpace const& space = ExecutionSpace(), Collective& comm = local_collective())
      : space_(space), comm_(&comm) {}

  /// The next train() continues from `model` (upstream's xgb_model): its base score, its trees
  /// first in the margins, num_round more rounds after state.rounds_done. A fresh continuation is
  /// TrainState{R, R} for a model of R rounds; a resumed checkpoint passes the state it stored
  /// (then num_round is the whole job's, base_rounds included via state.base_rounds).
  /// \throws std::runtime_error from train() when the model cannot be continued (another
  /// objective, number of classes or features, DART, categorical splits or vector leaves).
  void continue_from(Model model, TrainState state) {
    start_model_ = std::move(model);
    start_state_ = std::move(state);
    has_start_ = true;
  }

  /// Called after every round with the model and state so far (the CLI writes its checkpoints from
  /// here: engine/checkpoint.hpp).
  void on_round(std::function<void(Model const&, TrainState const&)> callback) { on_round_ = std::move(callback); }

  /// Train `p.num_round` rounds (fewer with early stopping; after continue_from, up to round
  /// state.base_rounds + p.num_round) on dtrain (rows × features, labels required; on several
  /// ranks this rank's rows). evals: named matrices scored after every round with p.eval_metric (or
  /// the objective's default metric); lines go to `log` when non-null. Early stopping watches the
  /// LAST metric of the LAST eval set and stores best_iteration/best_score in the model attributes,
  /// as upstream.
  /// \throws std::runtime_error for unlabelled data, mismatched widths or unsupported parameters.
  void train(TrainParams const& p, HostDMatrix const& dtrain,
             std::vector<std::pair<std::string, HostDMatrix>> const& evals = {}, std::ostream* log = nullptr);

  /// As train() above from the caller's Views in any memory space and layout: X (rows × features,
  /// float, NaN = missing; LayoutRight, LayoutLeft or LayoutStride), labels (rows, or rows × targets
  /// for multi-target training) and optional weights (rows, or an empty View for all 1). The
  /// quantile sketch still runs on a host copy of X (made here, once, in row-major order),
  /// after which the pipeline is device-resident as always. The model equals train() on a
  /// HostDMatrix of the same values, byte for byte.
  /// \throws std::runtime_error as train(), or when labels/weights do not have X's rows.
  template <class XView, class LabelView,
            class WeightView = Kokkos::View<const float*, typename LabelView::memory_space>,
            std::enable_if_t<Kokkos::is_view<XView>::value && Kokkos::is_view<LabelView>::value, int> = 0>
  void train(TrainParams const& p, XView const& X, LabelView const& labels, WeightView const& weights = {},
             std::ostream* log = nullptr) {
    static_assert(XView::rank == 2, "X must be a rows x features View");
    static_assert(LabelView::rank == 1 || LabelView::rank == 2, "labels must be a rows or rows x targets View");
    static_assert(WeightView::rank == 1, "weights must be a rows View");
    if (labels.extent(0) != X.extent(0) || (weights.extent(0) != 0 && weights.extent(0) != X.extent(0)))
      throw std::runtime_error("train: labels and weights must have " + std::to_string(X.extent(0)) + " rows");
    HostDMatrix d;
    d.n_rows = X.extent(0);
    d.n_features = X.extent(1);
    d.dense = HostDMatrix::dense_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::train::host_X"),
                                      d.n_rows, d.n_features);
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), X);
    Kokkos::deep_copy(d.dense, hx);  // to row-major, on the host
    if constexpr (LabelView::rank == 2) {
      d.n_targets = labels.extent(1);
      d.label = Kokkos::View<float*, Kokkos::HostSpace>("kboost::train::label", d.n_rows * d.n_targets);
      Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> rows_targets(
          d.label.data(), d.n_rows, d.n_targets);
      Kokkos::deep_copy(rows_targets, Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), labels));  // row-major
    } else {
      d.label = Kokkos::View<float*, Kokkos::HostSpace>("kboost::train::label", d.n_rows);
      Kokkos::deep_copy(d.label, Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), labels));
    }
    if (weights.extent(0) != 0) {
      d.weight = Kokkos::View<float*, Kokkos::HostSpace>("kboost::train::weight", d.n_rows);
      Kokkos::deep_copy(d.weight, Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), weights));
    }
    train(p, d, {}, log);
  }

  /// As train() above with the caller's objective (kernels/gradients.hpp CustomObjective, made by
  /// custom_objective(f)): its gradients, on the execution space, replace those of p.objective,
  /// which still names the output transform, the default metric, the outputs and any leaf refit.
  /// The intercept is p.base_score, or 0.5 in output space: upstream's BoostOneIter never fits one
  /// for a custom objective. Labels are not checked against p.objective's domain.
  /// \throws std::runtime_error as train(), or for survival:aft (its labels are intervals).
  template <class F>
  void train(TrainParams const& p, HostDMatrix const& dtrain, CustomObjective<F> const& objective,
             std::vector<std::pair<std::string, HostDMatrix>> const& evals = {}, std::ostream* log = nullptr) {
    if (objective_family(p.objective).capabilities().label_bounds)
      throw std::runtime_error("train: a custom objective cannot stand in for survival:aft (interval labels)");
    custom_gradients_ = [this, objective](matrix margin, Kokkos::View<const float*, memory_space> label,
                                          Kokkos::View<const float*, memory_space> weight,
                                          Kokkos::View<GradientPair**, Kokkos::LayoutRight, memory_space> gpair) {
      custom_gradients(space_, objective, Kokkos::View<const float**, Kokkos::LayoutRight, memory_space>(margin), label,
                       weight, gpair);
    };
    struct Reset {  // the next fit takes p.objective's gradients again, whatever this one throws
      BasicBooster& b;
      ~Reset() { b.custom_gradients_ = nullptr; }
    } const reset{*this};
    train(p, dtrain, evals, log);
  }

  /// Save as JSON (or UBJSON for *.ubj), upstream 3.x schema, atomically.
  void save(std::string const& path) const { save_model(model_, path); }
  Model const& model() const { return model_; }
  PhaseTimes const& phases() const { return times_; }
  /// The histogram kernel choice of the last fit (engine/hist_tuner.hpp; Source::kDefault when not tuned).
  HistTuneResult const& hist_tuning() const { return hist_tuning_; }
  /// Every round's evaluation results.
  std::vector<EvalRound> const& eval_history() const { return history_; }

 private:
  static matrix upload_dense(HostDMatrix const& m) {
    auto hd = densify(Kokkos::DefaultHostExecutionSpace(), m);
    auto d = allocate_view<matrix>("kboost::train::X", false, hd.extent(0), hd.extent(1));
    counted_deep_copy(d, hd);
    return d;
  }
  EvalRound evaluate(TrainParams const& p, ObjectiveKind kind, std::vector<std::string> const& metrics,
                     std::vector<std::pair<std::string, HostDMatrix>> const& evals,
                     std::vector<matrix> const& margins) const;
  /// The boosting rounds of train() on the fit's bin codes (BinT: the code width).
  template <class BinT, class InitMargin>
  void fit_rounds(TrainParams const& p, HostDMatrix const& dtrain,
                  std::vector<std::pair<std::string, HostDMatrix>> const& evals, std::ostream* log,
                  ObjectiveParams const& obj, ObjectiveKind kind, int n_groups, HistogramCuts<memory_space> const& cuts,
                  BinCodes<BinT, memory_space> const& bins, matrix margin,
                  Kokkos::View<const float*, memory_space> label, Kokkos::View<const float*, memory_space> weight,
                  InitMargin const& init_margin);

  /// DART's margins (Dart::PredictBatchImpl): `base` (rows × groups, the intercepts) plus, tree
  /// by tree in order, each tree's leaf times its weight_drop, the trees in `dropped` left out.
  matrix dart_margins(Kokkos::View<const float**, Kokkos::LayoutRight, memory_space> X,
                      std::vector<DeviceTree<memory_space>> const& trees, std::vector<std::size_t> const& dropped,
                      matrix base) const {
    for (std::size_t k = 0; k < trees.size(); ++k)
      if (!std::binary_search(dropped.begin(), dropped.end(), k))
        add_tree_margins(space_, X, trees[k], base, model_.tree_info[k], model_.weight_drop[k]);
    return base;
  }
  /// Margins (rows × groups) of X under base_margin and the trees of `start` (the continued model).
  matrix start_margins(matrix const& X, std::vector<float> const& base_margin, Model const& start) const;
  /// Checks that `m` can be continued with these parameters and data width.
  void check_continuable(Model const& m, ObjectiveParams const& obj, int n_groups, std::size_t n_features) const;
  /// The base score (output space) of the job's labels, whatever the ranks' shards.
  std::vector<float> job_base_score(ObjectiveParams const& obj, HostDMatrix const& dtrain, int n_groups) const;

  ExecutionSpace space_;
  Collective* comm_;
  Model start_model_;
  TrainState start_state_, state_;
  bool has_start_ = false;
  std::function<void(Model const&, TrainState const&)> on_round_;
  /// The caller's objective during a train(…, CustomObjective, …) call, else empty.
  std::function<void(matrix, Kokkos::View<const float*, memory_space>, Kokkos::View<const float*, memory_space>,
                     Kokkos::View<GradientPair**, Kokkos::LayoutRight, memory_space>)>
      custom_gradients_;
  Model model_;
  PhaseTimes times_;
  HistTuneResult hist_tuning_;
  std::vector<EvalRound> history_;
};

using Booster = BasicBooster<Kokkos::DefaultExecutionSpace>;

// ---------------------------------------------------------------------------------------------

template <class ExecutionSpace>
EvalRound BasicBooster<ExecutionSpace>::evaluate(TrainParams const& p, ObjectiveKind kind,
                                                 std::vector<std::string> const& metrics,
                                                 std::vector<std::pair<std::string, HostDMatrix>> const& evals,
                                                 std::vector<matrix> const& margins) const {
  EvalRound out;
  bool const classes = objective_family(kind).capabilities().outputs == ObjectiveCapabilities::Outputs::kClasses;
  for (std::size_t e = 0; e < evals.size(); ++e) {
    auto hm = counted_to_host(margins[e]);
    std::size_t const rows = hm.extent(0), groups = hm.extent(1);
    std::vector<float> preds(rows * groups);
    std::vector<float> tmp(groups);
    for (std::size_t i = 0; i < rows; ++i) {
      if (classes) {
        for (std::size_t g = 0; g < groups; ++g) tmp[g] = hm(i, g);
        softmax_inplace(tmp.data(), static_cast<int>(groups));
        for (std::size_t g = 0; g < groups; ++g) preds[i * groups + g] = tmp[g];
      } else {
        for (std::size_t g = 0; g < groups; ++g) preds[i * groups + g] = pred_transform(kind, hm(i, g));
      }
    }
    auto const& d = evals[e].second;
    std::vector<float> labels(d.label.data(), d.label.data() + d.label.extent(0));
    std::vector<float> weights(d.weight.data(), d.weight.data() + d.weight.extent(0));
    auto const host_vector = [](Kokkos::View<float*, Kokkos::HostSpace> const& v) {
      return std::vector<float>(v.data(), v.data() + v.extent(0));
    };
    for (auto const& m : metrics) {
      if (is_interval_metric(m)) {  // on the untransformed margins, as upstream's AFT EvalTransform
        std::vector<float> raw(hm.data(), hm.data() + rows * groups);
        out.emplace_back(evals[e].first, m,
                         evaluate_interval_metric(m, raw, host_vector(d.label_lower_bound),
                                                  host_vector(d.label_upper_bound), weights, p.aft_loss_distribution,
                                                  p.aft_loss_distribution_scale));
      } else if (is_rank_metric(m)) {
        if (!weights.empty())
          throw std::runtime_error("metric " + m + " on eval set '" + evals[e].first + "': ranking metrics take no row weights");
        std::size_t const k = p.eval_metric.empty() ? rank_default_k(objective_params(p)) : 32;
        out.emplace_back(evals[e].first, m, evaluate_rank_metric(m, preds, labels, group_offsets(d), p.ndcg_exp_gain, k));
      } else {
        // upstream's mphe takes the learner's huber_slope (EvalRowMPHE's PseudoHuberParam)
        char slope[32];
        std::snprintf(slope, sizeof slope, "@%.9g", static_cast<double>(p.huber_slope));
        std::string const name = m == "mphe" ? m + slope : m;
        out.emplace_back(evals[e].first, m,
                         evaluate_metric(name, preds, labels, weights, static_cast<int>(groups), p.quantile_alpha));
      }
    }
  }
  return out;
}

template <class ExecutionSpace>
void BasicBooster<ExecutionSpace>::train(TrainParams const& p, HostDMatrix const& dtrain,
                                         std::vector<std::pair<std::string, HostDMatrix>> const& evals,
                                         std::ostream* log) {
  using Mem = memory_space;
  compat::ScopedRegion region("kboost::train");
  // survival:aft learns from interval labels (label_lower_bound / label_upper_bound), not labels
  ObjectiveCapabilities const caps = objective_family(p.objective).capabilities();
  bool const intervals = caps.label_bounds;
  auto const labelled = [intervals](HostDMatrix const& d) { return intervals ? d.has_label_bounds() : d.has_labels(); };
  char const* const what = intervals ? " has no label bounds (survival:aft: --label-lower-bound-column and "
                                       "--label-upper-bound-column)"
                                     : " has no labels";
  if (!labelled(dtrain)) throw std::runtime_error("train: the training data " + dtrain.info.source + what);
  for (auto const& e : evals) {
    if (e.second.n_features > dtrain.n_features)
      throw std::runtime_error("train: eval set '" + e.first + "' has " + std::to_string(e.second.n_features) +
                               " features, the training data " + std::to_string(dtrain.n_features));
    if (!labelled(e.second)) throw std::runtime_error("train: eval set '" + e.first + "'" + what);
    if (caps.query_groups && dtrain.group_ptr.extent(0) > 0 &&
        e.second.group_ptr.extent(0) == 0)
      throw std::runtime_error("train: eval set '" + e.first + "' has no query groups and the training data has: "
                               "ranking metrics would score it as one query (give its groups as a qid column or "
                               "its own .group/.query file)");
  }
  detail::check_device_and_threads(p, space_);
  if (comm_->size() > 1 && p.sketch_method == "exact_quantile")
    throw std::runtime_error("train: kboost_sketch_method = exact_quantile is not available on several ranks "
                             "(upstream_cpu is; its cuts are the same on any number of ranks)");
  if (comm_->size() > 1 && dtrain.group_ptr.extent(0) > 0)
    throw std::runtime_error("train: query groups (ranking) are not available on several ranks yet");
  if (comm_->size() > 1) {  // every rank needs rows: the per-feature exchange assumes each knows the width
    std::uint64_t empty = dtrain.n_rows == 0 ? 1 : 0;
    comm_->allreduce_max(&empty, 1);
    if (empty != 0) throw AgreedError("train: a rank has no training rows (more ranks than rows?)");
  }
  bool const continuing = has_start_;
  has_start_ = false;  // one fit
  times_ = PhaseTimes{};
  MemoryMeter const meter;
  TransferCount const fit_copies0 = transfer_count();
  history_.clear();
  ObjectiveParams obj = objective_params(p);
  ObjectiveKind const kind = objective_kind(obj.objective);
  bool const classes = caps.outputs == ObjectiveCapabilities::Outputs::kClasses;
  if (dtrain.n_targets > 1 && caps.outputs != ObjectiveCapabilities::Outputs::kTargets)
    throw std::runtime_error("train: " + obj.objective + " takes one label per row; the training data has " +
                             std::to_string(dtrain.n_targets) + " label columns (multi-target training takes "
                             "reg:squarederror, reg:squaredlogerror, reg:pseudohubererror, reg:absoluteerror, "
                             "reg:logistic, binary:logistic, binary:logitraw, count:poisson, reg:gamma, reg:tweedie)");
  for (auto const& e : evals)
    if (e.second.n_targets != dtrain.n_targets)
      throw std::runtime_error("train: eval set '" + e.first + "' has " + std::to_string(e.second.n_targets) +
                               " label columns, the training data " + std::to_string(dtrain.n_targets));
  int const n_groups = objective_outputs(obj, dtrain.n_targets);
  if (classes && p.num_class < 2) throw std::runtime_error("train: " + obj.objective + " needs num_class >= 2");
  if (n_groups < 1) throw std::runtime_error("train: " + obj.objective + " needs quantile_alpha");
  if (!caps.row_weights && dtrain.has_weights())
    throw std::runtime_error("train: " + obj.objective + " takes no row weights (upstream weighs whole query groups, which "
                             "kboost does not read yet)");
  if (comm_->size() > 1 && caps.single_rank_reason != nullptr)
    throw AgreedError("train: " + obj.objective + " is not available on several ranks yet" + caps.single_rank_reason);
  std::size_t const rows = dtrain.n_rows;
  std::vector<std::uint8_t> categorical;
  run_on_all_ranks(*comm_, [&] { categorical = categorical_features(p, dtrain); });
  if (!categorical.empty() && p.sketch_method == "exact_quantile")
    throw std::runtime_error("train: kboost_sketch_method = exact_quantile does not take categorical features "
                             "(upstream_cpu does)");
  if (continuing && p.booster == "dart")
    throw std::runtime_error("train: continuing a model with booster = dart is not available (its drops would need "
                             "the generator's state)");
  if (!categorical.empty() && continuing)
    throw std::runtime_error("train: continuing a model on categorical features is not available yet");

  // ---- data on the device: dense rows, or CSR arrays that are binned without a dense copy
  bool const sparse = dtrain.is_sparse();
  CsrArrays<Kokkos::HostSpace> hXs;
  HostDMatrix::dense_type hX;  // host rows × features (upstream_cpu sketches it)
  if (sparse)
    hXs = checked_csr(dtrain);
  else
    hX = dtrain.dense;
  matrix X;
  CsrArrays<Mem> Xs;
  Kokkos::View<float*, Mem> label, weight;
  {
    PhaseTimer t(times_.upload);
    if (sparse) {
      Xs = CsrArrays<Mem>{counted_copy_to<Mem>(hXs.row_map), counted_copy_to<Mem>(hXs.entries),
                          counted_copy_to<Mem>(hXs.values), hXs.n_features};
    } else if constexpr (std::is_same_v<matrix, decltype(hX)>) {
      X = hX;  // host memory space: the rows are the training matrix
    } else {
      X = allocate_view<matrix>("kboost::train::X", false, hX.extent(0), hX.extent(1));
      staged_upload(space_, X, Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace>(hX));
    }
    label = counted_copy_to<Mem>(dtrain.label);
    weight = counted_copy_to<Mem>(dtrain.weight);
  }

  // ---- base score (output space) and initial margins
  if (continuing) check_continuable(start_model_, obj, n_groups, dtrain.n_features);
  std::vector<float> base_score;
  if (continuing)
    base_score = start_model_.base_score;  // upstream keeps the model's intercept
  else if (p.base_score.has_value())  // upstream resizes a given intercept to every output
    base_score.assign(static_cast<std::size_t>(n_groups), *p.base_score);
  else if (!p.boost_from_average || !caps.estimates_intercept || custom_gradients_)
    // upstream's default intercept (AFT: ObjFunction's; a custom objective: BoostOneIter fits none)
    base_score.assign(static_cast<std::size_t>(n_groups), 0.5f);
  else
    base_score = job_base_score(obj, dtrain, n_groups);
  std::vector<float> base_margin(n_groups);
  for (int g = 0; g < n_groups; ++g)
    base_margin[g] = prob_to_margin(obj, base_score[base_score.size() == 1 ? 0 : g]);
  auto init_margin = [&](std::size_t n) {
    matrix m(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::train::margin"), n, n_groups);
    auto h = Kokkos::create_mirror_view(m);
    for (std::size_t i = 0; i < n; ++i)
      for (int g = 0; g < n_groups; ++g) h(i, g) = base_margin[g];
    counted_deep_copy(m, h);
    return m;
  };
  matrix margin = init_margin(rows);
  if (continuing && !start_model_.trees.empty())
    margin = start_margins(sparse ? upload_dense(dtrain) : X, base_margin, start_model_);

  // ---- cuts and bins (once per fit)
  HistogramCuts<Mem> cuts;
  {
    PhaseTimer t(times_.cuts);
    bool const exact = p.sketch_method == "exact_quantile";
    if (exact && sparse)
      cuts = exact_quantile_cuts_csr<Mem>(space_, Xs.row_map, Xs.entries, Xs.values, Xs.n_features,
                                          Kokkos::View<const float*, Mem>(weight), p.max_bin);
    else if (exact)
      cuts = exact_quantile_cuts<Mem>(space_, Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(X),
                                      Kokkos::View<const float*, Mem>(weight), p.max_bin);
    else if (sparse)
      cuts = sketch_cuts_from_host_csr<Mem>(space_, hXs.row_map, hXs.entries, hXs.values, hXs.n_features,
                                            dtrain.weight, p.max_bin, *comm_, categorical);
    else
      cuts = sketch_cuts_from_host<Mem>(space_, hX, dtrain.weight, p.max_bin, *comm_, categorical);
  }
  // ---- model header
  model_ = Model{};
  model_.booster = p.booster;
  model_.objective = obj.objective;
  model_.base_score = base_score;
  // a given base_score turns the estimate off, as upstream's LearnerModelParamLegacy records it
  model_.boost_from_average = continuing ? start_model_.boost_from_average
                                         : p.boost_from_average && !p.base_score.has_value();
  model_.num_class = classes ? p.num_class : 0;
  model_.num_target = classes ? 1 : n_groups;
  model_.num_feature = static_cast<int>(dtrain.n_features);
  model_.feature_names = dtrain.info.feature_names;
  model_.feature_types = model_feature_types(dtrain, categorical);
  model_.category_encoder = training_category_encoder(dtrain);
  model_.objective_config = objective_config(p, obj);
  model_.iteration_indptr.push_back(0);
  state_ = TrainState{};
  if (continuing) {
    model_.trees = std::move(start_model_.trees);
    model_.tree_info = std::move(start_model_.tree_info);
    model_.iteration_indptr = std::move(start_model_.iteration_indptr);
    model_.attributes = std::move(start_model_.attributes);
    if (model_.feature_names.empty()) model_.feature_names = start_model_.feature_names;
    if (model_.feature_types.empty()) model_.feature_types = start_model_.feature_types;
    state_ = std::move(start_state_);
    start_model_ = Model{};
  }

  hX = decltype(hX)();  // the float matrices are not needed once binned
  hXs = decltype(hXs)();
  auto const& h_ptrs = cuts.host_ptrs;
  auto const code = [&](auto width) {  // width: a BinT value (std::uint8_t or std::uint16_t)
    PhaseTimer t(times_.binning);
    using BinT = decltype(width);
    auto codes = sparse ? bin_codes_csr<BinT>(space_, Xs.row_map, Xs.entries, Xs.values, Xs.n_features, cuts, h_ptrs)
                        : bin_codes<BinT>(space_, Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(X), cuts, h_ptrs);
    X = matrix();
    Xs = CsrArrays<Mem>();
    return with_feature_order(space_, Kokkos::View<const BinT**, Kokkos::LayoutRight, Mem>(codes));
  };
  if (bin_code_bytes(h_ptrs) == 1)
    fit_rounds(p, dtrain, evals, log, obj, kind, n_groups, cuts, code(std::uint8_t{}), margin, label, weight, init_margin);
  else
    fit_rounds(p, dtrain, evals, log, obj, kind, n_groups, cuts, code(std::uint16_t{}), margin, label, weight, init_margin);
  TransferCount const fit_copies1 = transfer_count();
  times_.fit_copies = TransferCount{fit_copies1.uploads - fit_copies0.uploads, fit_copies1.downloads - fit_copies0.downloads};
  times_.memory = meter.peaks();
  if (log && p.verbosity >= 1) *log << times_.summary();
}

template <class ExecutionSpace>
template <class BinT, class InitMargin>
void BasicBooster<ExecutionSpace>::fit_rounds(TrainParams const& p, HostDMatrix const& dtrain,
                                              std::vector<std::pair<std::string, HostDMatrix>> const& evals,
                                              std::ostream* log, ObjectiveParams const& obj, ObjectiveKind kind,
                                              int n_groups, HistogramCuts<memory_space> const& cuts,
                                              BinCodes<BinT, memory_space> const& bins,
                                              matrix margin, Kokkos::View<const float*, memory_space> label,
                                              Kokkos::View<const float*, memory_space> weight,
                                              InitMargin const& init_margin) {
  using Mem = memory_space;
  std::size_t const rows = dtrain.n_rows;
  TreeParams gp = p;
  hist_tuning_ = HistTuneResult{};
  if (p.hist_tune) {  // tile/global histogram choice: measured once per shape and device, never changes bits
    PhaseTimer t(times_.tune);
    hist_tuning_ = tuned_hist_choice<ExecutionSpace, Mem>(space_, bins, cuts);
    if (hist_tuning_.source != HistTuneResult::Source::kDefault) {
      gp.min_shared = hist_tuning_.min_shared;
      gp.tile_rows = hist_tuning_.tile_rows;
    }
    if (log && p.verbosity >= 2) *log << hist_tuning_.describe() << "\n";
  }
  TreeGrower<ExecutionSpace, Mem, BinT> grower(bins, cuts, gp, *comm_);
  std::uint64_t const first_row = static_cast<std::uint64_t>(comm_->exclusive_prefix_sum(static_cast<std::int64_t>(rows)));

  // ---- eval sets (whole on every rank: the same metrics, so the same early stopping, everywhere)
  std::vector<matrix> eval_X, eval_margin;
  for (auto const& e : evals) {
    eval_X.push_back(upload_dense(e.second));
    eval_margin.push_back(init_margin(e.second.n_rows));
    if (!model_.trees.empty()) {
      Kokkos::View<const float**, Kokkos::LayoutRight, Mem> ex(eval_X.back());
      for (std::size_t k = 0; k < model_.trees.size(); ++k)
        add_tree_margins(space_, ex, upload_tree<Mem>(model_.trees[k]), eval_margin.back(), model_.tree_info[k]);
    }
  }
  std::vector<std::string> metrics = p.eval_metric;
  if (metrics.empty() && !p.disable_default_eval_metric)
    metrics.push_back(default_metric(obj));
  if (metrics.empty() && p.early_stopping_rounds > 0 && !evals.empty())
    throw std::runtime_error("train: early_stopping_rounds needs a metric, and disable_default_eval_metric = 1 "
                             "with no eval_metric leaves none");

  std::vector<std::uint32_t> const groups = group_offsets(dtrain);
  ObjectiveCapabilities const caps = objective_family(kind).capabilities();
  auto const round_inputs = [&](int round) {  // what the objective's gradients read this round
    GradientInputs<Mem> in;
    in.margin = Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(margin);
    in.label = label;
    in.weight = weight;
    in.has_bounds = true;
    in.lower = dtrain.label_lower_bound;
    in.upper = dtrain.label_upper_bound;
    in.host_weight = dtrain.weight;
    in.group_ptr = &groups;
    in.iteration = static_cast<std::uint32_t>(round);
    return in;
  };
  auto gpair = allocate_view<Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem>>("kboost::train::gpair", false, n_groups, rows);
  auto gq = allocate_view<Kokkos::View<GradientPairInt64*, Mem>>("kboost::train::gq", false, rows);
  std::vector<int> all_features(dtrain.n_features);
  for (std::size_t f = 0; f < all_features.size(); ++f) all_features[f] = static_cast<int>(f);

  history_ = state_.history;
  if (log)
    for (std::size_t k = 0; k < history_.size(); ++k)  // a resumed fit's log repeats the rounds before
      *log << format_eval_line(state_.rounds_done - static_cast<int>(history_.size()) + static_cast<int>(k), history_[k])
           << "\n";
  bool const maximize = !metrics.empty() && metric_maximize(metrics.back());
  // DART: drops from upstream's generator; the training rows' margins are recomputed each round
  // from their features (hence a dense copy of them) without the dropped trees
  bool const dart = p.booster == "dart";
  DartParams const& dart_params = p;
  detail::UpstreamRandom dart_random(p.seed);
  matrix const dart_X = dart ? upload_dense(dtrain) : matrix();
  std::vector<DeviceTree<Mem>> dart_trees;
  int const last_round = state_.base_rounds + p.num_round;
  for (int round = state_.rounds_done; round < last_round && !state_.finished; ++round) {
    std::vector<std::size_t> dropped;
    if (dart) {
      dropped = detail::dart_drop_trees(dart_params, model_.weight_drop, dart_random);
      if (round == 0) (void)dart_random.next();  // upstream's column sampler takes its seed here
      margin = dart_margins(Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(dart_X), dart_trees, dropped,
                            init_margin(rows));
    }
    {
      PhaseTimer t(times_.gradients);
      if (custom_gradients_)
        custom_gradients_(margin, label, weight, gpair);
      else
        objective_gradients(space_, obj, round_inputs(round), gpair);
      subsample_rows(space_, p.subsample, p.seed, round, gpair, first_row);
    }
    for (int g = 0; g < n_groups; ++g) {
      GradientQuantiser q;
      {
        PhaseTimer t(times_.gradients);
        auto gg = Kokkos::subview(gpair, g, Kokkos::ALL());
        q = make_quantiser(space_, Kokkos::View<const GradientPair*, Mem>(gg), *comm_);
        quantise(space_, q, Kokkos::View<const GradientPair*, Mem>(gg), gq);
      }
      std::uint64_t const tree_key = static_cast<std::uint64_t>(round) * static_cast<std::uint64_t>(n_groups) + g;
      auto const features = sample_features(all_features, p.colsample_bytree, p.seed, kTreeColStream, tree_key);
      LeafRefit<Mem> refit;
      if (caps.refits_leaves) {
        double const alpha = objective_family(kind).leaf_quantile(obj, g);
        refit = [&, g, alpha](Kokkos::View<const std::int32_t*, Mem> ridx, std::vector<LeafSegment>& leaves) {
          auto const q = leaf_residual_quantiles(space_, ridx, leaves, label, Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(margin), g,
                                                 weight, Kokkos::View<const GradientPair**, Kokkos::LayoutRight, Mem>(gpair), alpha);
          // UpdateLeafValues: a leaf no row refits keeps its value, times the learning rate once more.
          for (std::size_t k = 0; k < leaves.size(); ++k)
            leaves[k].value = (std::isnan(q[k]) ? leaves[k].value : q[k]) * p.eta;
        };
      }
      TreeModel tree = grower.grow(space_, Kokkos::View<const GradientPairInt64*, Mem>(gq), q, features, tree_key,
                                   margin, g, times_, refit);
      {
        PhaseTimer t(times_.eval);
        if (dart) {
          dart_trees.push_back(upload_tree<Mem>(tree));
        } else if (!eval_X.empty()) {
          auto dt = upload_tree<Mem>(tree);
          for (std::size_t e = 0; e < eval_X.size(); ++e)
            add_tree_margins(space_, Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(eval_X[e]), dt,
                             eval_margin[e], g);
        }
      }
      model_.trees.push_back(std::move(tree));
      model_.tree_info.push_back(g);
    }
    model_.iteration_indptr.push_back(static_cast<int>(model_.trees.size()));
    if (dart) {  // Dart::NormalizeTrees, then every eval set's margins under the new weights
      detail::dart_normalize(dart_params, p.eta, static_cast<std::size_t>(n_groups), dropped, model_.weight_drop);
      PhaseTimer t(times_.eval);
      for (std::size_t e = 0; e < eval_X.size(); ++e)
        eval_margin[e] = dart_margins(Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(eval_X[e]), dart_trees, {},
                                      init_margin(evals[e].second.n_rows));
    }
    state_.rounds_done = round + 1;
    if (!evals.empty()) {
      EvalRound r;
      {
        PhaseTimer t(times_.eval);
        r = evaluate(p, kind, metrics, evals, eval_margin);
      }
      history_.push_back(r);
      state_.history.push_back(r);
      if (log) *log << format_eval_line(round, r) << "\n" << std::flush;
      if (p.early_stopping_rounds > 0) {
        double const score = std::get<2>(r.back());
        bool const better =
            state_.best_iteration < 0 || (maximize ? score > state_.best_score : score < state_.best_score);
        if (better) {
          state_.best_score = score;
          state_.best_iteration = round;
          model_.attributes["best_iteration"] = std::to_string(round);
          model_.attributes["best_score"] = python_float_repr(score);
        } else if (round - state_.best_iteration >= p.early_stopping_rounds) {
          state_.finished = true;
          int const first_logged = state_.rounds_done - static_cast<int>(state_.history.size());
          std::size_t const best = static_cast<std::size_t>(state_.best_iteration - first_logged);
          if (log && best < state_.history.size())  // as upstream's EarlyStopping callback: the round kept
            *log << "Stopping. Best iteration:\n" << format_eval_line(state_.best_iteration, state_.history[best])
                 << "\n" << std::flush;
        }
      }
    }
    if (on_round_) on_round_(model_, state_);
  }
}

template <class ExecutionSpace>
typename BasicBooster<ExecutionSpace>::matrix BasicBooster<ExecutionSpace>::start_margins(
    matrix const& X, std::vector<float> const& base_margin, Model const& start) const {
  using Mem = memory_space;
  int const n_groups = static_cast<int>(base_margin.size());
  matrix m(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::train::margin"), X.extent(0), n_groups);
  auto h = Kokkos::create_mirror_view(m);
  for (std::size_t i = 0; i < X.extent(0); ++i)
    for (int g = 0; g < n_groups; ++g) h(i, g) = base_margin[g];
  counted_deep_copy(m, h);
  // The same float additions in the same order as the fit that grew the trees made (base, then
  // tree by tree), so a resumed fit's margins are that fit's bits.
  for (std::size_t k = 0; k < start.trees.size(); ++k)
    add_tree_margins(space_, Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(X), upload_tree<Mem>(start.trees[k]),
                     m, start.tree_info[k]);
  return m;
}

template <class ExecutionSpace>
void BasicBooster<ExecutionSpace>::check_continuable(Model const& m, ObjectiveParams const& obj, int n_groups,
                                                     std::size_t n_features) const {
  auto const refuse = [](std::string const& why) { throw std::runtime_error("train: cannot continue the model: " + why); };
  if (m.booster != "gbtree") refuse("it is a " + m.booster + " model (only gbtree models can be continued)");
  if (m.objective != obj.objective) refuse("its objective is " + m.objective + ", the parameters say " + obj.objective);
  if (m.num_outputs() != n_groups)
    refuse("it has " + std::to_string(m.num_outputs()) + " outputs, the parameters " + std::to_string(n_groups));
  if (static_cast<std::size_t>(m.num_feature) != n_features)
    refuse("it has " + std::to_string(m.num_feature) + " features, the data " + std::to_string(n_features));
  if (m.num_parallel_tree != 1) refuse("num_parallel_tree = " + std::to_string(m.num_parallel_tree));
  if (m.tree_info.size() != m.trees.size() || m.iteration_indptr.empty() || m.iteration_indptr.back() != static_cast<int>(m.trees.size()))
    refuse("its tree_info / iteration_indptr do not match its trees");
  for (std::size_t k = 0; k < m.trees.size(); ++k) {
    auto const& t = m.trees[k];
    bool cat = false;
    for (auto s : t.split_type) cat = cat || s != 0;
    if (cat || !t.categories_nodes.empty()) refuse("tree " + std::to_string(k) + " has categorical splits");
    if (t.size_leaf_vector > 1) refuse("tree " + std::to_string(k) + " has vector leaves");
  }
  if (m.base_score.size() != 1 && static_cast<int>(m.base_score.size()) != n_groups)
    refuse("its base_score has " + std::to_string(m.base_score.size()) + " values for " + std::to_string(n_groups) +
           " outputs");
}

template <class ExecutionSpace>
std::vector<float> BasicBooster<ExecutionSpace>::job_base_score(ObjectiveParams const& obj, HostDMatrix const& dtrain,
                                                                int n_groups) const {
  std::size_t const rows = dtrain.n_rows;
  std::vector<float> hl(dtrain.label.data(), dtrain.label.data() + rows * dtrain.n_targets);
  std::vector<float> hw(dtrain.weight.data(), dtrain.weight.data() + dtrain.weight.extent(0));
  if (comm_->size() == 1) return estimate_base_score(obj, hl, hw, n_groups, group_offsets(dtrain));
  // Every rank's labels and weights on rank 0, in rank (= row) order: the estimate of one process
  // on all rows, then broadcast.
  auto const labels = comm_->gather(to_bytes(hl), 0);
  auto const weights = comm_->gather(to_bytes(hw), 0);
  std::vector<char> result;
  if (comm_->rank() == 0) {
    std::vector<float> all_l, all_w;
    for (std::size_t r = 0; r < labels.size(); ++r) {
      auto const l = from_bytes<float>(labels[r]);
      auto w = from_bytes<float>(weights[r]);
      if (w.empty() && !hw.empty()) w.assign(l.size() / dtrain.n_targets, 1.0f);
      all_l.insert(all_l.end(), l.begin(), l.end());
      all_w.insert(all_w.end(), w.begin(), w.end());
    }
    if (all_w.size() != all_l.size()) all_w.clear();
    result = to_bytes(estimate_base_score(obj, all_l, all_w, n_groups));
  }
  comm_->broadcast(result, 0);
  return from_bytes<float>(result);
}

// The Booster of each enabled backend is compiled once, into kboost's engine library
// (engine/booster_<backend>.cpp): these declarations keep every includer (the CLI, the C API, the
// tests, a user's program) from compiling the whole training pipeline again. Other execution
// space types still instantiate from this header.
#ifdef KOKKOS_ENABLE_SERIAL
extern template class BasicBooster<Kokkos::Serial>;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
extern template class BasicBooster<Kokkos::OpenMP>;
#endif
#ifdef KOKKOS_ENABLE_CUDA
extern template class BasicBooster<Kokkos::Cuda>;
#endif
#ifdef KOKKOS_ENABLE_HIP
extern template class BasicBooster<compat::HIP>;
#endif

}  // namespace kboost
