#pragma once
/// \file sketch.hpp
/// Computing the HistogramCuts (kernels/hist_cuts.hpp) of a training matrix, once per fit, with
/// `sketch_method = upstream_cpu` (the default; exact_quantile: engine/detail/exact_sketch.hpp).
///
/// Algorithm: upstream's CPU hist path (common::SketchOnDMatrix -> HostSketchContainer,
/// src/common/quantile.{h,cc}: WQuantileSketch per feature with rows pushed in order, AllReduce
/// prune to 8*max_bin, MakeCuts prune to max_bin+1, AddCutPoint), replicated on the host in float
/// like upstream's WQSummary. Features with <= max_bin distinct values get one bin per distinct
/// value (exactly upstream); verified bit for bit against xgboost 3.2's CPU cuts also for features
/// with more distinct values (tests/tst_cuts.hpp). Each feature is sketched sequentially on the host
/// (features spread over std::threads), so the result is independent of backend and thread count.
/// On several ranks (core/collective.hpp), each holding a shard of the rows in global row order,
/// feature f's values are sent to rank f mod ranks, which appends the shards in rank order (the
/// global row order) and sketches the whole column exactly as one process would; the cuts are then
/// shared. So the cuts are the same bits on any number of ranks, and upstream's CPU cuts.
/// Definitions of the per-feature sketch: engine/detail/sketch.cpp.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <kboost/core/collective.hpp>
#include <kboost/core/compat.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/hist_cuts.hpp>

namespace kboost {

/// Host cuts of one feature (the sketch itself; exposed for tests).
struct FeatureCuts {
  std::vector<float> values;  ///< increasing cuts, last = sentinel
  float min_val = 0;
};

/// Upstream's CPU sketch of one feature: `values`/`weights` are the non-missing entries in row
/// order (weights empty = all 1). Deterministic. Throws std::runtime_error if max_bin < 2.
FeatureCuts sketch_feature(std::vector<float> const& values, std::vector<float> const& weights, int max_bin);

/// The same on n values at `values` with weights at `weights` (nullptr = all 1).
FeatureCuts sketch_feature(float const* values, float const* weights, std::size_t n, int max_bin);

/// Cuts of one feature from its pruned summary `a` (increasing distinct values, at least one), as
/// upstream's SketchContainerImpl::MakeCuts + AddCutPoint (src/common/quantile.cc): cuts
/// a[1 .. min(|a|, max_num_bins)) without repeats, then a sentinel above a's last value; min_val
/// below a[0]. Throws std::runtime_error if `a` is empty.
FeatureCuts cuts_from_summary(std::vector<float> const& a, std::size_t max_num_bins);

/// The cuts of an empty (all-missing) feature, as upstream's.
FeatureCuts empty_feature_cuts();

/// Cuts of a categorical feature from its n non-missing values (valid categories: integers in
/// [0, 2^24), checked by the caller): 0, 1, …, the largest category, min_val 0, as upstream's
/// AddCategories (src/common/quantile.cc); an all-missing feature gets the single cut 0.
FeatureCuts categorical_feature_cuts(float const* values, std::size_t n);

/// HistogramCuts in memory space `Mem` holding `per_feature` in order (ptrs, values, min_vals);
/// `categorical` (features, or empty when no feature is) marks the categorical features.
template <class Mem, class ExecutionSpace>
HistogramCuts<Mem> assemble_cuts(ExecutionSpace const& space, std::vector<FeatureCuts> const& per_feature,
                                 std::vector<std::uint8_t> const& categorical = {}) {
  std::size_t const features = per_feature.size();
  std::vector<std::uint32_t> ptrs(features + 1, 0);
  std::vector<float> values, mins(features);
  for (std::size_t f = 0; f < features; ++f) {
    values.insert(values.end(), per_feature[f].values.begin(), per_feature[f].values.end());
    ptrs[f + 1] = static_cast<std::uint32_t>(values.size());
    mins[f] = per_feature[f].min_val;
  }
  HistogramCuts<Mem> cuts;
  cuts.ptrs = Kokkos::View<std::uint32_t*, Mem>("kboost::HistogramCuts::ptrs", features + 1);
  cuts.values = Kokkos::View<float*, Mem>("kboost::HistogramCuts::values", values.size());
  cuts.min_vals = Kokkos::View<float*, Mem>("kboost::HistogramCuts::min_vals", features);
  counted_deep_copy(cuts.ptrs, Kokkos::View<std::uint32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(ptrs.data(), ptrs.size()));
  counted_deep_copy(cuts.values, Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(values.data(), values.size()));
  counted_deep_copy(cuts.min_vals, Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(mins.data(), mins.size()));
  space.fence();
  cuts.total_bins = static_cast<std::uint32_t>(values.size());
  cuts.host_ptrs = std::move(ptrs);
  if (std::find(categorical.begin(), categorical.end(), std::uint8_t{1}) != categorical.end()) {
    if (categorical.size() != features)
      throw std::runtime_error("assemble_cuts: " + std::to_string(categorical.size()) + " feature kinds for " +
                               std::to_string(features) + " features");
    cuts.categorical = Kokkos::View<std::uint8_t*, Mem>("kboost::HistogramCuts::categorical", features);
    counted_deep_copy(cuts.categorical, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                            categorical.data(), features));
    space.fence();
    cuts.host_categorical = categorical;
  }
  return cuts;
}

namespace detail {

/// Host columns: column f is values[begin[f] .. begin[f + 1]) with weights at the same positions
/// of `weights` (empty: all 1).
struct HostColumns {
  std::vector<std::size_t> begin;
  std::vector<float> values, weights;
};

/// The columns this rank sketches (features f with f mod ranks == rank, in order) over the job's
/// rows: every rank sends its shard of such a column to the owner, which appends the shards in
/// rank order. `local` holds this rank's shard of every feature. Weighted when any rank is.
HostColumns exchange_columns(Collective& comm, HostColumns const& local, std::size_t features, bool weighted);

/// Every feature's cuts on every rank, from the cuts each rank made for the features it owns.
std::vector<FeatureCuts> share_cuts(Collective& comm, std::vector<FeatureCuts> const& owned, std::size_t features);

/// Throws std::runtime_error when the weights (`weights` entries) are neither absent (0) nor one per
/// row, or when max_bin < 2.
inline void check_sketch_inputs(std::size_t rows, std::size_t weights, int max_bin) {
  if (weights != 0 && weights != rows) {
    throw std::runtime_error("sketch_cuts: weight has " + std::to_string(weights) + " entries for " +
                             std::to_string(rows) + " rows");
  }
  if (max_bin < 2) {
    throw std::runtime_error("sketch_cuts: max_bin must be at least 2, got " + std::to_string(max_bin));
  }
}

/// Threads the host's sketch tasks use: the host execution space's (OpenMP: the thread count Kokkos
/// was started with, i.e. nthread / OMP_NUM_THREADS); a Serial host space, as device builds have,
/// the machine's cores.
inline std::size_t host_task_threads() {
#if defined(KOKKOS_ENABLE_SERIAL)
  if (std::is_same<Kokkos::DefaultHostExecutionSpace, Kokkos::Serial>::value)
    return std::max<std::size_t>(1, std::thread::hardware_concurrency());
#endif
  return static_cast<std::size_t>(std::max(1, compat::concurrency(Kokkos::DefaultHostExecutionSpace())));
}

/// Runs task(t) once for every t in [0, n_tasks) on up to host_task_threads() std::threads (this
/// one included), tasks taken in turn from a shared counter. std::thread rather than a Kokkos host
/// policy: device builds often have a Serial host space (the CUDA build here), and the sketch is
/// most of a GPU fit's time.
template <class Task>
void run_on_host_threads(std::size_t n_tasks, Task const& task) {
  std::size_t const n_threads = host_task_threads();
  std::atomic<std::size_t> next{0};
  auto worker = [&]() {
    for (std::size_t t = next++; t < n_tasks; t = next++) task(t);
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < std::min(n_threads, n_tasks); ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

/// Rows per gather task: each thread streams its row blocks once.
constexpr std::size_t kSketchRowBlock = 16384;

/// Each row block's non-missing values per feature: count[b * features + f] for row block b
/// (kSketchRowBlock rows) and feature f, n_blocks * features + 1 entries (the last one 0).
template <class RowValues>
std::vector<std::size_t> count_block_values(std::size_t rows, std::size_t features, std::size_t n_blocks,
                                            RowValues const& row_values) {
  std::vector<std::size_t> count(n_blocks * features + 1, 0);
  run_on_host_threads(n_blocks, [&](std::size_t b) {
    std::size_t* const c = count.data() + b * features;
    for (std::size_t i = b * kSketchRowBlock; i < std::min(rows, (b + 1) * kSketchRowBlock); ++i)
      row_values(i, [c](std::size_t f, float) { ++c[f]; });
  });
  return count;
}

/// The features' rows gathered into compacted columns: column f is values[begin[f] .. begin[f + 1]),
/// in row order, with each value's row weight at the same position of `weights` (null: unweighted).
struct GatheredColumns {
  std::vector<std::size_t> begin;
  std::unique_ptr<float[]> values, weights;
};

/// Where each row block's values of each feature start in the gathered columns: offset[b * features
/// + f] (blocks in row order within each column), and the column starts in `begin` (features + 1).
inline std::vector<std::size_t> block_offsets(std::vector<std::size_t> const& count, std::size_t features,
                                              std::size_t n_blocks, std::vector<std::size_t>& begin) {
  begin.assign(features + 1, 0);
  std::vector<std::size_t> offset(n_blocks * features);
  for (std::size_t f = 0; f < features; ++f) {
    std::size_t o = begin[f];
    for (std::size_t b = 0; b < n_blocks; ++b) {
      offset[b * features + f] = o;
      o += count[b * features + f];
    }
    begin[f + 1] = o;
  }
  return offset;
}

/// The non-missing values of `rows` rows (and their weights `hw`, extent 0 = unweighted) gathered
/// into columns, row blocks in parallel. `block_counts`: count_block_values' result when the caller
/// has it already.
template <class RowValues>
GatheredColumns gather_columns(std::size_t rows, std::size_t features, Kokkos::View<const float*, Kokkos::HostSpace> hw,
                               RowValues const& row_values, std::vector<std::size_t> const* block_counts = nullptr) {
  bool const weighted = hw.extent(0) != 0;
  std::size_t const n_blocks = (rows + kSketchRowBlock - 1) / kSketchRowBlock;
  GatheredColumns cols;
  std::vector<std::size_t> offset =
      block_offsets(block_counts ? *block_counts : count_block_values(rows, features, n_blocks, row_values), features,
                    n_blocks, cols.begin);
  // Not value-initialised: the gather below writes every element, so its threads also share the
  // first-touch page faults of these arrays (rows × features floats) instead of one thread paying them.
  cols.values.reset(new float[cols.begin[features]]);
  if (weighted) cols.weights.reset(new float[cols.begin[features]]);
  float* const values = cols.values.get();
  float* const weights = cols.weights.get();
  run_on_host_threads(n_blocks, [&](std::size_t b) {
    std::size_t* const o = offset.data() + b * features;
    for (std::size_t i = b * kSketchRowBlock; i < std::min(rows, (b + 1) * kSketchRowBlock); ++i) {
      row_values(i, [&](std::size_t f, float v) {
        if (weighted) weights[o[f]] = hw(i);
        values[o[f]++] = v;
      });
    }
  });
  return cols;
}

/// The cuts of feature f from its n values at `v` (weights at `w`, nullptr = all 1): categorical
/// cuts when `categorical` marks f, else upstream's weighted sketch.
inline FeatureCuts feature_cuts(std::size_t f, float const* v, float const* w, std::size_t n, int max_bin,
                                std::vector<std::uint8_t> const& categorical) {
  bool const is_categorical = f < categorical.size() && categorical[f] != 0;
  return is_categorical ? categorical_feature_cuts(v, n) : sketch_feature(v, w, n, max_bin);
}

/// Every feature's cuts from this process's gathered columns (a fit on one rank):
/// column_cuts(f, values, weights or nullptr, n) for each feature f, features on host threads.
template <class ColumnCuts>
std::vector<FeatureCuts> cuts_of_columns(GatheredColumns const& cols, std::size_t features, ColumnCuts const& column_cuts) {
  std::vector<FeatureCuts> per_feature(features);
  run_on_host_threads(features, [&](std::size_t f) {
    float const* const weights = cols.weights ? cols.weights.get() + cols.begin[f] : nullptr;
    per_feature[f] = column_cuts(f, cols.values.get() + cols.begin[f], weights, cols.begin[f + 1] - cols.begin[f]);
  });
  return per_feature;
}

/// Every feature's cuts on every rank of `comm` from each rank's gathered shard of the rows: the
/// owner of a feature makes its cuts from the whole column (exchange_columns, column_cuts as in
/// cuts_of_columns), then the cuts are shared.
template <class ColumnCuts>
std::vector<FeatureCuts> cuts_of_distributed_columns(Collective& comm, GatheredColumns const& cols, std::size_t features,
                                                     ColumnCuts const& column_cuts) {
  HostColumns local;
  local.begin = cols.begin;
  local.values.assign(cols.values.get(), cols.values.get() + cols.begin[features]);
  if (cols.weights) local.weights.assign(cols.weights.get(), cols.weights.get() + cols.begin[features]);
  std::uint64_t any_weighted = cols.weights ? 1 : 0;
  comm.allreduce_max(&any_weighted, 1);
  HostColumns const owned = exchange_columns(comm, local, features, any_weighted != 0);
  std::size_t const n_owned = owned.begin.size() - 1;
  std::vector<FeatureCuts> owned_cuts(n_owned);
  run_on_host_threads(n_owned, [&](std::size_t k) {
    std::size_t const f = static_cast<std::size_t>(comm.rank()) + k * static_cast<std::size_t>(comm.size());
    owned_cuts[k] = column_cuts(f, owned.values.data() + owned.begin[k],
                                owned.weights.empty() ? nullptr : owned.weights.data() + owned.begin[k],
                                owned.begin[k + 1] - owned.begin[k]);
  });
  return share_cuts(comm, owned_cuts, features);
}

/// HistogramCuts from gathered columns: column_cuts as in cuts_of_columns, on this process or, on
/// several ranks, by each feature's owner (cuts_of_distributed_columns).
template <class Mem, class ExecutionSpace, class ColumnCuts>
HistogramCuts<Mem> cuts_from_columns(ExecutionSpace const& space, Collective& comm, GatheredColumns const& cols,
                                     std::size_t features, std::vector<std::uint8_t> const& categorical,
                                     ColumnCuts const& column_cuts) {
  std::vector<FeatureCuts> const per_feature = comm.size() == 1
                                                   ? cuts_of_columns(cols, features, column_cuts)
                                                   : cuts_of_distributed_columns(comm, cols, features, column_cuts);
  return assemble_cuts<Mem>(space, per_feature, categorical);
}

/// The row visitor of a dense host matrix (sketch_host_rows' row_values): row i's non-NaN values.
inline auto dense_row_values(Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace> hX) {
  return [hX](std::size_t i, auto&& add) {
    for (std::size_t f = 0; f < hX.extent(1); ++f) {
      float const v = hX(i, f);
      if (v == v) add(f, v);  // NaN = missing
    }
  };
}

/// The body of sketch_cuts_from_host for any row storage: `row_values(i, add)` calls add(f, v) for
/// each non-missing value v of row i (f: its feature, each at most once per row). Features are
/// independent and each is sketched sequentially over its rows, so spreading the features over host
/// threads does not change any bit: first the rows are gathered into compacted columns, then the
/// columns are sketched.
template <class Mem, class ExecutionSpace, class RowValues>
HistogramCuts<Mem> sketch_host_rows(ExecutionSpace const& space, std::size_t rows, std::size_t features,
                                    Kokkos::View<const float*, Kokkos::HostSpace> hw, int max_bin,
                                    RowValues const& row_values, Collective& comm,
                                    std::vector<std::uint8_t> const& categorical) {
  check_sketch_inputs(rows, hw.extent(0), max_bin);
  GatheredColumns const cols = gather_columns(rows, features, hw, row_values);
  return cuts_from_columns<Mem>(space, comm, cols, features, categorical,
                                [&](std::size_t f, float const* v, float const* w, std::size_t n) {
                                  return feature_cuts(f, v, w, n, max_bin, categorical);
                                });
}

}  // namespace detail

/// Cuts of every column of host matrix hX (rows × features, NaN = missing) with host sample weights
/// `hw` (rows, or extent 0 = all 1), at most `max_bin` bins per feature, returned in memory space
/// `Mem` (upstream CPU hist, see file comment). For callers that hold the data on the host already
/// (training from files): no device-to-host copy. Throws std::runtime_error on max_bin < 2 or a
/// weight extent that is neither 0 nor rows. comm: the ranks of a distributed fit, hX this rank's
/// rows (see the file comment). categorical: features (1 = categorical: categorical_feature_cuts,
/// max_bin does not apply, as upstream), or empty when none is.
template <class Mem, class ExecutionSpace>
HistogramCuts<Mem> sketch_cuts_from_host(ExecutionSpace const& space,
                                         Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace> hX,
                                         Kokkos::View<const float*, Kokkos::HostSpace> hw, int max_bin,
                                         Collective& comm = local_collective(),
                                         std::vector<std::uint8_t> const& categorical = {}) {
  compat::ScopedRegion region("kboost::hist_cuts::sketch_cuts_from_host");
  return detail::sketch_host_rows<Mem>(space, hX.extent(0), hX.extent(1), hw, max_bin, detail::dense_row_values(hX), comm,
                                       categorical);
}

/// sketch_cuts_from_host of a host CSR matrix (rows × n_features: row_map rows + 1 offsets,
/// entries the column of each stored value, values; absent entries and NaN values are missing)
/// without a dense copy: each feature sees the same values in the same row order as in the
/// densified matrix, so the cuts are the same bits. Same errors.
template <class Mem, class ExecutionSpace>
HistogramCuts<Mem> sketch_cuts_from_host_csr(ExecutionSpace const& space,
                                             Kokkos::View<const std::int64_t*, Kokkos::HostSpace> row_map,
                                             Kokkos::View<const std::int32_t*, Kokkos::HostSpace> entries,
                                             Kokkos::View<const float*, Kokkos::HostSpace> values, std::size_t n_features,
                                             Kokkos::View<const float*, Kokkos::HostSpace> hw, int max_bin,
                                             Collective& comm = local_collective(),
                                             std::vector<std::uint8_t> const& categorical = {}) {
  compat::ScopedRegion region("kboost::hist_cuts::sketch_cuts_from_host_csr");
  std::size_t const rows = row_map.extent(0) == 0 ? 0 : row_map.extent(0) - 1;
  return detail::sketch_host_rows<Mem>(space, rows, n_features, hw, max_bin, [&](std::size_t i, auto&& add) {
    for (std::int64_t k = row_map(i); k < row_map(i + 1); ++k) {
      float const v = values(k);
      if (v == v) add(static_cast<std::size_t>(entries(k)), v);
    }
  }, comm, categorical);
}

/// Cuts of every column of X (rows × features, NaN = missing) in memory space `Mem` with sample
/// weights `weight` (rows, or extent 0 = all 1): X is copied to the host (when not host-accessible)
/// and passed to sketch_cuts_from_host. Same errors.
template <class ExecutionSpace, class Mem>
HistogramCuts<Mem> sketch_cuts(ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                               Kokkos::View<const float*, Mem> weight, int max_bin) {
  compat::ScopedRegion region("kboost::hist_cuts::sketch_cuts");
  space.fence();
  auto hX = counted_to_host(X);
  auto hw = counted_to_host(weight);
  return sketch_cuts_from_host<Mem>(space, hX, hw, max_bin);
}

}  // namespace kboost
