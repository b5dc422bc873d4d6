/// HDF5 reader (HDF5 C API): features = a rank-2 numeric dataset (rows × features, converted to
/// float32 by HDF5 on read), label = a rank-1 dataset (or rows × 1; rows × targets for
/// multi-target labels). NaN cells are missing.
/// Optional datasets named by weight_column (weights) and qid_column (query ids).
#include <hdf5.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <kboost/io/detail/isolated_read.hpp>
#include <kboost/io/detail/reader.hpp>

namespace kboost::io_detail {
namespace {

/// A name lookup (H5Lexists) that failed rather than answered: the root group's index (symbol
/// table, local heap or B-tree) does not read back.
constexpr char const* kUnreadableIndex = "cannot be looked up: the file's group index does not read (the file is corrupt)";

/// HDF5 handle closed on scope exit.
struct Handle {
  hid_t id;
  herr_t (*close)(hid_t);
  ~Handle() {
    if (id >= 0) close(id);
  }
};

/// Silences HDF5's own error printing while kboost reports errors itself.
struct QuietHdf5 {
  H5E_auto2_t func = nullptr;
  void* data = nullptr;
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &func, &data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, func, data); }
};

struct Dataset {
  std::vector<hsize_t> dims;
  std::vector<float> values;  // row-major
};

/// Rows [first, last) of a dataset whose first dimension is the file's rows (a shard); all when
/// last == 0.
struct RowRange {
  hsize_t first = 0, last = 0;
};

/// Refuses a number type HDF5 itself would misread: its conversions to float32/int64 trust the
/// type's size, precision, bit offset and (floats) field positions as the file states them, and
/// a corrupt header with bits outside the element read out of bounds inside libhdf5. Real files
/// hold 1/2/4/8-byte integers and 2/4/8-byte floats whose bits lie inside the element.
void check_number_type(hid_t type, H5T_class_t cls, std::string const& path, std::string const& what) {
  std::size_t const bytes = H5Tget_size(type);
  std::size_t const bits = 8 * bytes;
  std::size_t const precision = H5Tget_precision(type);
  int const offset = H5Tget_offset(type);
  bool ok = offset >= 0 && precision > 0 && static_cast<std::size_t>(offset) + precision <= bits;
  if (cls == H5T_INTEGER) {
    ok = ok && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8);
  } else {
    std::size_t spos = 0, epos = 0, esize = 0, mpos = 0, msize = 0;
    ok = ok && (bytes == 2 || bytes == 4 || bytes == 8) &&
         H5Tget_fields(type, &spos, &epos, &esize, &mpos, &msize) >= 0 && spos < bits && esize > 0 && msize > 0 &&
         epos + esize <= bits && mpos + msize <= bits && H5Tget_ebias(type) < (std::size_t{1} << std::min<std::size_t>(esize, 63));
  }
  if (!ok)
    fail(path, 0, what,
         "malformed number type (" + std::to_string(bytes) + " bytes, precision " + std::to_string(precision) +
             ", bit offset " + std::to_string(offset) + "): the header is corrupt");
}

/// Deflate, the strongest filter HDF5 ships, shrinks data at most about 1032:1 (zlib's bound).
constexpr hsize_t kMaxCompressionRatio = 1032;

/// "6 x 2303": a dataset's or chunk's shape for messages.
std::string shape_text(std::vector<hsize_t> const& dims) {
  std::string s;
  for (auto x : dims) s += (s.empty() ? "" : " x ") + std::to_string(x);
  return s;
}

/// The number of values of a dataset of `dims` (each of `element_bytes` in the file), after
/// checking that the file can hold them: a corrupt or hostile header may claim any shape, and
/// the reader allocates rows × features floats before HDF5 reads a byte, so a shape more than
/// the file's bytes could encode, even deflated, fails here instead of exhausting memory.
hsize_t checked_size(hsize_t file_bytes, std::string const& path, std::string const& what,
                     std::vector<hsize_t> const& dims, std::size_t element_bytes) {
  hsize_t const max_values = file_bytes * kMaxCompressionRatio / std::max<std::size_t>(element_bytes, 1);
  hsize_t n = 1;
  std::string const shape = shape_text(dims);
  for (auto x : dims) {
    if (x != 0 && n > max_values / x)
      fail(path, 0, what,
           "shape " + shape + " claims more values than a file of " + std::to_string(file_bytes) +
               " bytes can hold (the header is corrupt)");
    n *= x;
  }
  return n;
}

/// The chunks of a dataset that a read touches: the cells of a grid of `chunk`-sized cells from
/// `start` (the cell holding the first row read) to `end` (the dataset's shape, its first dimension
/// cut to the rows read). libhdf5 reads only those chunks, so only those are checked.
struct ChunkGrid {
  std::vector<hsize_t> start, end, chunk;

  /// Calls `visit(offset)` for each cell, in row-major order. The offsets cannot overflow:
  /// `check_chunk_extent` bounds the rounded-up shape first.
  template <class Visit>
  void for_each(Visit&& visit) const {
    std::vector<hsize_t> at = start;
    for (;;) {
      visit(at);
      std::size_t i = end.size();
      while (i-- > 0) {
        at[i] += chunk[i];
        if (at[i] < end[i]) break;
        if (i == 0) return;
        at[i] = 0;
      }
    }
  }
};

/// Unfiltered datasets of up to this many stored chunks have each chunk's size and address checked
/// (H5Dget_chunk_info_by_coord walks the whole chunk index on every call in libhdf5 1.10: 0.2 s for
/// this many, 9 minutes for 200,000); larger ones are checked by their sum only.
constexpr hsize_t kChunksCheckedOneByOne = 4096;

/// libhdf5 reads an unfiltered chunk into a buffer of the size its index records and then uses the
/// buffer as a whole chunk (H5D__chunk_lock), so a chunk recorded in fewer bytes than it holds is
/// read past (52 bytes recorded for 6 x 3 floats made H5Dread copy past the buffer). HDF5 stores
/// every unfiltered chunk in exactly `chunk_bytes`, so the recorded sizes must sum to that many per
/// indexed chunk, and (for indexes of up to kChunksCheckedOneByOne chunks) each chunk of `grid` must
/// be absent (read as the fill value) or hold `chunk_bytes` inside the file.
void check_unfiltered_chunks(hid_t ds, hid_t space, hsize_t file_bytes, ChunkGrid const& grid, hsize_t chunk_bytes,
                             std::string const& path, std::string const& what) {
  hsize_t indexed = 0;
  if (H5Dget_num_chunks(ds, space, &indexed) < 0)
    fail(path, 0, what, "its chunk index cannot be read (the file is corrupt)");
  if (indexed == 0) return;
  hsize_t const recorded = H5Dget_storage_size(ds);
  if (recorded / indexed != chunk_bytes || recorded % indexed != 0)
    fail(path, 0, what,
         "its chunk index records " + std::to_string(indexed) + " chunks in " + std::to_string(recorded) +
             " bytes, not " + std::to_string(chunk_bytes) + " bytes each (the header is corrupt)");
  if (indexed > kChunksCheckedOneByOne) return;
  grid.for_each([&](std::vector<hsize_t> const& at) {
    unsigned filter_mask = 0;
    haddr_t addr = HADDR_UNDEF;
    hsize_t stored = 0;
    if (H5Dget_chunk_info_by_coord(ds, at.data(), &filter_mask, &addr, &stored) < 0)
      fail(path, 0, what, "its chunk at " + shape_text(at) + " cannot be looked up (the file is corrupt)");
    if (addr == HADDR_UNDEF) return;
    if (stored < chunk_bytes || addr > file_bytes || file_bytes - addr < stored)
      fail(path, 0, what,
           "its chunk at " + shape_text(at) + " stores " + std::to_string(stored) + " bytes at file offset " +
               std::to_string(addr) + " for " + std::to_string(chunk_bytes) + " bytes of values in a file of " +
               std::to_string(file_bytes) + " bytes (the header is corrupt)");
  });
}

/// A chunk filter pipeline of deflate, shuffle (which keeps the size) and Fletcher32 (4 bytes of
/// checksum), each optional: the pipelines whose stored chunks kboost can size. `deflate` and
/// `fletcher` are filter positions (bit i of a chunk's filter mask skips filter i); -1 when absent.
struct SizedPipeline {
  int deflate = -1, fletcher = -1;
};

std::optional<SizedPipeline> sized_pipeline(hid_t plist) {
  SizedPipeline p;
  int const n = H5Pget_nfilters(plist);
  for (int i = 0; i < n; ++i) {
    unsigned flags = 0, config = 0;
    std::size_t n_values = 0;
    H5Z_filter_t const id = H5Pget_filter2(plist, static_cast<unsigned>(i), &flags, &n_values, nullptr, 0, nullptr, &config);
    if (id == H5Z_FILTER_DEFLATE) p.deflate = i;
    else if (id == H5Z_FILTER_FLETCHER32) p.fletcher = i;
    else if (id != H5Z_FILTER_SHUFFLE) return std::nullopt;
  }
  return p;
}

/// The bytes `stored` bytes of a zlib stream inflate to, counting no further than `cap`; nullopt
/// when the stream is corrupt or ends early.
std::optional<hsize_t> inflated_bytes(unsigned char* stored, hsize_t n, hsize_t cap) {
  if (n > std::numeric_limits<uInt>::max()) return std::nullopt;
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return std::nullopt;
  zs.next_in = stored;
  zs.avail_in = static_cast<uInt>(n);
  std::vector<unsigned char> out(1 << 16);
  hsize_t total = 0;
  int rc = Z_OK;
  while (rc == Z_OK && total <= cap) {
    zs.next_out = out.data();
    zs.avail_out = static_cast<uInt>(out.size());
    rc = inflate(&zs, Z_NO_FLUSH);
    total += out.size() - zs.avail_out;
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END && total <= cap) return std::nullopt;
  return total;
}

/// libhdf5 1.10 unfilters a chunk into a buffer of whatever size the filters give back and then
/// uses the buffer as a whole chunk, so a stream that inflates short, a chunk shape widened in the
/// header, or a checksummed chunk stored short is read past, silently: the bytes beyond the buffer
/// become values. Each stored chunk of `grid` is read raw (H5Dread_chunk) and sized here:
/// inflated with zlib, less its checksum.
void check_filtered_chunks(hid_t ds, hsize_t file_bytes, ChunkGrid const& grid, hsize_t chunk_bytes,
                           SizedPipeline pipeline, std::string const& path, std::string const& what) {
  std::vector<unsigned char> raw;
  grid.for_each([&](std::vector<hsize_t> const& at) {
    hsize_t stored = 0;
    if (H5Dget_chunk_storage_size(ds, at.data(), &stored) < 0)
      fail(path, 0, what, "its chunk at " + shape_text(at) + " cannot be looked up (the file is corrupt)");
    if (stored == 0) return;
    std::string const chunk_name = "its chunk at " + shape_text(at);
    if (stored > file_bytes) fail(path, 0, what, chunk_name + " claims more bytes than the file holds (the header is corrupt)");
    raw.resize(stored);
    std::uint32_t mask = 0;
    if (H5Dread_chunk(ds, H5P_DEFAULT, at.data(), &mask, raw.data()) < 0)
      fail(path, 0, what, chunk_name + " cannot be read (the file is corrupt)");
    auto active = [&](int filter) { return filter >= 0 && (mask & (1u << filter)) == 0; };
    hsize_t expected = chunk_bytes, n = stored;
    if (active(pipeline.fletcher) && pipeline.fletcher > pipeline.deflate) {
      if (n < 4) fail(path, 0, what, chunk_name + " is shorter than its checksum (the data is corrupt)");
      n -= 4;
    } else if (active(pipeline.fletcher)) {
      expected += 4;
    }
    std::optional<hsize_t> const inflated =
        active(pipeline.deflate) ? inflated_bytes(raw.data(), n, expected) : std::optional<hsize_t>(n);
    if (!inflated) fail(path, 0, what, chunk_name + " does not inflate (the data is corrupt)");
    if (*inflated != expected)
      fail(path, 0, what,
           chunk_name + " holds " +
               (*inflated > expected ? "more than " + std::to_string(expected) : std::to_string(*inflated)) +
               " bytes once unfiltered, for " + std::to_string(expected) + " bytes of values (the data is corrupt)");
  });
}

/// libhdf5 reads a chunked dataset a chunk at a time, into a buffer of the whole chunk's bytes that
/// it fills or inflates, for every chunk the dataset's shape spans. Checked here, before H5Dread:
/// - a chunk larger than a fixed (not unlimited) maximum dimension, which H5Dcreate refuses
///   (H5D__chunk_construct) and libhdf5's reads do not expect (6 x 126 chunks on a 6 x 3 maximum
///   made H5Dread copy past the chunk buffer);
/// - the bytes the chunks span: a stored chunk inflates from at least 1/kMaxCompressionRatio of its
///   bytes, so chunks that span more than the file's bytes times that ratio are a corrupt header
///   (3145734 x 3 chunks over a 6 x 2303 shape in a file of 6,880 bytes made libhdf5 fill 29 GB of
///   buffers, 30 s of work for 13,818 values);
/// - with no filter, each stored chunk's size and address (`check_unfiltered_chunks`); with deflate,
///   shuffle and Fletcher32 only, each stored chunk's size once unfiltered (`check_filtered_chunks`).
///   These look at the chunks that hold the rows read (a shard's only: `ChunkGrid`), except the
///   unfiltered sizes' sum, which covers the whole chunk index.
void check_chunk_extent(hid_t ds, hid_t plist, hsize_t file_bytes, RowRange rows, std::string const& path,
                        std::string const& what) {
  Handle space{H5Dget_space(ds), H5Sclose};
  Handle type{H5Dget_type(ds), H5Tclose};
  int const rank = H5Sget_simple_extent_ndims(space.id);
  if (rank <= 0) return;
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank)), max_dims(dims.size()), chunk(dims.size());
  H5Sget_simple_extent_dims(space.id, dims.data(), max_dims.data());
  if (H5Pget_chunk(plist, rank, chunk.data()) != rank) fail(path, 0, what, "cannot read its chunk shape");
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (max_dims[i] != H5S_UNLIMITED && chunk[i] > max_dims[i])
      fail(path, 0, what,
           "chunks of " + shape_text(chunk) + " exceed its maximum shape " + shape_text(max_dims) +
               " (the header is corrupt)");
  hsize_t const limit = file_bytes * kMaxCompressionRatio;
  hsize_t const element_bytes = std::max<std::size_t>(H5Tget_size(type.id), 1);
  hsize_t spanned = element_bytes;
  bool too_many = false;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0) return;  // no values: libhdf5 reads no chunk
    if (chunk[i] == 0) fail(path, 0, what, "has a chunk dimension of 0 (the header is corrupt)");
    hsize_t const rounded_up = (dims[i] / chunk[i] + (dims[i] % chunk[i] != 0)) * chunk[i];
    too_many = too_many || rounded_up < dims[i] || spanned > limit / rounded_up;
    if (!too_many) spanned *= rounded_up;
  }
  if (too_many)
    fail(path, 0, what,
         "chunks of " + shape_text(chunk) + " over its shape " + shape_text(dims) + " span more bytes than a file of " +
             std::to_string(file_bytes) + " bytes can hold (the header is corrupt)");
  hsize_t chunk_bytes = element_bytes;  // ≤ spanned: cannot overflow
  for (auto c : chunk) chunk_bytes *= c;
  allow_isolated_memory(2 * chunk_bytes);  // libhdf5's chunk buffer, and a stored chunk read raw below
  ChunkGrid grid{std::vector<hsize_t>(dims.size(), 0), dims, chunk};
  if (rows.last > 0) {  // a shard: the chunks that hold its rows
    grid.start[0] = rows.first / chunk[0] * chunk[0];
    grid.end[0] = rows.last;
  }
  if (H5Pget_nfilters(plist) == 0) return check_unfiltered_chunks(ds, space.id, file_bytes, grid, chunk_bytes, path, what);
  if (auto const pipeline = sized_pipeline(plist))
    check_filtered_chunks(ds, file_bytes, grid, chunk_bytes, *pipeline, path, what);
}

/// A contiguous dataset's values are one block at a stated file address, a compact one's are
/// stored in its header: libhdf5 copies from either without checking that the block holds all the
/// values (and, contiguous, lies inside the file), so a corrupt size or address fails here.
/// (A contiguous block never written has no address: HDF5 reads the fill value.)
void check_raw_data_extent(hid_t ds, hsize_t file_bytes, RowRange rows, std::string const& path, std::string const& what,
                           hsize_t bytes) {
  Handle plist{H5Dget_create_plist(ds), H5Pclose};
  if (plist.id < 0) return;
  H5D_layout_t const layout = H5Pget_layout(plist.id);
  if (layout == H5D_CHUNKED) return check_chunk_extent(ds, plist.id, file_bytes, rows, path, what);
  if (layout != H5D_CONTIGUOUS && layout != H5D_COMPACT) return;
  hsize_t const stored = H5Dget_storage_size(ds);
  if (layout == H5D_COMPACT) {
    if (stored < bytes)
      fail(path, 0, what,
           "stores " + std::to_string(stored) + " bytes in its header for " + std::to_string(bytes) +
               " bytes of values (the header is corrupt)");
    return;
  }
  haddr_t const at = H5Dget_offset(ds);
  if (at == HADDR_UNDEF) return;
  if (stored < bytes || at > file_bytes || file_bytes - at < bytes)
    fail(path, 0, what,
         "its " + std::to_string(bytes) + " bytes of values at file offset " + std::to_string(at) +
             " do not lie inside the file's " + std::to_string(file_bytes) + " bytes (the header is corrupt)");
}

/// Read dataset `name` as float32 (or, with `as_int64`, as int64 into `ints`); nullopt when absent and
/// `optional`, errors otherwise. With `rows` set, only those rows (an HDF5 hyperslab; dims[0] is
/// then the shard's rows) of a dataset at least that long.
std::optional<Dataset> read_float_dataset(hid_t file, std::string const& path, std::string const& name, bool optional,
                                          std::vector<std::int64_t>* ints = nullptr, RowRange rows = {}) {
  std::string const what = "dataset '" + name + "'";
  htri_t const exists = H5Lexists(file, name.c_str(), H5P_DEFAULT);
  if (exists < 0) fail(path, 0, what, kUnreadableIndex);  // not "absent": an optional dataset may be there
  if (exists == 0) {
    if (optional) return std::nullopt;
    fail(path, 0, what, "not found in the file");
  }
  Handle ds{H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose};
  if (ds.id < 0) fail(path, 0, what, "cannot be opened as a dataset");
  Handle type{H5Dget_type(ds.id), H5Tclose};
  H5T_class_t cls = H5Tget_class(type.id);
  if (cls != H5T_FLOAT && cls != H5T_INTEGER) fail(path, 0, what, "is not numeric (integer or float)");
  check_number_type(type.id, cls, path, what);
  Handle space{H5Dget_space(ds.id), H5Sclose};
  int rank = H5Sget_simple_extent_ndims(space.id);
  if (rank < 0) fail(path, 0, what, "cannot read its shape");
  Dataset d;
  d.dims.resize(static_cast<std::size_t>(rank));
  std::vector<hsize_t> max_dims(d.dims.size());
  H5Sget_simple_extent_dims(space.id, d.dims.data(), max_dims.data());
  // HDF5 never writes a shape beyond the maximum one, and libhdf5 sizes its chunk index by the
  // maximum: a 6 x 767 shape whose maximum is its single 6 x 3 chunk made H5Dread copy past the
  // one chunk's buffer.
  for (std::size_t i = 0; i < d.dims.size(); ++i)
    if (max_dims[i] != H5S_UNLIMITED && d.dims[i] > max_dims[i])
      fail(path, 0, what,
           "shape " + shape_text(d.dims) + " exceeds its maximum shape " + shape_text(max_dims) +
               " (the header is corrupt)");
  hid_t file_space = H5S_ALL, mem_space = H5S_ALL;
  Handle mem{-1, H5Sclose};
  if (rows.last > 0) {
    if (rank < 1 || d.dims[0] < rows.last)
      fail(path, 0, what, "has " + std::to_string(rank < 1 ? 0 : d.dims[0]) + " rows, the shard needs rows up to " +
                              std::to_string(rows.last));
    std::vector<hsize_t> start(d.dims.size(), 0), count = d.dims;
    start[0] = rows.first;
    count[0] = rows.last - rows.first;
    if (H5Sselect_hyperslab(space.id, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr) < 0)
      fail(path, 0, what, "cannot select rows " + std::to_string(rows.first) + ".." + std::to_string(rows.last));
    d.dims[0] = count[0];
    mem.id = H5Screate_simple(rank, count.data(), nullptr);
    file_space = space.id;
    mem_space = mem.id;
  }
  hsize_t file_bytes = 0;
  if (H5Fget_filesize(file, &file_bytes) < 0) fail(path, 0, what, "cannot read the file's size");
  hsize_t const n = checked_size(file_bytes, path, what, d.dims, H5Tget_size(type.id));
  // Its values as the file stores them (libhdf5's read buffers), as read (float32, or int64 and
  // float32), and a copy on the way out (per_row).
  allow_isolated_memory(n * (H5Tget_size(type.id) + (ints ? 12 : 4) + 4));
  check_raw_data_extent(ds.id, file_bytes, rows, path, what, n * H5Tget_size(type.id));
  if (ints) {  // query ids: exact integers, not rounded through float32
    if (cls != H5T_INTEGER) fail(path, 0, what, "query ids must be an integer dataset");
    ints->resize(n);
    if (n > 0 && H5Dread(ds.id, H5T_NATIVE_INT64, mem_space, file_space, H5P_DEFAULT, ints->data()) < 0)
      fail(path, 0, what, "read failed");
    d.values.assign(n, 0.0f);
    return d;
  }
  d.values.resize(n);
  if (n > 0 && H5Dread(ds.id, H5T_NATIVE_FLOAT, mem_space, file_space, H5P_DEFAULT, d.values.data()) < 0)
    fail(path, 0, what, "read failed");
  return d;
}

/// A per-row dataset: rank 1 of n_rows, or rank 2 of n_rows × 1.
std::vector<float> per_row(Dataset const& d, std::size_t n_rows, std::string const& path, std::string const& name) {
  bool ok = (d.dims.size() == 1 && d.dims[0] == n_rows) || (d.dims.size() == 2 && d.dims[0] == n_rows && d.dims[1] == 1);
  if (!ok) {
    std::string const shape = shape_text(d.dims);
    fail(path, 0, "dataset '" + name + "'",
         "wrong shape (" + shape + "), expected rank 1 of " + std::to_string(n_rows) + " rows");
  }
  return d.values;
}

/// What the reader takes from the file, in host vectors: the matrix's arrays before they become
/// Views. Absent arrays are empty.
struct Hdf5Arrays {
  std::uint64_t n_rows = 0, n_features = 0, n_targets = 1, first_row = 0, total_rows = 0;
  std::vector<float> dense, label, weight, lower, upper;
  std::vector<std::uint32_t> group_ptr;
  std::string label_name;

  /// What `read_matrix` reads back, in its order.
  void write(ResultWriter& out) const {
    for (std::uint64_t v : {n_rows, n_features, n_targets, first_row, total_rows}) out.put(v);
    out.put(label_name);
    for (auto const* v : {&dense, &label, &weight, &lower, &upper}) out.put(*v);
    out.put(group_ptr);
  }
};

/// The features dataset's row count (rows x features, rank 2, at least one row).
std::size_t features_row_count(hid_t file, std::string const& path, std::string const& name) {
  htri_t const exists = H5Lexists(file, name.c_str(), H5P_DEFAULT);
  if (exists < 0) fail(path, 0, "dataset '" + name + "'", kUnreadableIndex);
  Handle ds{exists > 0 ? H5Dopen2(file, name.c_str(), H5P_DEFAULT) : -1, H5Dclose};
  if (ds.id < 0) fail(path, 0, "dataset '" + name + "'", "not found in the file");
  Handle space{H5Dget_space(ds.id), H5Sclose};
  hsize_t dims[2] = {0, 0};
  if (H5Sget_simple_extent_ndims(space.id) != 2)
    fail(path, 0, "dataset '" + name + "'",
         "wrong rank " + std::to_string(H5Sget_simple_extent_ndims(space.id)) + ", expected 2 (rows x features)");
  H5Sget_simple_extent_dims(space.id, dims, nullptr);
  if (dims[0] == 0) fail(path, 0, "dataset '" + name + "'", "empty: no rows");
  return dims[0];
}

/// The per-row datasets of one shard of an open file: which rows, and where to report them.
struct ShardReader {
  hid_t file;
  std::string const& path;
  RowRange shard;
  std::uint64_t first_row;
  std::size_t n_rows;
  /// A dataset with one value per row of the shard.
  std::vector<float> per_row_values(std::string const& name) const {
    return per_row(*read_float_dataset(file, path, name, false, nullptr, shard), n_rows, path, name);
  }
};

/// Labels: rows, or rows × targets (multi-target); every one finite. The default "y" may be absent
/// (unlabelled data); a label dataset named by the user must exist.
void read_hdf5_labels(ShardReader const& r, ReadOptions const& opt, Hdf5Arrays& m) {
  bool const label_optional = opt.label_dataset == ReadOptions{}.label_dataset;
  auto y = read_float_dataset(r.file, r.path, opt.label_dataset, label_optional, nullptr, r.shard);
  if (!y) return;
  bool const multi = y->dims.size() == 2 && y->dims[0] == r.n_rows && y->dims[1] > 1;
  auto label = multi ? y->values : per_row(*y, r.n_rows, r.path, opt.label_dataset);
  std::size_t const targets = multi ? static_cast<std::size_t>(y->dims[1]) : 1;
  for (std::size_t k = 0; k < label.size(); ++k)
    if (!std::isfinite(label[k]))
      fail(r.path, 0, "dataset '" + opt.label_dataset + "' record " + std::to_string(r.first_row + k / targets) +
                          (multi ? " target " + std::to_string(k % targets) : std::string()),
           "label is not finite");
  m.n_targets = targets;
  m.label = std::move(label);
  m.label_name = opt.label_dataset;
}

void read_hdf5_weights(ShardReader const& r, std::string const& name, Hdf5Arrays& m) {
  auto w = r.per_row_values(name);
  for (std::size_t k = 0; k < r.n_rows; ++k)
    if (!std::isfinite(w[k]) || w[k] < 0)
      fail(r.path, 0, "dataset '" + name + "' record " + std::to_string(r.first_row + k), "weight is not a finite non-negative number");
  m.weight = std::move(w);
}

/// survival:aft's interval labels, from two datasets.
void read_hdf5_label_bounds(ShardReader const& r, ReadOptions const& opt, Hdf5Arrays& m) {
  if (opt.label_lower_bound_column.empty() || opt.label_upper_bound_column.empty())
    fail(r.path, 0, "", "label bounds need both a lower and an upper bound dataset");
  auto const lower = r.per_row_values(opt.label_lower_bound_column), upper = r.per_row_values(opt.label_upper_bound_column);
  for (std::size_t k = 0; k < r.n_rows; ++k) {
    std::string const why = label_bounds_error(lower[k], upper[k]);
    if (!why.empty())
      fail(r.path, 0, "datasets '" + opt.label_lower_bound_column + "', '" + opt.label_upper_bound_column + "' record " +
                          std::to_string(r.first_row + k), why);
  }
  m.lower = lower;
  m.upper = upper;
}

/// Query ids (integers): consecutive equal ids form a group; reported as FILE:N, N the 1-based record.
void read_hdf5_query_ids(ShardReader const& r, std::string const& name, int shard_count, Hdf5Arrays& m) {
  if (shard_count > 1) fail(r.path, 0, "dataset '" + name + "'", "query groups cannot be split over ranks");
  std::vector<std::int64_t> qid;
  per_row(*read_float_dataset(r.file, r.path, name, false, &qid), r.n_rows, r.path, name);
  std::vector<std::size_t> rec(r.n_rows);
  for (std::size_t k = 0; k < r.n_rows; ++k) rec[k] = k + 1;
  m.group_ptr = groups_from_qids(qid, rec, r.path, "dataset '" + name + "' (1-based record)");
}

/// Every libhdf5 call of the reader, and the checks on what they return: the file's rows, then this
/// shard's (a hyperslab of every per-row dataset).
Hdf5Arrays read_hdf5_arrays(std::string const& path, ReadOptions const& opt) {
  QuietHdf5 quiet;
  if (H5Fis_hdf5(path.c_str()) <= 0) fail(path, 0, "", "not an HDF5 file");
  Handle file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  if (file.id < 0) fail(path, 0, "", "cannot open HDF5 file for reading");
  std::size_t const total_rows = features_row_count(file.id, path, opt.features_dataset);
  auto const [first_row, last_row] = shard_rows(total_rows, opt.shard_index, opt.shard_count);
  RowRange const shard = opt.shard_count > 1 ? RowRange{first_row, last_row} : RowRange{};
  auto X = *read_float_dataset(file.id, path, opt.features_dataset, false, nullptr, shard);
  std::size_t const n_rows = X.dims[0], n_cols = X.dims[1];
  if (opt.num_features > 0 && n_cols > opt.num_features)
    fail(path, 0, "dataset '" + opt.features_dataset + "'",
         std::to_string(n_cols) + " features, more than num_features = " + std::to_string(opt.num_features));

  Hdf5Arrays m;
  m.n_rows = n_rows;
  m.n_features = n_cols;
  m.first_row = first_row;
  m.total_rows = total_rows;
  m.dense = std::move(X.values);
  ShardReader const rows{file.id, path, shard, first_row, n_rows};
  if (!opt.label_dataset.empty()) read_hdf5_labels(rows, opt, m);
  if (!opt.weight_column.empty()) read_hdf5_weights(rows, opt.weight_column, m);
  if (!opt.label_lower_bound_column.empty() || !opt.label_upper_bound_column.empty()) read_hdf5_label_bounds(rows, opt, m);
  if (!opt.qid_column.empty()) read_hdf5_query_ids(rows, opt.qid_column, opt.shard_count, m);
  return m;
}

/// A host View of the next vector `in` holds (unallocated when the vector is empty).
template <class T>
Kokkos::View<T*, Kokkos::HostSpace> next_view(ResultReader& in, std::string const& label) {
  std::uint64_t const n = in.get_count(sizeof(T));
  Kokkos::View<T*, Kokkos::HostSpace> v;
  if (n == 0) return v;
  v = Kokkos::View<T*, Kokkos::HostSpace>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
  in.read(v.data(), n * sizeof(T));
  return v;
}

/// The matrix `Hdf5Arrays::write` wrote, each array read straight into its View; n_missing
/// counted here.
HostDMatrix read_matrix(ResultReader& in) {
  HostDMatrix m;
  m.n_rows = in.get<std::uint64_t>();
  m.n_features = in.get<std::uint64_t>();
  m.n_targets = in.get<std::uint64_t>();
  m.info.first_row = in.get<std::uint64_t>();
  m.info.total_rows = in.get<std::uint64_t>();
  in.get(m.info.label_name);
  std::uint64_t const cells = in.get_count(sizeof(float));
  if (cells != m.n_rows * m.n_features) throw std::logic_error("kboost: the HDF5 reader's result is malformed");
  m.dense = HostDMatrix::dense_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::DMatrix::dense"), m.n_rows,
                                    m.n_features);
  in.read(m.dense.data(), cells * sizeof(float));
  std::size_t n_missing = 0;
  for (std::size_t i = 0; i < cells; ++i) n_missing += std::isnan(m.dense.data()[i]) ? 1 : 0;
  m.info.n_missing = n_missing;
  m.label = next_view<float>(in, "kboost::DMatrix::label");
  m.weight = next_view<float>(in, "kboost::DMatrix::weight");
  m.label_lower_bound = next_view<float>(in, "kboost::DMatrix::label_lower_bound");
  m.label_upper_bound = next_view<float>(in, "kboost::DMatrix::label_upper_bound");
  m.group_ptr = next_view<std::uint32_t>(in, "kboost::DMatrix::group_ptr");
  return m;
}

}  // namespace

/// Upstream's rule for infinities in the features: an error naming the dataset's row and column,
/// unless a missing marker spells +infinity (missing=inf), which makes +inf cells missing.
void apply_infinity_rule(HostDMatrix& m, std::string const& path, ReadOptions const& opt) {
  bool const missing_inf = infinity_marker(opt.missing_markers);
  for (std::size_t r = 0; r < m.n_rows; ++r)
    for (std::size_t c = 0; c < m.n_features; ++c) {
      float& v = m.dense(r, c);
      if (!std::isinf(v)) continue;
      if (!missing_inf)
        fail(path, 0, "dataset '" + opt.features_dataset + "' row " + std::to_string(m.info.first_row + r) + " column " +
                          std::to_string(c),
             infinity_in_data(v > 0 ? "inf" : "-inf"));
      if (v > 0) {
        v = std::numeric_limits<float>::quiet_NaN();
        ++m.info.n_missing;
      }
    }
}

/// libhdf5 runs in a child process (run_isolated): a file that crashes it or makes it allocate
/// without bound ends in an error here.
HostDMatrix read_hdf5(std::string const& path, ReadOptions const& opt) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) fail(path, 0, "", "no such file");
  ResultReader in = run_isolated(path, "libhdf5", [&](ResultWriter& out) { read_hdf5_arrays(path, opt).write(out); });
  HostDMatrix m = read_matrix(in);
  apply_infinity_rule(m, path, opt);
  return m;
}

}  // namespace kboost::io_detail
