/// Writes the HDF5 fuzz target's seed files into the folder given as argv[1]: small files with
/// the datasets fuzz_hdf5_reader.cpp asks for (X rows × features, y, w, qid) in the layouts a
/// real file uses (contiguous float32, int64 features, chunked + deflate, a rank-2 label), so the
/// fuzzer starts from inputs that reach the reader's checks rather than HDF5's signature test.
#include <hdf5.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

/// Adds dataset `name` of `dims` holding `values` (native type `mem_type`, stored as `file_type`).
template <class T>
void add(hid_t file, char const* name, std::vector<hsize_t> const& dims, std::vector<T> const& values,
         hid_t mem_type, hid_t file_type, bool chunked_deflate = false) {
  hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  hid_t props = H5Pcreate(H5P_DATASET_CREATE);
  if (chunked_deflate) {
    H5Pset_chunk(props, static_cast<int>(dims.size()), dims.data());
    H5Pset_deflate(props, 6);
  }
  hid_t ds = H5Dcreate2(file, name, file_type, space, H5P_DEFAULT, props, H5P_DEFAULT);
  H5Dwrite(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Dclose(ds);
  H5Pclose(props);
  H5Sclose(space);
}

/// A 6 × 3 file: X (with a NaN), y, w, qid (two groups).
void write_seed(std::string const& path, bool int_features, bool chunked, bool label_2d) {
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  std::vector<float> X{1, 2, 3, 4, 5, 6, 7, 8, 9, 1.5f, 2.5f, 3.5f, 0, -1, 2, 3, 4, 5};
  if (!int_features) X[4] = 0.0f / 0.0f;
  if (int_features) {
    std::vector<std::int64_t> Xi(X.begin(), X.end());
    add(file, "X", {6, 3}, Xi, H5T_NATIVE_INT64, H5T_STD_I64LE, chunked);
  } else {
    add(file, "X", {6, 3}, X, H5T_NATIVE_FLOAT, H5T_IEEE_F32LE, chunked);
  }
  std::vector<double> y{0, 1, 1, 0, 1, 0};
  add(file, "y", label_2d ? std::vector<hsize_t>{6, 1} : std::vector<hsize_t>{6}, y, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE);
  add(file, "w", {6}, std::vector<float>{1, 1, 2, 0.5f, 1, 1}, H5T_NATIVE_FLOAT, H5T_IEEE_F32LE);
  add(file, "qid", {6}, std::vector<std::int32_t>{1, 1, 1, 2, 2, 2}, H5T_NATIVE_INT32, H5T_STD_I32LE);
  H5Fclose(file);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <seed folder>\n", argv[0]);
    return 2;
  }
  std::string const dir = argv[1];
  write_seed(dir + "/float.h5", false, false, false);
  write_seed(dir + "/int64.h5", true, false, false);
  write_seed(dir + "/deflate.h5", false, true, false);
  write_seed(dir + "/label_2d.h5", false, false, true);
  return 0;
}
