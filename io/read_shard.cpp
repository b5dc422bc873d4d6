/// read_dataset_shard: a rank's rows of one data file (io/dataset_reader.hpp). CSV and LibSVM
/// ranks read and parse only their byte range of the file; what a byte range cannot decide alone
/// (codes of text columns, a CSV header, LibSVM's index base) sends every rank back to parsing the
/// whole file and keeping its rows, so the matrix is always the one the whole file gives.
#include <kboost/core/collective.hpp>
#include <kboost/core/compat.hpp>
#include <kboost/core/read_file.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/detail/reader.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace kboost {
namespace {

using io_detail::fail;

/// The offset of the first line start at or after `at` (lines start at 0 and after each '\n').
std::uint64_t line_start_at_or_after(std::ifstream& in, std::string const& path, std::uint64_t at, std::uint64_t size) {
  if (at == 0) return 0;
  if (at >= size) return size;
  std::uint64_t pos = at - 1;
  in.clear();
  in.seekg(static_cast<std::streamoff>(pos));
  std::vector<char> buf(1 << 16);
  while (pos < size) {
    in.read(buf.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(buf.size(), size - pos)));
    auto const n = static_cast<std::size_t>(in.gcount());
    if (n == 0) fail(path, 0, "", "read error at byte " + std::to_string(pos));
    if (auto const* nl = static_cast<char const*>(std::memchr(buf.data(), '\n', n))) return pos + (nl - buf.data()) + 1;
    pos += n;
  }
  return size;
}

std::string read_bytes(std::ifstream& in, std::string const& path, std::uint64_t begin, std::uint64_t end) {
  std::string text(end - begin, '\0');
  in.clear();
  in.seekg(static_cast<std::streamoff>(begin));
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (static_cast<std::uint64_t>(in.gcount()) != text.size())
    fail(path, 0, "", "read error in bytes " + std::to_string(begin) + ".." + std::to_string(end));
  return text;
}

/// This rank's whole lines of `path`, and the file's line 1.
struct ByteRange {
  std::string text, line_one;
  std::uint64_t lines = 0;
};

ByteRange read_byte_range(std::string const& path, int rank, int ranks) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) fail(path, 0, "", "no such file");
  std::uint64_t const size = std::filesystem::file_size(path, ec);
  if (ec) fail(path, 0, "", "cannot get the file size");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, 0, "", "cannot open file for reading");
  auto const at = [&](int r) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(size) * static_cast<unsigned>(r) /
                                      static_cast<unsigned>(ranks));
  };
  // A line belongs to the rank whose range holds its first byte.
  std::uint64_t const begin = line_start_at_or_after(in, path, at(rank), size);
  std::uint64_t const end = line_start_at_or_after(in, path, at(rank + 1), size);
  ByteRange r;
  r.text = read_bytes(in, path, begin, std::max(begin, end));
  r.lines = static_cast<std::uint64_t>(std::count(r.text.begin(), r.text.end(), '\n'));
  if (!r.text.empty() && r.text.back() != '\n') ++r.lines;
  std::uint64_t const first_end = line_start_at_or_after(in, path, 1, size);
  r.line_one = read_bytes(in, path, 0, first_end);
  return r;
}

/// m's CSR with `width` columns (a LibSVM shard whose largest index is below another rank's).
void widen_csr(HostDMatrix& m, std::size_t width) {
  if (m.n_features >= width) return;
  auto const nnz = static_cast<std::int64_t>(m.csr.values.extent(0));
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> row_map(m.csr.graph.row_map.label(), m.n_rows + 1);
  Kokkos::deep_copy(row_map, m.csr.graph.row_map);
  m.csr = HostDMatrix::csr_type("kboost::DMatrix::csr", static_cast<std::int32_t>(m.n_rows),
                                static_cast<std::int32_t>(width), nnz, m.csr.values, row_map, m.csr.graph.entries);
  m.n_features = width;
  m.info.n_missing = m.n_rows * width - static_cast<std::size_t>(nnz);
}

}  // namespace

HostDMatrix read_dataset_shard(std::string const& path, ReadOptions const& opt, Collective& comm) {
  using namespace io_detail;
  compat::ScopedRegion region("kboost::io::read_dataset_shard");
  int const rank = comm.rank(), ranks = comm.size();
  std::string fmt;
  run_on_all_ranks(comm, [&] {
    if (ranks > 1 && is_stream_source(path))
      fail(source_name(path), 0, "", "standard input or a pipe is read by one process: give a file to several ranks");
    fmt = resolve_format(path, opt);
    if (ranks > 1 && (!opt.group_file.empty() || !opt.qid_column.empty()))
      fail(opt.group_file.empty() ? path : opt.group_file, 0, "", "query groups cannot be split over ranks");
    if (ranks > 1 && (!opt.label_lower_bound_column.empty() || !opt.label_upper_bound_column.empty()))
      fail(path, 0, "", "label bounds (survival:aft) are not read on several ranks yet");
  });
  ReadOptions whole = opt;  // every rank parses the whole file (or its HDF5 hyperslab) and keeps its rows
  whole.shard_index = static_cast<std::size_t>(rank);
  whole.shard_count = static_cast<std::size_t>(ranks);
  auto const read_whole = [&] {
    HostDMatrix m;
    run_on_all_ranks(comm, [&] { m = read_dataset(path, whole); });
    return m;
  };
  if (ranks == 1 || fmt == "hdf5" || (fmt == "libsvm" && opt.index_base == -1)) return read_whole();

  ByteRange range;
  run_on_all_ranks(comm, [&] { range = read_byte_range(path, rank, ranks); });
  std::uint64_t any_short = range.lines < 2 ? 1 : 0;  // a range that may hold only a header, or nothing
  comm.allreduce_max(&any_short, 1);
  if (any_short != 0) return read_whole();
  TextSource src;
  src.path = path;
  src.first_line = static_cast<std::size_t>(comm.exclusive_prefix_sum(static_cast<std::int64_t>(range.lines))) + 1;
  if (fmt == "csv" && rank > 0) {  // line 1 leads, for the header and the delimiter
    src.text = range.line_one;
    if (src.text.empty() || src.text.back() != '\n') src.text += '\n';
    src.text += range.text;
    src.lead_line_one = true;
  } else {
    src.text = std::move(range.text);
  }
  range = ByteRange{};
  ReadOptions one = opt;  // this range is a file of its own to the parser
  one.shard_index = 0;
  one.shard_count = 1;
  HostDMatrix m;
  run_on_all_ranks(comm, [&] { m = fmt == "csv" ? read_csv(src, one) : read_libsvm(src, one); });
  src.text.clear();
  // Agree on what a range may have decided differently: the CSV header, text columns.
  bool const header = !m.info.feature_names.empty();
  bool const text = !m.info.categories.empty() || !m.info.label_classes.empty();
  std::uint64_t flags[3] = {header ? 1u : 0u, header ? 0u : 1u, text ? 1u : 0u};  // max: any header, any not, any text
  comm.allreduce_max(flags, 3);
  if (flags[2] != 0 || (flags[0] != 0 && flags[1] != 0)) return read_whole();
  if (fmt == "csv" && rank > 0 && !header) m = keep_rows(m, 1, m.n_rows);  // line 1 is rank 0's data row
  std::uint64_t width = m.n_features;
  comm.allreduce_max(&width, 1);
  if (fmt == "libsvm") widen_csr(m, width);
  m.info.total_rows = static_cast<std::size_t>(comm.sum(static_cast<std::int64_t>(m.n_rows)));
  m.info.first_row = static_cast<std::size_t>(comm.exclusive_prefix_sum(static_cast<std::int64_t>(m.n_rows)));
  run_on_all_ranks(comm, [&] { m = finish_dataset(std::move(m), path, fmt, one); });
  return m;
}

}  // namespace kboost
