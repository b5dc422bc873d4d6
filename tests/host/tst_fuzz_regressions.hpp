// Inputs that crashed a fuzz target (fuzz/, perf/fuzz), kept as files under
// tests/fuzz_regressions/: each must now be refused with a std::runtime_error that names the file,
// the record and what is wrong, read as the fuzz target read it (format forced).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <hdf5.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <kboost/engine/checkpoint.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/detail/isolated_read.hpp>
#include <kboost/io/model_reader.hpp>
#include "tests/test_util.hpp"

namespace {

using Catch::Matchers::ContainsSubstring;

std::string regression_path(std::string const& name) {
  return std::string(kboost::test::source_dir()) + "/tests/fuzz_regressions/" + name;
}

kboost::ReadOptions format(std::string const& f) {
  kboost::ReadOptions o;
  o.format = f;
  return o;
}

/// The message of the std::runtime_error `f` throws; fails the test when it throws nothing or
/// anything else (the fuzz targets' rule: only std::runtime_error is a refusal).
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (std::runtime_error const& e) {
    return e.what();
  } catch (std::exception const& e) {
    FAIL("threw a non-runtime_error: " << e.what());
  }
  FAIL("accepted the input");
  return "";
}

}  // namespace

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 dataset whose header claims a huge shape", "[fuzz][readers]") {
  // The weight dataset's corrupted dims claimed about 2^57 values: the reader allocated them
  // before reading. Its maximum shape says 6; an extendible dataset as large, which has no
  // maximum, is refused by the file's size (the chunked-dataset case below).
  std::string const path = regression_path("hdf5_huge_shape.h5");
  kboost::ReadOptions with_weights = format("hdf5");
  with_weights.weight_column = "w";
  std::string const what = refusal([&] { kboost::read_dataset(path, with_weights); });
  CHECK_THAT(what, ContainsSubstring(path + ": dataset 'w': shape 36028797018963974 exceeds its maximum shape 6"));
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": LibSVM feature index beyond 32 bits", "[fuzz][readers]") {
  // Index 2^63 - 1: `largest index + 1` overflowed int64 (undefined behaviour) before the width check.
  std::string const path = regression_path("libsvm_index_overflow.libsvm");
  for (int base : {0, -1}) {
    kboost::ReadOptions o = format("libsvm");
    o.index_base = base;
    std::string const what = refusal([&] { kboost::read_dataset(path, o); });
    CHECK_THAT(what, ContainsSubstring(path + ":2: field 2") &&
                         ContainsSubstring("feature index 9223372036854775807 is beyond the largest column id"));
  }
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 dataset with a corrupt number type", "[fuzz][readers]") {
  // The integer type's bit fields pointed outside its bytes: libhdf5's integer-to-float conversion
  // read out of bounds (SIGBUS) inside H5Dread.
  std::string const path = regression_path("hdf5_bad_number_type.h5");
  std::string const what = refusal([&] { kboost::read_dataset(path, format("hdf5")); });
  CHECK_THAT(what, ContainsSubstring(path + ": dataset '") && ContainsSubstring("malformed number type") &&
                       ContainsSubstring("the header is corrupt"));
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 compact dataset shorter than its shape", "[fuzz][readers]") {
  // The label 'y', stored compact (in its header), held 0 bytes for 6 doubles: libhdf5 copied
  // from a null buffer (SIGSEGV) inside H5Dread.
  std::string const path = regression_path("hdf5_compact_short.h5");
  std::string const what = refusal([&] { kboost::read_dataset(path, format("hdf5")); });
  CHECK_THAT(what, ContainsSubstring(path + ": dataset 'y': stores 0 bytes in its header for 48 bytes of values") &&
                       ContainsSubstring("the header is corrupt"));
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 root group whose local heap claims gigabytes", "[fuzz][readers]") {
  // The root group's symbol table points at a local heap whose header claims 2.8 GB: libhdf5 asks
  // malloc for it (the fuzz target's allocation limit calls that out of memory) and the lookup of
  // 'X' fails. The failed lookup must be an error about the file, not a dataset that is absent:
  // for the optional datasets (labels, weights, qid) "absent" would silently drop them.
  std::string const path = regression_path("hdf5_huge_local_heap.h5");
  std::string const what = refusal([&] { kboost::read_dataset(path, format("hdf5")); });
  CHECK_THAT(what, ContainsSubstring(path + ": dataset 'X': cannot be looked up") &&
                       ContainsSubstring("the file is corrupt"));
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 files that crash libhdf5 or make it allocate without bound",
          "[fuzz][readers]") {
  // The root group's symbol table is corrupt: libhdf5 1.10.8 reads through a null pointer in its
  // metadata cache (H5F__accum_read under H5HL_protect, from H5Lexists) and the process died of
  // SIGSEGV. libhdf5 now runs in a child process, so the crash is an error naming the file.
  // Two more crashes of libhdf5's own: a chunked layout message whose dimensions make
  // H5D__chunk_set_info divide by zero inside H5Dopen2 (SIGFPE), and a local heap that makes
  // H5C_protect copy -1 bytes under H5HL_protect (SIGABRT). With AddressSanitizer's
  // allocator_may_return_null, a huge request before that copy fails instead and libhdf5's lookup
  // reports an error of its own, so a sanitized build checks only for an error naming the file.
#if defined(__SANITIZE_ADDRESS__)
  std::string const crashed = ": ";
#else
  std::string const crashed = ": libhdf5 crashed reading the file (signal ";
#endif
  for (char const* name : {"hdf5_corrupt_symbol_table.h5", "hdf5_chunk_layout_division_by_zero.h5",
                           "hdf5_local_heap_negative_copy.h5"}) {
    std::string const crash = regression_path(name);
    CHECK_THAT(refusal([&] { kboost::read_dataset(crash, format("hdf5")); }),
               ContainsSubstring(crash + crashed) && ContainsSubstring("the file is corrupt"));
  }
  // The root group's local heap makes libhdf5 allocate 32 bytes at a time without end (H5HL_protect
  // from H5Lexists; killed at 24 GB). The child's address space is limited to what the parent had
  // mapped plus 1 GiB and what the datasets' checked shapes need, so libhdf5's allocations fail
  // there, its lookup fails, and the error names the file.
  std::string const heap = regression_path("hdf5_local_heap_unbounded_memory.h5");
  CHECK_THAT(refusal([&] { kboost::read_dataset(heap, format("hdf5")); }),
             ContainsSubstring(heap + ": ") && ContainsSubstring("the file is corrupt"));
}

namespace {

/// An HDF5 file of X (rows x 3 float32s, every fifth cell NaN), y, w (float32) and qid (int64, runs
/// of 4 rows), contiguous.
std::string write_side_datasets_h5(std::string const& path, hsize_t rows) {
  std::vector<float> x(rows * 3), y(rows), w(rows);
  std::vector<std::int64_t> qid(rows);
  for (hsize_t i = 0; i < x.size(); ++i) x[i] = i % 5 == 4 ? NAN : static_cast<float>(i) * 0.37f - 11.0f;
  for (hsize_t r = 0; r < rows; ++r) {
    y[r] = static_cast<float>(r % 3);
    w[r] = 0.5f + static_cast<float>(r % 7) * 0.125f;
    qid[r] = static_cast<std::int64_t>(r / 4) + 1000000001;
  }
  hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t const dims[2] = {rows, 3};
  hid_t xs = H5Screate_simple(2, dims, nullptr), rs = H5Screate_simple(1, dims, nullptr);
  auto const put = [&](char const* name, hid_t file_type, hid_t mem_type, hid_t space, void const* data) {
    hid_t ds = H5Dcreate2(f, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(ds);
  };
  put("X", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, xs, x.data());
  put("y", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, rs, y.data());
  put("w", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, rs, w.data());
  put("qid", H5T_STD_I64LE, H5T_NATIVE_INT64, rs, qid.data());
  H5Sclose(xs);
  H5Sclose(rs);
  H5Fclose(f);
  return path;
}

/// The bytes of a host View (empty when unallocated).
template <class V>
std::string view_bytes(V const& v) {
  return std::string(reinterpret_cast<char const*>(v.data()), v.span() * sizeof(typename V::value_type));
}

}  // namespace

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 read in a child process gives an in-process read's bytes",
          "[fuzz][readers]") {
  auto const dir = kboost::test::temp_dir("fuzz_isolated_hdf5");
  std::string const path = write_side_datasets_h5((dir / "side.h5").string(), 1001);
  kboost::ReadOptions whole = format("hdf5");
  whole.weight_column = "w";
  kboost::ReadOptions grouped = whole;
  grouped.qid_column = "qid";
  kboost::ReadOptions shard = whole;
  shard.shard_index = 1;
  shard.shard_count = 3;
  for (kboost::ReadOptions const& opt : {whole, grouped, shard}) {
    REQUIRE(kboost::io_detail::isolated_reads());
    auto const child = kboost::read_dataset(path, opt);
    kboost::io_detail::set_isolated_reads(false);
    auto const here = kboost::read_dataset(path, opt);
    kboost::io_detail::set_isolated_reads(true);
    REQUIRE(child.n_rows == here.n_rows);
    REQUIRE(child.n_rows == (opt.shard_count == 3 ? 334u : 1001u));
    CHECK(child.n_features == 3);
    CHECK(child.info.n_missing == here.info.n_missing);
    CHECK(child.info.first_row == here.info.first_row);
    CHECK(child.info.total_rows == 1001);
    CHECK(child.info.label_name == "y");
    CHECK(view_bytes(child.dense) == view_bytes(here.dense));
    CHECK(view_bytes(child.label) == view_bytes(here.label));
    CHECK(view_bytes(child.weight) == view_bytes(here.weight));
    CHECK(view_bytes(child.group_ptr) == view_bytes(here.group_ptr));
    CHECK(child.group_ptr.extent(0) == (opt.qid_column.empty() ? 0u : 252u));
    CHECK(child.weight(child.n_rows - 1) == here.weight(here.n_rows - 1));
  }
}

namespace {

/// An HDF5 file holding dataset "X" of `dims` float32s with maximum shape `max_dims`, chunked as
/// `chunk` and deflated (unless `deflate` is false; shuffled before and Fletcher32-summed after with
/// `shuffle_and_checksum`), whose values are `values` (row-major; nothing is
/// written when empty, so no chunk is stored).
std::string write_chunked_h5(std::string const& path, std::vector<hsize_t> dims, std::vector<hsize_t> max_dims,
                             std::vector<hsize_t> chunk, std::vector<float> const& values, bool deflate = true,
                             bool shuffle_and_checksum = false) {
  hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), max_dims.data());
  hid_t props = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(props, static_cast<int>(chunk.size()), chunk.data());
  if (shuffle_and_checksum) H5Pset_shuffle(props);
  if (deflate) H5Pset_deflate(props, 9);
  if (shuffle_and_checksum) H5Pset_fletcher32(props);
  hid_t ds = H5Dcreate2(f, "X", H5T_IEEE_F32LE, space, H5P_DEFAULT, props, H5P_DEFAULT);
  if (!values.empty()) H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Dclose(ds);
  H5Pclose(props);
  H5Sclose(space);
  H5Fclose(f);
  return path;
}

}  // namespace

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 dataset whose chunks span gigabytes", "[fuzz][readers]") {
  // X (6 x 2303 floats) stored in deflated chunks of 3145734 x 3: libhdf5 filled a 38 MB chunk
  // buffer for each of the 768 chunks across the shape, 30 s (a fuzz timeout) for 13,818 values.
  // Its shape also exceeds its maximum shape (6 x 3), which is refused first.
  std::string const path = regression_path("hdf5_huge_chunks.h5");
  CHECK_THAT(refusal([&] { kboost::read_dataset(path, format("hdf5")); }),
             ContainsSubstring(path + ": dataset 'X': shape 6 x 2303 exceeds its maximum shape 6 x 3"));
  // The same chunks on an extendible dataset, whose shape may grow without bound.
  auto const dir = kboost::test::temp_dir("fuzz_chunks");
  hsize_t const unlimited = H5S_UNLIMITED;
  std::string const huge = write_chunked_h5((dir / "huge.h5").string(), {6, 2303}, {unlimited, unlimited},
                                            {3145734, 3}, {});
  CHECK_THAT(refusal([&] { kboost::read_dataset(huge, format("hdf5")); }),
             ContainsSubstring(huge + ": dataset 'X': chunks of 3145734 x 3 over its shape 6 x 2303 span more bytes "
                                      "than a file of ") &&
                 ContainsSubstring("bytes can hold (the header is corrupt)"));
  // An extendible dataset of 2^40 x 2 values, never written, in a file of a few kilobytes.
  std::string const vast = write_chunked_h5((dir / "vast.h5").string(), {hsize_t(1) << 40, 2}, {unlimited, unlimited},
                                            {1024, 2}, {});
  CHECK_THAT(refusal([&] { kboost::read_dataset(vast, format("hdf5")); }),
             ContainsSubstring(vast + ": dataset 'X': shape 1099511627776 x 2 claims more values than a file of "));
  // Chunks that overhang the shape of an extendible dataset, deflated, still read.
  std::vector<float> values(700, 0.0f);
  values[699] = 2.5f;
  std::string const ok = write_chunked_h5((dir / "chunked.h5").string(), {100, 7}, {unlimited, 7}, {4096, 5}, values);
  auto const m = kboost::read_dataset(ok, format("hdf5"));
  REQUIRE(m.n_rows == 100);
  REQUIRE(m.n_features == 7);
  CHECK(m.dense(99, 6) == 2.5f);
  CHECK(m.dense(0, 0) == 0.0f);
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 dataset whose shape exceeds its maximum", "[fuzz][readers]") {
  // X's shape is 6 x 767 but its maximum is 6 x 3, its one chunk: libhdf5 indexes the chunks by
  // the maximum shape and copied past that chunk's buffer (ASan heap-buffer-overflow in H5Dread).
  std::string const path = regression_path("hdf5_shape_beyond_maximum.h5");
  CHECK_THAT(refusal([&] { kboost::read_dataset(path, format("hdf5")); }),
             ContainsSubstring(path + ": dataset 'X': shape 6 x 767 exceeds its maximum shape 6 x 3 (the header is corrupt)"));
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 chunks larger than the maximum shape or stored short",
          "[fuzz][readers]") {
  // X (6 x 3 floats, maximum 6 x 3) in deflated chunks of 6 x 126, which H5Dcreate refuses to
  // write: H5Dread copied past the chunk buffer.
  std::string const wide = regression_path("hdf5_chunk_beyond_maximum_shape.h5");
  CHECK_THAT(refusal([&] { kboost::read_dataset(wide, format("hdf5")); }),
             ContainsSubstring(wide + ": dataset 'X': chunks of 6 x 126 exceed its maximum shape 6 x 3 (the header is "
                                      "corrupt)"));
  // X's one unfiltered chunk of 6 x 3 floats (72 bytes) stored in 52: libhdf5 reads the 52 bytes
  // into a buffer of that size and copies 72 out of it.
  std::string const shortened = regression_path("hdf5_unfiltered_chunk_short.h5");
  CHECK_THAT(refusal([&] { kboost::read_dataset(shortened, format("hdf5")); }),
             ContainsSubstring(shortened + ": dataset 'X': its chunk index records 1 chunks in 52 bytes, not 72 bytes "
                                           "each (the header is corrupt)"));
  // Unfiltered chunks that overhang the shape still read, and so does a dataset none of whose
  // chunks was written (every value the fill value, 0).
  auto const dir = kboost::test::temp_dir("fuzz_unfiltered_chunks");
  std::vector<float> values(100 * 7);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f;
  std::string const ok = write_chunked_h5((dir / "chunked.h5").string(), {100, 7}, {100, 7}, {30, 5}, values, false);
  auto const m = kboost::read_dataset(ok, format("hdf5"));
  REQUIRE(m.n_rows == 100);
  REQUIRE(m.n_features == 7);
  CHECK(m.dense(99, 6) == 349.5f);
  CHECK(m.dense(31, 5) == 111.0f);
  std::string const empty = write_chunked_h5((dir / "unwritten.h5").string(), {40, 3}, {40, 3}, {16, 2}, {}, false);
  auto const zeros = kboost::read_dataset(empty, format("hdf5"));
  REQUIRE(zeros.n_rows == 40);
  CHECK(zeros.dense(39, 2) == 0.0f);
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 filtered chunks that unfilter short", "[fuzz][readers]") {
  // X's one deflated chunk of 6 x 3 floats (72 bytes) inflates to 52: libhdf5 used the 52-byte
  // buffer as a whole chunk, and a plain build read the bytes past it as values.
  std::string const shortened = regression_path("hdf5_deflated_chunk_inflates_short.h5");
  CHECK_THAT(refusal([&] { kboost::read_dataset(shortened, format("hdf5")); }),
             ContainsSubstring(shortened + ": dataset 'X': its chunk at 0 x 0 holds 52 bytes once unfiltered, for 72 "
                                           "bytes of values (the data is corrupt)"));
  // The header's chunk shape widened to 6 x 2563 (unlimited maximum); the stored chunk still
  // inflates to 6 x 3 floats.
  std::string const widened = regression_path("hdf5_deflated_chunks_wider_than_stored.h5");
  CHECK_THAT(refusal([&] { kboost::read_dataset(widened, format("hdf5")); }),
             ContainsSubstring(widened + ": dataset 'X': its chunk at 0 x 0 holds 72 bytes once unfiltered, for 61512 "
                                         "bytes of values (the data is corrupt)"));
  // X's chunk, Fletcher32-checksummed only, stored in 52 bytes: 48 bytes of values for 72.
  std::string const summed = regression_path("hdf5_checksummed_chunk_short.h5");
  CHECK_THAT(refusal([&] { kboost::read_dataset(summed, format("hdf5")); }),
             ContainsSubstring(summed + ": dataset 'X': its chunk at 0 x 0 holds 48 bytes once unfiltered, for 72 "
                                        "bytes of values (the data is corrupt)"));
  // Shuffled, deflated and checksummed chunks that overhang the shape still read.
  auto const dir = kboost::test::temp_dir("fuzz_deflated_chunks");
  std::vector<float> values(100 * 7);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 13) * 0.25f;
  std::string const ok =
      write_chunked_h5((dir / "filtered.h5").string(), {100, 7}, {100, 7}, {30, 5}, values, true, true);
  auto const m = kboost::read_dataset(ok, format("hdf5"));
  REQUIRE(m.n_rows == 100);
  REQUIRE(m.n_features == 7);
  CHECK(m.dense(99, 6) == 2.5f);   // value 699: 699 % 13 = 10
  CHECK(m.dense(31, 5) == 0.25f);  // value 222: 222 % 13 = 1
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": HDF5 shard reads check the chunks of their rows", "[fuzz][readers]") {
  // X: 100 x 7 floats, shuffled and Fletcher32-summed in chunks of 30 x 7 (840 bytes); the chunk
  // at row 60 is rewritten raw in 100 bytes. Only reads that touch it may fail: an MPI rank reads
  // only its rows' chunks (an HDF5 hyperslab), and checking the others cost every rank the whole file.
  auto const dir = kboost::test::temp_dir("fuzz_shard_chunks");
  std::vector<float> values(100 * 7);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 11) - 3.5f;
  std::string const path =
      write_chunked_h5((dir / "one_short_chunk.h5").string(), {100, 7}, {100, 7}, {30, 7}, values, false, true);
  {
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, "X", H5P_DEFAULT);
    hsize_t const at[2] = {60, 0};
    std::vector<unsigned char> short_chunk(100, 7);
    REQUIRE(H5Dwrite_chunk(ds, H5P_DEFAULT, 0, at, short_chunk.size(), short_chunk.data()) >= 0);
    H5Dclose(ds);
    H5Fclose(f);
  }
  std::string const refused = path + ": dataset 'X': its chunk at 60 x 0 holds 96 bytes once unfiltered, for 840";
  CHECK_THAT(refusal([&] { kboost::read_dataset(path, format("hdf5")); }), ContainsSubstring(refused));
  kboost::ReadOptions shard = format("hdf5");
  shard.shard_count = 3;
  shard.shard_index = 0;  // rows 0..32: chunks 0 and 30
  auto const first = kboost::read_dataset(path, shard);
  REQUIRE(first.n_rows == 33);
  CHECK(first.dense(32, 6) == 6.5f);  // value 230: 230 % 11 = 10
  shard.shard_index = 1;  // rows 33..65: chunks 30 and 60
  CHECK_THAT(refusal([&] { kboost::read_dataset(path, shard); }), ContainsSubstring(refused));
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": UBJSON typed array of true that claims 6.4e10 values", "[fuzz][model]") {
  // A model whose tree holds `[$T#L 0x0000000f00000011`: a typed array of true, which UBJSON stores
  // in no bytes per value. nlohmann appended the 64 billion values one by one (out of memory, or
  // the fuzz target's timeout) before anything could look at the model.
  std::string const path = regression_path("model_ubjson_true_array_count.ubj");
  std::string const what = refusal([&] { kboost::read_model(path); });
  CHECK_THAT(what, ContainsSubstring(path + ": not a valid JSON/UBJSON model") &&
                       ContainsSubstring("an array claims 64424509457 values in a file of 4116 bytes"));
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": model documents nested thousands of levels deep", "[fuzz][model]") {
  // 2,547 nested `[` in a UBJSON model: nlohmann reads UBJSON recursively, a stack frame per level,
  // and the stack overflowed. JSON text is read without recursion, but the document it builds would
  // be walked recursively later; both stop at the depth limit.
  std::string const path = regression_path("model_ubjson_deep_nesting.ubj");
  CHECK_THAT(refusal([&] { kboost::read_model(path); }),
             ContainsSubstring(path + ": not a valid JSON/UBJSON model") &&
                 ContainsSubstring("an array nested deeper than 64 levels"));
  std::string const text = "{\"learner\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  CHECK_THAT(refusal([&] { kboost::parse_model(text, "deep.json"); }),
             ContainsSubstring("deep.json: not a valid JSON/UBJSON model") &&
                 ContainsSubstring("an array nested deeper than 64 levels"));
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": a JSON model cut short is told at the file's own byte", "[fuzz][model]") {
  // Bare -Infinity and NaN (as upstream writes them) are rewritten before parsing, which lengthens
  // the text: the error's position is the file's, not the rewritten text's.
  std::string const text = "{\"learner\": {\"split_conditions\": [-Infinity, NaN, -Infinity, 1.5, -Inf";
  std::string const at = std::to_string(text.size() - 2);  // the 'I' after the last '-'
  CHECK_THAT(refusal([&] { kboost::parse_model(text, "cut.json"); }),
             ContainsSubstring("cut.json: not a valid JSON/UBJSON model (byte " + at + " of " + std::to_string(text.size()) +
                               ", line 1, column " + at + ": ") &&
                 ContainsSubstring("is it cut short?"));
  std::string const two_lines = "{\"learner\": [NaN,\n -Infinity, x, 1, 2, 3, 4]}";
  CHECK_THAT(refusal([&] { kboost::parse_model(two_lines, "bad.json"); }),
             ContainsSubstring("bad.json: not a valid JSON/UBJSON model (byte 31 of 45, line 2, column 13: ") &&
                 !ContainsSubstring("cut short"));
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": checkpoint whose model has a tree without sum_hessian", "[fuzz][model]") {
  // Tree 7 of the checkpoint's model spells the key "sum_shesian". The reader took the statistics
  // as optional and read the tree without them; writing the checkpoint back then failed, and SHAP
  // values read sum_hessian[node] of the empty array. Upstream's RegTree::LoadModel requires them.
  std::string const path = regression_path("checkpoint_tree_without_sum_hessian.json");
  CHECK_THAT(refusal([&] { kboost::parse_checkpoint(kboost::test::read_file(path), path); }),
             ContainsSubstring(path + " (model): tree 7: field 'sum_hessian': missing"));
}

TEST_CASE("fuzz regressions " TEST_BACKEND ": config-file keys given an empty array", "[fuzz][cli]") {
  // `header\r = [r`: CLI11 reads an unclosed or empty `[` as an array of no values, and the
  // callback of a flag such as --header read the first value of that empty array (a segfault).
  auto const dir = kboost::test::temp_dir("fuzz_config");
  std::string const path = regression_path("cli_config_flag_empty_array.conf");
  std::string out;
  CHECK(kboost::test::run_cli(dir, "train --config " + path, out) != 0);
  CHECK_THAT(out, ContainsSubstring(path + ":1: parameter 'header' has no value"));
  for (std::string const key : {"no-header", "max_depth", "eval_metric"}) {
    std::string const conf = kboost::test::write_file(dir, "empty.conf", "eta = 0.3\n" + key + " = []\n");
    CHECK(kboost::test::run_cli(dir, "train --config " + conf, out) != 0);
    CHECK_THAT(out, ContainsSubstring(conf + ":2: parameter '" + key + "' has no value"));
  }
}
