#pragma once
/// \file quantile_sketch.hpp
/// The counting pass of the exact quantile sketch (engine/detail/exact_sketch.hpp): a radix
/// selection over order-preserving 32-bit keys of the feature values, one digit per pass, most
/// significant first: 16 bits (sign, exponent and the leading mantissa bits, so even a narrow
/// column spreads over many counters), then 8 and 8. Pass `level` adds the weight of every
/// (row, feature) value whose first `level` digits lead to a refined bucket into that bucket's
/// counter for its next digit.
/// The counts are integers (row counts or fixed-point weights), so their sums do not depend on the
/// order of the additions: every backend, thread count and team size gives the same bits.
/// Upstream's GPU sketch (src/common/hist_util.cu) sorts each column instead; the selection reads
/// the matrix three times and needs no sort.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include <kboost/core/compat.hpp>
#include <kboost/core/portable_math.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace kboost {

constexpr int kSketchLevels = 3;  ///< digits of a 32-bit key: 16, 8 and 8 bits

/// Bits of digit `level` of a key.
KOKKOS_INLINE_FUNCTION int sketch_digit_bits(int level) { return level == 0 ? 16 : 8; }

/// Counters per refined bucket at `level` (2^bits).
KOKKOS_INLINE_FUNCTION std::uint32_t sketch_digits(int level) { return std::uint32_t(1) << sketch_digit_bits(level); }

/// Order-preserving key of a non-NaN float: the unsigned order of the keys is the float order, and
/// -0 gets +0's key (they compare equal, so they are one distinct value, as in upstream's sketch).
KOKKOS_INLINE_FUNCTION std::uint32_t sketch_key(float v) {
  if (v == 0.0f) v = 0.0f;
  std::uint32_t const b = pmath::detail::bit_cast<std::uint32_t>(v);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

/// The float of a key made by sketch_key.
KOKKOS_INLINE_FUNCTION float sketch_value(std::uint32_t key) {
  std::uint32_t const b = (key & 0x80000000u) ? (key & 0x7fffffffu) : ~key;
  return pmath::detail::bit_cast<float>(b);
}

/// Digit `level` (0 = most significant) of a key.
KOKKOS_INLINE_FUNCTION std::uint32_t sketch_digit(std::uint32_t key, int level) {
  return level == 0 ? key >> 16 : (key >> (16 - 8 * level)) & 0xffu;
}

/// Which values of the first and the last row of the matrix count_sketch_level counts: those of
/// features >= first_row_from in row 0 and those of features < last_row_end in the last row (a
/// sketch batch of upstream's starts and ends at a value position, inside a row). Every value by
/// default.
struct SketchRowBounds {
  std::size_t first_row_from = 0;
  std::size_t last_row_end = ~std::size_t(0);
};

namespace detail {

/// Adds one (row, feature) value to its refined bucket's counter (count_sketch_level). A named
/// functor: nvcc does not let a generic lambda be captured by a device lambda.
template <class Mem>
struct SketchCellCounter {
  Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X;
  Kokkos::View<const std::uint64_t*, Mem> qweight;
  Kokkos::View<const std::int32_t**, Kokkos::LayoutRight, Mem> child;
  Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Mem> slot_base;
  std::size_t f_begin;
  int level;
  bool weighted;
  SketchRowBounds bounds{};
  std::size_t last_row = ~std::size_t(0);

  template <class Access>
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i, std::size_t fb, Access& acc) const {
    std::size_t const f = f_begin + fb;
    if ((i == 0 && f < bounds.first_row_from) || (i == last_row && f >= bounds.last_row_end)) return;
    add(i, fb, X(i, f), acc);
  }

  /// Counts value v of row i, feature f_begin + fb (NaN: nothing).
  template <class Access>
  KOKKOS_INLINE_FUNCTION void add(std::size_t i, std::size_t fb, float v, Access& acc) const {
    if (v != v) return;
    std::uint32_t const key = sketch_key(v);
    std::int32_t s = 0;
    for (int l = 0; l < level; ++l) {
      s = child(l, std::size_t(slot_base(l, fb) + static_cast<std::uint32_t>(s)) * sketch_digits(l) +
                       sketch_digit(key, l));
      if (s < 0) return;
    }
    std::size_t const at = (std::size_t(slot_base(level, fb)) + static_cast<std::size_t>(s)) * sketch_digits(level) +
                           sketch_digit(key, level);
    acc(at) += weighted ? qweight(i) : std::uint64_t(1);
  }
};

}  // namespace detail

/// Counts one level of the radix selection for features [f_begin, f_begin + f_count) of X
/// (rows × features, NaN = missing, skipped).
/// - `qweight`: rows fixed-point weights, or extent 0: every value counts 1.
/// - `child` (kSketchLevels − 1 × slots·digits): child(l, (slot_base(l, fb) + s)·sketch_digits(l) + d)
///   is the slot at level l + 1 of digit d under slot s of level l, or −1 when that bucket is not
///   refined. Level 0 has one slot per feature.
/// - `slot_base` (kSketchLevels × f_count): first slot of feature fb at each level.
/// - `counts` (slots of `level` · sketch_digits(level)): zeroed by the caller; receives the weights.
/// - `bounds`: the values of the first and last rows that count (all by default).
/// Throws std::runtime_error on a level outside [0, kSketchLevels) or a feature range beyond X.
template <class ExecutionSpace, class Mem>
void count_sketch_level(ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                        Kokkos::View<const std::uint64_t*, Mem> qweight, std::size_t f_begin, std::size_t f_count,
                        int level, Kokkos::View<const std::int32_t**, Kokkos::LayoutRight, Mem> child,
                        Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Mem> slot_base,
                        Kokkos::View<std::uint64_t*, Mem> counts, SketchRowBounds bounds = {}) {
  if (level < 0 || level >= kSketchLevels)
    throw std::runtime_error("count_sketch_level: level " + std::to_string(level) + " outside [0, " +
                             std::to_string(kSketchLevels) + ")");
  if (f_begin + f_count > X.extent(1))
    throw std::runtime_error("count_sketch_level: features [" + std::to_string(f_begin) + ", " +
                             std::to_string(f_begin + f_count) + ") beyond the matrix's " + std::to_string(X.extent(1)));
  compat::ScopedRegion region("kboost::sketch::count_level");
  std::size_t const rows = X.extent(0);
  bool const weighted = qweight.extent(0) != 0;
  Kokkos::Experimental::ScatterView<std::uint64_t*, typename decltype(counts)::array_layout, ExecutionSpace> scatter(
      space, counts);
  detail::SketchCellCounter<Mem> const add{X, qweight, child, slot_base, f_begin, level, weighted, bounds,
                                           rows == 0 ? 0 : rows - 1};
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    // Host cores: a block of rows at a time, one feature after the other, so the block's rows and
    // one feature's tables and counters stay in cache (all features' tables do not fit).
    constexpr std::size_t kBlock = 1024;
    Kokkos::parallel_for("kboost::sketch::count_rows",
                         Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(
                             space, 0, (rows + kBlock - 1) / kBlock),
                         KOKKOS_LAMBDA(std::size_t b) {
                           auto acc = scatter.access();
                           std::size_t const end = rows < (b + 1) * kBlock ? rows : (b + 1) * kBlock;
                           for (std::size_t fb = 0; fb < f_count; ++fb)
                             for (std::size_t i = b * kBlock; i < end; ++i) add(i, fb, acc);
                         });
  } else {
    Kokkos::parallel_for("kboost::sketch::count_cells",
                         Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, rows * f_count),
                         KOKKOS_LAMBDA(std::size_t idx) {
                           auto acc = scatter.access();
                           add(idx / f_count, idx % f_count, acc);
                         });
  }
  Kokkos::Experimental::contribute(space, counts, scatter);
}

/// count_sketch_level on a CSR matrix (row_map rows + 1 offsets, entries the column of each stored
/// value, values; absent entries and NaN values are skipped) with `n_features` columns: the same
/// counts as on the densified matrix, since the counts are integer sums. Same errors.
template <class ExecutionSpace, class Mem>
void count_sketch_level_csr(ExecutionSpace const& space, Kokkos::View<const std::int64_t*, Mem> row_map,
                            Kokkos::View<const std::int32_t*, Mem> entries, Kokkos::View<const float*, Mem> values,
                            std::size_t n_features, Kokkos::View<const std::uint64_t*, Mem> qweight,
                            std::size_t f_begin, std::size_t f_count, int level,
                            Kokkos::View<const std::int32_t**, Kokkos::LayoutRight, Mem> child,
                            Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Mem> slot_base,
                            Kokkos::View<std::uint64_t*, Mem> counts) {
  if (level < 0 || level >= kSketchLevels)
    throw std::runtime_error("count_sketch_level_csr: level " + std::to_string(level) + " outside [0, " +
                             std::to_string(kSketchLevels) + ")");
  if (f_begin + f_count > n_features)
    throw std::runtime_error("count_sketch_level_csr: features [" + std::to_string(f_begin) + ", " +
                             std::to_string(f_begin + f_count) + ") beyond the matrix's " + std::to_string(n_features));
  compat::ScopedRegion region("kboost::sketch::count_level_csr");
  std::size_t const rows = row_map.extent(0) == 0 ? 0 : row_map.extent(0) - 1;
  Kokkos::Experimental::ScatterView<std::uint64_t*, typename decltype(counts)::array_layout, ExecutionSpace> scatter(
      space, counts);
  detail::SketchCellCounter<Mem> const counter{{}, qweight, child, slot_base, f_begin, level, qweight.extent(0) != 0};
  auto const f_end = static_cast<std::int64_t>(f_begin + f_count);
  auto const f_first = static_cast<std::int64_t>(f_begin);
  // One row per iteration on every backend: a row's entries are contiguous (LibSVM rows are short).
  Kokkos::parallel_for("kboost::sketch::count_csr_rows",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, rows),
                       KOKKOS_LAMBDA(std::size_t i) {
                         auto acc = scatter.access();
                         for (std::int64_t k = row_map(i); k < row_map(i + 1); ++k) {
                           std::int64_t const f = entries(k);
                           if (f >= f_first && f < f_end) counter.add(i, static_cast<std::size_t>(f - f_first), values(k), acc);
                         }
                       });
  Kokkos::Experimental::contribute(space, counts, scatter);
}

/// Fixed-point sample weights for the sketch: qweight(i) = round(weight(i) · 2^shift), exact on
/// every backend (a power-of-two scale, then round half up in double). Throws std::runtime_error
/// on a negative or non-finite weight (upstream rejects them too).
template <class ExecutionSpace, class Mem>
Kokkos::View<std::uint64_t*, Mem> quantise_sketch_weights(ExecutionSpace const& space,
                                                           Kokkos::View<const float*, Mem> weight, int shift) {
  compat::ScopedRegion region("kboost::sketch::quantise_weights");
  Kokkos::View<std::uint64_t*, Mem> q(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::sketch::qweight"),
                                      weight.extent(0));
  double const scale = std::ldexp(1.0, shift);
  Kokkos::parallel_for("kboost::sketch::quantise_weights",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, weight.extent(0)),
                       KOKKOS_LAMBDA(std::size_t i) {
                         q(i) = static_cast<std::uint64_t>(compat::math::floor(double(weight(i)) * scale + 0.5));
                       });
  return q;
}

}  // namespace kboost
