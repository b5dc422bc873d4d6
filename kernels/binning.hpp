#pragma once
/// \file binning.hpp
/// Maps each (row, feature) value to its global histogram bin, as upstream's
/// HistogramCuts::SearchBin (src/common/hist_util.h): upper_bound over the feature's cuts,
/// clamped to the feature's last bin; NaN (missing) maps to -1.
#include <kboost/core/device_memory.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/hist_cuts.hpp>

#include <Kokkos_Core.hpp>

#include <kboost/core/compat.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

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

/// Global bin of value `v` of feature `f`, -1 for NaN: search_bin for a numerical feature; for a
/// categorical one (categorical(f) != 0; `categorical` of extent 0 = none is) the bin of category
/// trunc(v), clamped to the feature's last bin, as upstream's SearchCatBin (src/common/hist_util.h).
/// Training data holds only valid categories (checked before the sketch); a negative value maps to
/// -1 here rather than to a wrong bin.
template <class PtrView, class ValView, class CatView>
KOKKOS_INLINE_FUNCTION std::int32_t feature_bin(PtrView const& ptrs, ValView const& values, CatView const& categorical,
                                                std::size_t f, float v) {
  if (categorical.extent(0) == 0 || categorical(f) == 0) return search_bin(ptrs, values, f, v);
  if (!(v >= 0.0f)) return -1;
  std::uint32_t const n = ptrs(f + 1) - ptrs(f);
  float const last = static_cast<float>(n - 1);
  return static_cast<std::int32_t>(ptrs(f) + static_cast<std::uint32_t>(v < last ? v : last));
}

/// Bytes per bin code the training matrix needs under cuts with pointers `ptrs` (features + 1):
/// 1 when every feature's bins plus its missing code fit 256 values, else 2 (ELLPACK-like, as
/// upstream's compressed matrix, src/data/ellpack_page.cuh, which packs symbols to the bit).
/// Throws std::runtime_error when a feature has more than 65,535 bins (max_bin is capped there).
inline int bin_code_bytes(std::vector<std::uint32_t> const& ptrs) {
  std::uint32_t widest = 0;
  for (std::size_t f = 0; f + 1 < ptrs.size(); ++f) widest = std::max(widest, ptrs[f + 1] - ptrs[f]);
  if (widest > 65535)
    throw std::runtime_error("a feature has " + std::to_string(widest) +
                             " histogram bins; kboost stores at most 65,535 per feature (lower max_bin)");
  return widest + 1 <= 256 ? 1 : 2;
}

namespace detail {
/// bin_codes' checks: X's feature count against the cuts', every feature's bins within BinT.
template <class BinT>
void check_bin_codes(std::size_t x_features, std::size_t cut_features, std::vector<std::uint32_t> const& host_ptrs) {
  static_assert(std::is_same_v<BinT, std::uint8_t> || std::is_same_v<BinT, std::uint16_t>, "8- or 16-bit codes");
  if (x_features != cut_features)
    throw std::runtime_error("bin_codes: X has " + std::to_string(x_features) + " features, cuts have " +
                             std::to_string(cut_features));
  if (bin_code_bytes(host_ptrs) > static_cast<int>(sizeof(BinT)))
    throw std::runtime_error("bin_codes: a feature's bins do not fit " + std::to_string(8 * sizeof(BinT)) + "-bit codes");
}

/// codes(i, f) = bin_codes' code of X(i, f) for every row of X (codes: the same extents).
template <class BinT, class ExecutionSpace, class Mem>
void code_rows(ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
               HistogramCuts<Mem> const& cuts, Kokkos::View<BinT**, Kokkos::LayoutRight, Mem> codes) {
  std::size_t const rows = X.extent(0), features = X.extent(1);
  auto ptrs = cuts.ptrs;
  auto values = cuts.values;
  auto categorical = cuts.categorical;
  auto code = KOKKOS_LAMBDA(std::size_t i, std::size_t f) {
    std::int32_t const b = feature_bin(ptrs, values, categorical, f, X(i, f));
    codes(i, f) = static_cast<BinT>(b < 0 ? ptrs(f + 1) - ptrs(f) : static_cast<std::uint32_t>(b) - ptrs(f));
  };
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    Kokkos::parallel_for("kboost::binning::code_rows",
                         Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, rows),
                         KOKKOS_LAMBDA(std::size_t i) {
                           for (std::size_t f = 0; f < features; ++f) code(i, f);
                         });
  } else {
    Kokkos::parallel_for("kboost::binning::code_cells",
                         Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, rows * features),
                         KOKKOS_LAMBDA(std::size_t idx) { code(idx / features, idx % features); });
  }
}
}  // namespace detail

/// Compressed bin matrix (rows × features) of X (rows × features, NaN = missing): feature f's code
/// is its LOCAL bin (global bin − ptrs[f], in [0, n_f) with n_f = ptrs[f+1] − ptrs[f]), and n_f
/// for a missing value. BinT: std::uint8_t or std::uint16_t (bin_code_bytes). Throws
/// std::runtime_error when X's feature count differs from the cuts' or a feature's n_f does not
/// fit BinT.
template <class BinT, class ExecutionSpace, class Mem>
Kokkos::View<BinT**, Kokkos::LayoutRight, Mem> bin_codes(ExecutionSpace const& space,
                                                         Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                                                         HistogramCuts<Mem> const& cuts,
                                                         std::vector<std::uint32_t> const& host_ptrs) {
  detail::check_bin_codes<BinT>(X.extent(1), cuts.n_features(), host_ptrs);
  compat::ScopedRegion region("kboost::binning::bin_codes");
  auto codes = allocate_view<Kokkos::View<BinT**, Kokkos::LayoutRight, Mem>>("kboost::binning::codes", false,
                                                                             X.extent(0), X.extent(1));
  detail::code_rows(space, X, cuts, codes);
  return codes;
}

/// bin_codes of rows held on the host (X: rows × features, row-major, NaN = missing) for codes on
/// Mem: on a device, the rows travel `chunk_bytes` of whole rows at a time (StagedUploader's page-locked
/// buffers, kept from chunk to chunk) into one chunk buffer on Mem, and each chunk is coded before the next is copied, so the
/// device holds the codes and one chunk of floats, never the whole float matrix (upstream's
/// external-memory ELLPACK pages bin batch by batch the same way: src/data/ellpack_page_source.cu).
/// Host memory spaces code the rows in place. Same codes and errors as bin_codes.
template <class BinT, class ExecutionSpace, class Mem>
Kokkos::View<BinT**, Kokkos::LayoutRight, Mem> bin_host_rows(ExecutionSpace const& space,
                                                             Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace> X,
                                                             HistogramCuts<Mem> const& cuts,
                                                             std::vector<std::uint32_t> const& host_ptrs,
                                                             std::size_t chunk_bytes = std::size_t(256) << 20) {
  if constexpr (std::is_same_v<Mem, Kokkos::HostSpace>) {
    (void)chunk_bytes;
    return bin_codes<BinT>(space, X, cuts, host_ptrs);
  } else {
    detail::check_bin_codes<BinT>(X.extent(1), cuts.n_features(), host_ptrs);
    compat::ScopedRegion region("kboost::binning::bin_host_rows");
    std::size_t const rows = X.extent(0), features = X.extent(1);
    std::size_t const chunk = std::min(std::max<std::size_t>(1, chunk_bytes / std::max<std::size_t>(1, features * sizeof(float))),
                                       std::max<std::size_t>(rows, 1));
    auto codes = allocate_view<Kokkos::View<BinT**, Kokkos::LayoutRight, Mem>>("kboost::binning::codes", false, rows, features);
    auto buffer = allocate_view<Kokkos::View<float**, Kokkos::LayoutRight, Mem>>("kboost::binning::chunk", false, chunk, features);
    StagedUploader<float> upload;
    for (std::size_t r0 = 0; r0 < rows; r0 += chunk) {
      auto const r = std::make_pair(r0, std::min(rows, r0 + chunk));
      auto const part = Kokkos::subview(buffer, std::make_pair(std::size_t(0), r.second - r0), Kokkos::ALL());
      upload(space, part, Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace>(Kokkos::subview(X, r, Kokkos::ALL())));
      detail::code_rows(space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem>(part), cuts,
                        Kokkos::View<BinT**, Kokkos::LayoutRight, Mem>(Kokkos::subview(codes, r, Kokkos::ALL())));
      space.fence();  // the chunk buffer is refilled next
    }
    return codes;
  }
}

/// bin_codes of a CSR matrix (rows × n_features; row_map rows + 1 offsets, entries the column of
/// each stored value in increasing order within a row, values; an absent entry or a NaN value is
/// missing) without making a dense float copy: every code starts as its feature's missing code
/// n_f, then each stored value is searched as in bin_codes. Same codes as bin_codes on the
/// densified matrix. Throws std::runtime_error when n_features differs from the cuts' or a
/// feature's n_f does not fit BinT (column indices are checked by checked_csr, core/dmatrix.hpp).
template <class BinT, class ExecutionSpace, class Mem>
Kokkos::View<BinT**, Kokkos::LayoutRight, Mem> bin_codes_csr(ExecutionSpace const& space,
                                                             Kokkos::View<const std::int64_t*, Mem> row_map,
                                                             Kokkos::View<const std::int32_t*, Mem> entries,
                                                             Kokkos::View<const float*, Mem> values,
                                                             std::size_t n_features, HistogramCuts<Mem> const& cuts,
                                                             std::vector<std::uint32_t> const& host_ptrs) {
  static_assert(std::is_same_v<BinT, std::uint8_t> || std::is_same_v<BinT, std::uint16_t>, "8- or 16-bit codes");
  if (n_features != cuts.n_features())
    throw std::runtime_error("bin_codes_csr: the matrix has " + std::to_string(n_features) + " features, cuts have " +
                             std::to_string(cuts.n_features()));
  if (bin_code_bytes(host_ptrs) > static_cast<int>(sizeof(BinT)))
    throw std::runtime_error("bin_codes_csr: a feature's bins do not fit " + std::to_string(8 * sizeof(BinT)) +
                             "-bit codes");
  compat::ScopedRegion region("kboost::binning::bin_codes_csr");
  std::size_t const rows = row_map.extent(0) == 0 ? 0 : row_map.extent(0) - 1;
  std::size_t const features = n_features;
  auto codes = allocate_view<Kokkos::View<BinT**, Kokkos::LayoutRight, Mem>>("kboost::binning::codes", false, rows, features);
  auto ptrs = cuts.ptrs;
  auto cut_values = cuts.values;
  auto categorical = cuts.categorical;
  auto missing = KOKKOS_LAMBDA(std::size_t i, std::size_t f) { codes(i, f) = static_cast<BinT>(ptrs(f + 1) - ptrs(f)); };
  auto code_stored = KOKKOS_LAMBDA(std::size_t i) {
    for (std::int64_t k = row_map(i); k < row_map(i + 1); ++k) {
      auto const f = static_cast<std::size_t>(entries(k));
      std::int32_t const b = feature_bin(ptrs, cut_values, categorical, f, values(k));
      if (b >= 0) codes(i, f) = static_cast<BinT>(static_cast<std::uint32_t>(b) - ptrs(f));
    }
  };
  using Policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>;
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    Kokkos::parallel_for("kboost::binning::code_csr_rows", Policy(space, 0, rows), KOKKOS_LAMBDA(std::size_t i) {
      for (std::size_t f = 0; f < features; ++f) missing(i, f);
      code_stored(i);
    });
  } else {
    // devices: the missing codes cell by cell (coalesced), then one thread per row for its entries
    Kokkos::parallel_for("kboost::binning::code_csr_missing", Policy(space, 0, rows * features),
                         KOKKOS_LAMBDA(std::size_t idx) { missing(idx / features, idx % features); });
    Kokkos::parallel_for("kboost::binning::code_csr_entries", Policy(space, 0, rows), code_stored);
  }
  return codes;
}

/// A training matrix's bin codes (bin_codes) in two orders: by_row (rows × features, row-major) for
/// the device histogram kernels, which give each thread one row; by_feature (rows × features,
/// column-major) for the partition and the host histogram kernel, which read one feature of many
/// rows (LightGBM also keeps column-wise bins, src/io/dataset.cpp).
template <class BinT, class Mem>
struct BinCodes {
  Kokkos::View<const BinT**, Kokkos::LayoutRight, Mem> by_row;
  Kokkos::View<const BinT**, Kokkos::LayoutLeft, Mem> by_feature;

  std::size_t n_rows() const { return by_row.extent(0); }
  std::size_t n_features() const { return by_row.extent(1); }
};

/// BinCodes of row-major codes (rows × features): adds the column-major copy.
template <class BinT, class ExecutionSpace, class Mem>
BinCodes<BinT, Mem> with_feature_order(ExecutionSpace const& space,
                                       Kokkos::View<const BinT**, Kokkos::LayoutRight, Mem> by_row) {
  Kokkos::View<BinT**, Kokkos::LayoutLeft, Mem> col(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::binning::codes_by_feature"), by_row.extent(0),
      by_row.extent(1));
  Kokkos::deep_copy(space, col, by_row);
  space.fence();
  return BinCodes<BinT, Mem>{by_row, col};
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
  auto bins = allocate_view<Kokkos::View<std::int32_t**, Kokkos::LayoutRight, Mem>>("kboost::binning::bins", false, rows, features);
  auto ptrs = cuts.ptrs;
  auto values = cuts.values;
  auto categorical = cuts.categorical;
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    // host cores: one row per iteration (no division per cell)
    Kokkos::parallel_for("kboost::binning::bin_rows",
                         Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, rows),
                         KOKKOS_LAMBDA(std::size_t i) {
                           for (std::size_t f = 0; f < features; ++f) bins(i, f) = feature_bin(ptrs, values, categorical, f, X(i, f));
                         });
  } else {
    // devices: one cell per thread, consecutive threads on consecutive cells (coalesced)
    Kokkos::parallel_for("kboost::binning::bin_cells",
                         Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, rows * features),
                         KOKKOS_LAMBDA(std::size_t idx) {
                           std::size_t const i = idx / features, f = idx % features;
                           bins(i, f) = feature_bin(ptrs, values, categorical, f, X(i, f));
                         });
  }
  return bins;
}

}  // namespace kboost
