#pragma once
/// \file dmatrix.hpp
/// kboost's data matrix: features (rows × features, float32, missing = NaN or absent), labels,
/// weights and query groups, held in Kokkos Views of one memory space.
#include <Kokkos_Core.hpp>
#include <KokkosSparse_CrsMatrix.hpp>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace kboost {

/// Feature kind, as XGBoost's `feature_types` ("q" numerical/quantitative, "c" categorical).
enum class FeatureType : std::uint8_t { kNumerical = 0, kCategorical = 1 };

/// What a reader knows about the dataset besides the numbers (always on the host).
struct DatasetInfo {
  std::string source;                          ///< file the data came from ("" when built in memory)
  std::vector<std::string> feature_names;      ///< one per feature; may be empty
  std::vector<FeatureType> feature_types;      ///< one per feature; empty = all numerical
  /// For categorical features read from strings: category code -> string, codes in sorted order of
  /// the distinct strings (pandas' categorical codes). Keyed by feature index.
  std::map<int, std::vector<std::string>> categories;
  std::string label_name;                      ///< label column name (CSV with header), else ""
  std::size_t n_missing = 0;                   ///< missing cells (NaN, empty, marker or absent)
  /// String labels read from a CSV label column: class code -> string, codes in sorted order of the
  /// distinct strings (like sklearn's LabelEncoder); empty when the labels were numbers.
  std::vector<std::string> label_classes;
  /// A shard of a file (ReadOptions::shard_count > 1): the file's row index of this matrix's row 0,
  /// and the rows in the whole file. 0 and n_rows for a whole file.
  std::size_t first_row = 0;
  std::size_t total_rows = 0;
};

/// A dataset of `n_rows` × `n_features` float32 values in `MemorySpace`.
/// Storage is dense (row-major, NaN = missing) or sparse CSR (absent entry = missing); exactly one
/// is populated (`is_sparse()` says which). Labels: n_rows × n_targets, row-major (empty View when
/// unlabelled; n_targets > 1 is multi-target regression, upstream's 2-D `MetaInfo::labels`).
/// Weights: n_rows or empty (= all 1). group_ptr: n_groups + 1 row offsets or empty (no qid).
/// label_lower_bound / label_upper_bound: n_rows each or empty, survival:aft's interval labels
/// (upstream's label_lower_bound / label_upper_bound: lower == upper an observed time, upper = inf
/// right-censored, lower = 0 left-censored).
template <class MemorySpace>
struct DMatrix {
  using memory_space = MemorySpace;
  using execution_space = typename MemorySpace::execution_space;
  using device_type = Kokkos::Device<execution_space, memory_space>;
  using dense_type = Kokkos::View<float**, Kokkos::LayoutRight, MemorySpace>;
  using csr_type = KokkosSparse::CrsMatrix<float, std::int32_t, device_type, void, std::int64_t>;

  std::size_t n_rows = 0;
  std::size_t n_features = 0;
  std::size_t n_targets = 1;  ///< label values per row
  dense_type dense;          ///< rows × features, NaN = missing (when !is_sparse())
  csr_type csr;              ///< rows × features CSR (when is_sparse())
  Kokkos::View<float*, MemorySpace> label;
  Kokkos::View<float*, MemorySpace> weight;
  Kokkos::View<std::uint32_t*, MemorySpace> group_ptr;
  Kokkos::View<float*, MemorySpace> label_lower_bound;
  Kokkos::View<float*, MemorySpace> label_upper_bound;
  DatasetInfo info;

  bool is_sparse() const { return csr.numRows() > 0 || (dense.extent(0) == 0 && n_rows > 0); }
  bool has_labels() const { return label.extent(0) == n_rows * n_targets && n_rows > 0; }
  bool has_weights() const { return weight.extent(0) == n_rows && n_rows > 0; }
  bool has_label_bounds() const {
    return label_lower_bound.extent(0) == n_rows && label_upper_bound.extent(0) == n_rows && n_rows > 0;
  }
};

/// The matrix as read from files, in host memory.
using HostDMatrix = DMatrix<Kokkos::HostSpace>;

/// The three arrays of a CSR matrix (rows × n_features) as the training kernels read them:
/// row_map (rows + 1 offsets into entries/values), entries (the column of each stored value,
/// increasing within a row), values (absent entries and NaN values are missing).
template <class MemorySpace>
struct CsrArrays {
  Kokkos::View<const std::int64_t*, MemorySpace> row_map;
  Kokkos::View<const std::int32_t*, MemorySpace> entries;
  Kokkos::View<const float*, MemorySpace> values;
  std::size_t n_features = 0;

  std::size_t n_rows() const { return row_map.extent(0) == 0 ? 0 : row_map.extent(0) - 1; }
};

/// The CSR arrays of a sparse host matrix `m`, after checking that every row's columns are
/// increasing and below n_features and its offsets are in order (the LibSVM reader guarantees
/// this; a matrix built in memory may not). Throws std::runtime_error naming the source and row
/// otherwise, or when `m` is dense.
inline CsrArrays<Kokkos::HostSpace> checked_csr(DMatrix<Kokkos::HostSpace> const& m) {
  std::string const src = m.info.source.empty() ? std::string("the CSR matrix") : m.info.source;
  if (!m.is_sparse()) throw std::runtime_error(src + " is dense, not CSR");
  auto const& rm = m.csr.graph.row_map;
  auto const& cols = m.csr.graph.entries;
  if (rm.extent(0) != m.n_rows + 1 || rm(0) != 0 || static_cast<std::size_t>(rm(m.n_rows)) != cols.extent(0) ||
      cols.extent(0) != m.csr.values.extent(0))
    throw std::runtime_error(src + ": CSR offsets do not match " + std::to_string(m.n_rows) + " rows and " +
                             std::to_string(cols.extent(0)) + " entries");
  for (std::size_t i = 0; i < m.n_rows; ++i) {
    if (rm(i + 1) < rm(i)) throw std::runtime_error(src + ": row " + std::to_string(i) + " has a negative length");
    for (auto k = rm(i); k < rm(i + 1); ++k) {
      bool const in_range = cols(k) >= 0 && static_cast<std::size_t>(cols(k)) < m.n_features;
      if (!in_range || (k > rm(i) && cols(k) <= cols(k - 1)))
        throw std::runtime_error(src + ": row " + std::to_string(i) + " entry " + std::to_string(k - rm(i)) +
                                 ": column " + std::to_string(cols(k)) +
                                 (in_range ? " is not above the previous column" : " is outside [0, " +
                                                                                       std::to_string(m.n_features) + ")"));
    }
  }
  return CsrArrays<Kokkos::HostSpace>{rm, cols, m.csr.values, m.n_features};
}

/// Deep copy of a DMatrix into another memory space (one upload per field; dense stays dense,
/// CSR stays CSR).
template <class DstSpace, class SrcSpace>
DMatrix<DstSpace> copy_to(DMatrix<SrcSpace> const& src) {
  DMatrix<DstSpace> dst;
  dst.n_rows = src.n_rows;
  dst.n_features = src.n_features;
  dst.n_targets = src.n_targets;
  dst.info = src.info;
  if (src.dense.extent(0) > 0 || !src.is_sparse()) {
    dst.dense = Kokkos::create_mirror_view_and_copy(DstSpace(), src.dense);
  } else {
    auto rm = Kokkos::create_mirror_view_and_copy(DstSpace(), src.csr.graph.row_map);
    auto ci = Kokkos::create_mirror_view_and_copy(DstSpace(), src.csr.graph.entries);
    auto va = Kokkos::create_mirror_view_and_copy(DstSpace(), src.csr.values);
    dst.csr = typename DMatrix<DstSpace>::csr_type("kboost::DMatrix::csr", static_cast<std::int32_t>(src.n_rows),
                                                   static_cast<std::int32_t>(src.n_features),
                                                   static_cast<std::int64_t>(va.extent(0)), va, rm, ci);
  }
  dst.label = Kokkos::create_mirror_view_and_copy(DstSpace(), src.label);
  dst.weight = Kokkos::create_mirror_view_and_copy(DstSpace(), src.weight);
  dst.group_ptr = Kokkos::create_mirror_view_and_copy(DstSpace(), src.group_ptr);
  dst.label_lower_bound = Kokkos::create_mirror_view_and_copy(DstSpace(), src.label_lower_bound);
  dst.label_upper_bound = Kokkos::create_mirror_view_and_copy(DstSpace(), src.label_upper_bound);
  return dst;
}

}  // namespace kboost
