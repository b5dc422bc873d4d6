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

}  // namespace

HostDMatrix read_libsvm(TextSource const& src, ReadOptions const& opt) {
  std::string const& path = src.path;
  if (opt.index_base < -1 || opt.index_base > 1)
    fail(path, 0, "", "index_base must be 0, 1 or -1 (detect), not " + std::to_string(opt.index_base));
  auto const lines = split_lines(src.text);

  std::vector<float> label, weight;
  std::vector<std::int64_t> qid;
  std::vector<std::size_t> row_line;
  std::vector<std::int64_t> row_ptr{0};
  std::vector<Entry> entries;
  std::size_t n_nan = 0;
  std::int64_t min_index = std::numeric_limits<std::int64_t>::max(), max_index = -1;
  std::vector<std::string_view> toks;

  for (std::size_t li = 0; li < lines.size(); ++li) {
    std::string_view line = lines[li];
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    split_ws(line, toks);
    if (toks.empty()) continue;
    std::size_t const ln = src.line_of(li);
    // label[:weight]
    std::string_view lab = toks[0], wt;
    if (auto colon = lab.find(':'); colon != std::string_view::npos) {
      wt = lab.substr(colon + 1);
      lab = lab.substr(0, colon);
    }
    auto lv = parse_float(lab);
    if (!lv) fail(path, ln, "field 1 (label)", "'" + std::string(toks[0]) + "' is not a number");
    if (!std::isfinite(*lv)) fail(path, ln, "field 1 (label)", "label is not finite");
    label.push_back(*lv);
    if (!wt.empty()) {
      auto wv = parse_float(wt);
      if (!wv || !std::isfinite(*wv) || *wv < 0)
        fail(path, ln, "field 1 (label:weight)", "weight '" + std::string(wt) + "' is not a finite non-negative number");
      if (weight.size() + 1 != label.size()) fail(path, ln, "field 1 (label:weight)", "only some rows have weights");
      weight.push_back(*wv);
    } else if (!weight.empty()) {
      fail(path, ln, "field 1 (label)", "no weight, but earlier rows have label:weight");
    }
    std::size_t t = 1;
    if (t < toks.size() && toks[t].substr(0, 4) == "qid:") {
      auto q = parse_int(toks[t].substr(4));
      if (!q) fail(path, ln, "field 2 (qid)", "'" + std::string(toks[t]) + "' has no integer query id");
      if (qid.size() + 1 != label.size()) fail(path, ln, "field 2 (qid)", "only some rows have qid");
      qid.push_back(*q);
      ++t;
    } else if (!qid.empty()) {
      fail(path, ln, "field 2", "no qid, but earlier rows have one");
    }
    std::size_t const row_begin = entries.size();
    for (; t < toks.size(); ++t) {
      std::string const field = "field " + std::to_string(t + 1);
      auto colon = toks[t].find(':');
      if (colon == std::string_view::npos)
        fail(path, ln, field, "'" + std::string(toks[t]) + "' is not idx:value");
      auto idx = parse_int(toks[t].substr(0, colon));
      auto val = parse_float(toks[t].substr(colon + 1));
      if (!idx) fail(path, ln, field, "'" + std::string(toks[t]) + "': feature index is not an integer");
      if (!val) fail(path, ln, field, "'" + std::string(toks[t]) + "': value is not a number");
      if (*idx < 0) fail(path, ln, field, "negative feature index " + std::to_string(*idx));
      // Column ids are 32-bit; refusing here also keeps `max_index + 1` below from overflowing.
      if (*idx > std::numeric_limits<std::int32_t>::max())
        fail(path, ln, field, "feature index " + std::to_string(*idx) + " is beyond the largest column id (" +
                                  std::to_string(std::numeric_limits<std::int32_t>::max()) + ")");
      if (std::isnan(*val)) {  // an explicit NaN is a missing value: not stored (as XGBoost drops it)
        ++n_nan;
        continue;
      }
      min_index = std::min(min_index, *idx);
      max_index = std::max(max_index, *idx);
      entries.push_back({*idx, *val});
    }
    // Sorted columns per row; a repeated index is ambiguous.
    auto b = entries.begin() + static_cast<std::ptrdiff_t>(row_begin);
    std::stable_sort(b, entries.end(), [](Entry const& x, Entry const& y) { return x.index < y.index; });
    auto dup = std::adjacent_find(b, entries.end(), [](Entry const& x, Entry const& y) { return x.index == y.index; });
    if (dup != entries.end()) fail(path, ln, "feature index " + std::to_string(dup->index), "appears twice in the row");
    row_ptr.push_back(static_cast<std::int64_t>(entries.size()));
    row_line.push_back(ln);
  }
  if (label.empty() && src.first_line == 1) fail(path, 1, "", "empty file: no rows");
  (void)n_nan;

  bool const one_based = opt.index_base == 1 || (opt.index_base == -1 && min_index > 0);
  if (one_based) {
    for (std::size_t r = 0; r + 1 < row_ptr.size(); ++r)
      for (auto k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
        if (entries[k].index-- == 0) fail(path, row_line[r], "feature index 0", "index 0 in a 1-based file");
    if (max_index >= 0) --max_index;
  }
  std::size_t const n_rows = label.size();
  std::size_t n_features = static_cast<std::size_t>(max_index + 1);
  if (opt.num_features > 0) {
    if (n_features > opt.num_features) {
      for (std::size_t r = 0; r < n_rows; ++r)
        for (auto k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
          if (static_cast<std::size_t>(entries[k].index) >= opt.num_features)
            fail(path, row_line[r], "feature index " + std::to_string(entries[k].index + (one_based ? 1 : 0)),
                 "out of range: num_features = " + std::to_string(opt.num_features));
    }
    n_features = opt.num_features;
  }
  if (n_features > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    fail(path, 0, "", "too many features for 32-bit column ids");

  HostDMatrix m;
  m.n_rows = n_rows;
  m.n_features = n_features;
  std::size_t const nnz = entries.size();
  using csr_t = HostDMatrix::csr_type;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> rm(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::csr::row_map"), n_rows + 1);
  Kokkos::View<std::int32_t*, Kokkos::HostSpace> ci(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::csr::entries"), nnz);
  Kokkos::View<float*, Kokkos::HostSpace> va(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::csr::values"), nnz);
  for (std::size_t r = 0; r <= n_rows; ++r) rm(r) = row_ptr[r];
  for (std::size_t k = 0; k < nnz; ++k) {
    ci(k) = static_cast<std::int32_t>(entries[k].index);
    va(k) = entries[k].value;
  }
  m.csr = csr_t("kboost::DMatrix::csr", static_cast<std::int32_t>(n_rows), static_cast<std::int32_t>(n_features),
                static_cast<std::int64_t>(nnz), va, rm, ci);
  m.label = to_view("kboost::DMatrix::label", label);
  if (!weight.empty()) m.weight = to_view("kboost::DMatrix::weight", weight);
  if (!qid.empty()) m.group_ptr = to_view("kboost::DMatrix::group_ptr", groups_from_qids(qid, row_line, path, "qid"));
  m.info.n_missing = n_rows * n_features - nnz;
  return m;
}

}  // namespace kboost::io_detail
