#pragma once
/// \file booster.hpp
/// kboost::Booster: training entry point. Follows upstream's learner loop (src/learner.cc
/// LearnerImpl::UpdateOneIter, src/gbm/gbtree.cc DoBoost, python-package/xgboost/training.py train,
/// callback.py EvaluationMonitor/EarlyStopping) with the GPU hist tree method (integer histograms):
/// per round gradients → (row subsample) → per output group: quantise, colsample_bytree, grow one tree,
/// add its leaves to the margins. Everything from binning on stays on the device; models are
/// bit-identical across backends, thread counts and runs.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

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
#include <kboost/kernels/leaves.hpp>
#include <kboost/kernels/quantiser.hpp>
#include <kboost/kernels/sampling.hpp>
#include <kboost/io/model_writer.hpp>
#include <kboost/engine/base_score.hpp>
#include <kboost/engine/hist_tuner.hpp>
#include <kboost/engine/metrics.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/engine/phase_times.hpp>
#include <kboost/engine/detail/exact_sketch.hpp>
#include <kboost/engine/detail/sketch.hpp>
#include <kboost/engine/detail/tree_grower.hpp>

namespace kboost {

/// Shortest round-trip text of a double as Python's repr (e.g. "1.0", "0.0123", "1e-05"): the form
/// upstream's EarlyStopping stores in best_score.
std::string python_float_repr(double v);

/// Whether a larger value of metric `name` is better (upstream callback.py EarlyStopping maximize_metrics).
bool metric_maximize(std::string const& name);

/// Evaluation results of one round: (data name, metric name, value) in print order.
using EvalRound = std::vector<std::tuple<std::string, std::string, double>>;

/// Upstream's per-round line: "[r]\tname-metric:0.12345..." (5 decimals, as xgboost.train prints).
std::string format_eval_line(int round, EvalRound const& r);

/// Trains a gbtree model on ExecutionSpace (and its memory space).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
class BasicBooster {
 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using matrix = Kokkos::View<float**, Kokkos::LayoutRight, memory_space>;

  explicit BasicBooster(ExecutionSpace const& space = ExecutionSpace()) : space_(space) {}

  /// Train `p.num_round` rounds (fewer with early stopping) on dtrain (rows × features, labels
  /// required). evals: named matrices scored after every round with p.eval_metric (or the objective's
  /// default metric); lines go to `log` when non-null. Early stopping watches the LAST metric of the
  /// LAST eval set and stores best_iteration/best_score in the model attributes, as upstream.
  /// \throws std::runtime_error for unlabelled data, mismatched widths or unsupported parameters.
  void train(TrainParams const& p, HostDMatrix const& dtrain,
             std::vector<std::pair<std::string, HostDMatrix>> const& evals = {}, std::ostream* log = nullptr);

  /// As train() above from the caller's Views in any memory space and layout: X (rows × features,
  /// float, NaN = missing; LayoutRight, LayoutLeft or LayoutStride), labels (rows) and optional
  /// weights (rows, or an empty View for all 1). The quantile sketch still runs on a host copy of X
  /// (made here, once, in row-major order; the training-speed work moves the sketch to the device),
  /// after which the pipeline is device-resident as always. The model equals train() on a
  /// HostDMatrix of the same values, byte for byte.
  /// \throws std::runtime_error as train(), or when labels/weights do not have X's rows.
  template <class XView, class LabelView,
            std::enable_if_t<Kokkos::is_view<XView>::value && Kokkos::is_view<LabelView>::value, int> = 0>
  void train(TrainParams const& p, XView const& X, LabelView const& labels, LabelView const& weights = {},
             std::ostream* log = nullptr) {
    static_assert(XView::rank == 2, "X must be a rows x features View");
    static_assert(LabelView::rank == 1, "labels must be a rows View");
    if (labels.extent(0) != X.extent(0) || (weights.extent(0) != 0 && weights.extent(0) != X.extent(0)))
      throw std::runtime_error("train: labels and weights must have " + std::to_string(X.extent(0)) + " rows");
    HostDMatrix d;
    d.n_rows = X.extent(0);
    d.n_features = X.extent(1);
    d.dense = HostDMatrix::dense_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::train::host_X"),
                                      d.n_rows, d.n_features);
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), X);
    Kokkos::deep_copy(d.dense, hx);  // to row-major, on the host
    d.label = Kokkos::View<float*, Kokkos::HostSpace>("kboost::train::label", d.n_rows);
    Kokkos::deep_copy(d.label, Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), labels));
    if (weights.extent(0) != 0) {
      d.weight = Kokkos::View<float*, Kokkos::HostSpace>("kboost::train::weight", d.n_rows);
      Kokkos::deep_copy(d.weight, Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), weights));
    }
    train(p, d, {}, log);
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
    matrix d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::train::X"), hd.extent(0), hd.extent(1));
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

  ExecutionSpace space_;
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
  for (std::size_t e = 0; e < evals.size(); ++e) {
    auto hm = counted_to_host(margins[e]);
    std::size_t const rows = hm.extent(0), groups = hm.extent(1);
    std::vector<float> preds(rows * groups);
    std::vector<float> tmp(groups);
    for (std::size_t i = 0; i < rows; ++i) {
      if (is_multiclass(kind)) {
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
    for (auto const& m : metrics) {
      out.emplace_back(evals[e].first, m, evaluate_metric(m, preds, labels, weights, static_cast<int>(groups)));
    }
  }
  (void)p;
  return out;
}

template <class ExecutionSpace>
void BasicBooster<ExecutionSpace>::train(TrainParams const& p, HostDMatrix const& dtrain,
                                         std::vector<std::pair<std::string, HostDMatrix>> const& evals,
                                         std::ostream* log) {
  using Mem = memory_space;
  compat::ScopedRegion region("kboost::train");
  if (!dtrain.has_labels()) throw std::runtime_error("train: the training data " + dtrain.info.source + " has no labels");
  for (auto const& e : evals) {
    if (e.second.n_features > dtrain.n_features)
      throw std::runtime_error("train: eval set '" + e.first + "' has " + std::to_string(e.second.n_features) +
                               " features, the training data " + std::to_string(dtrain.n_features));
    if (!e.second.has_labels()) throw std::runtime_error("train: eval set '" + e.first + "' has no labels");
  }
  times_ = PhaseTimes{};
  MemoryMeter const meter;
  TransferCount const fit_copies0 = transfer_count();
  history_.clear();
  ObjectiveParams obj = objective_params(p);
  ObjectiveKind const kind = objective_kind(obj.name);
  int const n_groups = is_multiclass(kind) ? p.num_class : 1;
  if (is_multiclass(kind) && p.num_class < 2) throw std::runtime_error("train: " + obj.name + " needs num_class >= 2");
  std::size_t const rows = dtrain.n_rows;

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
      X = matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::train::X"), hX.extent(0), hX.extent(1));
      staged_upload(space_, X, Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace>(hX));
    }
    label = counted_copy_to<Mem>(dtrain.label);
    weight = counted_copy_to<Mem>(dtrain.weight);
  }

  // ---- base score (output space) and initial margins
  std::vector<float> base_score;
  if (p.base_score.has_value()) {
    base_score.assign(1, *p.base_score);
  } else {
    std::vector<float> hl(dtrain.label.data(), dtrain.label.data() + rows);
    std::vector<float> hw(dtrain.weight.data(), dtrain.weight.data() + dtrain.weight.extent(0));
    base_score = estimate_base_score(obj, hl, hw, n_groups);
  }
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
                                            dtrain.weight, p.max_bin);
    else
      cuts = sketch_cuts_from_host<Mem>(space_, hX, dtrain.weight, p.max_bin);
  }
  // ---- model header
  model_ = Model{};
  model_.objective = obj.name;
  model_.base_score = base_score;
  model_.num_class = is_multiclass(kind) ? p.num_class : 0;
  model_.num_feature = static_cast<int>(dtrain.n_features);
  model_.feature_names = dtrain.info.feature_names;
  // Every feature is trained as numerical (string columns arrive as their codes), so say "q".
  if (!model_.feature_names.empty()) model_.feature_types.assign(model_.feature_names.size(), "q");
  model_.objective_config = objective_config(p, obj);
  model_.iteration_indptr.push_back(0);

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
  GrowParams gp = grow_params(p);
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
  TreeGrower<ExecutionSpace, Mem, BinT> grower(bins, cuts, gp);

  // ---- eval sets
  std::vector<matrix> eval_X, eval_margin;
  for (auto const& e : evals) {
    eval_X.push_back(upload_dense(e.second));
    eval_margin.push_back(init_margin(e.second.n_rows));
  }
  std::vector<std::string> metrics = p.eval_metric;
  if (metrics.empty()) metrics.push_back(default_metric(obj.name, obj.tweedie_variance_power));

  Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::train::gpair"), n_groups, rows);
  Kokkos::View<GradientPairInt64*, Mem> gq(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::train::gq"), rows);
  std::vector<int> all_features(dtrain.n_features);
  for (std::size_t f = 0; f < all_features.size(); ++f) all_features[f] = static_cast<int>(f);

  double best_score = 0;
  int best_iteration = -1;
  bool const maximize = metric_maximize(metrics.back());
  for (int round = 0; round < p.num_round; ++round) {
    {
      PhaseTimer t(times_.gradients);
      compute_gradients(space_, obj, Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(margin),
                        Kokkos::View<const float*, Mem>(label), Kokkos::View<const float*, Mem>(weight), gpair);
      subsample_rows(space_, p.subsample, p.seed, round, gpair);
    }
    for (int g = 0; g < n_groups; ++g) {
      GradientQuantiser q;
      {
        PhaseTimer t(times_.gradients);
        auto gg = Kokkos::subview(gpair, g, Kokkos::ALL());
        q = make_quantiser(space_, Kokkos::View<const GradientPair*, Mem>(gg));
        quantise(space_, q, Kokkos::View<const GradientPair*, Mem>(gg), gq);
      }
      std::uint64_t const tree_key = static_cast<std::uint64_t>(round) * static_cast<std::uint64_t>(n_groups) + g;
      auto const features = sample_features(all_features, p.colsample_bytree, p.seed, kTreeColStream, tree_key);
      TreeModel tree = grower.grow(space_, Kokkos::View<const GradientPairInt64*, Mem>(gq), q, features, tree_key,
                                   margin, g, times_);
      {
        PhaseTimer t(times_.eval);
        if (!eval_X.empty()) {
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
    if (evals.empty()) continue;
    EvalRound r;
    {
      PhaseTimer t(times_.eval);
      r = evaluate(p, kind, metrics, evals, eval_margin);
    }
    history_.push_back(r);
    if (log) *log << format_eval_line(round, r) << "\n" << std::flush;
    if (p.early_stopping_rounds > 0) {
      double const score = std::get<2>(r.back());
      bool const better = best_iteration < 0 || (maximize ? score > best_score : score < best_score);
      if (better) {
        best_score = score;
        best_iteration = round;
        model_.attributes["best_iteration"] = std::to_string(round);
        model_.attributes["best_score"] = python_float_repr(score);
      } else if (round - best_iteration >= p.early_stopping_rounds) {
        break;
      }
    }
  }
}

}  // namespace kboost
