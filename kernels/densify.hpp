#pragma once
/// \file densify.hpp
/// CSR -> dense rows × features (NaN where no entry is stored), as a Kokkos kernel. Dense input is
/// returned as it is. kernels/densify.cpp instantiates the one-argument form for the memory spaces of the
/// enabled backends. Used by training and prediction, which bin or traverse per (row, feature)
/// cell. Upstream analogue: XGBoost's
/// SparsePage rows read per (row, feature) with missing = absent (src/data/gradient_index.cc).
#include <cstddef>
#include <limits>
#include <string>

#include <kboost/core/compat.hpp>
#include <kboost/core/dmatrix.hpp>

namespace kboost {

/// Refuse a dense rows × features float32 buffer larger than this machine's physical memory
/// (sysconf) — e.g. a LibSVM file naming feature 2000000000 — before allocating it.
/// \throws std::runtime_error naming `what`, rows, features and the bytes needed.
void check_dense_size(std::size_t rows, std::size_t features, std::string const& what);

/// Dense rows × features copy of `m` (NaN for absent entries), computed on `space`; `m` itself when
/// dense. One thread per row writes only its own row, so the result does not depend on the backend.
template <class ExecutionSpace, class MemorySpace>
typename DMatrix<MemorySpace>::dense_type densify(ExecutionSpace const& space, DMatrix<MemorySpace> const& m) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                "densify: the execution space must access the matrix' memory space");
  if (!m.is_sparse()) return m.dense;
  check_dense_size(m.n_rows, m.n_features, m.info.source.empty() ? std::string("densify") : m.info.source);
  compat::ScopedRegion region("kboost::io::densify");
  using dense_type = typename DMatrix<MemorySpace>::dense_type;
  dense_type out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::densify::dense"), m.n_rows, m.n_features);
  auto const row_map = m.csr.graph.row_map;
  auto const cols = m.csr.graph.entries;
  auto const vals = m.csr.values;
  int const n_features = static_cast<int>(m.n_features);
  float const nan = std::numeric_limits<float>::quiet_NaN();
  Kokkos::parallel_for(
      "kboost::io::densify::rows", Kokkos::RangePolicy<ExecutionSpace>(space, 0, m.n_rows), KOKKOS_LAMBDA(std::size_t i) {
        for (int j = 0; j < n_features; ++j) out(i, j) = nan;
        for (auto k = row_map(i); k < row_map(i + 1); ++k) out(i, cols(k)) = vals(k);
      });
  return out;
}

/// densify on a default instance of MemorySpace's execution space.
template <class MemorySpace>
typename DMatrix<MemorySpace>::dense_type densify(DMatrix<MemorySpace> const& m) {
  return densify(typename MemorySpace::execution_space(), m);
}

}  // namespace kboost
