#pragma once
/// \file reader_detail.hpp
/// Internals shared by the dataset readers (not part of the public API): float parsing, field
/// trimming, error messages naming file/line/field, and the per-format entry points.
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <kboost/io/dataset_reader.hpp>

namespace kboost::io_detail {

/// Throws std::runtime_error "file:line: field: what" (line 1-based; 0 = no line, field "" = none).
/// A message that quotes a huge field is cut after 1,000 bytes of it, saying how much was left out.
[[noreturn]] inline void fail(std::string const& file, std::size_t line, std::string const& field,
                              std::string const& what) {
  constexpr std::size_t kMaxShown = 1000;
  std::string msg = file;
  if (line > 0) msg += ":" + std::to_string(line);
  msg += ": ";
  if (!field.empty()) msg += field + ": ";
  msg += what;
  if (msg.size() > 2 * kMaxShown)
    msg = msg.substr(0, kMaxShown) + "... (" + std::to_string(msg.size() - kMaxShown) + " more bytes of the message)";
  throw std::runtime_error(msg);
}

/// Spaces, tabs and CR stripped from both ends (adult.data writes ", " between fields).
inline std::string_view trim(std::string_view s) {
  auto is_ws = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && is_ws(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ws(s.back())) s.remove_suffix(1);
  return s;
}

/// What is wrong with an interval label [lower, upper] (survival:aft), or "" when it is valid:
/// neither bound missing, lower not infinite, lower <= upper (upper = inf: right-censored).
inline std::string label_bounds_error(float lower, float upper) {
  if (std::isnan(lower) || std::isnan(upper)) return "missing label bound";
  if (std::isinf(lower) && lower > 0) return "lower bound is infinite";
  if (lower > upper) return "lower bound above the upper bound";
  return "";
}

/// The whole of `s` as a float32, rounded once from the decimal text (std::from_chars, as XGBoost's
/// text parsers parse straight to float). A leading '+' is accepted ("+1" labels in a1a). Also
/// accepts inf/nan spellings. nullopt when `s` is not exactly one number.
inline std::optional<float> parse_float(std::string_view s) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  float v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (p != s.data() + s.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    // from_chars leaves v unchanged on overflow/underflow: give the rounded result like strtof.
    std::string tmp(s);
    return std::strtof(tmp.c_str(), nullptr);
  }
  if (ec != std::errc()) return std::nullopt;
  return v;
}

/// Whether `text`, a number that parsed to ±inf, spells an infinity ("inf", "-Infinity", ...)
/// rather than overflowing float32 ("1e40").
inline bool spells_infinity(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "inf" || lower == "infinity";
}

/// The refusal of a value whose text overflows float32. Upstream's DMatrix refuses such a value
/// as it refuses inf ("Input data contains `inf` or a value too large, while `missing` is not set
/// to `inf`": src/common/error_msg.h InfInData, checked as data is pushed, src/data/data.cc).
inline std::string float32_overflow(std::string_view text) {
  return "'" + std::string(text) + "' overflows float32 (the largest magnitude is 3.40282347e+38)";
}

/// "column 3 ('colour')": a 0-based column and its name when `names` has one.
inline std::string column_desc(std::size_t c, std::vector<std::string> const& names) {
  std::string d = "column " + std::to_string(c);
  if (c < names.size() && !names[c].empty()) d += " ('" + names[c] + "')";
  return d;
}

/// Whether one of `markers` spells +infinity ("inf", "Infinity", "+inf"): upstream's missing=inf,
/// under which +infinities are missing and infinities are accepted as data.
inline bool infinity_marker(std::vector<std::string> const& markers) {
  for (auto const& m : markers)
    if (!m.empty() && m[0] != '-' && spells_infinity(m)) return true;
  return false;
}

/// The refusal of an infinity in the data, as upstream refuses it unless `missing` is inf ("Input
/// data contains `inf` or a value too large, while `missing` is not set to `inf`",
/// src/common/error_msg.h InfInData).
inline std::string infinity_in_data(std::string_view text) {
  return "'" + std::string(text) + "' is infinite: upstream XGBoost refuses infinities in the data unless missing is "
         "inf; pass --missing inf to read them as missing, or give the column a finite value";
}

/// The refusal of a category value that `reference` (the training file, or the model's category
/// list) lacks for its column. Upstream 3.4.1 refuses it alike when it re-codes the input ("Found a
/// category not in the training set", src/encoder/ordinal.h SearchSorted and Recode).
inline std::string unseen_category_error(std::string const& value, std::string const& reference) {
  return "category '" + value + "' is not one of the training categories of this column (" + reference +
         "); upstream XGBoost refuses it too (\"Found a category not in the training set\"); pass "
         "--unseen-category missing to read such values as missing";
}

/// Whole of `s` as a 64-bit integer (from_chars), nullopt otherwise.
/// A compressed file's format, by its signature: its name and the command that writes it out
/// uncompressed.
struct Compression {
  std::string_view magic;
  char const* name;
  char const* tool;
};

/// The compression whose signature starts `bytes` (gzip, zstd, xz, bzip2), or nullptr.
inline Compression const* compression_of(std::string_view bytes) {
  static Compression const kCompressed[] = {{std::string_view("\x1f\x8b", 2), "gzip", "gzip -dc"},
                                            {std::string_view("\x28\xb5\x2f\xfd", 4), "zstd", "zstd -dc"},
                                            {std::string_view("\xfd" "7zXZ\x00", 6), "xz", "xz -dc"},
                                            {std::string_view("BZh", 3), "bzip2", "bzip2 -dc"}};
  for (auto const& c : kCompressed)
    if (bytes.substr(0, c.magic.size()) == c.magic) return &c;
  return nullptr;
}

inline std::optional<std::int64_t> parse_int(std::string_view s) {
  if (s.size() > 1 && s[0] == '+') s.remove_prefix(1);
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

/// Lines of `text` (LF or CRLF), without the line ends.
std::vector<std::string_view> split_lines(std::string_view text);

/// A text file's lines to parse: the whole file, or a rank's byte range of it (io/read_shard.cpp).
/// `text` holds lines that are the file's lines `first_line`, `first_line` + 1, ... (1-based);
/// with `lead_line_one`, text's first line is the file's line 1 (a CSV header candidate) placed
/// before a range that starts later.
struct TextSource {
  std::string path;
  std::string text;
  std::size_t first_line = 1;
  bool lead_line_one = false;
  /// The file's 1-based line number of text's line i (0-based).
  std::size_t line_of(std::size_t i) const {
    if (lead_line_one) return i == 0 ? 1 : first_line + i - 1;
    return first_line + i;
  }
};

/// Per-format readers (io/csv_reader.cpp, libsvm_reader.cpp, hdf5_reader.cpp). Side files,
/// forced categorical columns and num_features checks on dense data happen in read_dataset.
HostDMatrix read_csv(TextSource const& src, ReadOptions const& opt);
HostDMatrix read_libsvm(TextSource const& src, ReadOptions const& opt);
HostDMatrix read_hdf5(std::string const& path, ReadOptions const& opt);

/// What read_dataset does after a format's reader: source, forced width, forced categorical
/// columns, side files (a weight file is cut to the matrix's rows [info.first_row, + n_rows) of
/// info.total_rows), and the cut to opt's shard for formats read whole (fmt != "hdf5").
HostDMatrix finish_dataset(HostDMatrix m, std::string const& path, std::string const& fmt, ReadOptions const& opt);

/// Rows [first, last) of m (dense or CSR, with labels and weights; not groups); info.first_row = first.
HostDMatrix keep_rows(HostDMatrix const& m, std::size_t first, std::size_t last);

/// Group sizes (one per line) -> group_ptr; the sizes must sum to n_rows.
std::vector<std::uint32_t> read_group_file(std::string const& path, std::size_t n_rows);
/// Weights (one per line, finite, >= 0); must be n_rows of them.
std::vector<float> read_weight_file(std::string const& path, std::size_t n_rows);
/// group_ptr from per-row query ids: consecutive equal ids form a group; an id that reappears after
/// another id is an error (XGBoost needs rows of a query together). `lines[i]` names row i's line.
/// `id_text[id]`, when given, is how an id is spelled in the file (CSV ids are compared as text).
std::vector<std::uint32_t> groups_from_qids(std::vector<std::int64_t> const& qid, std::vector<std::size_t> const& lines,
                                            std::string const& file, std::string const& field,
                                            std::vector<std::string> const& id_text = {});

/// Host 1-D float View copied from a vector.
Kokkos::View<float*, Kokkos::HostSpace> to_view(std::string const& label, std::vector<float> const& v);
Kokkos::View<std::uint32_t*, Kokkos::HostSpace> to_view(std::string const& label, std::vector<std::uint32_t> const& v);

}  // namespace kboost::io_detail
