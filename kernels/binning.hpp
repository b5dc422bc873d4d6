#pragma once
/// \file binning.hpp
/// Maps each (row, feature) value to its global histogram bin, as upstream's
/// HistogramCuts::SearchBin (src/common/hist_util.h): upper_bound over the feature's cuts,
/// clamped to the feature's last bin; NaN (missing) maps to -1.
#include <kboost/kernels/hist_cuts.hpp>

#include <Kokkos_Core.hpp>

#include <kboost/core/compat.hpp>

#include <cstdint>

namespace kboost {

/// Global bin of value `v` of feature `f` (ptrs[f] + first cut > v, clamped), -1 for NaN.
/// Branch-free search: the loop count depends only on the feature's cut count, so host cores do
/// not mispredict on every value; same answer as std::upper_bound (cuts are never NaN).
template <class PtrView, class ValView>
KOKKOS_INLINE_FUNCTION std::int32_t search_bin(PtrView const& ptrs, ValView const& values, std::size_t f, float v) {
  if (v != v) return -1;
  std::uint32_t base = ptrs(f);
  std::uint32_t const end = ptrs(f + 1);
  std::uint32_t n = end - base;  // >= 1: every feature has its sentinel cut
  while (n > 1) {                // answer stays in [base, base + n]
    std::uint32_t const half = n / 2;
    base = (values(base + half) <= v) ? base + half : base;
    n -= half;
  }
  base += (values(base) <= v) ? 1u : 0u;
  if (base == end) --base;
  return static_cast<std::int32_t>(base);
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
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    // host cores: one row per iteration (no division per cell)
    Kokkos::parallel_for("kboost::binning::bin_rows",
                         Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, rows),
                         KOKKOS_LAMBDA(std::size_t i) {
                           for (std::size_t f = 0; f < features; ++f) bins(i, f) = search_bin(ptrs, values, f, X(i, f));
                         });
  } else {
    // devices: one cell per thread, consecutive threads on consecutive cells (coalesced)
    Kokkos::parallel_for("kboost::binning::bin_cells",
                         Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, rows * features),
                         KOKKOS_LAMBDA(std::size_t idx) {
                           std::size_t const i = idx / features, f = idx % features;
                           bins(i, f) = search_bin(ptrs, values, f, X(i, f));
                         });
  }
  return bins;
}

}  // namespace kboost
