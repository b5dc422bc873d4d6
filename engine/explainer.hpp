#pragma once
/// \file explainer.hpp
/// kboost::Explainer: SHAP values of an XGBoost model on any Kokkos backend, from Views, with
/// upstream XGBoost 3.2's CPU results (Booster.predict with pred_contribs, approx_contribs,
/// pred_interactions; src/predictor/treeshap.cc, src/predictor/cpu_predictor.cc). The bytes are the
/// same on every backend (kernels/tree_shap.hpp); docs/explain.md has the agreement with upstream.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include <kboost/core/device_memory.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/engine/predictor.hpp>
#include <kboost/io/model_reader.hpp>
#include <kboost/kernels/shap_layout.hpp>
#include <kboost/kernels/shap_paths.hpp>
#include <kboost/kernels/tree_shap.hpp>
#include <kboost/kernels/tree_shap_paths.hpp>

namespace kboost {

/// Which TreeSHAP kernel computes contributions; both give the same bytes (upstream's CPU values).
enum class ShapKernel {
  kAuto,          ///< per-row on host backends, path-parallel on device backends (trees up to kShapPathMaxDepth)
  kPerRow,        ///< kernels/tree_shap.hpp: one thread per row walks every tree
  kPathParallel,  ///< kernels/tree_shap_paths.hpp: one thread per (row, root-to-leaf path), then ordered sums
};

/// Options of one SHAP call (upstream's Booster.predict arguments of the same names, and the kernel).
struct ShapOptions {
  /// Saabas' approximation (each split credits its feature with the change of the subtree mean)
  /// instead of path-dependent TreeSHAP.
  bool approx_contribs = false;
  int iteration_begin = 0;  ///< must be 0: upstream explains only rounds [0, iteration_end)
  int iteration_end = 0;    ///< one past the last round; 0 = all rounds
  float missing = std::numeric_limits<float>::quiet_NaN();  ///< value treated as missing (NaN always is)
  /// TreeSHAP contributions only: Saabas' approximation and interaction values always run per row
  /// (kAuto does so; kPathParallel with them is refused), as do forests deeper than kShapPathMaxDepth.
  ShapKernel kernel = ShapKernel::kAuto;
};

/// SHAP values for one execution space. Construction flattens and uploads the model once; then each
/// call explains the rows of a View on the Explainer's execution-space instance.
///
/// Shapes (G = output groups: classes or 1; F = the model's num_feature; bias in column F):
///  - contributions: rows × G × (F + 1); a row's values for group g sum to its margin for g (up to
///    float rounding);
///  - interactions: rows × G × (F + 1) × (F + 1); row i of a group sums to contribution i.
/// Values are in margin units (before the objective's transform). Thread safety as Predictor.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
class Explainer {
 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using const_matrix_type = Kokkos::View<const float**, Kokkos::LayoutRight, memory_space>;
  using contributions_type = Kokkos::View<float***, Kokkos::LayoutRight, memory_space>;
  using interactions_type = Kokkos::View<float****, Kokkos::LayoutRight, memory_space>;

  /// \throws std::runtime_error for an invalid model, an unknown objective or vector-leaf trees
  /// (multi_strategy=multi_output_tree, for which upstream has no SHAP values either).
  explicit Explainer(Model model, ExecutionSpace const& space = ExecutionSpace()) : space_(space), model_(std::move(model)) {
    validate_model(model_, "model");
    HostShapForest h = flatten_shap_forest(model_);
    forest_ = upload_shap_forest<memory_space>(h);
    base_score_ = detail::upload<memory_space>("kboost::shap::base_score",
                                               base_margin_from_score(model_.objective, model_.base_score));
  }
  /// From an XGBoost JSON/UBJSON file (io/model_reader.hpp read_model).
  explicit Explainer(std::string const& model_path, ExecutionSpace const& space = ExecutionSpace())
      : Explainer(read_model(model_path), space) {}

  Model const& model() const { return model_; }
  /// Bounds the scratch memory of one call (default 256 MiB). Per row: the per-row kernel's path
  /// buffers, frames and per-tree values take about 1 KiB at depth 8; the path-parallel kernel's
  /// terms, visit order and values 4 bytes per term, leaf and split feature of each tree at once.
  /// Larger inputs run as several launches over row (and tree) chunks. The values do not depend on it.
  void set_scratch_limit(std::size_t bytes) { scratch_limit_ = bytes; }
  int groups() const { return model_.num_outputs(); }
  int columns() const { return model_.num_feature + 1; }

  /// Contributions of X (rows × F, NaN or opt.missing = missing) into a new rows × G × (F + 1) View.
  /// `base_margin` (rows × G, optional) replaces the base score in the bias column, as upstream.
  /// \throws std::runtime_error on a feature-count or shape mismatch or an iteration range that does
  /// not start at 0.
  contributions_type contributions(const_matrix_type X, ShapOptions const& opt = {}, const_matrix_type base_margin = {}) const {
    auto out = allocate_view<contributions_type>("kboost::shap::contributions", false, X.extent(0),
                                                 static_cast<std::size_t>(groups()), static_cast<std::size_t>(columns()));
    contributions_into(X, out, opt, base_margin);
    return out;
  }

  /// As contributions() into a caller-owned rows × G × (F + 1) View (asynchronous on devices).
  void contributions_into(const_matrix_type X, contributions_type out, ShapOptions const& opt = {},
                          const_matrix_type base_margin = {}) const {
    if (out.extent(0) != X.extent(0) || static_cast<int>(out.extent(1)) != groups() ||
        static_cast<int>(out.extent(2)) != columns())
      throw std::runtime_error("contributions: output must be " + std::to_string(X.extent(0)) + " x " +
                               std::to_string(groups()) + " x " + std::to_string(columns()));
    if (path_parallel(opt, false)) {
      run_paths(X, opt, base_margin, out);
      return;
    }
    run(X, opt, base_margin, false, [&](auto const& f, auto const& ws, int row0, int n) {
      shap_contributions(space_, f, X, base_margin, opt.approx_contribs, ws, row0, n, out);
    });
  }

  /// Interaction values of X into a new rows × G × (F + 1) × (F + 1) View (same errors).
  interactions_type interactions(const_matrix_type X, ShapOptions const& opt = {}, const_matrix_type base_margin = {}) const {
    auto out = allocate_view<interactions_type>("kboost::shap::interactions", false, X.extent(0),
                                                static_cast<std::size_t>(groups()), static_cast<std::size_t>(columns()),
                                                static_cast<std::size_t>(columns()));
    interactions_into(X, out, opt, base_margin);
    return out;
  }

  /// As interactions() into a caller-owned View.
  void interactions_into(const_matrix_type X, interactions_type out, ShapOptions const& opt = {},
                         const_matrix_type base_margin = {}) const {
    if (out.extent(0) != X.extent(0) || static_cast<int>(out.extent(1)) != groups() ||
        static_cast<int>(out.extent(2)) != columns() || static_cast<int>(out.extent(3)) != columns())
      throw std::runtime_error("interactions: output must be " + std::to_string(X.extent(0)) + " x " +
                               std::to_string(groups()) + " x " + std::to_string(columns()) + " x " +
                               std::to_string(columns()));
    path_parallel(opt, true);
    run(X, opt, base_margin, true, [&](auto const& f, auto const& ws, int row0, int n) {
      shap_interactions(space_, f, X, base_margin, opt.approx_contribs, ws, row0, n, out);
    });
  }

 private:
  static constexpr bool host_space = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;

  /// Whether this call's contributions take the path-parallel kernel (opt.kernel, resolved).
  /// \throws std::runtime_error for kPathParallel with approx_contribs, interactions or trees deeper
  /// than kShapPathMaxDepth, which that kernel does not compute.
  bool path_parallel(ShapOptions const& opt, bool interactions) const {
    bool const possible = !opt.approx_contribs && !interactions && forest_.max_depth <= kShapPathMaxDepth;
    if (opt.kernel == ShapKernel::kPathParallel && !possible) {
      std::string const asked = interactions           ? "interaction values"
                                : opt.approx_contribs ? "approx_contribs"
                                                      : "trees of depth " + std::to_string(forest_.max_depth);
      throw std::runtime_error("SHAP values: the path-parallel kernel computes TreeSHAP contributions of trees up to depth " +
                               std::to_string(kShapPathMaxDepth) + " only; this call asks for " + asked);
    }
    if (opt.kernel == ShapKernel::kAuto) return possible && !host_space;
    return opt.kernel == ShapKernel::kPathParallel;
  }

  /// Checks the call and returns the forest handle for its trees.
  ShapForest<memory_space> checked_forest(const_matrix_type X, ShapOptions const& opt, const_matrix_type base_margin) const {
    if (model_.num_feature > 0 && static_cast<int>(X.extent(1)) != model_.num_feature)
      throw std::runtime_error("SHAP values: input has " + std::to_string(X.extent(1)) + " features, the model expects " +
                               std::to_string(model_.num_feature));
    if (base_margin.extent(0) != 0 &&
        (base_margin.extent(0) != X.extent(0) || static_cast<int>(base_margin.extent(1)) != groups()))
      throw std::runtime_error("SHAP values: base_margin must be rows x " + std::to_string(groups()));
    auto const range = tree_range(model_, opt.iteration_begin, opt.iteration_end);
    if (range.first != 0)
      throw std::runtime_error("SHAP values: iteration_range must start at 0 (upstream explains rounds [0, end) only); got [" +
                               std::to_string(opt.iteration_begin) + ", " + std::to_string(opt.iteration_end) + ")");
    ShapForest<memory_space> f;
    f.nodes.data = forest_.nodes.data();
    f.cat_begin.data = forest_.cat_begin.data();
    f.cat_words.data = forest_.cat_words.data();
    f.cat_bits.data = forest_.cat_bits.data();
    f.tree_begin.data = forest_.tree_begin.data();
    f.tree_group.data = forest_.tree_group.data();
    f.tree_features_begin.data = forest_.tree_features_begin.data();
    f.tree_features.data = forest_.tree_features.data();
    f.tree_weight.data = forest_.tree_weight.extent(0) > 0 ? forest_.tree_weight.data() : nullptr;
    f.base_margin.data = base_score_.data();
    f.n_trees = range.second;
    f.n_features = model_.num_feature;
    f.n_groups = groups();
    f.missing = opt.missing;
    return f;
  }

  /// Checks the call, then runs `launch(forest, workspace, row0, n)` over row chunks whose scratch
  /// stays within scratch_limit_ (at least one row per chunk).
  template <class Launch>
  void run(const_matrix_type X, ShapOptions const& opt, const_matrix_type base_margin, bool interactions,
           Launch&& launch) const {
    ShapForest<memory_space> const f = checked_forest(X, opt, base_margin);
    int const n_rows = static_cast<int>(X.extent(0));
    if (n_rows == 0) return;
    std::size_t const per_row = ShapWorkspace<ExecutionSpace>::bytes_per_row(forest_.max_depth, f.n_features, f.n_groups, interactions);
    int const chunk = static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(n_rows),
                                                                                        scratch_limit_ / per_row)));
    std::unique_lock<std::mutex> lock;
    if (host_space) lock = std::unique_lock<std::mutex>(detail::host_launch_mutex());
    ShapWorkspace<ExecutionSpace> const ws(chunk, forest_.max_depth, f.n_features, f.n_groups, interactions);
    for (int row0 = 0; row0 < n_rows; row0 += chunk) launch(f, ws, row0, std::min(chunk, n_rows - row0));
    // The workspace is freed on return: the kernels must be done with it.
    space_.fence();
  }

  /// The forest's root-to-leaf paths, extracted and uploaded on the first path-parallel call.
  struct PathState {
    std::once_flag once;
    HostShapPaths host;  ///< the per-tree and per-path offsets (steps and terms dropped after upload)
    std::vector<std::int32_t> tree_features_begin;
    ShapPathArrays<memory_space> arrays;
  };

  PathState const& paths() const {
    std::call_once(paths_->once, [&] {
      HostShapForest const h = flatten_shap_forest(model_);
      paths_->host = extract_shap_paths(h);
      paths_->arrays = upload_shap_paths<memory_space>(paths_->host);
      paths_->tree_features_begin = h.tree_features_begin;
      HostShapPaths offsets;  // what chunk planning reads
      offsets.tree_path_begin = std::move(paths_->host.tree_path_begin);
      offsets.term_begin = std::move(paths_->host.term_begin);
      paths_->host = std::move(offsets);
    });
    return *paths_;
  }

  /// Path-parallel contributions (kernels/tree_shap_paths.hpp) over row and tree chunks whose
  /// scratch stays within scratch_limit_.
  void run_paths(const_matrix_type X, ShapOptions const& opt, const_matrix_type base_margin, contributions_type out) const {
    ShapForest<memory_space> const f = checked_forest(X, opt, base_margin);
    int const n_rows = static_cast<int>(X.extent(0));
    if (n_rows == 0) return;
    PathState const& p = paths();
    ShapPathForest pf;
    pf.tree_path_begin.data = p.arrays.tree_path_begin.data();
    pf.path_tree.data = p.arrays.path_tree.data();
    pf.step_begin.data = p.arrays.step_begin.data();
    pf.term_begin.data = p.arrays.term_begin.data();
    pf.term_column.data = p.arrays.term_column.data();
    pf.column_tree.data = p.arrays.column_tree.data();
    pf.steps.data = p.arrays.steps.data();
    pf.column_mask.data = p.arrays.column_mask.data();
    ShapPathPlan const plan = plan_shap_paths(p.host, p.tree_features_begin, f.n_trees, n_rows, scratch_limit_);
    std::unique_lock<std::mutex> lock;
    if (host_space) lock = std::unique_lock<std::mutex>(detail::host_launch_mutex());
    ShapPathWorkspace<ExecutionSpace> const ws(plan);
    for (int row0 = 0; row0 < n_rows; row0 += plan.rows)
      shap_contributions_by_paths(space_, f, pf, X, base_margin, ws, plan.chunks, row0, std::min(plan.rows, n_rows - row0), out);
    space_.fence();
  }

  ExecutionSpace space_;
  Model model_;
  ShapForestArrays<memory_space> forest_;
  Kokkos::View<const float*, memory_space> base_score_;
  std::size_t scratch_limit_ = std::size_t{256} << 20;
  std::shared_ptr<PathState> paths_ = std::make_shared<PathState>();
};

}  // namespace kboost
