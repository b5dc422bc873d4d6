#pragma once
/// \file dmatrix.hpp
/// kboost's data matrix: features (rows × features, float32, missing = NaN or absent), labels,
/// weights and query groups, held in Kokkos Views of one memory space; and host_dmatrix, the one
/// way to make a HostDMatrix from a caller's Views or C arrays.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <kboost/core/csr_matrix.hpp>

namespace kboost {

/// Feature kind, as XGBoost's `feature_types` ("q" numerical/quantitative, "c" categorical).
enum class FeatureType : std::uint8_t { kNumerical = 0, kCategorical = 1 };

/// What a reader knows about the dataset besides the numbers (always on the host).
/// What becomes of a category value that the training data's (or the model's) list for its column
/// lacks. Upstream 3.4.1 refuses it ("Found a category not in the training set",
/// src/encoder/ordinal.h Recode), which is kError; kMissing reads the cell as missing and counts it.
enum class UnseenCategory { kError, kMissing };

/// Cells of one column holding categories the reference lacked (read as missing under
/// UnseenCategory::kMissing): how many, the first such value and its 0-based row.
struct UnseenCategories {
  std::size_t cells = 0;
  std::string first_value;
  std::size_t first_row = 0;
  /// Counts the cell of `row` holding `value`.
  void note(std::size_t row, std::string const& value) {
    if (cells++ == 0) {
      first_value = value;
      first_row = row;
    }
  }
};

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
  /// Per feature index: category values the reference (training file or model encoder) lacks, read
  /// as missing under UnseenCategory::kMissing. Empty when there were none.
  std::map<int, UnseenCategories> unseen_categories;
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
  using csr_type = CsrMatrix<device_type>;

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

namespace detail {

/// Host View type of a caller's rank-`rank` float array: row-major, not owned.
template <int rank>
using HostFloatArray = Kokkos::View<std::conditional_t<rank == 1, const float*, const float**>, Kokkos::LayoutRight,
                                    Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// Throws std::runtime_error naming `what` ("labels", "weights") unless it has `rows` rows.
inline void require_rows(char const* what, std::size_t got, std::size_t rows) {
  if (got != rows)
    throw std::runtime_error(std::string("host_dmatrix: ") + what + " have " + std::to_string(got) + " rows, X has " +
                             std::to_string(rows));
}

/// Copies `labels` (rows, or rows × targets; any memory space and layout) into d.label, row-major
/// (d.n_targets values per row).
template <class LabelView>
void set_host_labels(HostDMatrix& d, LabelView const& labels) {
  static_assert(LabelView::rank == 1 || LabelView::rank == 2, "labels must be a rows or rows x targets View");
  require_rows("labels", labels.extent(0), d.n_rows);
  if (LabelView::rank == 2 && labels.extent(1) == 0) throw std::runtime_error("host_dmatrix: labels have 0 targets per row");
  d.n_targets = LabelView::rank == 2 ? labels.extent(1) : 1;
  auto const host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), labels);
  d.label = Kokkos::View<float*, Kokkos::HostSpace>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::host_dmatrix::label"), d.n_rows * d.n_targets);
  if constexpr (LabelView::rank == 2) {
    Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> rows_targets(
        d.label.data(), d.n_rows, d.n_targets);
    Kokkos::deep_copy(rows_targets, host);
  } else {
    Kokkos::deep_copy(d.label, host);
  }
}

/// Copies `weights` (rows, any memory space and layout) into d.weight; an empty View leaves d
/// unweighted (all 1).
template <class WeightView>
void set_host_weights(HostDMatrix& d, WeightView const& weights) {
  static_assert(WeightView::rank == 1, "weights must be a rows View");
  if (weights.extent(0) == 0) return;
  require_rows("weights", weights.extent(0), d.n_rows);
  d.weight = Kokkos::View<float*, Kokkos::HostSpace>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::host_dmatrix::weight"), d.n_rows);
  Kokkos::deep_copy(d.weight, Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), weights));
}

}  // namespace detail

/// A dense HostDMatrix holding a copy of X (rows × features float32, NaN = missing), unlabelled.
/// X may live in any memory space and have any layout (LayoutRight, LayoutLeft, LayoutStride): it
/// is copied to the host when not host-accessible, then into d.dense in row-major order.
/// Needs Kokkos initialised.
template <class XView, std::enable_if_t<Kokkos::is_view<XView>::value, int> = 0>
HostDMatrix host_dmatrix(XView const& X) {
  static_assert(XView::rank == 2, "X must be a rows x features View");
  static_assert(std::is_same_v<typename XView::non_const_value_type, float>, "X must hold float");
  HostDMatrix d;
  d.n_rows = X.extent(0);
  d.n_features = X.extent(1);
  d.dense = HostDMatrix::dense_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::host_dmatrix::X"),
                                    d.n_rows, d.n_features);
  Kokkos::deep_copy(d.dense, Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), X));  // to row-major
  return d;
}

/// As host_dmatrix(X) with labels and optional weights, copied the same way: labels (rows, or
/// rows × targets for multi-target training: d.n_targets = targets, d.label row-major) and weights
/// (rows, or an empty View for all 1), each in any memory space and layout.
/// \throws std::runtime_error naming the labels or the weights when they do not have X's rows, or
/// when rows × targets labels have no target.
template <class XView, class LabelView, class WeightView = Kokkos::View<const float*, Kokkos::HostSpace>,
          std::enable_if_t<Kokkos::is_view<XView>::value && Kokkos::is_view<LabelView>::value, int> = 0>
HostDMatrix host_dmatrix(XView const& X, LabelView const& labels, WeightView const& weights = {}) {
  HostDMatrix d = host_dmatrix(X);
  detail::set_host_labels(d, labels);
  detail::set_host_weights(d, weights);
  return d;
}

/// Whether X's memory already is a row-major host matrix: host-accessible, LayoutRight, rows one
/// after the other without padding (a row range of a LayoutRight View is; a column subset is not).
template <class XView>
bool is_host_row_major(XView const& X) {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename XView::memory_space>::accessible &&
                std::is_same_v<typename XView::array_layout, Kokkos::LayoutRight>) {
    return X.extent(0) < 2 || X.stride(0) == X.extent(1);
  } else {
    (void)X;
    return false;
  }
}

/// As host_dmatrix(X, labels, weights), except that X's values are borrowed rather than copied
/// when is_host_row_major(X): d.dense then refers to X's memory (an unmanaged View), so d is valid
/// only while X lives and unchanged — for callers that use the matrix within one call
/// (BasicBooster::train's View overload, the C binding's training). Any other X is copied as
/// host_dmatrix copies it. Labels and weights are always copied (rows floats each).
/// \throws std::runtime_error as host_dmatrix.
template <class XView, class LabelView, class WeightView = Kokkos::View<const float*, Kokkos::HostSpace>,
          std::enable_if_t<Kokkos::is_view<XView>::value && Kokkos::is_view<LabelView>::value, int> = 0>
HostDMatrix host_dmatrix_borrowing(XView const& X, LabelView const& labels, WeightView const& weights = {}) {
  static_assert(XView::rank == 2, "X must be a rows x features View");
  static_assert(std::is_same_v<typename XView::non_const_value_type, float>, "X must hold float");
  if (!is_host_row_major(X)) return host_dmatrix(X, labels, weights);
  HostDMatrix d;
  d.n_rows = X.extent(0);
  d.n_features = X.extent(1);
  // the matrix is only read: training takes it as a const HostDMatrix&
  d.dense = HostDMatrix::dense_type(const_cast<float*>(X.data()), d.n_rows, d.n_features);
  detail::set_host_labels(d, labels);
  detail::set_host_weights(d, weights);
  return d;
}

/// host_dmatrix of the caller's C arrays: x (rows × features floats, row-major, NaN = missing),
/// labels (rows × n_targets floats, row-major; nullptr = unlabelled) and weights (rows floats;
/// nullptr = all 1), wrapped as host Views and copied as above.
/// \throws std::runtime_error when x is nullptr for a non-empty matrix, or labels come with
/// n_targets 0.
inline HostDMatrix host_dmatrix(float const* x, std::size_t rows, std::size_t features, float const* labels = nullptr,
                                float const* weights = nullptr, std::size_t n_targets = 1) {
  if (x == nullptr && rows * features != 0)
    throw std::runtime_error("host_dmatrix: X is NULL for " + std::to_string(rows) + " x " + std::to_string(features) +
                             " values");
  HostDMatrix d = host_dmatrix(detail::HostFloatArray<2>(x, rows, features));
  if (labels != nullptr) detail::set_host_labels(d, detail::HostFloatArray<2>(labels, rows, n_targets));
  if (weights != nullptr) detail::set_host_weights(d, detail::HostFloatArray<1>(weights, rows));
  return d;
}

}  // namespace kboost
