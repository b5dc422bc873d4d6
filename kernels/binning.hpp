#pragma once
/// \file binning.hpp
/// Maps each (row, feature) value to its global histogram bin, as upstream's
/// HistogramCuts::SearchBin (src/common/hist_util.h): upper_bound over the feature's cuts,
/// clamped to the feature's last bin; NaN (missing) maps to -1.
#include "kernels/hist_cuts.hpp"

#include <Kokkos_Core.hpp>

#include "core/compat.hpp"

#include <cstdint>

namespace kboost {

/// Global bin of value `v` of feature `f` (ptrs[f] + first cut > v, clamped), -1 for NaN.
template <class PtrView, class ValView>
KOKKOS_INLINE_FUNCTION std::int32_t search_bin(PtrView const& ptrs, ValView const& values, std::size_t f, float v) {
  if (v != v) return -1;
  std::uint32_t lo = ptrs(f), hi = ptrs(f + 1);
  std::uint32_t const end = hi;
  while (lo < hi) {  // first index in [lo, hi) with values(idx) > v
    std::uint32_t const mid = lo + (hi - lo) / 2;
    if (values(mid) > v) hi = mid; else lo = mid + 1;
  }
  if (lo == end) --lo;
  return static_cast<std::int32_t>(lo);
}

/// Bin matrix (rows × features) of X (rows × features, NaN = missing) under `cuts`: global bin
/// indices in [ptrs[f], ptrs[f+1]) or -1 for missing. Throws std::runtime_error when X's feature
/// count differs from the cuts'.
template <class ExecutionSpace, class Mem>
Kokkos::View<std::int32_t**, Kokkos::LayoutRight, Mem> bin_matrix(
    ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X, HistogramCuts<Mem> const& cuts) {
  if (X.extent(1) != cuts.n_features())
    throw std::runtime_error("bin_matrix: X has " + std::to_string(X.extent(1)) + " features, cuts have " +
                             std::to_string(cuts.n_features()));
  compat::ScopedRegion region("kboost::binning::bin_matrix");
  std::size_t const rows = X.extent(0), features = X.extent(1);
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, Mem> bins(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::binning::bins"), rows, features);
  auto ptrs = cuts.ptrs;
  auto values = cuts.values;
  Kokkos::parallel_for("kboost::binning::bin_cells",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, rows * features),
                       KOKKOS_LAMBDA(std::size_t idx) {
                         std::size_t const i = idx / features, f = idx % features;
                         bins(i, f) = search_bin(ptrs, values, f, X(i, f));
                       });
  return bins;
}

}  // namespace kboost
