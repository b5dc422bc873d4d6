#pragma once
/// \file csr_matrix.hpp
/// kboost's compressed-sparse-row matrix: three Views in one memory space. It keeps the member
/// names and the constructor of `KokkosSparse::CrsMatrix<float, int32_t, Device, void, int64_t>`
/// (Kokkos Kernels), which `DMatrix::csr` was before, so code written against `DMatrix::csr`
/// keeps compiling; kboost only ever stored data in it. Kokkos Kernels 4.x's CrsMatrix needs
/// Kokkos' deprecated 4.x code, which kboost builds without.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kboost {

/// A rows × cols CSR matrix of floats in `DeviceType`'s memory space.
/// - graph.row_map: rows + 1 offsets (int64) into entries/values, row_map(0) = 0;
/// - graph.entries: the column (int32) of each stored value;
/// - values: the stored values (float).
/// An empty row_map is a matrix of 0 rows. Nothing here checks the arrays' contents
/// (`checked_csr` in dmatrix.hpp does, before training reads them).
template <class DeviceType>
struct CsrMatrix {
  using row_map_type = Kokkos::View<std::int64_t*, DeviceType>;
  using entries_type = Kokkos::View<std::int32_t*, DeviceType>;
  using values_type = Kokkos::View<float*, DeviceType>;

  /// The sparsity pattern (KokkosSparse's `graph` member).
  struct Graph {
    row_map_type row_map;
    entries_type entries;
  };

  Graph graph;
  values_type values;

  CsrMatrix() = default;

  /// A matrix over existing arrays (no copy). `label` is unused (KokkosSparse's signature).
  /// \throws std::invalid_argument when row_map does not hold n_rows + 1 offsets (or is empty for
  ///   0 rows), or entries / values do not hold nnz elements each, or a count is negative.
  CsrMatrix(std::string const& label, std::int32_t n_rows, std::int32_t n_cols, std::int64_t nnz, values_type vals,
            row_map_type row_map, entries_type entries)
      : graph{row_map, entries}, values(vals), n_cols_(n_cols) {
    (void)label;
    bool const rows_ok = n_rows >= 0 && (row_map.extent(0) == static_cast<std::size_t>(n_rows) + 1 ||
                                         (n_rows == 0 && row_map.extent(0) == 0));
    bool const nnz_ok = nnz >= 0 && entries.extent(0) == static_cast<std::size_t>(nnz) &&
                        vals.extent(0) == static_cast<std::size_t>(nnz);
    if (!rows_ok || !nnz_ok || n_cols < 0)
      throw std::invalid_argument("CsrMatrix: " + std::to_string(n_rows) + " rows, " + std::to_string(n_cols) +
                                  " columns and " + std::to_string(nnz) + " entries do not match row_map(" +
                                  std::to_string(row_map.extent(0)) + "), entries(" +
                                  std::to_string(entries.extent(0)) + ") and values(" +
                                  std::to_string(vals.extent(0)) + ")");
  }

  /// Rows: row_map's length - 1 (0 for an empty row_map).
  KOKKOS_INLINE_FUNCTION std::int32_t numRows() const {
    return graph.row_map.extent(0) == 0 ? 0 : static_cast<std::int32_t>(graph.row_map.extent(0) - 1);
  }
  /// Columns, as given to the constructor.
  KOKKOS_INLINE_FUNCTION std::int32_t numCols() const { return n_cols_; }
  /// Stored entries: entries' length.
  KOKKOS_INLINE_FUNCTION std::int64_t nnz() const { return static_cast<std::int64_t>(graph.entries.extent(0)); }

 private:
  std::int32_t n_cols_ = 0;
};

}  // namespace kboost
