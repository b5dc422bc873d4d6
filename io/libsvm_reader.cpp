/// LibSVM/svmlight reader into CSR: `label[:weight] [qid:N] idx:val ... [# comment]` per line.
/// Follows dmlc-core's LibSVMParser (src/data/libsvm_parser.h, used by XGBoost's text loader):
/// indices as-is by default (indexing_mode 0), 1-based when asked, or detected (no index 0 -> 1-based);
/// num_features = largest index + 1; blank lines skipped; `qid:` rows grouped in order.
#include <algorithm>
#include <limits>

#include <kboost/io/detail/reader.hpp>

namespace kboost::io_detail {
namespace {

struct Entry {
  std::int64_t index;
  float value;
};

void split_ws(std::string_view s, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
}

/// The rows read so far: labels, optional weights and query ids, and the stored (non-NaN) entries in
/// CSR order with the file line of each row.
struct LibsvmRows {
  std::vector<float> label, weight;
  std::vector<std::int64_t> qid;
  std::vector<std::size_t> row_line;
  std::vector<std::int64_t> row_ptr{0};
  std::vector<Entry> entries;
  std::int64_t min_index = std::numeric_limits<std::int64_t>::max(), max_index = -1;
  bool infinity_is_missing = false;  ///< a missing marker spells +infinity (upstream's missing=inf)
};

/// Field 1, `label[:weight]`: a finite label, and a weight on every row or on none.
void parse_label_weight(LibsvmRows& rows, std::string_view token, std::string const& path, std::size_t ln) {
  std::string_view lab = token, wt;
  if (auto colon = lab.find(':'); colon != std::string_view::npos) {
    wt = lab.substr(colon + 1);
    lab = lab.substr(0, colon);
  }
  auto lv = parse_float(lab);
  if (!lv) fail(path, ln, "field 1 (label)", "'" + std::string(token) + "' is not a number");
  if (!std::isfinite(*lv)) fail(path, ln, "field 1 (label)", "label is not finite");
  rows.label.push_back(*lv);
  if (!wt.empty()) {
    auto wv = parse_float(wt);
    if (!wv || !std::isfinite(*wv) || *wv < 0)
      fail(path, ln, "field 1 (label:weight)", "weight '" + std::string(wt) + "' is not a finite non-negative number");
    if (rows.weight.size() + 1 != rows.label.size()) fail(path, ln, "field 1 (label:weight)", "only some rows have weights");
    rows.weight.push_back(*wv);
  } else if (!rows.weight.empty()) {
    fail(path, ln, "field 1 (label)", "no weight, but earlier rows have label:weight");
  }
}

/// Field 2 when it is `qid:N`, on every row or on none. Returns the index of the first feature field.
std::size_t parse_qid(LibsvmRows& rows, std::vector<std::string_view> const& toks, std::string const& path, std::size_t ln) {
  if (toks.size() > 1 && toks[1].substr(0, 4) == "qid:") {
    auto q = parse_int(toks[1].substr(4));
    if (!q) fail(path, ln, "field 2 (qid)", "'" + std::string(toks[1]) + "' has no integer query id");
    if (rows.qid.size() + 1 != rows.label.size()) fail(path, ln, "field 2 (qid)", "only some rows have qid");
    rows.qid.push_back(*q);
    return 2;
  }
  if (!rows.qid.empty()) fail(path, ln, "field 2", "no qid, but earlier rows have one");
  return 1;
}

/// The `idx:value` fields from `first` on, sorted by index within the row (a repeated index is
/// ambiguous). An explicit NaN is a missing value: not stored (as XGBoost drops it).
void parse_entries(LibsvmRows& rows, std::vector<std::string_view> const& toks, std::size_t first, std::string const& path,
                   std::size_t ln) {
  std::size_t const row_begin = rows.entries.size();
  for (std::size_t t = first; t < toks.size(); ++t) {
    std::string const field = "field " + std::to_string(t + 1);
    auto colon = toks[t].find(':');
    if (colon == std::string_view::npos) fail(path, ln, field, "'" + std::string(toks[t]) + "' is not idx:value");
    auto idx = parse_int(toks[t].substr(0, colon));
    auto val = parse_float(toks[t].substr(colon + 1));
    if (!idx) fail(path, ln, field, "'" + std::string(toks[t]) + "': feature index is not an integer");
    if (!val) fail(path, ln, field, "'" + std::string(toks[t]) + "': value is not a number");
    if (*idx < 0) fail(path, ln, field, "negative feature index " + std::to_string(*idx));
    // Column ids are 32-bit; refusing here also keeps `max_index + 1` from overflowing.
    if (*idx > std::numeric_limits<std::int32_t>::max())
      fail(path, ln, field, "feature index " + std::to_string(*idx) + " is beyond the largest column id (" +
                                std::to_string(std::numeric_limits<std::int32_t>::max()) + ")");
    if (std::isnan(*val)) continue;
    if (std::isinf(*val)) {
      std::string_view const text = toks[t].substr(colon + 1);
      if (!spells_infinity(text)) fail(path, ln, field, float32_overflow(text));
      if (!rows.infinity_is_missing) fail(path, ln, field, infinity_in_data(text));
      if (*val > 0) continue;  // missing, as upstream's missing=inf
    }
    rows.min_index = std::min(rows.min_index, *idx);
    rows.max_index = std::max(rows.max_index, *idx);
    rows.entries.push_back({*idx, *val});
  }
  auto b = rows.entries.begin() + static_cast<std::ptrdiff_t>(row_begin);
  std::stable_sort(b, rows.entries.end(), [](Entry const& x, Entry const& y) { return x.index < y.index; });
  auto dup = std::adjacent_find(b, rows.entries.end(), [](Entry const& x, Entry const& y) { return x.index == y.index; });
  if (dup != rows.entries.end()) fail(path, ln, "feature index " + std::to_string(dup->index), "appears twice in the row");
  rows.row_ptr.push_back(static_cast<std::int64_t>(rows.entries.size()));
  rows.row_line.push_back(ln);
}

/// Every line: `label[:weight] [qid:N] idx:val ... [# comment]`; blank lines and comments skipped.
LibsvmRows parse_rows(TextSource const& src, bool infinity_is_missing) {
  LibsvmRows rows;
  rows.infinity_is_missing = infinity_is_missing;
  std::vector<std::string_view> toks;
  auto const lines = split_lines(src.text);
  for (std::size_t li = 0; li < lines.size(); ++li) {
    std::string_view line = lines[li];
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    split_ws(line, toks);
    if (toks.empty()) continue;
    std::size_t const ln = src.line_of(li);
    parse_label_weight(rows, toks[0], src.path, ln);
    parse_entries(rows, toks, parse_qid(rows, toks, src.path, ln), src.path, ln);
  }
  if (rows.label.empty() && src.first_line == 1) fail(src.path, 1, "", "empty file: no rows");
  return rows;
}

/// Indices made 0-based when the file is 1-based (asked, or detected: no index 0). Returns whether it was.
bool apply_index_base(LibsvmRows& rows, int index_base, std::string const& path) {
  bool const one_based = index_base == 1 || (index_base == -1 && rows.min_index > 0);
  if (!one_based) return false;
  for (std::size_t r = 0; r + 1 < rows.row_ptr.size(); ++r)
    for (auto k = rows.row_ptr[r]; k < rows.row_ptr[r + 1]; ++k)
      if (rows.entries[static_cast<std::size_t>(k)].index-- == 0)
        fail(path, rows.row_line[r], "feature index 0", "index 0 in a 1-based file");
  if (rows.max_index >= 0) --rows.max_index;
  return true;
}

/// num_features: the largest index + 1, or the forced count (every index below it).
std::size_t feature_count(LibsvmRows const& rows, std::size_t forced, bool one_based, std::string const& path) {
  std::size_t n_features = static_cast<std::size_t>(rows.max_index + 1);
  if (forced > 0) {
    if (n_features > forced) {
      for (std::size_t r = 0; r < rows.label.size(); ++r)
        for (auto k = rows.row_ptr[r]; k < rows.row_ptr[r + 1]; ++k) {
          auto const index = rows.entries[static_cast<std::size_t>(k)].index;
          if (static_cast<std::size_t>(index) >= forced)
            fail(path, rows.row_line[r], "feature index " + std::to_string(index + (one_based ? 1 : 0)),
                 "out of range: num_features = " + std::to_string(forced));
        }
    }
    n_features = forced;
  }
  if (n_features > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    fail(path, 0, "", "too many features for 32-bit column ids");
  return n_features;
}

/// The rows as a CSR HostDMatrix with labels, weights and query groups.
HostDMatrix to_matrix(LibsvmRows const& rows, std::size_t n_features, std::string const& path) {
  HostDMatrix m;
  std::size_t const n_rows = rows.label.size();
  m.n_rows = n_rows;
  m.n_features = n_features;
  std::size_t const nnz = rows.entries.size();
  using csr_t = HostDMatrix::csr_type;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> rm(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::csr::row_map"), n_rows + 1);
  Kokkos::View<std::int32_t*, Kokkos::HostSpace> ci(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::csr::entries"), nnz);
  Kokkos::View<float*, Kokkos::HostSpace> va(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::csr::values"), nnz);
  for (std::size_t r = 0; r <= n_rows; ++r) rm(r) = rows.row_ptr[r];
  for (std::size_t k = 0; k < nnz; ++k) {
    ci(k) = static_cast<std::int32_t>(rows.entries[k].index);
    va(k) = rows.entries[k].value;
  }
  m.csr = csr_t("kboost::DMatrix::csr", static_cast<std::int32_t>(n_rows), static_cast<std::int32_t>(n_features),
                static_cast<std::int64_t>(nnz), va, rm, ci);
  m.label = to_view("kboost::DMatrix::label", rows.label);
  if (!rows.weight.empty()) m.weight = to_view("kboost::DMatrix::weight", rows.weight);
  if (!rows.qid.empty()) m.group_ptr = to_view("kboost::DMatrix::group_ptr", groups_from_qids(rows.qid, rows.row_line, path, "qid"));
  m.info.n_missing = n_rows * n_features - nnz;
  return m;
}

/// Refuses the options only CSV files honour (a LibSVM row is `label idx:value ...`: no header, no
/// columns to name), so that none is silently ignored.
void refuse_csv_options(std::string const& path, ReadOptions const& opt) {
  std::vector<std::string> given;
  if (!opt.label_column.empty()) given.push_back("label column");
  if (opt.header.has_value()) given.push_back("header");
  if (opt.delimiter != '\0') given.push_back("delimiter");
  if (!opt.weight_column.empty()) given.push_back("weight column");
  if (!opt.qid_column.empty()) given.push_back("qid column");
  if (!opt.ignore_columns.empty()) given.push_back("ignored columns");
  if (given.empty()) return;
  std::string list;
  for (auto const& g : given) list += (list.empty() ? "" : ", ") + g;
  fail(path, 0, "", "a LibSVM file takes no " + list +
                        " (CSV options: its rows are `label idx:value ...`; give --format csv if it is a CSV file)");
}

}  // namespace

HostDMatrix read_libsvm(TextSource const& src, ReadOptions const& opt) {
  if (opt.index_base < -1 || opt.index_base > 1)
    fail(src.path, 0, "", "index_base must be 0, 1 or -1 (detect), not " + std::to_string(opt.index_base));
  refuse_csv_options(src.path, opt);
  LibsvmRows rows = parse_rows(src, infinity_marker(opt.missing_markers));
  bool const one_based = apply_index_base(rows, opt.index_base, src.path);
  return to_matrix(rows, feature_count(rows, opt.num_features, one_based, src.path), src.path);
}

}  // namespace kboost::io_detail
