#pragma once
/// \file booster.hpp
/// kboost::Booster: training entry point. Follows upstream's learner loop (src/learner.cc
/// LearnerImpl::UpdateOneIter, src/gbm/gbtree.cc DoBoost, python-package/xgboost/training.py train,
/// callback.py EvaluationMonitor/EarlyStopping) with the GPU hist tree method (integer histograms):
/// per round gradients → (row subsample) → per output group: quantise, colsample_bytree, grow one tree,
/// add its leaves to the margins. Everything from binning on stays on the device; models are
/// bit-identical across backends, thread counts and runs. This header is the API; the stages of a
/// fit are in engine/detail/booster_train.hpp and booster_rounds.hpp.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <kboost/core/collective.hpp>
#include <kboost/core/compat.hpp>
#include <kboost/core/dmatrix.hpp>
#include <kboost/core/memory_meter.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/binning.hpp>
#include <kboost/kernels/gradients.hpp>
#include <kboost/kernels/metric_terms.hpp>
#include <kboost/kernels/sampling.hpp>
#include <kboost/io/model_writer.hpp>
#include <kboost/engine/hist_tuner.hpp>
#include <kboost/engine/objective/objective.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/engine/phase_times.hpp>
#include <kboost/engine/detail/boosting_rounds.hpp>
#include <kboost/engine/detail/fit_context.hpp>
#include <kboost/engine/detail/fit_plan.hpp>
#include <kboost/engine/detail/tree_grower.hpp>

namespace kboost {

/// Evaluation results of one round: (data name, metric name, value) in print order.
using EvalRound = std::vector<std::tuple<std::string, std::string, double>>;

/// Upstream's per-round line: "[r]\tname-metric:0.12345..." (5 decimals, as xgboost.train prints).
std::string format_eval_line(int round, EvalRound const& r);

/// Where a fit stands between rounds: what a checkpoint stores besides the model, and what a
/// resumed or continued fit starts from. Rounds and the draws of upstream's random engine are
/// counted over the whole job, so the sampling streams and the early-stopping rounds of a resumed
/// fit are those of a run that was never interrupted. A fresh continuation (rng_draws 0) seeds the
/// engine anew, as a new upstream Learner does.
struct TrainState {
  int base_rounds = 0;      ///< rounds of the model a fit continued from (--model-in); 0 from scratch
  int rounds_done = 0;      ///< rounds in the model so far (base_rounds included)
  int best_iteration = -1;  ///< early stopping: best round so far (-1: none yet)
  double best_score = 0;    ///< its score
  bool finished = false;    ///< early stopping ended the fit
  std::uint64_t rng_draws = 0;  ///< outputs of upstream's engine (kernels/sampling.hpp) drawn so far
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
  /// TrainState{R, R} for a model of R rounds (upstream's engine seeded anew, as upstream continues
  /// a model file); a resumed checkpoint passes the state it stored (then num_round is the whole
  /// job's, base_rounds included via state.base_rounds), and so does a caller continuing its own
  /// fit with the state on_round last gave it: then the sampling draws are those of one fit.
  /// The next train() call consumes the continuation, whether it succeeds or throws.
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
             std::vector<std::pair<std::string, HostDMatrix>> const& evals = {}, std::ostream* log = nullptr) {
    train_rows(p, dtrain, evals, log, nullptr);
  }

  /// As train() above from the caller's Views in any memory space and layout: X (rows × features,
  /// float, NaN = missing; LayoutRight, LayoutLeft or LayoutStride), labels (rows, or rows × targets
  /// for multi-target training) and optional weights (rows, or an empty View for all 1).
  /// When the execution space reads X's memory (a device View on CUDA or HIP, any host View on
  /// Serial or OpenMP), the fit reads X itself when it is row-major in the space's memory, else one
  /// row-major copy made on the space: X goes through the host only for a sketch that reads host
  /// rows (one download; none on the host backends). exact_quantile never does; the default
  /// upstream_gpu does not for unweighted data on one rank without a value -0
  /// (gpu_sketch_cuts_on_space, any number of sketch batches), and does otherwise; upstream_cpu
  /// always does.
  /// A View the space cannot read is copied once to a row-major host matrix (none when it already
  /// is one: is_host_row_major) and uploaded. Labels and weights are copied to the host either way
  /// (one float per row). The model equals train() on a HostDMatrix of the same values, byte for
  /// byte.
  /// \throws std::runtime_error as train(), or when labels/weights do not have X's rows.
  template <class XView, class LabelView,
            class WeightView = Kokkos::View<const float*, typename LabelView::memory_space>,
            std::enable_if_t<Kokkos::is_view<XView>::value && Kokkos::is_view<LabelView>::value, int> = 0>
  void train(TrainParams const& p, XView const& X, LabelView const& labels, WeightView const& weights = {},
             std::ostream* log = nullptr) {
    if constexpr (detail::reads_rows_on_space<ExecutionSpace, XView>()) {
      auto const rows = detail::rows_on_space(space_, X);
      train_rows(p, detail::dmatrix_without_rows(X, labels, weights), {}, log, &rows);
    } else {
      train_rows(p, host_dmatrix_borrowing(X, labels, weights), {}, log, nullptr);
    }
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
  using Mem = memory_space;
  using FitContext = detail::FitContext<memory_space>;
  using FitRows = detail::FitRows<memory_space>;
  using EvalSets = detail::EvalSets<memory_space>;
  using Gradients = Kokkos::View<GradientPair**, Kokkos::LayoutRight, memory_space>;
  /// What every round reuses: gradients (outputs × rows), one output's quantised gradients, and
  /// this rank's first row in the job's row order.
  struct RoundBuffers {
    Gradients gpair;
    Kokkos::View<GradientPairInt64*, memory_space> gq;
    std::uint64_t first_row = 0;
  };

  // train()'s stages, in order (engine/detail/booster_train.hpp)
  /// train() on dtrain, or on `on_space` (rows × features on the execution space) with dtrain's
  /// labels, weights and shape (detail::dmatrix_without_rows) when it is not null.
  void train_rows(TrainParams const& p, HostDMatrix const& dtrain,
                  std::vector<std::pair<std::string, HostDMatrix>> const& evals, std::ostream* log,
                  detail::DenseRows<memory_space> const* on_space);
  FitRows upload_rows(HostDMatrix const& dtrain, detail::DenseRows<memory_space> const* on_space, bool bin_from_host);
  matrix training_margins(FitRows const& rows, HostDMatrix const& dtrain, std::vector<float> const& base_margin,
                          bool continuing) const;
  HistogramCuts<memory_space> find_cuts(FitContext const& fit, FitRows& rows);
  template <class BinT>
  BinCodes<BinT, memory_space> bin_rows(FitContext const& fit, FitRows& rows);
  void finish_fit(MemoryMeter const& meter, TransferCount const& copies_before, TrainParams const& p, std::ostream* log);

  // fit_rounds()'s stages (engine/detail/booster_rounds.hpp)
  /// The boosting rounds of train() on the fit's bin codes (BinT: the code width).
  template <class BinT>
  void fit_rounds(FitContext& fit, BinCodes<BinT, memory_space> const& bins);
  template <class BinT>
  TreeParams tuned_tree_params(FitContext const& fit, BinCodes<BinT, memory_space> const& bins);
  EvalSets upload_eval_sets(FitContext const& fit) const;
  void replay_history(std::ostream* log);
  RoundBuffers round_buffers(FitContext const& fit) const;
  void round_gradients(FitContext const& fit, int round, RoundBuffers const& buffers);
  LeafRefit<memory_space> leaf_refit(FitContext const& fit, Gradients gpair, int group) const;
  template <class BinT>
  void grow_round_trees(FitContext& fit, TreeGrower<ExecutionSpace, memory_space, BinT>& grower,
                        RoundBuffers const& buffers, UpstreamEngine& engine,
                        detail::BoostingRounds<ExecutionSpace>& rounds, EvalSets& sets);
  void record_evaluation(FitContext const& fit, int round, EvalSets& sets);
  void score_eval_set(FitContext const& fit, std::size_t e, EvalSets& sets, EvalRound& r);
  double score_from_terms(std::string const& m, MetricTermSpec const& spec, std::size_t e, FitContext const& fit,
                          EvalSets& sets);

  ExecutionSpace space_;
  Collective* comm_;
  Model start_model_;
  TrainState start_state_, state_;
  bool has_start_ = false;
  std::function<void(Model const&, TrainState const&)> on_round_;
  /// The caller's objective during a train(…, CustomObjective, …) call, else empty.
  std::function<void(matrix, Kokkos::View<const float*, memory_space>, Kokkos::View<const float*, memory_space>,
                     Gradients)>
      custom_gradients_;
  Model model_;
  PhaseTimes times_;
  HistTuneResult hist_tuning_;
  std::vector<EvalRound> history_;
};

using Booster = BasicBooster<Kokkos::DefaultExecutionSpace>;

}  // namespace kboost

#include <kboost/engine/detail/booster_train.hpp>
#include <kboost/engine/detail/booster_rounds.hpp>

namespace kboost {

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
