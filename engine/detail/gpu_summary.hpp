#pragma once
/// \file gpu_summary.hpp
/// The quantile summaries of upstream XGBoost 3.4.1's GPU sketch, one feature at a time, in the
/// float arithmetic upstream's kernels use (src/common/quantile.cu: PruneImpl, ScanInput,
/// MergeImpl, FixError, SelectPruneIndices; src/common/quantile.h: WQSummary::QueryCutValues,
/// WQuantileSketch::LimitSizeLevel, SketchEpsilon). Upstream runs one CUDA thread per output
/// entry; each thread's arithmetic depends only on its inputs, so the sequential loops here give
/// the same bits. The scans (ScanInput's duplicate accumulation, the weight prefix sums) are
/// exact for unit weights; for non-integer sample weights upstream's scan order (CUB tiles) is
/// not reproduced and the running sums are sequential (docs/fidelity.md).
///
/// A batch (upstream's sketch batch: 2^26 consecutive non-missing values of the row-major
/// matrix) enters as one feature's values sorted ascending (ties in row order, as upstream's
/// stable device sort) with their weights' running sums; GpuFeatureSketch merges the batches'
/// summaries as upstream's SketchContainer::Push does, and cut_values() is MakeCuts' per-feature
/// step.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kboost::gpu_sketch {

/// A summary entry: rank bounds and weight of `value` (upstream's WQSummary<float>::Entry).
struct Entry {
  float rmin = 0, rmax = 0, wmin = 0, value = 0;
  float rmin_next() const { return rmin + wmin; }
  float rmax_prev() const { return rmax - wmin; }
};
using Summary = std::vector<Entry>;

/// Non-missing values per sketch batch (upstream's detail::kSketchBatchNumElements).
constexpr std::uint64_t kBatchValues = std::uint64_t(1) << 26;

/// upstream's WQuantileSketch::LimitSizeLevel(maxn, eps) with kFactor 2 (summary size bound).
std::size_t limit_size_level(std::size_t maxn, double eps);

/// upstream's SketchSummaryBudget: entries a summary of `rows` rows keeps per feature.
std::size_t summary_budget(int max_bin, std::size_t rows);

/// Entries a batch of `rows_in_batch` rows keeps per numerical feature (upstream's MakeCutsPtr:
/// min(summary_budget, rows)).
std::size_t batch_budget(int max_bin, std::size_t rows_in_batch);

/// Positions (into the n sorted values) PruneImpl keeps for an unweighted feature of n values
/// and a budget of `to` entries (all n when n <= to), ascending, repeats possible.
std::vector<std::uint64_t> prune_positions(std::uint64_t n, std::uint64_t to);

/// One batch's summary of a numerical feature (Push's PruneImpl then ScanInput): `values`
/// (n, sorted ascending) with the inclusive running sums of their weights `weight_scan` (n, or
/// nullptr when every weight is 1), budget `to`. Consecutive kept entries of one value are
/// folded into the first, as upstream's ScanInput.
Summary batch_summary(float const* values, float const* weight_scan, std::size_t n, std::size_t to);

/// One batch's summary of an unweighted numerical feature from the kept positions (as
/// prune_positions gives them) and the sorted values at them: the same as batch_summary on the
/// whole sorted batch.
Summary position_summary(std::vector<std::uint64_t> const& positions, std::vector<float> const& values);

/// Summary of x and y (MergeImpl), repeats of a value dropped and rank bounds fixed
/// (normalize_merged: SegmentedUnique, FixError).
Summary merge(Summary const& x, Summary const& y);

/// s pruned to at most `to` entries (SketchContainer::Prune); unchanged when it has no more.
Summary prune(Summary const& s, std::size_t to);

/// Cut values of a summary (WQSummary::QueryCutValues: at most max_bin cuts, the last the
/// sentinel above the largest value; {1e-5} for an empty summary).
std::vector<float> query_cut_values(Summary const& s, std::size_t max_bin);

/// One numerical feature's sketch over its batches in order (SketchContainer for one column).
class GpuFeatureSketch {
 public:
  /// Throws std::runtime_error if max_bin < 2.
  explicit GpuFeatureSketch(int max_bin);

  /// Adds a batch: this feature's n sorted values in it and their weights' running sums (see
  /// batch_summary), and the rows the batch spans (from the row of its first value to the row of
  /// its last, upstream's RowsInEntrySpan).
  void push(float const* values, float const* weight_scan, std::size_t n, std::size_t rows_in_batch);

  /// Adds a batch by its summary (batch_summary or position_summary with the budget
  /// batch_budget(max_bin, rows_in_batch)).
  void push_summary(Summary const& batch, std::size_t rows_in_batch);

  /// The cut values (MakeCuts on one process).
  std::vector<float> cut_values() const { return query_cut_values(summary_, static_cast<std::size_t>(max_bin_)); }

  Summary const& summary() const { return summary_; }

 private:
  int max_bin_;
  std::size_t rows_seen_ = 0;
  Summary summary_;
};

}  // namespace kboost::gpu_sketch
