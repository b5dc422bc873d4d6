#pragma once
/// \file gpu_sketch.hpp
/// `sketch_method = upstream_gpu`: the HistogramCuts of upstream XGBoost 3.4.1's GPU sketch
/// (common::DeviceSketch, src/common/hist_util.cu: the row-major non-missing values cut into
/// batches of 2^26, each batch's values sorted per feature, pruned to a summary, merged and
/// pruned into the running sketch; SketchContainer::MakeCuts), bit for bit, from host rows.
///
/// Batches are fixed by the job's global value order (rows in order, features in order within a
/// row), never by the rank count: on several ranks each feature's whole column is sketched by
/// one rank (f mod ranks, engine/detail/sketch.hpp's exchange_columns), which cuts it into the
/// batches the global layout names (sketch_batches). So the cuts are the same bits on any number
/// of ranks, thread count and backend, and equal upstream's device=cuda cuts on one GPU (where
/// upstream's own distributed sketch would merge per-worker summaries instead).
/// Numerical features with at most max_bin distinct values get one bin per value; the first bin's
/// split value is -inf (upstream 3.4.1 keeps no minimum values: min_vals are -inf).
/// Per-feature summaries: engine/detail/gpu_summary.hpp.
///
/// Two implementations give the same bits: the host one (gpu_sketch_cuts_from_host: each batch of
/// a feature sorted by a radix sort) for every case, and on the execution space
/// (gpu_sketch_cuts_on_space: exact_quantile's radix selection, kernels/quantile_sketch.hpp,
/// counting only the rank positions upstream's prune keeps, one batch after the other, each batch's
/// summaries merged on the host) for unweighted numerical features on one rank without a value -0,
/// the matrix never copied to the host. (Upstream's sort
/// keeps -0 and +0 in row order and a cut takes the bits of the value at its rank, so -0 needs the
/// row order the counts do not keep.)
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <kboost/core/collective.hpp>
#include <kboost/core/compat.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/engine/detail/exact_sketch.hpp>
#include <kboost/engine/detail/gpu_summary.hpp>
#include <kboost/engine/detail/sketch.hpp>
#include <kboost/kernels/integer_sum.hpp>
#include <kboost/kernels/quantile_sketch.hpp>

#include <optional>

namespace kboost {
namespace detail {

/// Upstream's sketch batches over the job's rows: rows[b] the rows batch b spans (from the row of
/// its first value to the row of its last, at least 1); split[f * (batches + 1) + b] how many of
/// feature f's values (in the job's row order) come before batch b (the last: all of them).
struct SketchBatches {
  std::size_t batches = 0;
  std::vector<std::uint64_t> rows, split;
};

/// Where this rank's values are: `count` (count_block_values: values per row block and feature) and
/// `block_start` (values before each row block, blocks + 1 entries) over `rows` rows. A value
/// position is found through its block and a walk over that block's rows only.
template <class RowValues>
struct ValueLocator {
  std::size_t rows, features;
  RowValues const& row_values;
  std::vector<std::size_t> count;
  std::vector<std::uint64_t> block_start;

  ValueLocator(std::size_t rows_, std::size_t features_, RowValues const& rv)
      : rows(rows_), features(features_), row_values(rv) {
    std::size_t const n_blocks = (rows + kSketchRowBlock - 1) / kSketchRowBlock;
    count = count_block_values(rows, features, n_blocks, row_values);
    block_start.assign(n_blocks + 1, 0);
    for (std::size_t b = 0; b < n_blocks; ++b) {
      std::uint64_t n = 0;
      for (std::size_t f = 0; f < features; ++f) n += count[b * features + f];
      block_start[b + 1] = block_start[b] + n;
    }
  }
  std::uint64_t values() const { return block_start.back(); }

  /// Calls visit(row, position of the row's first value) for the rows of the block holding value
  /// position `at` (< values()) up to the row holding it, and returns that row.
  template <class Visit>
  std::size_t walk_to(std::uint64_t at, Visit const& visit) const {
    auto const block = static_cast<std::size_t>(std::upper_bound(block_start.begin(), block_start.end(), at) -
                                                block_start.begin()) - 1;
    std::uint64_t position = block_start[block];
    for (std::size_t i = block * kSketchRowBlock;; ++i) {
      std::uint64_t n = 0;
      row_values(i, [&](std::size_t, float) { ++n; });
      visit(i, position);
      if (position + n > at) return i;
      position += n;
    }
  }

  /// Feature f's values before value position `at` into out[f] (added).
  void count_before(std::uint64_t at, std::int64_t* out) const {
    if (at >= values()) {
      for (std::size_t k = 0; k < count.size() - 1; ++k) out[k % features] += static_cast<std::int64_t>(count[k]);
      return;
    }
    auto const block = static_cast<std::size_t>(std::upper_bound(block_start.begin(), block_start.end(), at) -
                                                block_start.begin()) - 1;
    for (std::size_t k = 0; k < block * features; ++k) out[k % features] += static_cast<std::int64_t>(count[k]);
    walk_to(at, [&](std::size_t i, std::uint64_t position) {
      row_values(i, [&](std::size_t f, float) {
        if (position++ < at) ++out[f];
      });
    });
  }

  /// The row holding value position `at` plus `first_row` + 1, or 0 when `at` is not this rank's
  /// (for a max-reduction over ranks).
  std::uint64_t row_plus_one(std::uint64_t at, std::uint64_t first_row) const {
    if (at >= values()) return 0;
    return first_row + walk_to(at, [](std::size_t, std::uint64_t) {}) + 1;
  }
};

/// The batch layout of this rank's rows (`where`) within the job (rows of earlier ranks first), with
/// `batch_values` values per batch (upstream's kBatchValues; smaller in tests).
template <class RowValues>
SketchBatches sketch_batches(ValueLocator<RowValues> const& where, Collective& comm,
                             std::uint64_t batch_values = gpu_sketch::kBatchValues) {
  std::size_t const rows = where.rows, features = where.features;
  auto const local = static_cast<std::int64_t>(where.values());
  std::uint64_t const value_base = static_cast<std::uint64_t>(comm.exclusive_prefix_sum(local));
  std::uint64_t const total = static_cast<std::uint64_t>(comm.sum(local));
  std::uint64_t const first_row = static_cast<std::uint64_t>(comm.exclusive_prefix_sum(static_cast<std::int64_t>(rows)));
  SketchBatches out;
  out.batches = static_cast<std::size_t>((total + batch_values - 1) / batch_values);
  std::size_t const B = out.batches;
  auto local_at = [&](std::uint64_t global) {
    return global >= value_base ? global - value_base : std::numeric_limits<std::uint64_t>::max();
  };
  // Rows spanned: the global rows of each batch's first and last value, found by their owners.
  std::vector<std::uint64_t> ends(2 * B, 0);
  for (std::size_t b = 0; b < B; ++b) {
    std::uint64_t const lo = b * batch_values, hi = std::min(total, lo + batch_values) - 1;
    ends[2 * b] = where.row_plus_one(local_at(lo), first_row);
    ends[2 * b + 1] = where.row_plus_one(local_at(hi), first_row);
  }
  comm.allreduce_max(ends.data(), ends.size());
  for (std::size_t b = 0; b < B; ++b) out.rows.push_back(std::max<std::uint64_t>(1, ends[2 * b + 1] - ends[2 * b] + 1));
  // Each feature's values before each batch: this rank's share, summed over ranks.
  std::vector<std::int64_t> before((B + 1) * features, 0);
  for (std::size_t b = 1; b <= B; ++b) {
    std::uint64_t const at = std::min(total, b * batch_values);
    if (at > value_base) where.count_before(at - value_base, before.data() + b * features);
  }
  comm.allreduce_sum(before.data(), before.size());
  out.split.resize(features * (B + 1));
  for (std::size_t f = 0; f < features; ++f)
    for (std::size_t b = 0; b <= B; ++b) out.split[f * (B + 1) + b] = static_cast<std::uint64_t>(before[b * features + f]);
  return out;
}

/// One sketch batch's n values v (weights w, nullptr = all 1) sorted in place as upstream's stable
/// device sort orders them: ascending, ties (and -0/+0) in row order, weights carried along.
void sort_sketch_batch(float* v, float* w, std::size_t n);

/// Upstream's GPU cuts of one numerical feature from its values in the job's row order (weights
/// at `w`, nullptr = all 1) and its batch splits `split` (batches + 1 entries); `sorted`: each
/// batch already sorted by sort_sketch_batch (else sorted here, in a copy).
FeatureCuts gpu_feature_cuts(float const* v, float const* w, std::uint64_t const* split, SketchBatches const& batches,
                             int max_bin, bool sorted);

/// Every numerical feature's batches of `cols` sorted in place (sort_sketch_batch), one task per
/// feature and batch on host threads: the sorts, the sketch's main cost, spread evenly over the
/// threads however few features there are.
void sort_column_batches(GatheredColumns& cols, SketchBatches const& batches, std::size_t features,
                         std::vector<std::uint8_t> const& categorical);

/// The cuts of feature f (categorical when `categorical` marks it, as upstream's: every category).
inline FeatureCuts gpu_column_cuts(std::size_t f, float const* v, float const* w, std::size_t n,
                                   SketchBatches const& batches, int max_bin,
                                   std::vector<std::uint8_t> const& categorical, bool sorted) {
  if (f < categorical.size() && categorical[f] != 0) return categorical_feature_cuts(v, n);
  return gpu_feature_cuts(v, w, batches.split.data() + f * (batches.batches + 1), batches, max_bin, sorted);
}

/// upstream_gpu's policy for the radix selection (one sketch batch of unweighted numerical
/// features): every bucket while a feature has at most the batch budget of values, else the
/// buckets holding the positions upstream's prune keeps; finish() is the batch's summary from those
/// positions' values, pushed into the feature's sketch (upstream's SketchContainer::Push), and
/// that sketch's cuts.
class UpstreamGpuSelection final : public RadixSelection {
 public:
  /// `running`: the sketches of this batch's n_features features over the earlier batches (their
  /// summaries merged), which finish() pushes this batch into; nullptr for a single batch.
  /// Throws std::runtime_error if max_bin < 2.
  UpstreamGpuSelection(std::size_t n_features, int max_bin, std::size_t rows_in_batch,
                       gpu_sketch::GpuFeatureSketch* running = nullptr);

 private:
  std::vector<std::size_t> chosen(Feature& feature, std::vector<Bucket> const& children) const override;
  FeatureCuts finish(std::size_t f, Feature const& feature, std::vector<Bucket> const& children,
                     std::vector<std::size_t> const& keep) const override;
  int max_bin_;
  std::size_t rows_;
  std::uint64_t budget_;
  gpu_sketch::GpuFeatureSketch* running_;
};

/// What gpu_sketch_cuts_on_space needs to know of a matrix first.
struct ValueSpan {
  std::uint64_t rows = 1;          ///< rows from the first holding a value to the last (at least 1)
  std::uint64_t values = 0;        ///< non-missing values
  std::uint64_t negative_zeros = 0;  ///< values -0
};

/// The ValueSpan of a matrix: `row_count(i)` is row i's number of non-missing values, and
/// `row_negative_zeros(i)` its number of values -0.
template <class Mem, class ExecutionSpace, class RowCount, class RowNegativeZeros>
ValueSpan span_and_values(ExecutionSpace const& space, std::size_t rows, RowCount const& row_count,
                          RowNegativeZeros const& row_negative_zeros) {
  auto const ends = IntegerReduce<2, IntegerMaxOp, ExecutionSpace, Mem>{}(
      space, "kboost::sketch::value_rows", rows, KOKKOS_LAMBDA(std::size_t i, std::int64_t(&acc)[2]) {
        if (row_count(i) == 0) return;
        auto const last = static_cast<std::int64_t>(i) + 1, first = static_cast<std::int64_t>(rows - i);
        acc[0] = last > acc[0] ? last : acc[0];
        acc[1] = first > acc[1] ? first : acc[1];
      });
  auto const counts = IntegerSums<2, ExecutionSpace, Mem>{}(
      space, "kboost::sketch::value_count", rows, KOKKOS_LAMBDA(std::size_t i, std::int64_t(&acc)[2]) {
        acc[0] += row_count(i);
        acc[1] += row_negative_zeros(i);
      });
  std::int64_t const first = static_cast<std::int64_t>(rows) - ends[1], last = ends[0] - 1;
  ValueSpan out;
  out.values = static_cast<std::uint64_t>(counts[0]);
  out.negative_zeros = static_cast<std::uint64_t>(counts[1]);
  out.rows = out.values == 0 ? 1 : static_cast<std::uint64_t>(last - first + 1);
  return out;
}

/// Number of non-missing values (or, NegativeZeros, of values -0) of row i of X (named functors:
/// nvcc does not let a device lambda capture a generic lambda).
template <class Mem, bool NegativeZeros>
struct DenseRowCount {
  Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::size_t i) const {
    std::int64_t n = 0;
    for (std::size_t f = 0; f < X.extent(1); ++f) {
      float const v = X(i, f);
      n += NegativeZeros ? pmath::detail::bit_cast<std::uint32_t>(v) == 0x80000000u : v == v;
    }
    return n;
  }
};

/// The body of gpu_sketch_cuts_from_host for any row storage (row_values as sketch_host_rows').
template <class Mem, class ExecutionSpace, class RowValues>
HistogramCuts<Mem> gpu_sketch_host_rows(ExecutionSpace const& space, std::size_t rows, std::size_t features,
                                        Kokkos::View<const float*, Kokkos::HostSpace> hw, int max_bin,
                                        RowValues const& row_values, Collective& comm,
                                        std::vector<std::uint8_t> const& categorical,
                                        std::uint64_t batch_values = gpu_sketch::kBatchValues) {
  check_sketch_inputs(rows, hw.extent(0), max_bin);
  ValueLocator<RowValues> const where(rows, features, row_values);
  SketchBatches const batches = sketch_batches(where, comm, batch_values);
  GatheredColumns cols = gather_columns(rows, features, hw, row_values, &where.count);
  // On one rank the columns are whole here, so their batches are sorted first, in parallel; on
  // several, each owner sorts the columns it is sent.
  bool const sorted = comm.size() == 1;
  if (sorted) sort_column_batches(cols, batches, features, categorical);
  return cuts_from_columns<Mem>(space, comm, cols, features, categorical,
                                [&](std::size_t f, float const* v, float const* w, std::size_t n) {
                                  return gpu_column_cuts(f, v, w, n, batches, max_bin, categorical, sorted);
                                });
}

/// One of upstream's sketch batches of a matrix on the execution space: its values are in rows
/// [begin_row, end_row), those of the first and last of these rows within `bounds`; `rows` is the
/// span upstream's budget takes (from the row of its first value to the row of its last).
struct SpaceBatch {
  std::size_t begin_row = 0, end_row = 0;
  SketchRowBounds bounds;
  std::uint64_t rows = 1;
};

/// Where each value position at[k] (< X's non-missing values, in row-major order) is: its row and
/// its feature, found on the space (a binary search in `start`, X's rows + 1 exclusive prefix sums
/// of the rows' value counts, then a walk along the row) and downloaded at once: out[2k] the row,
/// out[2k + 1] the feature.
template <class Mem, class ExecutionSpace>
std::vector<std::uint64_t> value_positions(ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                                           Kokkos::View<const std::uint64_t*, Mem> start,
                                           std::vector<std::uint64_t> const& at) {
  Kokkos::View<std::uint64_t*, Mem> found(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::sketch::batch_ends"),
                                          2 * at.size());
  Kokkos::View<std::uint64_t*, Mem> d_at(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::sketch::batch_positions"),
                                         at.size());
  counted_deep_copy(d_at, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(at.data(), at.size()));
  std::size_t const rows = start.extent(0) - 1, features = X.extent(1);
  Kokkos::parallel_for("kboost::sketch::batch_ends",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, at.size()),
                       KOKKOS_LAMBDA(std::size_t k) {
                         std::uint64_t const p = d_at(k);
                         std::size_t lo = 0, hi = rows;  // the last row i with start(i) <= p
                         while (lo < hi) {
                           std::size_t const mid = lo + (hi - lo + 1) / 2;
                           if (start(mid) <= p) lo = mid;
                           else hi = mid - 1;
                         }
                         std::uint64_t skip = p - start(lo);  // the row's values before it
                         std::size_t f = 0;
                         for (; f < features; ++f) {
                           float const v = X(lo, f);
                           if (v == v && skip-- == 0) break;
                         }
                         found(2 * k) = lo;
                         found(2 * k + 1) = f;
                       });
  std::vector<std::uint64_t> out(2 * at.size());
  counted_deep_copy(Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(out.data(), out.size()),
                    found);
  for (std::size_t k = 0; k < at.size(); ++k)
    if (out[2 * k + 1] >= features)
      throw std::logic_error("value_positions: row " + std::to_string(out[2 * k]) +
                             " has fewer values than the batch layout says");
  return out;
}

/// The sketch batches of X (`values` non-missing values, batch_values each): the rows' value counts
/// summed on the space (an integer scan), each batch's first and last value located there
/// (value_positions: one download for every batch).
template <class Mem, class ExecutionSpace>
std::vector<SpaceBatch> space_batches(ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                                      std::uint64_t values, std::uint64_t batch_values) {
  std::size_t const rows = X.extent(0);
  Kokkos::View<std::uint64_t*, Mem> start(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::sketch::row_start"),
                                          rows + 1);
  DenseRowCount<Mem, false> const count{X};
  Kokkos::parallel_scan("kboost::sketch::row_start",
                        Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, rows + 1),
                        KOKKOS_LAMBDA(std::size_t i, std::uint64_t & sum, bool const final) {
                          if (final) start(i) = sum;
                          if (i < rows) sum += static_cast<std::uint64_t>(count(i));
                        });
  std::size_t const n = static_cast<std::size_t>((values + batch_values - 1) / batch_values);
  std::vector<std::uint64_t> at;  // each batch's first and last value position
  for (std::size_t b = 0; b < n; ++b) {
    at.push_back(b * batch_values);
    at.push_back(std::min(values, (b + 1) * batch_values) - 1);
  }
  std::vector<std::uint64_t> const found = value_positions<Mem>(space, X, Kokkos::View<const std::uint64_t*, Mem>(start), at);
  std::vector<SpaceBatch> out(n);
  for (std::size_t b = 0; b < n; ++b) {
    std::size_t const first = found[4 * b], last = found[4 * b + 2];
    out[b].begin_row = first;
    out[b].end_row = last + 1;
    out[b].bounds.first_row_from = found[4 * b + 1];
    out[b].bounds.last_row_end = found[4 * b + 3] + 1;
    out[b].rows = last - first + 1;
  }
  return out;
}

/// The radix selection of one sketch batch of X (upstream_gpu's policy), its summaries pushed into
/// `running` (X's features' sketches, or nullptr for X's only batch): the cuts of the sketches.
template <class Mem, class ExecutionSpace>
HistogramCuts<Mem> space_batch_cuts(ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                                    int max_bin, SpaceBatch const& batch, gpu_sketch::GpuFeatureSketch* running) {
  Kokkos::View<const float**, Kokkos::LayoutRight, Mem> const rows =
      Kokkos::subview(X, std::make_pair(batch.begin_row, batch.end_row), Kokkos::ALL());
  std::size_t next = 0;  // the first feature of the selection made next (features in order)
  return radix_selection_batches<Mem>(
      space, rows.extent(0), rows.extent(1), Kokkos::View<const float*, Mem>(),
      [&](std::size_t n) {
        UpstreamGpuSelection select(n, max_bin, batch.rows, running != nullptr ? running + next : nullptr);
        next += n;
        return select;
      },
      [&](auto qweight, std::size_t f0, std::size_t fc, int level, auto child, auto slot_base, auto counts) {
        count_sketch_level(space, rows, qweight, f0, fc, level, child, slot_base, counts, batch.bounds);
      });
}

}  // namespace detail

/// Cuts of host matrix hX (rows × features, NaN = missing; this rank's rows of the job) with host
/// sample weights `hw` (rows, or extent 0 = all 1) by upstream 3.4.1's GPU sketch (file comment),
/// returned in memory space `Mem`; categorical: as sketch_cuts_from_host's; `batch_values`: values
/// per sketch batch (upstream's; smaller in tests). Throws std::runtime_error on max_bin < 2 or a
/// weight extent that is neither 0 nor rows.
template <class Mem, class ExecutionSpace>
HistogramCuts<Mem> gpu_sketch_cuts_from_host(ExecutionSpace const& space,
                                             Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace> hX,
                                             Kokkos::View<const float*, Kokkos::HostSpace> hw, int max_bin,
                                             Collective& comm = local_collective(),
                                             std::vector<std::uint8_t> const& categorical = {},
                                             std::uint64_t batch_values = gpu_sketch::kBatchValues) {
  compat::ScopedRegion region("kboost::hist_cuts::gpu_sketch_cuts_from_host");
  return detail::gpu_sketch_host_rows<Mem>(space, hX.extent(0), hX.extent(1), hw, max_bin, detail::dense_row_values(hX),
                                           comm, categorical, batch_values);
}

/// gpu_sketch_cuts_from_host's cuts of X (rows × features in memory space `Mem`, NaN = missing,
/// unweighted, every feature numerical, this process the job's only rank) counted on the execution
/// space (file comment), or nullopt when X holds a value -0 (the host implementation takes it).
/// `batch_values`: values per sketch batch (upstream's; smaller in tests). Only the batches'
/// boundary rows and the selection's counts come to the host. Throws std::runtime_error on
/// max_bin < 2.
template <class Mem, class ExecutionSpace>
std::optional<HistogramCuts<Mem>> gpu_sketch_cuts_on_space(ExecutionSpace const& space,
                                                           Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                                                           int max_bin,
                                                           std::uint64_t batch_values = gpu_sketch::kBatchValues) {
  compat::ScopedRegion region("kboost::hist_cuts::gpu_sketch_cuts_on_space");
  detail::ValueSpan const span = detail::span_and_values<Mem>(space, X.extent(0), detail::DenseRowCount<Mem, false>{X},
                                                              detail::DenseRowCount<Mem, true>{X});
  if (span.negative_zeros > 0) return std::nullopt;
  if (span.values <= batch_values)
    return detail::space_batch_cuts<Mem>(space, X, max_bin, detail::SpaceBatch{0, X.extent(0), {}, span.rows}, nullptr);
  // Several batches: each one's summary merged into the features' sketches in batch order; the
  // last batch's cuts are those of the merged sketches.
  std::vector<gpu_sketch::GpuFeatureSketch> running(X.extent(1), gpu_sketch::GpuFeatureSketch(max_bin));
  std::optional<HistogramCuts<Mem>> cuts;
  for (detail::SpaceBatch const& b : detail::space_batches<Mem>(space, X, span.values, batch_values))
    cuts = detail::space_batch_cuts<Mem>(space, X, max_bin, b, running.data());
  return cuts;
}

/// gpu_sketch_cuts_from_host of a host CSR matrix (as sketch_cuts_from_host_csr's arguments):
/// the same cuts as on the densified matrix.
template <class Mem, class ExecutionSpace>
HistogramCuts<Mem> gpu_sketch_cuts_from_host_csr(ExecutionSpace const& space,
                                                 Kokkos::View<const std::int64_t*, Kokkos::HostSpace> row_map,
                                                 Kokkos::View<const std::int32_t*, Kokkos::HostSpace> entries,
                                                 Kokkos::View<const float*, Kokkos::HostSpace> values,
                                                 std::size_t n_features, Kokkos::View<const float*, Kokkos::HostSpace> hw,
                                                 int max_bin, Collective& comm = local_collective(),
                                                 std::vector<std::uint8_t> const& categorical = {}) {
  compat::ScopedRegion region("kboost::hist_cuts::gpu_sketch_cuts_from_host_csr");
  std::size_t const rows = row_map.extent(0) == 0 ? 0 : row_map.extent(0) - 1;
  return detail::gpu_sketch_host_rows<Mem>(space, rows, n_features, hw, max_bin, [&](std::size_t i, auto&& add) {
    // A row's values in feature order, as the densified row and upstream's sorted CSR rows.
    std::int64_t const lo = row_map(i), hi = row_map(i + 1);
    bool sorted = true;
    for (std::int64_t k = lo + 1; k < hi && sorted; ++k) sorted = entries(k - 1) < entries(k);
    if (sorted) {
      for (std::int64_t k = lo; k < hi; ++k)
        if (values(k) == values(k)) add(static_cast<std::size_t>(entries(k)), values(k));
      return;
    }
    std::vector<std::int64_t> order(static_cast<std::size_t>(hi - lo));
    std::iota(order.begin(), order.end(), lo);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return entries(a) < entries(b); });
    for (std::int64_t k : order)
      if (values(k) == values(k)) add(static_cast<std::size_t>(entries(k)), values(k));
  }, comm, categorical);
}

}  // namespace kboost
