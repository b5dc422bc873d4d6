/// read_dataset: format dispatch, side files (weights, groups), forced width and categorical columns.
/// Follows XGBoost's DMatrix::Load (src/data/data.cc) for what a text file may carry besides features.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include <kboost/core/compat.hpp>
#include <kboost/core/read_file.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/detail/reader.hpp>

namespace kboost {
namespace io_detail {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(start, end - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    start = end + 1;
  }
  return lines;
}

std::vector<std::uint32_t> read_group_file(std::string const& path, std::size_t n_rows) {
  std::string text = read_file(path, "data file");
  auto lines = split_lines(text);
  std::vector<std::uint32_t> ptr{0};
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto t = trim(lines[i]);
    if (t.empty()) continue;
    auto v = parse_int(t);
    if (!v || *v <= 0) fail(path, i + 1, "group size", "'" + std::string(t) + "' is not a positive integer");
    sum += static_cast<std::uint64_t>(*v);
    if (sum > n_rows)
      fail(path, i + 1, "group size", "groups cover " + std::to_string(sum) + " rows but the data has " +
                                          std::to_string(n_rows));
    ptr.push_back(static_cast<std::uint32_t>(sum));
  }
  if (ptr.size() == 1) fail(path, 1, "", "empty group file");
  if (sum != n_rows)
    fail(path, lines.size(), "", "group sizes sum to " + std::to_string(sum) + " but the data has " +
                                     std::to_string(n_rows) + " rows");
  return ptr;
}

std::vector<float> read_weight_file(std::string const& path, std::size_t n_rows) {
  std::string text = read_file(path, "data file");
  auto lines = split_lines(text);
  std::vector<float> w;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto t = trim(lines[i]);
    if (t.empty()) continue;
    auto v = parse_float(t);
    if (!v || !std::isfinite(*v) || *v < 0)
      fail(path, i + 1, "weight", "'" + std::string(t) + "' is not a finite non-negative number");
    w.push_back(*v);
  }
  if (w.size() != n_rows)
    fail(path, lines.size(), "", std::to_string(w.size()) + " weights for " + std::to_string(n_rows) + " rows");
  return w;
}

std::vector<std::uint32_t> groups_from_qids(std::vector<std::int64_t> const& qid, std::vector<std::size_t> const& lines,
                                            std::string const& file, std::string const& field,
                                            std::vector<std::string> const& id_text) {
  std::vector<std::uint32_t> ptr{0};
  std::vector<std::int64_t> seen;
  for (std::size_t i = 0; i < qid.size(); ++i) {
    if (i > 0 && qid[i] == qid[i - 1]) continue;
    if (i > 0) ptr.push_back(static_cast<std::uint32_t>(i));
    seen.push_back(qid[i]);
  }
  ptr.push_back(static_cast<std::uint32_t>(qid.size()));
  // A query id that shows up in two separate runs of rows: find its second run for the message.
  std::vector<std::int64_t> sorted = seen;
  std::sort(sorted.begin(), sorted.end());
  auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end()) {
    int runs = 0;
    for (std::size_t g = 0; g + 1 < ptr.size(); ++g) {
      if (qid[ptr[g]] == *dup && ++runs == 2)
        fail(file, lines[ptr[g]], field,
             "query id " + (id_text.empty() ? std::to_string(*dup) : "'" + id_text[*dup] + "'") + " reappears after other ids; rows of one query must be consecutive");
    }
  }
  return ptr;
}

Kokkos::View<float*, Kokkos::HostSpace> to_view(std::string const& label, std::vector<float> const& v) {
  Kokkos::View<float*, Kokkos::HostSpace> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), v.size());
  std::copy(v.begin(), v.end(), out.data());
  return out;
}

Kokkos::View<std::uint32_t*, Kokkos::HostSpace> to_view(std::string const& label, std::vector<std::uint32_t> const& v) {
  Kokkos::View<std::uint32_t*, Kokkos::HostSpace> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), v.size());
  std::copy(v.begin(), v.end(), out.data());
  return out;
}

namespace {

bool ends_with(std::string const& s, std::string const& suffix) {
  return s.size() >= suffix.size() && std::equal(suffix.rbegin(), suffix.rend(), s.rbegin(),
                                                  [](char a, char b) { return std::tolower(a) == std::tolower(b); });
}

/// LibSVM if one of the first 100 non-empty lines of `text` has a token `<int>:<...>` or `qid:`
/// after the label; else CSV.
std::string sniff_text_format(std::string_view text) {
  std::size_t start = 0;
  for (int n = 0; n < 100 && start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    auto const t = trim(text.substr(start, end - start));
    start = end + 1;
    if (t.empty()) continue;
    ++n;
    std::istringstream toks{std::string(t)};
    std::string tok;
    toks >> tok;  // label
    while (toks >> tok) {
      auto colon = tok.find(':');
      if (colon == std::string::npos || colon == 0) continue;
      std::string_view key(tok.data(), colon);
      if (key == "qid" || parse_int(key)) return "libsvm";
    }
  }
  return "csv";
}

constexpr std::string_view kHdf5Magic("\x89HDF\r\n\x1a\n", 8);

/// HDF5 by its signature, else sniff_text_format of the first 1 MiB. A stream source (standard
/// input, a pipe) is read whole here and kept (core/read_file.hpp), so the parse reads the same bytes.
std::string sniff_format(std::string const& path) {
  if (is_stream_source(path)) {
    std::string const bytes = read_file(path, "data file");
    if (bytes.compare(0, kHdf5Magic.size(), kHdf5Magic) == 0) return "hdf5";
    return sniff_text_format(bytes);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, 0, "", std::filesystem::exists(path) ? "cannot open file for reading" : "no such file");
  std::string head(std::size_t(1) << 20, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.compare(0, kHdf5Magic.size(), kHdf5Magic) == 0) return "hdf5";
  return sniff_text_format(head);
}

/// Refuses compressed bytes, by their signature, with the command that feeds them uncompressed.
void refuse_compressed(std::string const& path, std::string_view bytes) {
  if (io_detail::Compression const* c = io_detail::compression_of(bytes))
    fail(source_name(path), 0, "",
         std::string("is ") + c->name + "-compressed; kboost reads CSV and LibSVM uncompressed: decompress it, or pipe it in: `" +
             c->tool + " " + (path == "-" ? std::string("FILE") : path) + " | kboost ... --data -`");
}

}  // namespace

HostDMatrix keep_rows(HostDMatrix const& m, std::size_t first, std::size_t last) {
  HostDMatrix out;
  out.n_rows = last - first;
  out.n_features = m.n_features;
  out.info = m.info;
  auto const range = std::make_pair(first, last);
  std::size_t n_missing = 0;
  if (m.is_sparse()) {
    auto const& rm = m.csr.graph.row_map;
    std::int64_t const k0 = rm(first), k1 = rm(last);
    Kokkos::View<std::int64_t*, Kokkos::HostSpace> row_map("kboost::DMatrix::row_map", out.n_rows + 1);
    for (std::size_t i = 0; i <= out.n_rows; ++i) row_map(i) = rm(first + i) - k0;
    Kokkos::View<std::int32_t*, Kokkos::HostSpace> cols("kboost::DMatrix::entries", static_cast<std::size_t>(k1 - k0));
    Kokkos::View<float*, Kokkos::HostSpace> vals("kboost::DMatrix::values", static_cast<std::size_t>(k1 - k0));
    for (std::int64_t k = k0; k < k1; ++k) {
      cols(k - k0) = m.csr.graph.entries(k);
      vals(k - k0) = m.csr.values(k);
    }
    out.csr = HostDMatrix::csr_type("kboost::DMatrix::csr", static_cast<std::int32_t>(out.n_rows),
                                    static_cast<std::int32_t>(out.n_features), k1 - k0, vals, row_map, cols);
    n_missing = out.n_rows * out.n_features - static_cast<std::size_t>(k1 - k0);
  } else {
    out.dense = HostDMatrix::dense_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::dense"),
                                        out.n_rows, out.n_features);
    Kokkos::deep_copy(out.dense, Kokkos::subview(m.dense, range, Kokkos::ALL()));
    for (std::size_t i = 0; i < out.n_rows * out.n_features; ++i) n_missing += std::isnan(out.dense.data()[i]) ? 1 : 0;
  }
  out.info.n_missing = n_missing;
  auto const cut = [&](Kokkos::View<float*, Kokkos::HostSpace> const& v, char const* label, std::size_t per_row = 1) {
    if (v.extent(0) == 0) return v;
    Kokkos::View<float*, Kokkos::HostSpace> c(std::string(label), out.n_rows * per_row);
    Kokkos::deep_copy(c, Kokkos::subview(v, std::make_pair(range.first * per_row, range.second * per_row)));
    return c;
  };
  out.n_targets = m.n_targets;
  out.label = cut(m.label, "kboost::DMatrix::label", m.n_targets);
  out.weight = cut(m.weight, "kboost::DMatrix::weight");
  out.label_lower_bound = cut(m.label_lower_bound, "kboost::DMatrix::label_lower_bound");
  out.label_upper_bound = cut(m.label_upper_bound, "kboost::DMatrix::label_upper_bound");
  out.info.first_row = first;
  return out;
}

}  // namespace io_detail

std::vector<std::string> unseen_category_notes(DatasetInfo const& info) {
  std::vector<std::string> notes;
  for (auto const& [j, u] : info.unseen_categories) {
    notes.push_back(info.source + ": " + io_detail::column_desc(static_cast<std::size_t>(j), info.feature_names) + ": " + std::to_string(u.cells) + (u.cells == 1 ? " value is a category" : " values are categories") +
                    " the training data lacks (first '" + u.first_value + "', data row " + std::to_string(u.first_row + 1) +
                    "), read as missing (--unseen-category missing)");
  }
  return notes;
}

std::string resolve_format(std::string const& path, ReadOptions const& opt) {
  using namespace io_detail;
  std::string f = opt.format;
  std::transform(f.begin(), f.end(), f.begin(), [](unsigned char c) { return std::tolower(c); });
  if (f == "csv" || f == "tsv") return "csv";
  if (f == "libsvm" || f == "svmlight") return "libsvm";
  if (f == "hdf5" || f == "h5") return "hdf5";
  if (f != "auto" && !f.empty()) fail(path, 0, "", "unknown format '" + opt.format + "' (csv, libsvm, hdf5 or auto)");
  if (ends_with(path, ".h5") || ends_with(path, ".hdf5")) return "hdf5";
  if (ends_with(path, ".csv") || ends_with(path, ".tsv")) return "csv";
  if (ends_with(path, ".svm") || ends_with(path, ".libsvm") || ends_with(path, ".svmlight")) return "libsvm";
  return sniff_format(path);
}

HostDMatrix read_dataset(std::string const& path, ReadOptions const& opt) {
  using namespace io_detail;
  compat::ScopedRegion region("kboost::io::read_dataset");
  std::string const fmt = resolve_format(path, opt);
  if (opt.shard_count == 0 || opt.shard_index >= opt.shard_count)
    fail(path, 0, "", "shard " + std::to_string(opt.shard_index) + " of " + std::to_string(opt.shard_count) +
                          " does not exist");
  if (fmt == "hdf5" && is_stream_source(path))
    fail(source_name(path), 0, "", "an HDF5 file must be a file kboost can open by name, not a pipe or standard input");
  HostDMatrix m = fmt == "hdf5" ? read_hdf5(path, opt) : HostDMatrix();
  if (fmt != "hdf5") {
    std::string text = read_file(path, "data file");
    refuse_compressed(path, text);
    TextSource src{source_name(path), std::move(text)};
    m = fmt == "csv" ? read_csv(src, opt) : read_libsvm(src, opt);
  }
  if (fmt != "hdf5") m.info.total_rows = m.n_rows;  // the HDF5 reader read the shard's rows only
  if (fmt == "libsvm" && (!opt.label_lower_bound_column.empty() || !opt.label_upper_bound_column.empty()))
    fail(path, 0, "", "label bound columns need a CSV or HDF5 file (a LibSVM file has no named columns)");
  return io_detail::finish_dataset(std::move(m), path, fmt, opt);
}

namespace io_detail {

HostDMatrix finish_dataset(HostDMatrix m, std::string const& path, std::string const& fmt, ReadOptions const& opt) {
  m.info.source = path;
  // Forced width for dense data (the CSR reader applies it itself): pad with missing columns.
  if (opt.num_features > 0 && !m.is_sparse() && m.n_features != opt.num_features) {
    if (m.n_features > opt.num_features)
      fail(path, 0, "", "data has " + std::to_string(m.n_features) + " features, more than num_features = " +
                            std::to_string(opt.num_features));
    HostDMatrix::dense_type wide(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::dense"), m.n_rows,
                                 opt.num_features);
    for (std::size_t i = 0; i < m.n_rows; ++i)
      for (std::size_t j = 0; j < opt.num_features; ++j) wide(i, j) = j < m.n_features ? m.dense(i, j) : NAN;
    m.info.n_missing += m.n_rows * (opt.num_features - m.n_features);
    if (!m.info.feature_names.empty()) m.info.feature_names.resize(opt.num_features);
    if (!m.info.feature_types.empty()) m.info.feature_types.resize(opt.num_features, FeatureType::kNumerical);
    m.dense = wide;
    m.n_features = opt.num_features;
  }

  for (int c : opt.categorical_columns) {
    if (c < 0 || static_cast<std::size_t>(c) >= m.n_features)
      fail(path, 0, "categorical column " + std::to_string(c),
           "out of range: the data has " + std::to_string(m.n_features) + " features");
    if (m.info.feature_types.empty()) m.info.feature_types.assign(m.n_features, FeatureType::kNumerical);
    m.info.feature_types[c] = FeatureType::kCategorical;
  }

  // Side files: named explicitly, or beside the data when auto_side_files (XGBoost 1.x behaviour).
  std::string weight_file = opt.weight_file, group_file = opt.group_file;
  if (opt.auto_side_files) {
    std::error_code ec;
    if (weight_file.empty() && std::filesystem::exists(path + ".weight", ec)) weight_file = path + ".weight";
    if (group_file.empty() && std::filesystem::exists(path + ".group", ec)) group_file = path + ".group";
    if (group_file.empty() && std::filesystem::exists(path + ".query", ec)) group_file = path + ".query";
  }
  if (!weight_file.empty()) {
    if (m.has_weights()) fail(weight_file, 0, "", "weights given twice (weight column and weight file)");
    auto w = read_weight_file(weight_file, m.info.total_rows);
    w.erase(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(m.info.first_row));
    w.resize(m.n_rows);
    m.weight = to_view("kboost::DMatrix::weight", w);
  }
  if (!group_file.empty()) {
    if (m.group_ptr.extent(0) > 0) fail(group_file, 0, "", "query groups given twice (qid and group file)");
    if (opt.shard_count > 1) fail(group_file, 0, "", "query groups cannot be split over ranks");
    m.group_ptr = to_view("kboost::DMatrix::group_ptr", read_group_file(group_file, m.n_rows));
  }
  if (opt.shard_count > 1 && fmt != "hdf5") {
    if (m.group_ptr.extent(0) > 0) fail(path, 0, "", "query groups cannot be split over ranks");
    auto const [first, last] = shard_rows(m.n_rows, opt.shard_index, opt.shard_count);
    m = keep_rows(m, first, last);
  }
  return m;
}

}  // namespace io_detail
}  // namespace kboost
