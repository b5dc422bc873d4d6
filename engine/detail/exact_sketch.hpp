#pragma once
/// \file exact_sketch.hpp
/// `sketch_method = exact_quantile`: HistogramCuts from the exact weighted quantiles of each
/// column, found on the execution space by a radix selection (kernels/quantile_sketch.hpp) instead
/// of upstream's CPU sketch (engine/detail/sketch.hpp). The matrix stays where it is (no host
/// copy); three counting passes per feature batch, and the host reads back only the bucket counts.
///
/// Definition (upstream's layout, src/common/hist_util.h; upstream's summary prune,
/// src/common/quantile.h WQSummary::SetPrune, applied to the exact column instead of a sketch):
/// let the column's distinct non-missing values be v_0 < … < v_{D−1} with total weights w_j,
/// W = Σ w_j and R_j = w_0 + … + w_{j−1}. The summary `a` is every v_j when D ≤ max_bin + 1;
/// otherwise v_0, then for k = 1 … max_bin − 1 the v_j with R_j ≤ k·W/max_bin < R_j + w_j, then
/// v_{D−1}, repeats dropped. The cuts are a[1 … min(|a|, max_bin)) and a sentinel above a's last
/// value; min_val is below a[0] (as upstream's MakeCuts/AddCutPoint). A feature with at most
/// max_bin distinct values so gets one bin per value, as upstream. Weights are counted in fixed
/// point (round(w·2^s), one power of two s for the whole matrix so Σ stays below 2^46); unweighted
/// values count 1. All sums are integers: the same cuts on every backend and thread count, and
/// (as integer sums of row shards) on any number of processes.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/engine/detail/sketch.hpp>
#include <kboost/kernels/integer_sum.hpp>
#include <kboost/kernels/hist_cuts.hpp>
#include <kboost/kernels/quantile_sketch.hpp>

namespace kboost {

/// The non-zero counters of one counting pass (kernels/quantile_sketch.hpp count_sketch_level):
/// their indices into the pass's `size` slot-major counters, ascending, and their counts.
struct SparseCounts {
  std::size_t size = 0;
  std::vector<std::uint64_t> index, count;
};

/// Host half of a radix selection over one batch of features: after each counting pass it
/// decides which buckets the next pass refines (chosen(): at most max_slots() per feature), and
/// after the last pass each kept bucket is one key and finish() makes the feature's cuts. The
/// policies: RadixQuantileSelection (exact_quantile) and UpstreamGpuSelection (upstream_gpu on the
/// execution space, engine/detail/gpu_sketch.hpp).
class RadixSelection {
 public:
  virtual ~RadixSelection() = default;

  /// Most buckets one feature refines at any level.
  std::size_t max_slots() const { return max_slots_; }

  /// First slot of each feature at the current level (n_features + 1 entries, the last = total).
  std::vector<std::uint32_t> slot_base() const;

  /// Counters per feature the largest level needs (max(65,536, max_slots() · 256)).
  std::size_t max_cells() const;

  /// Takes the non-zero counts of the current level (of slot_base().back() · sketch_digits(level())
  /// counters, slot-major) and moves to the next: returns the child table (that extent; the next
  /// level's slot of each refined bucket, −1 elsewhere). After the last level it returns an empty
  /// table and cuts() is ready.
  /// Throws std::runtime_error on counts of the wrong extent or a total above 2^46.
  std::vector<std::int32_t> refine(SparseCounts const& counts);

  /// The level the next counting pass counts (kSketchLevels once done).
  int level() const { return level_; }

  /// Per-feature cuts; throws std::logic_error before the last level is refined.
  std::vector<FeatureCuts> const& cuts() const;

 protected:
  /// Throws std::runtime_error if max_slots is 0.
  RadixSelection(std::size_t n_features, std::size_t max_slots);

  struct Bucket {
    std::uint32_t prefix;  ///< the key's digits so far
    std::uint64_t base;    ///< weight of the feature's values below the bucket
    std::uint64_t weight;  ///< weight of the values in the bucket
    std::uint32_t slot, digit;  ///< where its count was (parent slot, digit)
  };
  struct Feature {
    bool every_value = true;  ///< still refining every non-empty bucket
    std::uint64_t total = 0;
    std::vector<std::uint64_t> targets;  ///< rank positions the policy looks for (UpstreamGpuSelection)
    std::vector<Bucket> slots;
  };
  /// Indices of the children (the non-empty buckets of the level just counted, in key order) the
  /// next level refines: at most max_slots(), ascending.
  virtual std::vector<std::size_t> chosen(Feature& feature, std::vector<Bucket> const& children) const = 0;
  /// The cuts of feature f (of this batch of features) from the last level's children (each one
  /// key) and those chosen.
  virtual FeatureCuts finish(std::size_t f, Feature const& feature, std::vector<Bucket> const& children,
                             std::vector<std::size_t> const& keep) const = 0;
  /// The level being refined: counters per bucket, bits per digit, whether it is the last.
  struct Level {
    std::uint32_t digits;
    int bits;
    bool last;
  };
  /// refine() for feature f (its children from `counts`, then chosen() or finish(); its range of
  /// `table` written); false when its total weight reaches 2^46.
  bool refine_feature(std::size_t f, Level const& level, SparseCounts const& counts,
                      std::vector<std::uint32_t> const& base, std::vector<std::int32_t>& table);
  /// Indices of the children holding any of the ascending rank positions `targets`.
  static std::vector<std::size_t> holding(std::vector<std::uint64_t> const& targets, std::vector<Bucket> const& children);

 private:
  std::size_t max_slots_;
  int level_ = 0;
  std::vector<Feature> features_;
  std::vector<FeatureCuts> cuts_;
};

/// exact_quantile's policy: every bucket while a feature may still have at most max_bin + 1
/// distinct values, else those holding a quantile target, the minimum or the maximum (file
/// comment's definition).
class RadixQuantileSelection final : public RadixSelection {
 public:
  /// Throws std::runtime_error if max_bin < 2.
  RadixQuantileSelection(std::size_t n_features, int max_bin);

 private:
  std::vector<std::size_t> chosen(Feature& feature, std::vector<Bucket> const& children) const override;
  FeatureCuts finish(std::size_t f, Feature const& feature, std::vector<Bucket> const& children,
                     std::vector<std::size_t> const& keep) const override;
  int max_bin_;
};

/// Power-of-two exponent s for fixed-point sketch weights: rows · max_weight · 2^s < 2^46.
int sketch_weight_shift(std::size_t rows, double max_weight);

namespace detail {

/// Fixed-point sketch weights of `weight` (rows; extent 0 gives an empty View: every value counts
/// 1). Outside radix_selection_batches: nvcc refuses device lambdas in a function templated on a
/// local lambda type. Throws std::runtime_error on a negative or non-finite weight.
template <class Mem, class ExecutionSpace>
Kokkos::View<std::uint64_t*, Mem> sketch_qweight(ExecutionSpace const& space, Kokkos::View<const float*, Mem> weight) {
  std::size_t const rows = weight.extent(0);
  Kokkos::View<std::uint64_t*, Mem> qweight;
  if (weight.extent(0) != 0) {
    // Integer lane reductions rather than Kokkos::parallel_reduce (integer_sum.hpp says why): the
    // count of invalid weights, then the largest weight as its bits, which order non-negative
    // finite floats as their values.
    std::int64_t const invalid = IntegerSums<1, ExecutionSpace, Mem>{}(
        space, "kboost::sketch::weight_check", rows, KOKKOS_LAMBDA(std::size_t i, std::int64_t(&acc)[1]) {
          acc[0] += !(weight(i) >= 0 && compat::math::isfinite(weight(i)));
        })[0];
    if (invalid != 0)
      throw std::runtime_error("sketch_cuts: " + std::to_string(invalid) + " sample weights are negative or not finite");
    std::int64_t const wmax_bits = IntegerReduce<1, IntegerMaxOp, ExecutionSpace, Mem>{}(
        space, "kboost::sketch::weight_max", rows, KOKKOS_LAMBDA(std::size_t i, std::int64_t(&acc)[1]) {
          float const w = weight(i) > 0 ? weight(i) : 0.0f;  // -0 as +0: its bits would rank above every weight
          std::int64_t const bits = pmath::detail::bit_cast<std::uint32_t>(w);
          acc[0] = bits > acc[0] ? bits : acc[0];
        })[0];
    float const wmax = pmath::detail::bit_cast<float>(static_cast<std::uint32_t>(wmax_bits));
    qweight = quantise_sketch_weights(space, weight, sketch_weight_shift(rows, wmax));
  }
  return qweight;
}

/// The non-zero entries of `counts`, compacted on the execution space in index order (an integer
/// scan), so only they come to the host: the refined buckets' counters are mostly zero.
template <class Mem, class ExecutionSpace>
SparseCounts nonzero_counts(ExecutionSpace const& space, Kokkos::View<const std::uint64_t*, Mem> counts) {
  std::size_t const n = counts.extent(0);
  Kokkos::View<std::uint64_t*, Mem> offset(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::sketch::nonzero_at"),
                                           n + 1);
  Kokkos::parallel_scan("kboost::sketch::nonzero_at",
                        Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, n + 1),
                        KOKKOS_LAMBDA(std::size_t i, std::uint64_t & sum, bool const final) {
                          if (final) offset(i) = sum;
                          if (i < n) sum += counts(i) != 0 ? 1 : 0;
                        });
  std::uint64_t nonzero = 0;
  counted_deep_copy(Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&nonzero),
                    Kokkos::subview(offset, n));
  // index column then count column, so each arrives as one contiguous range
  Kokkos::View<std::uint64_t**, Kokkos::LayoutLeft, Mem> packed(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::sketch::nonzero"), nonzero, 2);
  Kokkos::parallel_for("kboost::sketch::nonzero",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, n),
                       KOKKOS_LAMBDA(std::size_t i) {
                         if (counts(i) == 0) return;
                         packed(offset(i), 0) = i;
                         packed(offset(i), 1) = counts(i);
                       });
  std::vector<std::uint64_t> h(2 * nonzero);
  counted_deep_copy(
      Kokkos::View<std::uint64_t**, Kokkos::LayoutLeft, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.data(), nonzero, 2),
      packed);
  SparseCounts out;
  out.size = n;
  out.index.assign(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(nonzero));
  out.count.assign(h.begin() + static_cast<std::ptrdiff_t>(nonzero), h.end());
  return out;
}

/// The body of exact_quantile_cuts (and of the upstream_gpu kernel path) for any matrix storage,
/// with the selection policy `make_selection(n_features)`: `count_level(qweight, f0, fc, level,
/// child, slot_base, counts)` runs count_sketch_level (or its CSR form) on the caller's matrix of
/// `rows` × `features`.
template <class Mem, class ExecutionSpace, class CountLevel, class MakeSelection>
HistogramCuts<Mem> radix_selection_batches(ExecutionSpace const& space, std::size_t rows, std::size_t features,
                                           Kokkos::View<const float*, Mem> weight, MakeSelection const& make_selection,
                                           CountLevel const& count_level) {
  if (weight.extent(0) != 0 && weight.extent(0) != rows)
    throw std::runtime_error("sketch_cuts: weight has " + std::to_string(weight.extent(0)) + " entries for " +
                             std::to_string(rows) + " rows");
  auto const probe = make_selection(0);  // validates the parameters
  Kokkos::View<std::uint64_t*, Mem> const qweight = sketch_qweight(space, weight);

  // Counters and child tables of one feature; host backends count into one copy of the counters
  // per thread (ScatterView), so the batch shrinks with the thread count.
  std::size_t const copies =
      Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible ? std::size_t(space.concurrency()) : 1;
  std::size_t const per_feature =
      probe.max_cells() * (copies * sizeof(std::uint64_t) + (kSketchLevels - 1) * sizeof(std::int32_t));
  std::size_t const batch = std::max<std::size_t>(1, (std::size_t(256) << 20) / per_feature);
  std::vector<FeatureCuts> per_feature_cuts;
  per_feature_cuts.reserve(features);
  for (std::size_t f0 = 0; f0 < features; f0 += batch) {
    std::size_t const fc = std::min(batch, features - f0);
    std::size_t const cells = fc * probe.max_cells();
    auto select = make_selection(fc);
    Kokkos::View<std::int32_t**, Kokkos::LayoutRight, Mem> child(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::sketch::child"), kSketchLevels - 1, cells);
    Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, Mem> slot_base("kboost::sketch::slot_base", kSketchLevels, fc);
    auto h_slot_base = Kokkos::create_mirror_view(slot_base);
    Kokkos::View<std::uint64_t*, Mem> counts(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::sketch::counts"),
                                             cells);
    for (int level = 0; level < kSketchLevels; ++level) {
      std::vector<std::uint32_t> const base = select.slot_base();
      for (std::size_t f = 0; f < fc; ++f) h_slot_base(level, f) = base[f];
      counted_deep_copy(slot_base, h_slot_base);
      std::size_t const used = std::size_t(base.back()) * sketch_digits(level);
      auto level_counts = Kokkos::subview(counts, std::make_pair(std::size_t(0), used));
      Kokkos::deep_copy(space, level_counts, std::uint64_t(0));
      count_level(Kokkos::View<const std::uint64_t*, Mem>(qweight), f0, fc, level,
                  Kokkos::View<const std::int32_t**, Kokkos::LayoutRight, Mem>(child),
                  Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Mem>(slot_base), counts);
      std::vector<std::int32_t> const table =
          select.refine(nonzero_counts<Mem>(space, Kokkos::View<const std::uint64_t*, Mem>(level_counts)));
      if (level + 1 < kSketchLevels)
        counted_deep_copy(Kokkos::subview(child, level, std::make_pair(std::size_t(0), table.size())),
                          Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                              table.data(), table.size()));
    }
    per_feature_cuts.insert(per_feature_cuts.end(), select.cuts().begin(), select.cuts().end());
  }
  return assemble_cuts<Mem>(space, per_feature_cuts);
}

}  // namespace detail

/// Cuts of every column of X (rows × features, NaN = missing) in memory space `Mem`, with sample
/// weights `weight` (rows, or extent 0 = all 1), by the exact quantile definition in the file
/// comment. Features are processed in batches whose counters (one copy per host thread) and child
/// tables fit 256 MiB.
/// Throws std::runtime_error on max_bin < 2, a weight extent that is neither 0 nor rows, or a
/// negative or non-finite weight.
template <class Mem, class ExecutionSpace>
HistogramCuts<Mem> exact_quantile_cuts(ExecutionSpace const& space,
                                       Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                                       Kokkos::View<const float*, Mem> weight, int max_bin) {
  compat::ScopedRegion region("kboost::hist_cuts::exact_quantile_cuts");
  return detail::radix_selection_batches<Mem>(
      space, X.extent(0), X.extent(1), weight, [max_bin](std::size_t n) { return RadixQuantileSelection(n, max_bin); },
      [&](auto qweight, std::size_t f0, std::size_t fc, int level, auto child, auto slot_base, auto counts) {
        count_sketch_level(space, X, qweight, f0, fc, level, child, slot_base, counts);
      });
}

/// exact_quantile_cuts of a CSR matrix (rows × n_features: row_map rows + 1 offsets, entries the
/// column of each stored value, values; absent entries and NaN values are missing) in memory space
/// `Mem`, without a dense copy: the same cuts as on the densified matrix. Same errors.
template <class Mem, class ExecutionSpace>
HistogramCuts<Mem> exact_quantile_cuts_csr(ExecutionSpace const& space, Kokkos::View<const std::int64_t*, Mem> row_map,
                                           Kokkos::View<const std::int32_t*, Mem> entries,
                                           Kokkos::View<const float*, Mem> values, std::size_t n_features,
                                           Kokkos::View<const float*, Mem> weight, int max_bin) {
  compat::ScopedRegion region("kboost::hist_cuts::exact_quantile_cuts_csr");
  std::size_t const rows = row_map.extent(0) == 0 ? 0 : row_map.extent(0) - 1;
  return detail::radix_selection_batches<Mem>(
      space, rows, n_features, weight, [max_bin](std::size_t n) { return RadixQuantileSelection(n, max_bin); },
      [&](auto qweight, std::size_t f0, std::size_t fc, int level, auto child, auto slot_base, auto counts) {
        count_sketch_level_csr(space, row_map, entries, values, n_features, qweight, f0, fc, level, child, slot_base,
                               counts);
      });
}

}  // namespace kboost
