/// CSV/TSV reader: dense rows × features, NaN for missing cells, string columns as categorical codes.
/// Parsing follows XGBoost's CSV parser (dmlc-core src/data/csv_parser.h: one row per line, numbers
/// parsed straight to float32) plus what pandas.read_csv does that XGBoost's does not: a detected header,
/// missing markers, trimmed spaces and string columns read as categoricals (codes in sorted order).
#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <unordered_map>

#include <kboost/io/detail/reader.hpp>

namespace kboost::io_detail {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// Fields of one line, trimmed. A field wrapped in double quotes loses the quotes (a delimiter inside
/// quotes stays in the field; doubled quotes inside are kept as they are; no multi-line fields).
void tokenize(std::string_view line, char delim, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t i = 0;
  while (true) {
    std::size_t start = i;
    while (start < line.size() && (line[start] == ' ' || line[start] == '\t') && line[start] != delim) ++start;
    if (start < line.size() && line[start] == '"') {
      std::size_t j = start + 1;
      while (j < line.size() && !(line[j] == '"' && (j + 1 >= line.size() || line[j + 1] != '"'))) j += line[j] == '"' ? 2 : 1;
      out.push_back(line.substr(start + 1, std::min(j, line.size()) - start - 1));
      std::size_t next = line.find(delim, std::min(j + 1, line.size()));
      if (next == std::string_view::npos) return;
      i = next + 1;
      continue;
    }
    std::size_t next = line.find(delim, i);
    if (next == std::string_view::npos) {
      out.push_back(trim(line.substr(i)));
      return;
    }
    out.push_back(trim(line.substr(i, next - i)));
    i = next + 1;
  }
}

enum class Cell : std::uint8_t { kMissing, kNumber, kString };

struct ColumnStats {
  std::size_t n_numbers = 0, n_strings = 0;
  std::size_t first_string_line = 0;  // 1-based line of the first string field (0 = none)
};

/// Column spec (header name, 0-based index, or negative index from the end) -> column index, or -1.
int resolve_column(std::string const& spec, std::vector<std::string> const& names, std::size_t n_cols,
                   std::string const& path, char const* what) {
  if (spec.empty()) return -1;
  auto it = std::find(names.begin(), names.end(), spec);
  if (it != names.end()) return static_cast<int>(it - names.begin());
  if (auto idx = parse_int(spec)) {
    std::int64_t c = *idx < 0 ? static_cast<std::int64_t>(n_cols) + *idx : *idx;
    if (c < 0 || c >= static_cast<std::int64_t>(n_cols))
      fail(path, 1, std::string(what) + " '" + spec + "'",
           "column index out of range: the file has " + std::to_string(n_cols) + " columns");
    return static_cast<int>(c);
  }
  std::string known;
  for (auto const& n : names) known += (known.empty() ? "" : ", ") + n;
  fail(path, 1, std::string(what) + " '" + spec + "'",
       names.empty() ? "not a column index, and the file has no header to look names up in"
                     : "no such column in the header (columns: " + known + ")");
}

/// "a, b,c" -> {"a", "b", "c"} (spaces around the items dropped).
std::vector<std::string> split_list(std::string const& list) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    std::size_t end = list.find(',', begin);
    if (end == std::string::npos) end = list.size();
    std::string item = list.substr(begin, end - begin);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    out.push_back(item);
    begin = end + 1;
  }
  return out;
}

std::string column_desc(std::size_t c, std::vector<std::string> const& names) {
  std::string d = "column " + std::to_string(c);
  if (c < names.size() && !names[c].empty()) d += " ('" + names[c] + "')";
  return d;
}

/// Whether `line` is a LibSVM row ("label index:value ..."), which a CSV reading would take for one
/// text column: two or more whitespace-separated tokens, every one after the first an index:value
/// pair (or qid:value).
bool looks_like_libsvm(std::string_view line) {
  std::size_t tokens = 0, i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t const start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (start == i) break;
    if (tokens++ == 0) continue;  // the label
    std::string_view const token = line.substr(start, i - start);
    std::size_t const colon = token.find(':');
    if (colon == std::string_view::npos || colon == 0) return false;
    std::string_view const index = token.substr(0, colon);
    if (index != "qid" && !std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return false;
  }
  return tokens >= 2;
}

}  // namespace

HostDMatrix read_csv(TextSource const& src, ReadOptions const& opt) {
  DatasetInfo const* const ref = opt.category_reference;
  std::string const& path = src.path;
  std::string_view body = src.text;
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);  // UTF-8 byte-order mark (Excel)
  auto const all_lines = split_lines(body);
  // Blank lines are skipped (as pandas does); keep each row's 1-based line number for messages.
  std::vector<std::string_view> lines;
  std::vector<std::size_t> line_no;
  for (std::size_t i = 0; i < all_lines.size(); ++i) {
    if (!trim(all_lines[i]).empty()) {
      lines.push_back(all_lines[i]);
      line_no.push_back(src.line_of(i));
    }
  }
  if (lines.empty()) fail(path, 1, "", "empty file: no rows");

  char delim = opt.delimiter;
  if (delim == '\0') delim = lines[0].find('\t') != std::string_view::npos ? '\t' : ',';

  // Marker lookup, with a fast "no" for fields whose first character starts no marker (most numbers).
  bool empty_is_missing = false;
  std::array<bool, 256> marker_start{};
  for (auto const& mk : opt.missing_markers) {
    if (mk.empty()) empty_is_missing = true;
    else marker_start[static_cast<unsigned char>(mk[0])] = true;
  }
  auto is_missing = [&](std::string_view f) {
    if (f.empty()) return empty_is_missing;
    if (!marker_start[static_cast<unsigned char>(f[0])]) return false;
    return std::find(opt.missing_markers.begin(), opt.missing_markers.end(), f) != opt.missing_markers.end();
  };

  std::vector<std::string_view> fields;
  tokenize(lines[0], delim, fields);
  std::size_t const n_cols = fields.size();
  std::vector<std::string> first_row(fields.begin(), fields.end());
  if (n_cols == 1 && looks_like_libsvm(lines[0]))
    fail(path, line_no[0], "", "a row of index:value pairs: this is a LibSVM file, not CSV (read it with --format libsvm)");

  // Pass 1: every row (the first one too, provisionally) parsed to floats; per-column kinds.
  std::vector<float> vals(lines.size() * n_cols, kNaN);
  std::vector<Cell> first_kind(n_cols);
  std::vector<ColumnStats> stats(n_cols);  // rows 2.. only
  for (std::size_t r = 0; r < lines.size(); ++r) {
    if (r > 0) tokenize(lines[r], delim, fields);
    if (fields.size() != n_cols)
      fail(path, line_no[r], "", "ragged row: " + std::to_string(fields.size()) + " fields, but line " +
                                     std::to_string(line_no[0]) + " has " + std::to_string(n_cols) +
                                     " (delimiter '" + (delim == '\t' ? std::string("\\t") : std::string(1, delim)) + "')");
    for (std::size_t c = 0; c < n_cols; ++c) {
      Cell kind = Cell::kMissing;
      if (!is_missing(fields[c])) {
        if (auto v = parse_float(fields[c])) {
          vals[r * n_cols + c] = *v;
          kind = std::isnan(*v) ? Cell::kMissing : Cell::kNumber;
        } else {
          kind = Cell::kString;
        }
      }
      if (r == 0) {
        first_kind[c] = kind;
      } else if (kind == Cell::kNumber) {
        ++stats[c].n_numbers;
      } else if (kind == Cell::kString) {
        if (stats[c].n_strings++ == 0) stats[c].first_string_line = line_no[r];
      }
    }
  }

  // Header: forced, or detected when a first-row field is text in a column that is otherwise numeric
  // (like csv.Sniffer.has_header). A file whose every column is text needs --header.
  bool header = false;
  if (opt.header) {
    header = *opt.header;
  } else {
    for (std::size_t c = 0; c < n_cols; ++c)
      if (first_kind[c] == Cell::kString && stats[c].n_strings == 0 && stats[c].n_numbers > 0) header = true;
  }
  std::vector<std::string> names;
  std::size_t row0 = 0;
  if (header) {
    names = first_row;
    row0 = 1;
  } else {
    for (std::size_t c = 0; c < n_cols; ++c) {
      if (first_kind[c] == Cell::kNumber) ++stats[c].n_numbers;
      if (first_kind[c] == Cell::kString) {
        ++stats[c].n_strings;
        stats[c].first_string_line = line_no[0];
      }
    }
  }
  std::size_t const n_rows = lines.size() - row0;
  if (n_rows == 0) fail(path, line_no[0] + 1, "", "empty file: a header but no data rows");

  // Several label columns (multi-target): a comma-separated list, unless the header has a column
  // of that very name.
  std::vector<int> label_cols;
  if (!opt.label_column.empty()) {
    bool const one = opt.label_column.find(',') == std::string::npos ||
                     std::find(names.begin(), names.end(), opt.label_column) != names.end();
    for (auto const& spec : one ? std::vector<std::string>{opt.label_column} : split_list(opt.label_column))
      label_cols.push_back(resolve_column(spec, names, n_cols, path, "label column"));
    for (std::size_t k = 1; k < label_cols.size(); ++k)
      if (std::find(label_cols.begin(), label_cols.begin() + static_cast<std::ptrdiff_t>(k), label_cols[k]) !=
          label_cols.begin() + static_cast<std::ptrdiff_t>(k))
        fail(path, 1, "label column '" + opt.label_column + "'", column_desc(static_cast<std::size_t>(label_cols[k]), names) +
                                                                  " is named twice");
  }
  int const label_col = label_cols.size() == 1 ? label_cols[0] : -1;
  int const weight_col = resolve_column(opt.weight_column, names, n_cols, path, "weight column");
  int const qid_col = resolve_column(opt.qid_column, names, n_cols, path, "qid column");
  int const lower_col = resolve_column(opt.label_lower_bound_column, names, n_cols, path, "label lower bound column");
  int const upper_col = resolve_column(opt.label_upper_bound_column, names, n_cols, path, "label upper bound column");
  if ((lower_col >= 0) != (upper_col >= 0))
    fail(path, 0, "", "label bounds need both a lower and an upper bound column");
  std::vector<bool> not_feature(n_cols, false);
  for (int c : {weight_col, qid_col, lower_col, upper_col})
    if (c >= 0) not_feature[c] = true;
  for (int c : label_cols) not_feature[c] = true;
  for (auto const& spec : opt.ignore_columns) not_feature[resolve_column(spec, names, n_cols, path, "ignored column")] = true;
  std::vector<int> feature_cols;
  for (std::size_t c = 0; c < n_cols; ++c)
    if (!not_feature[c]) feature_cols.push_back(static_cast<int>(c));
  if (opt.num_features > 0 && feature_cols.size() > opt.num_features)
    fail(path, line_no[0], "", "the file has " + std::to_string(feature_cols.size()) +
                                   " feature columns, more than num_features = " + std::to_string(opt.num_features));

  // Pass 2, only for columns whose text matters (string features/labels -> codes, weights with text,
  // query ids): one more tokenising pass keeps views of those fields.
  std::vector<std::vector<std::string_view>> raw_cols(n_cols);
  {
    std::vector<int> need;
    // With a reference (eval file coded like the training file), its text columns need their text
    // even where this file happens to hold only numbers ("1", "2" as category strings).
    std::vector<bool> ref_text(n_cols, false);
    if (ref != nullptr) {
      if (label_col >= 0 && !ref->label_classes.empty()) ref_text[label_col] = true;
      for (std::size_t j = 0; j < feature_cols.size(); ++j)
        if (ref->categories.count(static_cast<int>(j)) > 0) ref_text[feature_cols[j]] = true;
    }
    for (std::size_t c = 0; c < n_cols; ++c)
      if (stats[c].n_strings > 0 || static_cast<int>(c) == qid_col || ref_text[c]) need.push_back(static_cast<int>(c));
    for (int c : need) raw_cols[c].resize(n_rows);
    if (!need.empty()) {
      for (std::size_t r = 0; r < n_rows; ++r) {
        tokenize(lines[r + row0], delim, fields);
        for (int c : need) raw_cols[c][r] = fields[c];
      }
    }
  }
  auto raw_column = [&](int c) -> std::vector<std::string_view> const& { return raw_cols[c]; };
  // Distinct non-missing strings in sorted order, and every row's code (NaN when missing).
  // With `reference` (the training file's codes), a string not in it is missing, or an error naming
  // `unknown_desc` when that is given (labels).
  auto encode = [&](int c, std::vector<std::string>& categories, std::vector<std::string> const* reference,
                    std::string const& unknown_desc) {
    auto const& raw = raw_column(c);
    std::vector<std::string_view> distinct;
    if (reference != nullptr) {
      distinct.assign(reference->begin(), reference->end());
    } else {
      for (auto f : raw)
        if (!is_missing(f)) distinct.push_back(f);
      std::sort(distinct.begin(), distinct.end());
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    }
    std::unordered_map<std::string_view, float> code;
    for (std::size_t k = 0; k < distinct.size(); ++k) code.emplace(distinct[k], static_cast<float>(k));
    categories.assign(distinct.begin(), distinct.end());
    for (std::size_t r = 0; r < n_rows; ++r) {
      float v = kNaN;
      if (!is_missing(raw[r])) {
        auto it = code.find(raw[r]);
        if (it != code.end()) {
          v = it->second;
        } else if (!unknown_desc.empty()) {
          fail(path, line_no[r + row0], unknown_desc,
               "'" + std::string(raw[r]) + "' is not one of the " + std::to_string(distinct.size()) +
                   " classes of the reference (training) data " + ref->source);
        }
      }
      vals[(r + row0) * n_cols + c] = v;
    }
  };

  HostDMatrix m;
  m.n_rows = n_rows;
  m.n_features = opt.num_features > 0 ? opt.num_features : feature_cols.size();

  if (label_col >= 0) {
    auto const& st = stats[label_col];
    std::string const desc = column_desc(label_col, names) + " (label)";
    bool const ref_labels = ref != nullptr && !ref->label_classes.empty();
    if (st.n_strings > 0 && st.n_numbers > 0 && !ref_labels) {
      auto const& raw = raw_column(label_col);
      for (std::size_t r = 0; r < n_rows; ++r)
        if (!is_missing(raw[r]) && !parse_float(raw[r]))
          fail(path, line_no[r + row0], desc, "label '" + std::string(raw[r]) + "' is not a number");
    }
    if (ref != nullptr && !ref_labels && st.n_strings > 0)
      fail(path, st.first_string_line, desc, "text label in a file whose reference (training) data " + ref->source +
                                                 " has numeric labels");
    if (ref_labels)
      encode(label_col, m.info.label_classes, &ref->label_classes, desc);
    else if (st.n_strings > 0)
      encode(label_col, m.info.label_classes, nullptr, "");  // all-text labels: class codes
    std::vector<float> label(n_rows);
    for (std::size_t r = 0; r < n_rows; ++r) {
      float v = vals[(r + row0) * n_cols + label_col];
      if (!std::isfinite(v))
        fail(path, line_no[r + row0], desc, std::isnan(v) ? "missing label" : "label is not finite");
      label[r] = v;
    }
    m.label = to_view("kboost::DMatrix::label", label);
    if (!names.empty()) m.info.label_name = names[label_col];
  }

  if (label_cols.size() > 1) {  // multi-target: numbers only, rows × targets
    std::vector<float> label(n_rows * label_cols.size());
    for (std::size_t t = 0; t < label_cols.size(); ++t) {
      int const c = label_cols[t];
      std::string const desc = column_desc(static_cast<std::size_t>(c), names) + " (label " + std::to_string(t) + ")";
      if (stats[c].n_strings > 0)
        fail(path, stats[c].first_string_line, desc, "text in a label column of several (multi-target labels are numbers)");
      for (std::size_t r = 0; r < n_rows; ++r) {
        float const v = vals[(r + row0) * n_cols + c];
        if (!std::isfinite(v))
          fail(path, line_no[r + row0], desc, std::isnan(v) ? "missing label" : "label is not finite");
        label[r * label_cols.size() + t] = v;
      }
      if (!names.empty()) m.info.label_name += (t == 0 ? "" : ",") + names[c];
    }
    m.n_targets = label_cols.size();
    m.label = to_view("kboost::DMatrix::label", label);
  }

  if (weight_col >= 0) {
    std::string const desc = column_desc(weight_col, names) + " (weight)";
    auto const& raw = raw_column(weight_col);  // empty unless the column has text
    std::vector<float> w(n_rows);
    for (std::size_t r = 0; r < n_rows; ++r) {
      float v = vals[(r + row0) * n_cols + weight_col];
      if (!std::isfinite(v) || v < 0 || (!raw.empty() && !is_missing(raw[r]) && !parse_float(raw[r])))
        fail(path, line_no[r + row0], desc, "weight is not a finite non-negative number");
      w[r] = v;
    }
    m.weight = to_view("kboost::DMatrix::weight", w);
  }

  if (lower_col >= 0) {
    std::string const desc = column_desc(lower_col, names) + " and " + column_desc(upper_col, names) + " (label bounds)";
    auto const& raw_l = raw_column(lower_col);  // empty unless the column has text
    auto const& raw_u = raw_column(upper_col);
    std::vector<float> lower(n_rows), upper(n_rows);
    for (std::size_t r = 0; r < n_rows; ++r) {
      lower[r] = vals[(r + row0) * n_cols + lower_col];
      upper[r] = vals[(r + row0) * n_cols + upper_col];
      bool const text = (!raw_l.empty() && !is_missing(raw_l[r]) && !parse_float(raw_l[r])) ||
                        (!raw_u.empty() && !is_missing(raw_u[r]) && !parse_float(raw_u[r]));
      std::string const why = text ? "label bound is not a number" : label_bounds_error(lower[r], upper[r]);
      if (!why.empty()) fail(path, line_no[r + row0], desc, why);
    }
    m.label_lower_bound = to_view("kboost::DMatrix::label_lower_bound", lower);
    m.label_upper_bound = to_view("kboost::DMatrix::label_upper_bound", upper);
  }

  if (qid_col >= 0) {
    // Query ids compared as text: consecutive equal ids form a group.
    auto const& raw = raw_column(qid_col);
    std::map<std::string_view, std::int64_t> ids;
    std::vector<std::int64_t> qid(n_rows);
    std::vector<std::size_t> rows_line(line_no.begin() + row0, line_no.end());
    for (std::size_t r = 0; r < n_rows; ++r) {
      if (is_missing(raw[r])) fail(path, line_no[r + row0], column_desc(qid_col, names) + " (qid)", "missing query id");
      qid[r] = ids.emplace(raw[r], static_cast<std::int64_t>(ids.size())).first->second;
    }
    std::vector<std::string> id_text(ids.size());
    for (auto const& [text_id, id] : ids) id_text[id] = std::string(text_id);
    m.group_ptr = to_view("kboost::DMatrix::group_ptr",
                          groups_from_qids(qid, rows_line, path, column_desc(qid_col, names) + " (qid)", id_text));
  }

  for (std::size_t j = 0; j < feature_cols.size(); ++j) {
    int c = feature_cols[j];
    auto ref_it = ref != nullptr ? ref->categories.find(static_cast<int>(j)) : std::map<int, std::vector<std::string>>::const_iterator{};
    bool const has_ref = ref != nullptr && ref_it != ref->categories.end();
    if (stats[c].n_strings == 0 && !has_ref) continue;
    if (ref != nullptr && !has_ref)
      fail(path, stats[c].first_string_line, column_desc(c, names),
           "text in a column that is numeric in the reference (training) data " + ref->source);
    bool const forced = std::find(opt.categorical_columns.begin(), opt.categorical_columns.end(),
                                  static_cast<int>(j)) != opt.categorical_columns.end();
    if (!has_ref && !forced && stats[c].n_numbers >= 20 && stats[c].n_numbers >= 10 * stats[c].n_strings) {
      // An overwhelmingly numeric column with a few stray tokens (a typo, "1.2.3") would otherwise
      // silently become a categorical column of codes; columns with more text stay categorical.
      auto const& raw = raw_column(c);
      std::size_t bad_line = stats[c].first_string_line;
      std::string token;
      for (std::size_t r = 0; r < n_rows; ++r)
        if (!is_missing(raw[r]) && !parse_float(raw[r])) {
          bad_line = line_no[r + row0];
          token = std::string(raw[r]);
          break;
        }
      fail(path, bad_line, column_desc(c, names),
           "'" + token + "' is not a number, but the column is numeric (" + std::to_string(stats[c].n_numbers) +
               " numbers, " + std::to_string(stats[c].n_strings) +
               " text values); fix the value or mark it missing, or pass --categorical " + std::to_string(j) +
               " to read the column as categories");
    }
    if (m.info.feature_types.empty()) m.info.feature_types.assign(m.n_features, FeatureType::kNumerical);
    m.info.feature_types[j] = FeatureType::kCategorical;
    encode(c, m.info.categories[static_cast<int>(j)], has_ref ? &ref_it->second : nullptr, "");
  }
  if (!names.empty()) {
    for (int c : feature_cols) m.info.feature_names.push_back(names[c]);
    m.info.feature_names.resize(m.n_features);
  }

  m.dense = HostDMatrix::dense_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::dense"), n_rows,
                                    m.n_features);
  std::size_t n_missing = 0;
  for (std::size_t r = 0; r < n_rows; ++r) {
    float const* src = vals.data() + (r + row0) * n_cols;
    for (std::size_t j = 0; j < m.n_features; ++j) {
      float v = j < feature_cols.size() ? src[feature_cols[j]] : kNaN;
      n_missing += std::isnan(v) ? 1 : 0;
      m.dense(r, j) = v;
    }
  }
  m.info.n_missing = n_missing;
  return m;
}

}  // namespace kboost::io_detail
