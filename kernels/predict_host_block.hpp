#pragma once
/// \file predict_host_block.hpp
/// Host-only batch prediction (Serial, OpenMP): rows in blocks, each block walked tree after tree,
/// dense numeric trees level by level over the whole block (the block's rows step together, one
/// branch-free step per level, in SIMD where the CPU has it: walk_host_lanes over the pool's packed
/// split arrays, kernels/host_walk.hpp), every other tree row by row
/// through traverse_tree; each tree's leaves are added to the block's accumulators as soon as the
/// tree is walked. For every row that is base margin, tree 0, 1, 2, ... in float32, each tree to its
/// output column, DART leaves as (0 + leaf) · weight_drop: the float operations and order of
/// upstream XGBoost 3.2's CPU predictor (src/predictor/cpu_predictor.cc PredValueByOneTree and its
/// array_tree_layout.h level-synchronous walk of a block of rows; src/gbm/gbtree.cc
/// Dart::PredictBatchImpl), so the bits equal the team kernel's (kernels/predict_kernel.hpp) and
/// device_forest.hpp's per-row predict. Blocks are independent: results depend on neither the block
/// size nor the thread count.
///
/// A batch of one block runs on the calling thread (no parallel region: nothing to share, and the
/// thread pool's start and join would cost more than the block); larger batches are one
/// RangePolicy over blocks on the caller's host execution space. Scalar-leaf values only: pred_leaf
/// and vector-leaf models keep predict_forest.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <kboost/core/compat.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/kernels/device_forest.hpp>
#include <kboost/kernels/host_walk.hpp>
#include <kboost/kernels/predict_layout.hpp>
#include <kboost/kernels/split_rule.hpp>

namespace kboost {

/// Most rows of one block (the level-synchronous walk keeps one position per row on the stack).
constexpr int kHostBlockMaxRows = 64;
/// (tree, row) pairs walked side by side (walk_host_lanes): a block's rows times as many
/// consecutive dense numeric trees as fit.
constexpr int kHostBlockLanes = kHostWalkLanes;
/// Accumulator floats of one block (rows × outputs, on the stack); models with more outputs than
/// this keep predict_forest.
constexpr int kHostBlockAccFloats = 4096;
static_assert(kHostBlockMaxRows <= kHostBlockLanes, "a block's rows fill at most one walk's lanes");

/// How predict_host_block cuts a batch: `rows_per_block` rows per block, `blocks` blocks; one block
/// runs on the calling thread (`on_caller`), more launch a parallel region.
struct HostBlockPlan {
  int rows_per_block = kHostBlockMaxRows;
  std::size_t blocks = 0;
  bool on_caller = true;
};

/// Whether predict_host_block serves forest `f` (values of scalar leaves, at most
/// kHostBlockAccFloats outputs); pred_leaf is the caller's to exclude.
template <class MemorySpace>
bool host_block_applies(DeviceForest<MemorySpace> const& f) {
  return !f.vector_leaf && f.n_outputs >= 1 && f.n_outputs <= kHostBlockAccFloats;
}

/// The blocking of `n_rows` rows of a model of `n_outputs` columns over `threads` host threads:
/// kHostBlockMaxRows rows per block (fewer when the outputs' accumulators would not fit, or when
/// there are fewer full blocks than threads, so that every thread gets a block, at least 8 rows).
inline HostBlockPlan plan_host_block(std::size_t n_rows, int n_outputs, int threads) {
  HostBlockPlan plan;
  int const by_outputs = std::max(1, std::min(kHostBlockMaxRows, kHostBlockAccFloats / std::max(n_outputs, 1)));
  std::size_t rows = static_cast<std::size_t>(by_outputs);
  std::size_t const t = static_cast<std::size_t>(std::max(threads, 1));
  if (n_rows > rows && n_rows < rows * t) rows = std::min(rows, std::max<std::size_t>(8, (n_rows + t - 1) / t));
  plan.rows_per_block = static_cast<int>(rows);
  plan.blocks = (n_rows + rows - 1) / rows;
  plan.on_caller = plan.blocks <= 1;
  return plan;
}

namespace detail {
/// Row r of a block as an accessor x(feature) for traverse_tree: element (r, f) of a strided matrix.
struct StridedRow {
  float const* row;
  std::ptrdiff_t feature_stride;
  KOKKOS_INLINE_FUNCTION float operator()(int f) const { return row[f * feature_stride]; }
};

/// predict_host_block's work for one block: rows [block · rows_per_block, + rows_per_block).
/// Accumulators are output-major (acc[g · rows_per_block + r]) so that a tree's leaves are added to
/// consecutive floats. Consecutive dense numeric trees are walked together, as many as fill
/// kHostBlockLanes lanes with the block's rows (a small block walks many trees side by side, a full
/// one walks one tree), by walk_host_lanes over `splits`, then added in tree order; other trees, and
/// every tree when a block's reads do not fit the walk's int32 offsets (`lanes_fit` false), are
/// walked row by row (traverse_tree).
template <class MemorySpace, class XView, class OutView>
struct HostBlockPredict {
  DeviceForest<MemorySpace> f;
  HostSplits splits;
  XView X;
  Kokkos::View<const float**, Kokkos::LayoutRight, MemorySpace> base_margin;  ///< extent 0: f.base_margin
  OutView out;
  std::ptrdiff_t row_stride, feature_stride;
  int n_rows, rows_per_block;
  bool lanes_fit;

  void operator()(std::size_t block) const {
    int const row0 = static_cast<int>(block) * rows_per_block;
    int const nr = std::min(rows_per_block, n_rows - row0);
    float acc[kHostBlockAccFloats];
    start(row0, nr, acc);
    float const* x = X.data() + row0 * row_stride;
    int const trees_per_walk = std::max(1, kHostBlockLanes / nr);
    HostWalkLanes lanes;
    for (int l = 0; l < kHostWalkLanes; ++l) lanes.row_offset[l] = static_cast<std::int32_t>((l % nr) * row_stride);
    for (int t = f.first_tree; t < f.last_tree;) {
      if (f.tree_dense(t) < 2 || !lanes_fit) {
        add_tree_by_rows(t, nr, x, acc);
        ++t;
        continue;
      }
      int const t_end = gather_lanes(t, std::min(f.last_tree, t + trees_per_walk), nr, lanes);
      walk_host_lanes(splits, x, static_cast<std::int32_t>(feature_stride), f.missing, lanes);
      add_lanes(t, t_end, nr, lanes, acc);
      t = t_end;
    }
    finish(row0, nr, acc);
  }

  /// Accumulators at the rows' base margins.
  void start(int row0, int nr, float* acc) const {
    bool const per_row = base_margin.extent(0) > 0;
    for (int g = 0; g < f.n_outputs; ++g)
      for (int r = 0; r < nr; ++r) acc[g * rows_per_block + r] = per_row ? base_margin(row0 + r, g) : f.base_margin(g);
  }

  /// Lanes for the dense numeric trees from t0 (at most up to `t_max`, stopping at the first other
  /// tree) × the block's nr rows (lane l reads row l mod nr: row_offset, set once per block); returns
  /// one past the last tree taken.
  int gather_lanes(int t0, int t_max, int nr, HostWalkLanes& lanes) const {
    lanes.n = 0;
    lanes.max_depth = 0;
    int t = t0;
    for (; t < t_max && f.tree_dense(t) >= 2; ++t) {
      int const depth = f.tree_dense(t) - 2;
      lanes.max_depth = std::max(lanes.max_depth, depth);
      std::int32_t const base = f.tree_begin(t);
      for (int r = 0; r < nr; ++r) {
        lanes.base[lanes.n + r] = base;
        lanes.depth[lanes.n + r] = depth;
      }
      lanes.n += nr;
    }
    return t;
  }

  /// The leaves of trees [t0, t1) (walked lanes) added in tree order to the rows' accumulators:
  /// scalar_leaf's value and DART weighting, the leaf read from the packed thresholds (the same
  /// float as the node's value).
  void add_lanes(int t0, int t1, int nr, HostWalkLanes const& lanes, float* acc) const {
    for (int t = t0; t < t1; ++t) {
      float* a = acc + f.tree_group(t) * rows_per_block;
      float const* leaf = splits.threshold + f.tree_begin(t);
      std::int32_t const* pos = lanes.pos + (t - t0) * nr;
      if (f.tree_weight.data != nullptr) {
        float const w = f.tree_weight(t);
        for (int r = 0; r < nr; ++r) a[r] += (0.0f + leaf[pos[r]]) * w;
      } else {
        for (int r = 0; r < nr; ++r) a[r] += leaf[pos[r]];
      }
    }
  }

  /// Tree t (compact or categorical) walked row by row, its leaves added to the rows' accumulators.
  void add_tree_by_rows(int t, int nr, float const* x, float* acc) const {
    float* a = acc + f.tree_group(t) * rows_per_block;
    for (int r = 0; r < nr; ++r)
      a[r] += scalar_leaf(f, t, traverse_tree(f, t, StridedRow{x + r * row_stride, feature_stride}, f.missing));
  }

  /// Output j of a block row's accumulators (acc[j * stride]), for apply_transform.
  struct AccRow {
    float* acc;
    int stride;
    KOKKOS_INLINE_FUNCTION float& operator()(int j) const { return acc[j * stride]; }
  };
  /// Output j of row `row` of `out`, for apply_transform.
  struct OutRow {
    OutView const* out;  // (a pointer: no View copy, so no reference count, per row)
    int row;
    KOKKOS_INLINE_FUNCTION float& operator()(int j) const { return (*out)(row, j); }
  };

  /// The rows' margins through the forest's transform into `out`.
  void finish(int row0, int nr, float* acc) const {
    for (int r = 0; r < nr; ++r)
      apply_transform(f.transform, f.n_outputs, AccRow{acc + r, rows_per_block}, OutRow{&out, row0 + r});
  }
};
}  // namespace detail

namespace detail {
/// predict_host_block's checks of its arguments (see there).
inline void check_host_block_args(HostBlockPlan const& plan, int n_outputs, HostSplits const& splits, std::size_t rows) {
  if (plan.rows_per_block < 1 || plan.rows_per_block > kHostBlockMaxRows || plan.rows_per_block * n_outputs > kHostBlockAccFloats ||
      plan.blocks * static_cast<std::size_t>(plan.rows_per_block) < rows)
    throw std::invalid_argument("predict_host_block: a plan of " + std::to_string(plan.blocks) + " blocks of " +
                                std::to_string(plan.rows_per_block) + " rows cannot serve " + std::to_string(rows) +
                                " rows of " + std::to_string(n_outputs) + " outputs (at most " +
                                std::to_string(kHostBlockMaxRows) + " rows and " + std::to_string(kHostBlockAccFloats) +
                                " accumulators per block)");
  if (splits.threshold == nullptr || splits.key == nullptr)
    throw std::invalid_argument("predict_host_block: no split arrays (pack_host_splits of the forest's pool)");
  if (!host_isa_supported(splits.isa))
    throw std::invalid_argument("predict_host_block: this CPU or build cannot run the " + host_isa_name(splits.isa) +
                                " walk");
}

/// Runs body(b) for every block b of `plan`: all on the calling thread for a plan of one block or when
/// `may_launch` is false, else one parallel_for over the blocks on `space` labelled `label` (inside a
/// profiling region of the same name).
template <class ExecutionSpace, class Body>
void run_host_blocks(ExecutionSpace const& space, HostBlockPlan const& plan, Body const& body, bool may_launch,
                     std::string const& label) {
  if (plan.on_caller || !may_launch) {
    for (std::size_t b = 0; b < plan.blocks; ++b) body(b);
    return;
  }
  compat::ScopedRegion region(label);
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, plan.blocks), body);
}

/// Whether every read of a block (rows_per_block rows, n_features features at the strides) has an
/// offset that fits walk_host_lanes' int32 indices.
inline bool host_lanes_fit(int rows_per_block, std::size_t n_features, std::ptrdiff_t row_stride,
                           std::ptrdiff_t feature_stride) {
  double const last = static_cast<double>(rows_per_block - 1) * static_cast<double>(row_stride) +
                      static_cast<double>(n_features > 0 ? n_features - 1 : 0) * static_cast<double>(feature_stride);
  return last <= 2147483647.0;
}
}  // namespace detail

/// Predict the rows of X (host memory, rows × features ≥ f.n_features; LayoutRight, LayoutLeft or
/// LayoutStride) with the scalar-leaf forest `f` (host_block_applies) into `out` (rows ×
/// f.output_columns(), any layout): margins when f.transform is kIdentity, else transformed outputs.
/// `base_margin`: rows × n_outputs initial margins, or extent 0 for f.base_margin. `splits`: the
/// forest pool's pack_host_splits and the ISA that walks them. `plan` from plan_host_block. A plan of one block, or `may_launch` false (a thread the backend does not take
/// launches from), runs every block on the calling thread; otherwise one parallel_for over the
/// blocks on `space`, label "kboost::predict::host_block" (the caller serialises host launches).
/// Bit-identical to predict_forest and to upstream XGBoost 3.2's CPU predict.
/// \throws std::invalid_argument for a plan whose blocks hold more than kHostBlockMaxRows rows or
/// kHostBlockAccFloats accumulators, or do not cover X's rows; for missing split arrays, or an ISA
/// this CPU or build cannot run (host_isa_supported).
template <class ExecutionSpace, class MemorySpace, class XView, class OutView>
void predict_host_block(ExecutionSpace const& space, HostBlockPlan const& plan, DeviceForest<MemorySpace> const& f,
                        HostSplits const& splits, XView const& X, Kokkos::View<const float**, Kokkos::LayoutRight, MemorySpace> base_margin,
                        OutView const& out, bool may_launch) {
  static_assert(XView::rank == 2 && OutView::rank == 2, "X and out are rows x columns Views");
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible,
                "predict_host_block reads the forest and X on the host");
  if (X.extent(0) == 0) return;
  detail::check_host_block_args(plan, f.n_outputs, splits, X.extent(0));
  std::size_t strides[3];
  X.stride(strides);
  detail::HostBlockPredict<MemorySpace, XView, OutView> body{
      f,
      splits,
      X,
      base_margin,
      out,
      static_cast<std::ptrdiff_t>(strides[0]),
      static_cast<std::ptrdiff_t>(strides[1]),
      static_cast<int>(X.extent(0)),
      plan.rows_per_block,
      detail::host_lanes_fit(plan.rows_per_block, X.extent(1), static_cast<std::ptrdiff_t>(strides[0]),
                             static_cast<std::ptrdiff_t>(strides[1]))};
  detail::run_host_blocks(space, plan, body, may_launch, "kboost::predict::host_block");
}

}  // namespace kboost
