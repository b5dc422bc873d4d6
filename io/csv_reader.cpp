/// CSV/TSV reader: dense rows × features, NaN for missing cells, string columns as categorical codes.
/// Parsing follows XGBoost's CSV parser (dmlc-core src/data/csv_parser.h: one row per line, numbers
/// parsed straight to float32) plus what pandas.read_csv does that XGBoost's does not: a detected header,
/// missing markers, trimmed spaces and string columns read as categoricals (codes in sorted order).
#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <string_view>
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

/// The earliest line of a column where some kind of value occurs, and its text.
struct FirstSeen {
  std::size_t line = 0;  // 1-based (0 = none)
  std::string text;
  void note(std::string_view t, std::size_t at) {
    if (line != 0 && line < at) return;
    line = at;
    text = std::string(t);
  }
};

struct ColumnStats {
  std::size_t n_numbers = 0, n_strings = 0;
  std::size_t first_string_line = 0;  // 1-based line of the first string field (0 = none)
  FirstSeen overflow;                 // a number beyond float32 ("1e40")
  FirstSeen infinity;                 // an infinity spelled out ("inf", "-Infinity")

  /// Notes `text` on `line` when it parsed to ±inf; the earliest line of each kind is kept (line 1
  /// is noted last, once the header question is settled).
  void note_infinite(float v, std::string_view text, std::size_t line) {
    if (!std::isinf(v)) return;
    (spells_infinity(text) ? infinity : overflow).note(text, line);
  }
};

/// Column spec (header name, 0-based index, or negative index from the end) -> column index, or -1.
/// `hint` ends a refusal (delimiter_hint).
int resolve_column(std::string const& spec, std::vector<std::string> const& names, std::size_t n_cols,
                   std::string const& path, char const* what, std::string const& hint) {
  if (spec.empty()) return -1;
  auto it = std::find(names.begin(), names.end(), spec);
  if (it != names.end()) {
    auto const again = std::find(it + 1, names.end(), spec);
    if (again != names.end())
      fail(path, 1, std::string(what) + " '" + spec + "'",
           "names columns " + std::to_string(it - names.begin()) + " and " + std::to_string(again - names.begin()) +
               " (repeated header name): rename one, or give the column by its index");
    return static_cast<int>(it - names.begin());
  }
  if (auto idx = parse_int(spec)) {
    std::int64_t c = *idx < 0 ? static_cast<std::int64_t>(n_cols) + *idx : *idx;
    if (c < 0 || c >= static_cast<std::int64_t>(n_cols))
      fail(path, 1, std::string(what) + " '" + spec + "'",
           "column index out of range: the file has " + std::to_string(n_cols) + " columns" + hint);
    return static_cast<int>(c);
  }
  std::string known;
  for (auto const& n : names) known += (known.empty() ? "" : ", ") + n;
  fail(path, 1, std::string(what) + " '" + spec + "'",
       (names.empty() ? "not a column index, and the file has no header to look names up in"
                      : "no such column in the header (columns: " + known + ")") + hint);
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

/// Missing-marker lookup, with a fast "no" for fields whose first character starts no marker (most
/// numbers). The empty marker makes empty fields missing.
class MissingMarkers {
 public:
  explicit MissingMarkers(std::vector<std::string> const& markers) : infinity_is_missing_(infinity_marker(markers)) {
    for (auto const& mk : markers) {
      if (!mk.empty() && mk[0] != '-' && spells_infinity(mk)) continue;  // applied to features only
      markers_.push_back(mk);
      if (mk.empty()) empty_is_missing_ = true;
      else marker_start_[static_cast<unsigned char>(mk[0])] = true;
    }
  }
  bool operator()(std::string_view f) const {
    if (f.empty()) return empty_is_missing_;
    if (!marker_start_[static_cast<unsigned char>(f[0])]) return false;
    return std::find(markers_.begin(), markers_.end(), f) != markers_.end();
  }
  /// Whether a marker spells +infinity (upstream's missing=inf): then +infinities in feature
  /// columns are missing and infinities are accepted there; labels and label bounds read them as
  /// numbers (an upper bound of inf is a right-censored row).
  bool infinity_is_missing() const { return infinity_is_missing_; }

 private:
  std::vector<std::string> markers_;
  bool infinity_is_missing_ = false;
  bool empty_is_missing_ = false;
  std::array<bool, 256> marker_start_{};
};

/// A CSV file's cells after the first pass: every non-blank line parsed to floats (NaN where missing
/// or text), per-column kinds, the header once detected, and the text of the columns whose text
/// matters. Data row r (0-based, after the header) is line row0 + r.
struct CsvTable {
  std::string path;
  std::vector<std::string_view> lines;  ///< non-blank lines (blank lines are skipped, as pandas does)
  std::vector<std::size_t> line_no;     ///< 1-based file line of each, for messages
  char delim = ',';
  std::size_t n_cols = 0;
  std::vector<std::string> first_row;
  std::vector<float> vals;              ///< lines × n_cols
  std::vector<Cell> first_kind;         ///< the first line's cells
  std::vector<ColumnStats> stats;       ///< lines 2.. (line 1 too when it is not a header)
  std::vector<std::string> names;       ///< header names ("" without a header)
  std::size_t row0 = 0;                 ///< 1 when line 1 is a header
  std::vector<std::vector<std::string_view>> raw_cols;  ///< per column: each data row's text, or empty

  std::size_t n_rows() const { return lines.size() - row0; }
  float& at(std::size_t r, int c) { return vals[(r + row0) * n_cols + static_cast<std::size_t>(c)]; }
  std::size_t line(std::size_t r) const { return line_no[r + row0]; }
  std::vector<std::string_view> const& raw(int c) const { return raw_cols[static_cast<std::size_t>(c)]; }
  std::string desc(int c) const { return column_desc(static_cast<std::size_t>(c), names); }
};

/// For a file read as one column whose first line holds another usual delimiter: the option that
/// reads it ("" otherwise).
std::string delimiter_hint(CsvTable const& t) {
  if (t.n_cols != 1 || t.lines.empty()) return "";
  for (char d : {';', '|', '\t', ' '})
    if (t.lines[0].find(d) != std::string_view::npos)
      return std::string(" (the file reads as one column with delimiter '") + t.delim + "'; if its fields are "
             "separated by " + (d == '\t' ? std::string("tabs") : "'" + std::string(1, d) + "'") +
             ", pass --delimiter '" + (d == '\t' ? std::string("\\t") : std::string(1, d)) + "')";
  return "";
}

/// What each column is: labels (one, or several for multi-target), weights, query ids, label bounds,
/// features (every other column not ignored), by header name or index.
struct ColumnRoles {
  std::vector<int> labels;
  int label = -1;  ///< the label column when there is exactly one
  int weight = -1, qid = -1, lower = -1, upper = -1;
  std::vector<int> features;
};

/// The file's non-blank lines and the delimiter (given, else tab when line 1 has one, else comma).
CsvTable split_rows(TextSource const& src, ReadOptions const& opt) {
  CsvTable t;
  t.path = src.path;
  std::string_view body = src.text;
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);  // UTF-8 byte-order mark (Excel)
  auto const all_lines = split_lines(body);
  for (std::size_t i = 0; i < all_lines.size(); ++i) {
    if (!trim(all_lines[i]).empty()) {
      t.lines.push_back(all_lines[i]);
      t.line_no.push_back(src.line_of(i));
    }
  }
  if (t.lines.empty()) fail(t.path, 1, "", "empty file: no rows");
  t.delim = opt.delimiter;
  if (t.delim == '\0') t.delim = t.lines[0].find('\t') != std::string_view::npos ? '\t' : ',';
  return t;
}

/// Pass 1: every line (the first one too, provisionally) parsed to floats; per-column kinds.
void parse_cells(CsvTable& t, MissingMarkers const& is_missing) {
  std::vector<std::string_view> fields;
  tokenize(t.lines[0], t.delim, fields);
  t.n_cols = fields.size();
  t.first_row.assign(fields.begin(), fields.end());
  if (t.n_cols == 1 && looks_like_libsvm(t.lines[0]))
    fail(t.path, t.line_no[0], "", "a row of index:value pairs: this is a LibSVM file, not CSV (read it with --format libsvm)");
  t.vals.assign(t.lines.size() * t.n_cols, kNaN);
  t.first_kind.assign(t.n_cols, Cell::kMissing);
  t.stats.assign(t.n_cols, ColumnStats{});
  for (std::size_t r = 0; r < t.lines.size(); ++r) {
    if (r > 0) tokenize(t.lines[r], t.delim, fields);
    if (fields.size() != t.n_cols)
      fail(t.path, t.line_no[r], "", "ragged row: " + std::to_string(fields.size()) + " fields, but line " +
                                         std::to_string(t.line_no[0]) + " has " + std::to_string(t.n_cols) +
                                         " (delimiter '" + (t.delim == '\t' ? std::string("\\t") : std::string(1, t.delim)) + "')" +
                                         delimiter_hint(t));
    for (std::size_t c = 0; c < t.n_cols; ++c) {
      Cell kind = Cell::kMissing;
      if (!is_missing(fields[c])) {
        if (auto v = parse_float(fields[c])) {
          t.vals[r * t.n_cols + c] = *v;
          kind = std::isnan(*v) ? Cell::kMissing : Cell::kNumber;
          if (r > 0) t.stats[c].note_infinite(*v, fields[c], t.line_no[r]);  // line 1: detect_header
        } else {
          kind = Cell::kString;
        }
      }
      if (r == 0) {
        t.first_kind[c] = kind;
      } else if (kind == Cell::kNumber) {
        ++t.stats[c].n_numbers;
      } else if (kind == Cell::kString) {
        if (t.stats[c].n_strings++ == 0) t.stats[c].first_string_line = t.line_no[r];
      }
    }
  }
}

/// Header: forced, or detected when a first-row field is text in a column that is otherwise numeric
/// (like csv.Sniffer.has_header). A file whose every column is text needs --header. Without a header
/// line 1 counts in the column statistics.
void detect_header(CsvTable& t, std::optional<bool> forced) {
  bool header = false;
  if (forced) {
    header = *forced;
  } else {
    for (std::size_t c = 0; c < t.n_cols; ++c)
      if (t.first_kind[c] == Cell::kString && t.stats[c].n_strings == 0 && t.stats[c].n_numbers > 0) header = true;
    // one line of text only: a header without data rows, refused below as such
    if (t.lines.size() == 1 &&
        std::all_of(t.first_kind.begin(), t.first_kind.end(), [](Cell k) { return k == Cell::kString; }))
      header = true;
  }
  if (header) {
    t.names = t.first_row;
    t.row0 = 1;
  } else {
    for (std::size_t c = 0; c < t.n_cols; ++c) {
      if (t.first_kind[c] == Cell::kNumber) {
        ++t.stats[c].n_numbers;
        t.stats[c].note_infinite(t.vals[c], t.first_row[c], t.line_no[0]);
      }
      if (t.first_kind[c] == Cell::kString) {
        ++t.stats[c].n_strings;
        t.stats[c].first_string_line = t.line_no[0];
      }
    }
  }
  if (t.n_rows() == 0) fail(t.path, t.line_no[0] + 1, "", "empty file: a header but no data rows");
}

/// The label columns: a comma-separated list (multi-target), unless the header has a column of that
/// very name; each named once.
std::vector<int> label_columns(CsvTable const& t, std::string const& spec) {
  std::vector<int> cols;
  if (spec.empty()) return cols;
  bool const one = spec.find(',') == std::string::npos || std::find(t.names.begin(), t.names.end(), spec) != t.names.end();
  for (auto const& item : one ? std::vector<std::string>{spec} : split_list(spec))
    cols.push_back(resolve_column(item, t.names, t.n_cols, t.path, "label column", delimiter_hint(t)));
  for (std::size_t k = 1; k < cols.size(); ++k)
    if (std::find(cols.begin(), cols.begin() + static_cast<std::ptrdiff_t>(k), cols[k]) != cols.begin() + static_cast<std::ptrdiff_t>(k))
      fail(t.path, 1, "label column '" + spec + "'", t.desc(cols[k]) + " is named twice");
  return cols;
}

ColumnRoles resolve_roles(CsvTable const& t, ReadOptions const& opt) {
  ColumnRoles roles;
  roles.labels = label_columns(t, opt.label_column);
  roles.label = roles.labels.size() == 1 ? roles.labels[0] : -1;
  auto const resolve = [&](std::string const& spec, char const* what) {
    return resolve_column(spec, t.names, t.n_cols, t.path, what, delimiter_hint(t));
  };
  roles.weight = resolve(opt.weight_column, "weight column");
  roles.qid = resolve(opt.qid_column, "qid column");
  roles.lower = resolve(opt.label_lower_bound_column, "label lower bound column");
  roles.upper = resolve(opt.label_upper_bound_column, "label upper bound column");
  if ((roles.lower >= 0) != (roles.upper >= 0)) fail(t.path, 0, "", "label bounds need both a lower and an upper bound column");
  std::vector<bool> not_feature(t.n_cols, false);
  for (int c : {roles.weight, roles.qid, roles.lower, roles.upper})
    if (c >= 0) not_feature[static_cast<std::size_t>(c)] = true;
  for (int c : roles.labels) not_feature[static_cast<std::size_t>(c)] = true;
  for (auto const& spec : opt.ignore_columns) {
    int const c = resolve(spec, "ignored column");
    if (not_feature[static_cast<std::size_t>(c)])
      fail(t.path, 1, "ignored column '" + spec + "'", t.desc(c) + " is already the label, weight, qid or a label "
                                                       "bound column; --ignore-columns names feature columns to leave out");
    not_feature[static_cast<std::size_t>(c)] = true;
  }
  for (std::size_t c = 0; c < t.n_cols; ++c)
    if (!not_feature[c]) roles.features.push_back(static_cast<int>(c));
  if (roles.features.empty())
    fail(t.path, 1, "", "no feature columns: every column is the label, weight, qid, a label bound or ignored");
  if (opt.num_features > 0 && roles.features.size() > opt.num_features)
    fail(t.path, t.line_no[0], "", "the file has " + std::to_string(roles.features.size()) +
                                       " feature columns, more than num_features = " + std::to_string(opt.num_features));
  return roles;
}

/// Pass 2, only for columns whose text matters (text features and labels become codes, weights with
/// text, query ids): one more tokenising pass keeps views of those fields. With a reference (an eval
/// file coded like the training file), its text columns need their text even where this file holds
/// only numbers ("1", "2" as category strings).
void keep_text_columns(CsvTable& t, ColumnRoles const& roles, DatasetInfo const* ref) {
  std::vector<bool> ref_text(t.n_cols, false);
  if (ref != nullptr) {
    if (roles.label >= 0 && !ref->label_classes.empty()) ref_text[static_cast<std::size_t>(roles.label)] = true;
    for (std::size_t j = 0; j < roles.features.size(); ++j)
      if (ref->categories.count(static_cast<int>(j)) > 0) ref_text[static_cast<std::size_t>(roles.features[j])] = true;
  }
  std::vector<std::size_t> need;
  for (std::size_t c = 0; c < t.n_cols; ++c)
    if (t.stats[c].n_strings > 0 || static_cast<int>(c) == roles.qid || ref_text[c]) need.push_back(c);
  t.raw_cols.assign(t.n_cols, {});
  for (std::size_t c : need) t.raw_cols[c].resize(t.n_rows());
  if (need.empty()) return;
  std::vector<std::string_view> fields;
  for (std::size_t r = 0; r < t.n_rows(); ++r) {
    tokenize(t.lines[r + t.row0], t.delim, fields);
    for (std::size_t c : need) t.raw_cols[c][r] = fields[c];
  }
}

/// Column c as codes: the distinct non-missing strings in sorted order (or `reference`'s, the training
/// file's codes) into `categories`, and every row's code (NaN when missing) into the cells. A string
/// not in `reference` is passed to `unknown(row, string)`, which throws or counts it; its cell is
/// missing.
template <class OnUnknown>
void encode_column(CsvTable& t, int c, MissingMarkers const& is_missing, std::vector<std::string>& categories,
                   std::vector<std::string> const* reference, OnUnknown const& unknown) {
  auto const& raw = t.raw(c);
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
  for (std::size_t r = 0; r < t.n_rows(); ++r) {
    float v = kNaN;
    if (!is_missing(raw[r])) {
      auto it = code.find(raw[r]);
      if (it != code.end()) v = it->second;
      else unknown(r, std::string(raw[r]));
    }
    t.at(r, c) = v;
  }
}

/// Every string of a column coded without a reference has a code.
constexpr auto kNoUnknowns = [](std::size_t, std::string const&) {};

/// Column c's finite values, or an error naming the row ("missing label" / "label is not finite").
std::vector<float> finite_labels(CsvTable& t, int c, std::string const& desc) {
  std::vector<float> label(t.n_rows());
  for (std::size_t r = 0; r < t.n_rows(); ++r) {
    float const v = t.at(r, c);
    if (!std::isfinite(v)) fail(t.path, t.line(r), desc, std::isnan(v) ? "missing label" : "label is not finite");
    label[r] = v;
  }
  return label;
}

/// One label column: numbers, or text labels as class codes (the reference's, when given).
void read_label(CsvTable& t, int c, MissingMarkers const& is_missing, DatasetInfo const* ref, HostDMatrix& m) {
  auto const& st = t.stats[static_cast<std::size_t>(c)];
  std::string const desc = t.desc(c) + " (label)";
  bool const ref_labels = ref != nullptr && !ref->label_classes.empty();
  if (st.n_strings > 0 && st.n_numbers > 0 && !ref_labels) {
    auto const& raw = t.raw(c);
    for (std::size_t r = 0; r < t.n_rows(); ++r)
      if (!is_missing(raw[r]) && !parse_float(raw[r]))
        fail(t.path, t.line(r), desc, "label '" + std::string(raw[r]) + "' is not a number");
  }
  if (ref != nullptr && !ref_labels && st.n_strings > 0)
    fail(t.path, st.first_string_line, desc, "text label in a file whose reference (training) data " + ref->source +
                                                 " has numeric labels");
  if (ref_labels)
    encode_column(t, c, is_missing, m.info.label_classes, &ref->label_classes, [&](std::size_t r, std::string const& v) {
      fail(t.path, t.line(r), desc,
           "'" + v + "' is not one of the " + std::to_string(ref->label_classes.size()) +
               " classes of the reference (training) data " + ref->source);
    });
  else if (st.n_strings > 0)
    encode_column(t, c, is_missing, m.info.label_classes, nullptr, kNoUnknowns);  // all-text labels: class codes
  m.label = to_view("kboost::DMatrix::label", finite_labels(t, c, desc));
  if (!t.names.empty()) m.info.label_name = t.names[static_cast<std::size_t>(c)];
}

/// Several label columns (multi-target): numbers only, rows × targets.
void read_multi_target_labels(CsvTable& t, std::vector<int> const& cols, HostDMatrix& m) {
  std::vector<float> label(t.n_rows() * cols.size());
  for (std::size_t k = 0; k < cols.size(); ++k) {
    int const c = cols[k];
    std::string const desc = t.desc(c) + " (label " + std::to_string(k) + ")";
    if (t.stats[static_cast<std::size_t>(c)].n_strings > 0)
      fail(t.path, t.stats[static_cast<std::size_t>(c)].first_string_line, desc,
           "text in a label column of several (multi-target labels are numbers)");
    auto const one = finite_labels(t, c, desc);
    for (std::size_t r = 0; r < t.n_rows(); ++r) label[r * cols.size() + k] = one[r];
    if (!t.names.empty()) m.info.label_name += (k == 0 ? "" : ",") + t.names[static_cast<std::size_t>(c)];
  }
  m.n_targets = cols.size();
  m.label = to_view("kboost::DMatrix::label", label);
}

/// Whether data row r of column c holds text that is not a number (columns without text: never).
bool holds_text(CsvTable const& t, int c, std::size_t r, MissingMarkers const& is_missing) {
  auto const& raw = t.raw(c);
  return !raw.empty() && !is_missing(raw[r]) && !parse_float(raw[r]);
}

void read_weights(CsvTable& t, int c, MissingMarkers const& is_missing, HostDMatrix& m) {
  std::string const desc = t.desc(c) + " (weight)";
  std::vector<float> w(t.n_rows());
  for (std::size_t r = 0; r < t.n_rows(); ++r) {
    float const v = t.at(r, c);
    if (!std::isfinite(v) || v < 0 || holds_text(t, c, r, is_missing))
      fail(t.path, t.line(r), desc, "weight is not a finite non-negative number");
    w[r] = v;
  }
  m.weight = to_view("kboost::DMatrix::weight", w);
}

/// survival:aft's interval labels [lower, upper].
void read_label_bounds(CsvTable& t, int lower_col, int upper_col, MissingMarkers const& is_missing, HostDMatrix& m) {
  std::string const desc = t.desc(lower_col) + " and " + t.desc(upper_col) + " (label bounds)";
  std::vector<float> lower(t.n_rows()), upper(t.n_rows());
  for (std::size_t r = 0; r < t.n_rows(); ++r) {
    lower[r] = t.at(r, lower_col);
    upper[r] = t.at(r, upper_col);
    bool const text = holds_text(t, lower_col, r, is_missing) || holds_text(t, upper_col, r, is_missing);
    std::string const why = text ? "label bound is not a number" : label_bounds_error(lower[r], upper[r]);
    if (!why.empty()) fail(t.path, t.line(r), desc, why);
  }
  m.label_lower_bound = to_view("kboost::DMatrix::label_lower_bound", lower);
  m.label_upper_bound = to_view("kboost::DMatrix::label_upper_bound", upper);
}

/// Query ids compared as text: consecutive equal ids form a group.
void read_query_ids(CsvTable const& t, int c, MissingMarkers const& is_missing, HostDMatrix& m) {
  auto const& raw = t.raw(c);
  std::map<std::string_view, std::int64_t> ids;
  std::vector<std::int64_t> qid(t.n_rows());
  std::vector<std::size_t> rows_line(t.line_no.begin() + static_cast<std::ptrdiff_t>(t.row0), t.line_no.end());
  for (std::size_t r = 0; r < t.n_rows(); ++r) {
    if (is_missing(raw[r])) fail(t.path, t.line(r), t.desc(c) + " (qid)", "missing query id");
    qid[r] = ids.emplace(raw[r], static_cast<std::int64_t>(ids.size())).first->second;
  }
  std::vector<std::string> id_text(ids.size());
  for (auto const& [text_id, id] : ids) id_text[static_cast<std::size_t>(id)] = std::string(text_id);
  m.group_ptr = to_view("kboost::DMatrix::group_ptr", groups_from_qids(qid, rows_line, t.path, t.desc(c) + " (qid)", id_text));
}

/// An overwhelmingly numeric column with a few stray tokens (a typo, "1.2.3") would otherwise silently
/// become a categorical column of codes: refused, naming the first stray token. Columns with more
/// text stay categorical.
void refuse_stray_text(CsvTable const& t, int c, std::size_t j, MissingMarkers const& is_missing) {
  auto const& st = t.stats[static_cast<std::size_t>(c)];
  auto const& raw = t.raw(c);
  std::size_t bad_line = st.first_string_line;
  std::string token;
  for (std::size_t r = 0; r < t.n_rows(); ++r)
    if (!is_missing(raw[r]) && !parse_float(raw[r])) {
      bad_line = t.line(r);
      token = std::string(raw[r]);
      break;
    }
  fail(t.path, bad_line, t.desc(c),
       "'" + token + "' is not a number, but the column is numeric (" + std::to_string(st.n_numbers) + " numbers, " +
           std::to_string(st.n_strings) + " text values); fix the value or mark it missing, or pass --categorical " +
           std::to_string(j) + " to read the column as categories");
}

/// Feature columns with text (or categorical in the reference) as categorical codes.
void encode_categorical_features(CsvTable& t, ColumnRoles const& roles, ReadOptions const& opt,
                                 MissingMarkers const& is_missing, HostDMatrix& m) {
  DatasetInfo const* const ref = opt.category_reference;
  for (std::size_t j = 0; j < roles.features.size(); ++j) {
    int const c = roles.features[j];
    auto const& st = t.stats[static_cast<std::size_t>(c)];
    auto ref_it = ref != nullptr ? ref->categories.find(static_cast<int>(j)) : std::map<int, std::vector<std::string>>::const_iterator{};
    bool const has_ref = ref != nullptr && ref_it != ref->categories.end();
    if (st.n_strings == 0 && !has_ref) continue;
    if (ref != nullptr && !has_ref)
      fail(t.path, st.first_string_line, t.desc(c), "text in a column that is numeric in the reference (training) data " + ref->source);
    bool const forced = std::find(opt.categorical_columns.begin(), opt.categorical_columns.end(), static_cast<int>(j)) !=
                        opt.categorical_columns.end();
    if (!has_ref && !forced && st.n_numbers >= 20 && st.n_numbers >= 10 * st.n_strings) refuse_stray_text(t, c, j, is_missing);
    if (m.info.feature_types.empty()) m.info.feature_types.assign(m.n_features, FeatureType::kNumerical);
    m.info.feature_types[j] = FeatureType::kCategorical;
    auto& tally = m.info.unseen_categories[static_cast<int>(j)];
    encode_column(t, c, is_missing, m.info.categories[static_cast<int>(j)], has_ref ? &ref_it->second : nullptr,
                  [&](std::size_t r, std::string const& v) {
                    if (opt.unseen_category == UnseenCategory::kError)
                      fail(t.path, t.line(r), t.desc(c), unseen_category_error(v, ref->source));
                    tally.note(r, v);
                  });
    if (tally.cells == 0) m.info.unseen_categories.erase(static_cast<int>(j));
  }
}

/// Upstream's rule for the numeric feature columns: a number beyond float32 is an error, and so is
/// an infinity unless a missing marker spells +infinity (upstream's missing=inf); then +infinities
/// become missing and -infinities stay values.
void apply_infinity_rule(CsvTable& t, ColumnRoles const& roles, MissingMarkers const& is_missing) {
  for (int c : roles.features) {
    ColumnStats const& st = t.stats[static_cast<std::size_t>(c)];
    if (st.n_strings != 0) continue;
    if (st.overflow.line != 0) fail(t.path, st.overflow.line, t.desc(c), float32_overflow(st.overflow.text));
    if (st.infinity.line == 0) continue;
    if (!is_missing.infinity_is_missing()) fail(t.path, st.infinity.line, t.desc(c), infinity_in_data(st.infinity.text));
    for (std::size_t r = 0; r < t.n_rows(); ++r)
      if (t.at(r, c) == std::numeric_limits<float>::infinity()) t.at(r, c) = kNaN;
  }
}

/// The feature cells into m.dense (rows × n_features; columns beyond the file's are missing), the
/// feature names, and the count of missing cells.
void fill_features(CsvTable const& t, ColumnRoles const& roles, HostDMatrix& m) {
  if (!t.names.empty()) {
    std::map<std::string, int> first_column;  // upstream refuses duplicate feature names
    for (int c : roles.features) {
      std::string const& name = t.names[static_cast<std::size_t>(c)];
      auto const [it, fresh] = first_column.emplace(name, c);
      if (!fresh)
        fail(t.path, t.line_no[0], "", t.desc(it->second) + " and " + t.desc(c) +
                                (name.empty() ? " have no name (empty header fields)" : " have the same name") +
                                ": feature names must be unique (name or rename one, or leave one out with "
                                "--ignore-columns)");
      m.info.feature_names.push_back(name);
    }
    m.info.feature_names.resize(m.n_features);
  }
  m.dense = HostDMatrix::dense_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::dense"), t.n_rows(),
                                    m.n_features);
  std::size_t n_missing = 0;
  for (std::size_t r = 0; r < t.n_rows(); ++r) {
    float const* src = t.vals.data() + (r + t.row0) * t.n_cols;
    for (std::size_t j = 0; j < m.n_features; ++j) {
      float const v = j < roles.features.size() ? src[roles.features[j]] : kNaN;
      n_missing += std::isnan(v) ? 1 : 0;
      m.dense(r, j) = v;
    }
  }
  m.info.n_missing = n_missing;
}

/// A file coded like a reference (an eval file like the training file) whose header names the
/// features otherwise: said as such, before any column's text is compared with the reference's.
void check_reference_names(CsvTable const& t, ColumnRoles const& roles, DatasetInfo const* ref) {
  if (ref == nullptr || ref->feature_names.empty() || t.names.empty()) return;
  for (std::size_t j = 0; j < roles.features.size() && j < ref->feature_names.size(); ++j) {
    int const c = roles.features[j];
    if (t.names[static_cast<std::size_t>(c)] != ref->feature_names[j])
      fail(t.path, t.line_no[0], "", "feature column " + std::to_string(j) + " is " + t.desc(c) + " but feature " +
                                         std::to_string(j) + " of the reference (training) data " + ref->source +
                                         " is '" + ref->feature_names[j] + "' (columns reordered or renamed?)");
  }
}

}  // namespace

HostDMatrix read_csv(TextSource const& src, ReadOptions const& opt) {
  MissingMarkers const is_missing(opt.missing_markers);
  CsvTable t = split_rows(src, opt);
  parse_cells(t, is_missing);
  detect_header(t, opt.header);
  ColumnRoles const roles = resolve_roles(t, opt);
  check_reference_names(t, roles, opt.category_reference);
  keep_text_columns(t, roles, opt.category_reference);

  HostDMatrix m;
  m.n_rows = t.n_rows();
  m.n_features = opt.num_features > 0 ? opt.num_features : roles.features.size();
  if (roles.label >= 0) read_label(t, roles.label, is_missing, opt.category_reference, m);
  if (roles.labels.size() > 1) read_multi_target_labels(t, roles.labels, m);
  if (roles.weight >= 0) read_weights(t, roles.weight, is_missing, m);
  if (roles.lower >= 0) read_label_bounds(t, roles.lower, roles.upper, is_missing, m);
  if (roles.qid >= 0) read_query_ids(t, roles.qid, is_missing, m);
  encode_categorical_features(t, roles, opt, is_missing, m);
  apply_infinity_rule(t, roles, is_missing);
  fill_features(t, roles, m);
  return m;
}

}  // namespace kboost::io_detail
