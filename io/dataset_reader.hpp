#pragma once
/// \file dataset_reader.hpp
/// Reading datasets from files into a HostDMatrix: CSV/TSV (dense), LibSVM/svmlight (CSR) and HDF5
/// (dense), with labels, sample weights and query groups. Follows XGBoost's text parsers
/// (dmlc-core src/data/csv_parser.h, libsvm_parser.h; xgboost src/data/data.cc DMatrix::Load):
/// numbers are parsed straight to float32, missing cells are NaN (dense) or absent (CSR).
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kboost/core/collective.hpp>
#include <kboost/core/dmatrix.hpp>

namespace kboost {

/// How to read a dataset file. Defaults suit XGBoost's conventions; most files need no flags.
struct ReadOptions {
  /// "csv" | "libsvm" | "hdf5" | "auto" (by extension: .csv/.tsv/.data -> csv, .h5/.hdf5 -> hdf5,
  /// else sniffed: a first line of `label idx:val` tokens is libsvm, otherwise csv).
  std::string format = "auto";
  // ---- CSV ----
  /// Unset: detect (the first row has a non-numeric field that is not a missing marker).
  std::optional<bool> header;
  /// Label column: a header name or a 0-based index; "" = no label. Negative index counts from the end
  /// ("-1" = last column). Several columns separated by commas ("y1,y2", "0,1") are multi-target
  /// labels (rows × targets), unless the header has a column of that whole name.
  std::string label_column;
  /// Field delimiter; '\0' (default) = detect from the first line: tab if it has one, else comma.
  char delimiter = '\0';
  /// Fields (after trimming spaces) read as missing.
  std::vector<std::string> missing_markers{"", "NA", "NaN", "nan", "?"};
  // ---- LibSVM ----
  /// 0: indices used as column ids as-is (XGBoost's default), 1: 1-based, -1: detect (1-based if no
  /// index 0 appears in the file).
  int index_base = 0;
  // ---- HDF5 ----
  std::string features_dataset = "X";  ///< rows × features, any numeric type, read as float32
  std::string label_dataset = "y";     ///< rows (or rows × targets), or "" for none (a missing "y" is no error)
  // ---- side information ----
  std::string weight_column;  ///< CSV column (name or index) holding sample weights (not a feature)
  std::string weight_file;    ///< one weight per line (XGBoost `.weight` format)
  std::string group_file;     ///< one group size per line (XGBoost `.group`, LightGBM `.query`)
  std::string qid_column;     ///< CSV column with query ids (consecutive equal ids form a group)
  /// survival:aft's interval labels (upstream's label_lower_bound / label_upper_bound): CSV columns
  /// (name or index; not features) or HDF5 datasets. Both or neither; "inf" in the upper bound is a
  /// right-censored row, 0 in the lower bound a left-censored one.
  std::string label_lower_bound_column, label_upper_bound_column;
  std::vector<std::string> ignore_columns;  ///< CSV columns (names or indices) that are not features
  /// Also load `<data>.weight` and `<data>.group` (or LightGBM's `<data>.query`) when they exist and
  /// no file was named. Off by default: XGBoost 1.x did this (src/data/data.cc "backward compatibility
  /// code"), XGBoost 3.2 no longer does (checked: DMatrix("f?format=libsvm") ignores f.group/f.weight).
  bool auto_side_files = false;
  std::size_t num_features = 0;  ///< 0 = from the data; else force this width (error if data is wider)
  std::vector<int> categorical_columns;  ///< force these (0-based feature index) categorical
  /// Code text columns and string labels with these codes (the training file's info) instead of
  /// this file's own sorted distinct strings, so an eval file means what the training file did.
  /// A category not in the reference follows `unseen_category`; a label class not in it is an
  /// error (file, line). Text in a column the reference read as numbers is an error. CSV only; not
  /// owned.
  DatasetInfo const* category_reference = nullptr;
  /// kError (upstream's rule): a category not in the reference is an error naming file, line and
  /// column; kMissing: read as missing and counted in DatasetInfo::unseen_categories.
  UnseenCategory unseen_category = UnseenCategory::kError;
  // ---- shards (a distributed fit: each rank reads its own rows) ----
  /// Keep rows [total × shard_index / shard_count, total × (shard_index + 1) / shard_count) of the
  /// file: the rows of rank shard_index of shard_count. HDF5 reads only those rows (a hyperslab);
  /// CSV and LibSVM files are parsed whole and cut (read_dataset_shard reads byte ranges instead).
  /// Side files (weight file) are cut alike; query groups cannot be split and are refused.
  std::size_t shard_index = 0;
  std::size_t shard_count = 1;
};

/// The row range [first, last) of shard `index` of `count` over `total` rows.
inline std::pair<std::size_t, std::size_t> shard_rows(std::size_t total, std::size_t index, std::size_t count) {
  auto const at = [&](std::size_t k) {
    return static_cast<std::size_t>(static_cast<unsigned __int128>(total) * k / count);
  };
  return {at(index), at(index + 1)};
}

/// Read `path` into host memory.
/// Result: n_rows × n_features; dense (NaN = missing) for CSV/HDF5, CSR for LibSVM; label (n_rows)
/// when a label column/dataset exists; weight (n_rows) and group_ptr (n_groups + 1) when given.
/// info: feature names (CSV header / HDF5), feature types, categories (string columns -> codes in
/// sorted order, like pandas), n_missing (dense NaN cells, or rows × features − stored entries for CSR).
/// Throws std::runtime_error naming the file, the 1-based line and the field for bad input.
HostDMatrix read_dataset(std::string const& path, ReadOptions const& opt = {});

/// This rank's rows of `path` in a job of comm.size() ranks, in rank order of the file's rows
/// (core/collective.hpp). HDF5: the rank's hyperslab (read_dataset with shard_index = rank,
/// shard_count = ranks). CSV and LibSVM: the rank reads and parses only its byte range of the file
/// (whole lines: a line belongs to the rank whose range holds its first byte; a CSV range is
/// parsed after the file's line 1, for the header), with the file's line numbers in errors. Where
/// a range cannot decide alone — text columns or labels (their codes come from the whole file),
/// ranks that disagree on the CSV header, LibSVM index_base = -1, a rank without lines — every rank
/// parses the whole file and keeps its rows instead, so the matrix is always the whole file's rows.
/// LibSVM widths are the largest over ranks. info.first_row / info.total_rows place the rows.
/// \throws AgreedError on every rank when any rank fails (naming the rank, file, line and field);
/// query groups cannot be split over ranks and are refused.
HostDMatrix read_dataset_shard(std::string const& path, ReadOptions const& opt, Collective& comm);

/// One sentence per column of `info.unseen_categories` (categories the training data lacked, read
/// as missing under UnseenCategory::kMissing): file, column, cell count, first value and its 1-based
/// data row. Empty when there were none.
std::vector<std::string> unseen_category_notes(DatasetInfo const& info);

/// The format read_dataset would use for `path` with `opt` ("csv", "libsvm" or "hdf5").
std::string resolve_format(std::string const& path, ReadOptions const& opt);

}  // namespace kboost
