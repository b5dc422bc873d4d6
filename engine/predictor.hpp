#pragma once
/// \file predictor.hpp
/// kboost::Predictor: XGBoost-compatible inference on any Kokkos backend. The ensemble is flattened
/// and uploaded once (kernels/predict_layout.hpp); each predict() call runs one kernel
/// (kernels/predict_kernel.hpp) on device-resident input and returns device-resident output.
/// Results are bit-identical to upstream XGBoost 3.2's CPU predictor (src/predictor/cpu_predictor.cc,
/// src/gbm/gbtree.cc) on every backend: see docs/inference.md.
#include <Kokkos_Core.hpp>

#include <chrono>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/device_memory.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/kernels/device_forest.hpp>
#include <kboost/kernels/predict_host_block.hpp>
#include <kboost/kernels/predict_kernel.hpp>
#include <kboost/kernels/predict_layout.hpp>
#include <kboost/kernels/predict_layout_layered.hpp>
#include <kboost/kernels/predict_mapping.hpp>
#include <kboost/kernels/predict_pairs.hpp>
#include <kboost/kernels/predict_quickscorer.hpp>
#include <kboost/kernels/predict_rows.hpp>
#include <kboost/io/model_reader.hpp>
#include <kboost/engine/predict_tuner.hpp>

namespace kboost {

/// Options of one predict call (names as upstream's Booster.predict / inplace_predict).
struct PredictOptions {
  bool output_margin = false;  ///< raw margins, no objective transform
  bool pred_leaf = false;      ///< leaf node ids, rows × trees (of the iteration range)
  int iteration_begin = 0;     ///< first boosting round (iteration_range[0])
  int iteration_end = 0;       ///< one past the last round; 0 = all rounds
  float missing = std::numeric_limits<float>::quiet_NaN();  ///< value treated as missing (NaN always is)
};

/// Tree range [first, second) for the rounds [begin, end) (end 0 = all) of `m`, mapped through
/// iteration_indptr as upstream's detail::LayerToTree. \throws std::runtime_error on a bad range.
std::pair<int, int> tree_range(Model const& m, int iteration_begin, int iteration_end);

/// Which kernel predicts values on host execution spaces (Serial, OpenMP): kBlock, the default,
/// predict_host_block (kernels/predict_host_block.hpp: row blocks walked tree after tree, one block
/// on the calling thread); kTeam, predict_forest's (tree, row) team blocking
/// (kernels/predict_kernel.hpp), kept to compare the two; kQuickScorer, predict_quickscorer
/// (kernels/predict_quickscorer.hpp: QuickScorer bitvectors, for models whose trees have at most 64
/// leaves and numeric splits only; refused on device spaces). All give the same bits. pred_leaf and
/// vector-leaf models take kTeam's kernel either way; device spaces ignore kBlock and kTeam.
enum class HostPath { kBlock, kTeam, kQuickScorer };

namespace detail {
/// Serialises batch kernels on host execution spaces: Kokkos' Serial and OpenMP instances (3.4)
/// share one team-scratch buffer and thread pool per process, so two host threads must not launch
/// into them at once. Device spaces need no lock (each call runs on the caller's instance).
std::mutex& host_launch_mutex();

/// The layered layouts (kernels/predict_layout_layered.hpp) of a Predictor's model in MemorySpace,
/// by trees per group, flattened and uploaded on first use.
template <class MemorySpace>
struct LayeredForests {
  std::mutex mutex;
  std::map<int, ForestArrays<MemorySpace>> by_group;
};
}  // namespace detail

/// Predictor bound to one execution space (and its memory space). Construction flattens and
/// uploads the model once (timed: upload_seconds()); then any number of calls predict from Views
/// (predict, predict_into: one kernel per call, on the caller's execution-space instance) or, one row
/// at a time inside the caller's own kernels, through device_forest().
///
/// Thread safety: every member is const after construction; concurrent predict/predict_into calls
/// with distinct outputs are safe (on host backends they take turns, see detail::host_launch_mutex;
/// DeviceForest handles never lock). No call initialises Kokkos: the caller does, before constructing.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
class Predictor {
 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using matrix_type = Kokkos::View<float**, Kokkos::LayoutRight, memory_space>;
  using const_matrix_type = Kokkos::View<const float**, Kokkos::LayoutRight, memory_space>;

  /// From an in-memory model (validated here), with default_blocking's mapping (or the tuned one
  /// under KBOOST_PREDICT_TUNE=1). \throws std::runtime_error for an invalid model or an unknown
  /// objective; std::invalid_argument for a bad KBOOST_PREDICT_TUNE value.
  explicit Predictor(Model model, ExecutionSpace const& space = ExecutionSpace())
      : Predictor(std::move(model), PredictorConfig{}, space) {}
  /// As above with a mapping policy (engine/predict_tuner.hpp PredictorConfig: a forced mapping and
  /// layout, tuning on or off, the tune store's directory). \throws std::invalid_argument for a
  /// forced layout of fewer than 0 trees per group or a bad KBOOST_PREDICT_TUNE value.
  Predictor(Model model, PredictorConfig config, ExecutionSpace const& space = ExecutionSpace())
      : space_(space), model_(std::move(model)), config_(std::move(config)) {
    validate_model(model_, "model");
    transform_ = transform_for_objective(model_.objective);
    bool const env_tune = config_.tune == PredictorConfig::Tune::kFromEnv && predict_tune_from_env();
    if (config_.mapping.layered_group < 0)
      throw std::invalid_argument("PredictorConfig: layered_group must be >= 0, got " + std::to_string(config_.mapping.layered_group));
    if (!config_.mapping.valid())
      throw std::invalid_argument("PredictorConfig: mapping " + config_.mapping.name() + " is not a choice (staged levels 0 to " +
                                  std::to_string(kMaxStagedLevels) + ", with the blocking only; groups up to " +
                                  std::to_string(kMaxLayeredGroup) + ")");
    tune_ = config_.mapping.is_default() && (env_tune || config_.tune == PredictorConfig::Tune::kOn);
    tune_state_ = std::make_shared<PredictTuneState>(config_.tune_dir);
    auto t0 = std::chrono::steady_clock::now();
    HostForest h = flatten_forest(model_);
    n_dense_ = h.n_dense;
    n_compact_ = h.n_compact;
    fingerprint_ = forest_fingerprint(h);
    forest_ = upload_forest<memory_space>(h);
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible) {
      host_splits_ = pack_host_splits(h);
      quickscorer_refusal_ = kboost::quickscorer_refusal(h, model_.num_outputs());
    }
    base_score_ = detail::upload<memory_space>("kboost::predict::base_score", base_margin_from_score(model_.objective, model_.base_score));
    upload_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  /// From an XGBoost JSON/UBJSON file (io/model_reader.hpp read_model).
  explicit Predictor(std::string const& model_path, ExecutionSpace const& space = ExecutionSpace())
      : Predictor(read_model(model_path), space) {}
  Predictor(std::string const& model_path, PredictorConfig config, ExecutionSpace const& space = ExecutionSpace())
      : Predictor(read_model(model_path), std::move(config), space) {}

  Model const& model() const { return model_; }
  /// Seconds spent flattening and uploading the ensemble (once, at construction).
  double upload_seconds() const { return upload_seconds_; }
  int dense_trees() const { return n_dense_; }

  /// The kernel host execution spaces predict values with (HostPath; kBlock unless set). Set it
  /// before predicting from several threads: it is the one member that is not const.
  /// \throws std::invalid_argument for kQuickScorer when QuickScorer cannot serve the model
  /// (quickscorer_refusal(), named in the message).
  /// QuickScorer's tables are built on the first switch to kQuickScorer (the other paths never pay
  /// for them); copies made afterwards share them.
  void set_host_path(HostPath path) {
    if (path == HostPath::kQuickScorer) {
      if (!quickscorer_refusal_.empty())
        throw std::invalid_argument("Predictor::set_host_path: QuickScorer cannot serve this model: " + quickscorer_refusal_);
      if (!quickscorer_)
        quickscorer_ = std::make_shared<QuickScorerForest const>(build_quickscorer(flatten_forest(model_), model_.num_outputs()));
    }
    host_path_ = path;
  }
  HostPath host_path() const { return host_path_; }

  /// The instruction set of the host block walk (kernels/host_walk.hpp; best_host_isa() unless set):
  /// every ISA gives the same bits. Set it before predicting from several threads.
  /// \throws std::invalid_argument for an ISA this CPU or build cannot run (host_isa_supported).
  void set_host_isa(HostIsa isa) {
    if (!host_isa_supported(isa))
      throw std::invalid_argument("Predictor::set_host_isa: this CPU or build cannot run the " + host_isa_name(isa) + " walk");
    host_isa_ = isa;
  }
  HostIsa host_isa() const { return host_isa_; }
  /// Why HostPath::kQuickScorer cannot serve this model (kernels/predict_quickscorer.hpp
  /// quickscorer_refusal, decided once at construction; device spaces: "a device execution space"),
  /// or "" when it can.
  std::string const& quickscorer_refusal() const { return quickscorer_refusal_; }
  /// The node pool's packed split arrays (pack_host_splits; empty on device spaces) with host_isa(),
  /// for predict_host_block.
  HostSplits host_splits() const { return HostSplits{host_splits_.threshold.data(), host_splits_.key.data(), host_isa_}; }
  int compact_trees() const { return n_compact_; }

  /// Columns of the result for `opt`: trees in range (pred_leaf), outputs (margin) or transformed columns.
  int output_columns(PredictOptions const& opt) const {
    if (opt.pred_leaf) {
      auto r = tree_range(model_, opt.iteration_begin, opt.iteration_end);
      return r.second - r.first;
    }
    int k = model_.num_outputs();
    return opt.output_margin ? k : transformed_columns(transform_, k);
  }

  /// Predict X (rows × features, features == the model's num_feature; NaN or opt.missing = missing)
  /// into a new rows × output_columns(opt) View in the same memory space. `base_margin` (rows × outputs,
  /// optional) replaces the base score as upstream's DMatrix base_margin.
  /// \throws std::runtime_error on a feature-count or shape mismatch or a bad iteration range.
  matrix_type predict(const_matrix_type X, PredictOptions const& opt = {}, const_matrix_type base_margin = {}) const {
    auto out = allocate_view<matrix_type>("kboost::predict::out", false, X.extent(0),
                                          static_cast<std::size_t>(output_columns(opt)));
    predict_into(X, out, opt, base_margin);
    return out;
  }

  /// As predict() into a caller-owned `out` (rows × output_columns(opt)), on the Predictor's
  /// execution-space instance. Asynchronous on device backends (fence before reading `out`).
  void predict_into(const_matrix_type X, matrix_type out, PredictOptions const& opt = {},
                    const_matrix_type base_margin = {}) const {
    predict_into(space_, X, out, opt, base_margin);
  }

  /// Predict the caller's `X` (rows × features, float or const float, LayoutRight, LayoutLeft —
  /// Fortran's order and CUDA's default — or LayoutStride, e.g. a subview; in memory_space) into the
  /// caller's `out` (rows × output_columns(opt), float, any of those layouts) on the caller's
  /// execution-space instance `space`: the kernel is enqueued there and nothing else is fenced, so on
  /// a GPU it runs on the caller's stream (fence `space` before reading `out`). NaN or opt.missing =
  /// missing. Bit-identical to predict() for every layout.
  /// \throws std::runtime_error on a feature-count or shape mismatch or a bad iteration range.
  template <class XView, class OutView>
  void predict_into(ExecutionSpace const& space, XView const& X, OutView const& out, PredictOptions const& opt = {},
                    const_matrix_type base_margin = {}) const {
    check_call(X, out, opt, base_margin);
    auto const range = tree_range(model_, opt.iteration_begin, opt.iteration_end);
    if (opt.pred_leaf && range.second == range.first) return;
    constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    if constexpr (host) {
      // Host spaces: the block walk (kernels/predict_host_block.hpp) or QuickScorer unless a mapping
      // was forced or set_host_path(kTeam) asked for the team kernel.
      if (!opt.pred_leaf && host_path_ != HostPath::kTeam && config_.mapping.is_default() &&
          predict_by_blocks(space, X, out, opt, base_margin, range))
        return;
      if (!compat::can_launch_here(space)) {
        // A host thread the backend does not accept launches from (e.g. inside the caller's own
        // OpenMP region): predict on this thread, row by row, with the same arithmetic.
        predict_on_this_thread(X, out, opt, base_margin, range);
        return;
      }
    }
    launch(space, choose(space, X, out, opt, base_margin, range), X, out, opt, base_margin, range);
  }

  /// The mapping and layout (kernels/predict_mapping.hpp) a call with X, out, opt and base_margin
  /// on `space` takes under tuning: read from this process or the tune store (Source::kStore) when
  /// the batch's class was measured before on this device and build, else measured now on these
  /// very arguments (every candidate predicts X into `out`, fencing `space`; Source::kMeasured) and
  /// stored. Works whether or not tuning is on (predict_into consults it only when it is).
  /// \throws std::runtime_error as predict_into.
  template <class XView, class OutView>
  PredictTuneResult tuned_choice(ExecutionSpace const& space, XView const& X, OutView const& out,
                                 PredictOptions const& opt = {}, const_matrix_type base_margin = {}) const {
    check_call(X, out, opt, base_margin);
    auto const range = tree_range(model_, opt.iteration_begin, opt.iteration_end);
    std::size_t const rows = X.extent(0);
    int const n_trees = range.second - range.first;
    PredictTuneResult r;
    r.key = predict_tune_key(fingerprint_, n_trees, opt.pred_leaf, view_layout_code<XView>(), rows);
    std::string const device = predict_tune_device_key(space);
    auto const lock = tune_state_->lock();
    if (auto const known = tune_state_->find(device, r.key, r.store_file)) {
      r.source = PredictTuneResult::Source::kStore;
      r.choice = *known;
      return r;
    }
    auto const candidates = mapping_candidates(rows, n_trees, opt.pred_leaf);
    auto const run = [&](PredictChoice c) { launch(space, c, X, out, opt, base_margin, range); };
    auto const medians = measure_predict_choices(space, candidates, run, config_.tune_options);
    std::size_t best = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      r.timings.emplace_back(candidates[i].name(), medians[i]);
      if (medians[i] < medians[best]) best = i;
    }
    r.source = PredictTuneResult::Source::kMeasured;
    r.choice = candidates[best];
    tune_state_->keep(device, r.key, r.choice, r.store_file);
    return r;
  }

  /// The mapping policy this Predictor was built with; whether its calls are tuned.
  PredictorConfig const& config() const { return config_; }
  bool tuning() const { return tune_; }

  /// A trivially copyable handle for predicting single rows inside the caller's kernels (see
  /// kernels/device_forest.hpp), for the rounds, missing value and margin/transform of `opt`.
  /// Valid while this Predictor lives. Bit-identical to predict() row by row.
  /// \throws std::runtime_error for opt.pred_leaf (use DeviceForest::leaf) or a bad iteration range.
  DeviceForest<memory_space> device_forest(PredictOptions const& opt = {}) const {
    if (opt.pred_leaf) throw std::runtime_error("device_forest: pred_leaf is not a per-row prediction (use leaf())");
    auto const range = tree_range(model_, opt.iteration_begin, opt.iteration_end);
    return make_device_forest(forest_, base_score_, range.first, range.second, model_.num_feature,
                              opt.output_margin ? OutputTransform::kIdentity : transform_, opt.missing);
  }

 private:
  /// predict_into's argument checks. \throws std::runtime_error on a feature-count or shape mismatch.
  template <class XView, class OutView>
  void check_call(XView const& X, OutView const& out, PredictOptions const& opt, const_matrix_type base_margin) const {
    static_assert(Kokkos::is_view<XView>::value && XView::rank == 2, "X must be a rows x features View");
    static_assert(Kokkos::is_view<OutView>::value && OutView::rank == 2, "out must be a rows x columns View");
    static_assert(std::is_same<typename XView::non_const_value_type, float>::value, "X must hold float");
    static_assert(std::is_same<typename OutView::value_type, float>::value, "out must be a non-const float View");
    static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, typename XView::memory_space>::accessible &&
                      Kokkos::SpaceAccessibility<ExecutionSpace, typename OutView::memory_space>::accessible,
                  "X and out must be accessible from the Predictor's execution space");
    if (model_.num_feature > 0 && static_cast<int>(X.extent(1)) != model_.num_feature)
      throw std::runtime_error("predict: input has " + std::to_string(X.extent(1)) + " features, the model expects " +
                               std::to_string(model_.num_feature));
    if (out.extent(0) != X.extent(0) || static_cast<int>(out.extent(1)) != output_columns(opt))
      throw std::runtime_error("predict: output must be " + std::to_string(X.extent(0)) + " x " +
                               std::to_string(output_columns(opt)));
    if (base_margin.extent(0) != 0 &&
        (base_margin.extent(0) != X.extent(0) || static_cast<int>(base_margin.extent(1)) != model_.num_outputs()))
      throw std::runtime_error("predict: base_margin must be rows x " + std::to_string(model_.num_outputs()));
  }

  /// The choice for a call: the forced one (pred_leaf: the blocking in the forced layout), the tuned
  /// one when tuning is on, else PredictMapping::kDefault (default_blocking's) in the standard layout.
  /// \throws std::invalid_argument when the forced mapping cannot serve the batch (pairs beyond
  /// kDevicePairMaxWords leaf words).
  template <class XView, class OutView>
  PredictChoice choose(ExecutionSpace const& space, XView const& X, OutView const& out, PredictOptions const& opt,
                       const_matrix_type base_margin, std::pair<int, int> range) const {
    std::size_t const rows = X.extent(0);
    int const n_trees = range.second - range.first;
    if (!config_.mapping.is_default()) {
      PredictChoice c = config_.mapping;
      if (opt.pred_leaf) c.mapping = PredictMapping::kBlocking;
      else if (!mapping_applies(c.mapping, rows, n_trees, false))
        throw std::invalid_argument("predict: the forced mapping " + c.name() + " cannot serve " + std::to_string(rows) +
                                    " rows x " + std::to_string(n_trees) + " trees (more than kDevicePairMaxWords leaf words)");
      return c;
    }
    if (tune_ && rows > 0) return tuned_choice(space, X, out, opt, base_margin).choice;
    return PredictChoice{};
  }

  /// The trees of `layered_group` > 0 trees per group in the layered layout (flattened and uploaded
  /// on first use; shared by copies of this Predictor), or the standard layout for 0.
  ForestArrays<memory_space> forest_for(int layered_group) const {
    if (layered_group == 0) return forest_;
    std::lock_guard<std::mutex> lock(layered_->mutex);
    auto it = layered_->by_group.find(layered_group);
    if (it == layered_->by_group.end())
      it = layered_->by_group
               .emplace(layered_group, upload_forest<memory_space>(flatten_forest_layered(model_, layered_group),
                                                                  "kboost::predict::layered" + std::to_string(layered_group)))
               .first;
    return it->second;
  }

  /// One call's kernel: default_blocking's parameters set to `choice`'s mapping (set_mapping), over
  /// `choice`'s layout, on `space` (host backends: under detail::host_launch_mutex).
  template <class XView, class OutView>
  void launch(ExecutionSpace const& space, PredictChoice choice, XView const& X, OutView const& out,
              PredictOptions const& opt, const_matrix_type base_margin, std::pair<int, int> range) const {
    PredictKernelParams p;
    p.tree_begin = range.first;
    p.tree_end = range.second;
    p.n_outputs = model_.num_outputs();
    p.pred_leaf = opt.pred_leaf;
    p.output_margin = opt.output_margin;
    p.transform = transform_;
    p.missing = opt.missing;
    default_blocking(space, X.extent(0), range.second - range.first, p);
    set_mapping(space, choice.mapping, X.extent(0), range.second - range.first, p);
    p.staged_levels = choice.staged_levels;
    constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    std::unique_lock<std::mutex> lock;
    if (host) lock = std::unique_lock<std::mutex>(detail::host_launch_mutex());
    auto const f = make_device_forest(forest_for(choice.layered_group), base_score_, range.first, range.second,
                                      model_.num_feature, opt.output_margin ? OutputTransform::kIdentity : transform_,
                                      opt.missing);
    launch_mapping(space, f, X, base_margin, p, *pair_words_, out);
  }

  /// predict_into's work on the calling thread (host memory only): DeviceForest per row.
  template <class XView, class OutView>
  void predict_on_this_thread(XView const& X, OutView const& out, PredictOptions const& opt,
                              const_matrix_type base_margin, std::pair<int, int> range) const {
    PredictOptions row_opt = opt;
    row_opt.pred_leaf = false;
    auto forest = device_forest(row_opt);
    std::vector<float> buf(static_cast<std::size_t>(forest.margin_columns()));
    int const cols = static_cast<int>(out.extent(1));
    for (std::size_t r = 0; r < X.extent(0); ++r) {
      detail::ViewRow<XView> const x{X, static_cast<int>(r)};
      if (opt.pred_leaf) {
        for (int t = range.first; t < range.second; ++t)
          out(r, t - range.first) = static_cast<float>(forest.node_ids(forest.leaf(t, x)));
        continue;
      }
      if (base_margin.extent(0) > 0) forest.base_margin.data = &base_margin(r, 0);
      forest.predict(x, buf.data());
      for (int j = 0; j < cols; ++j) out(r, j) = buf[j];
    }
  }

  /// predict_host_block, or predict_quickscorer under HostPath::kQuickScorer, when it serves the model
  /// (host_block_applies): on the calling thread for a batch of one block or a thread that may not
  /// launch, else one parallel region over the blocks (host launches serialised). False when it does
  /// not serve the model.
  template <class XView, class OutView>
  bool predict_by_blocks(ExecutionSpace const& space, XView const& X, OutView const& out, PredictOptions const& opt,
                         const_matrix_type base_margin, std::pair<int, int> range) const {
    auto const f = make_device_forest(forest_, base_score_, range.first, range.second, model_.num_feature,
                                      opt.output_margin ? OutputTransform::kIdentity : transform_, opt.missing);
    if (!host_block_applies(f)) return false;
    HostBlockPlan const plan = plan_host_block(X.extent(0), f.n_outputs, compat::concurrency(space));
    bool const launch = !plan.on_caller && compat::can_launch_here(space);
    std::unique_lock<std::mutex> lock;
    if (launch) lock = std::unique_lock<std::mutex>(detail::host_launch_mutex());
    if (host_path_ == HostPath::kQuickScorer)
      predict_quickscorer(space, plan, f, host_splits(), *quickscorer_, X, base_margin, out, launch);
    else
      predict_host_block(space, plan, f, host_splits(), X, base_margin, out, launch);
    return true;
  }

  ExecutionSpace space_;
  HostPath host_path_ = HostPath::kBlock;
  HostIsa host_isa_ = best_host_isa();
  HostSplitArrays host_splits_;
  std::string quickscorer_refusal_ = "a device execution space";
  /// QuickScorer's tables (host spaces, once set_host_path(kQuickScorer) built them; shared by copies).
  std::shared_ptr<QuickScorerForest const> quickscorer_;
  Model model_;
  PredictorConfig config_;
  bool tune_ = false;
  std::uint64_t fingerprint_ = 0;  ///< forest_fingerprint of the standard layout (tune-store keys)
  OutputTransform transform_ = OutputTransform::kIdentity;
  ForestArrays<memory_space> forest_;
  Kokkos::View<const float*, memory_space> base_score_;
  double upload_seconds_ = 0;
  int n_dense_ = 0, n_compact_ = 0;
  /// predict_pairs' leaf words, per execution-space instance (shared by copies of this Predictor).
  std::shared_ptr<PairWordBuffers<memory_space>> pair_words_ = std::make_shared<PairWordBuffers<memory_space>>();
  /// The layered layouts used so far, and the tuned choices (shared by copies of this Predictor).
  std::shared_ptr<detail::LayeredForests<memory_space>> layered_ = std::make_shared<detail::LayeredForests<memory_space>>();
  std::shared_ptr<PredictTuneState> tune_state_;
};

}  // namespace kboost
