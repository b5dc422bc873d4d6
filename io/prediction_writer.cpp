/// Prediction writer: CSV (max_digits10, round-trips bit-exactly) or HDF5 (float32 dataset), atomic.
#include <kboost/io/prediction_writer.hpp>

#include <kboost/core/atomic_file.hpp>

#include <hdf5.h>
#include <unistd.h>

#include <filesystem>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <stdexcept>

namespace kboost {
namespace {

bool is_hdf5_path(std::string const& p) {
  auto ext = std::filesystem::path(p).extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".h5" || ext == ".hdf5";
}

[[noreturn]] void fail(std::string const& path, std::string const& what) {
  throw std::runtime_error(path + ": " + what);
}

void put_csv(std::ostream& out, Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace> preds,
             std::vector<std::string> const& names) {
  auto const precision = out.precision(std::numeric_limits<float>::max_digits10);  // 9 digits: exact round trip
  if (!names.empty()) {
    for (std::size_t j = 0; j < names.size(); ++j) out << (j ? "," : "") << names[j];
    out << '\n';
  }
  for (std::size_t i = 0; i < preds.extent(0); ++i) {
    for (std::size_t j = 0; j < preds.extent(1); ++j) out << (j ? "," : "") << preds(i, j);
    out << '\n';
  }
  out.flush();
  out.precision(precision);
}

void write_csv(std::string const& tmp, std::string const& path,
               Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace> preds,
               std::vector<std::string> const& names) {
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, "cannot open '" + tmp + "' for writing (" + std::strerror(errno) + ")");
  put_csv(out, preds, names);
  out.flush();
  if (!out) fail(path, std::string("write failed (") + std::strerror(errno) + ")");
}

void write_h5(std::string const& tmp, std::string const& path,
              Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace> preds,
              std::vector<std::string> const& names) {
  hid_t file = H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) fail(path, "cannot create HDF5 file '" + tmp + "'");
  hsize_t dims[2] = {preds.extent(0), preds.extent(1)};
  hid_t space = H5Screate_simple(2, dims, nullptr);
  hid_t ds = H5Dcreate2(file, "predictions", H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  bool ok = ds >= 0 && (preds.size() == 0 ||
                        H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, preds.data()) >= 0);
  if (ok && !names.empty()) {
    // Column names as an attribute: variable-length UTF-8 strings.
    std::vector<char const*> cstr;
    for (auto const& n : names) cstr.push_back(n.c_str());
    hsize_t n = cstr.size();
    hid_t aspace = H5Screate_simple(1, &n, nullptr);
    hid_t stype = H5Tcopy(H5T_C_S1);
    H5Tset_size(stype, H5T_VARIABLE);
    H5Tset_cset(stype, H5T_CSET_UTF8);
    hid_t attr = H5Acreate2(ds, "columns", stype, aspace, H5P_DEFAULT, H5P_DEFAULT);
    ok = attr >= 0 && H5Awrite(attr, stype, cstr.data()) >= 0;
    if (attr >= 0) H5Aclose(attr);
    H5Tclose(stype);
    H5Sclose(aspace);
  }
  if (ds >= 0) H5Dclose(ds);
  H5Sclose(space);
  if (H5Fclose(file) < 0) ok = false;
  if (!ok) fail(path, "HDF5 write failed");
}

}  // namespace

void write_predictions(std::string const& path,
                       Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace> preds,
                       std::vector<std::string> const& column_names) {
  if (!column_names.empty() && column_names.size() != preds.extent(1))
    fail(path, std::to_string(column_names.size()) + " column names for " + std::to_string(preds.extent(1)) +
                   " prediction columns");
  if (path == "-") {  // standard output: CSV, nothing to make atomic
    put_csv(std::cout, preds, column_names);
    if (!std::cout) fail("standard output", std::string("write failed (") + std::strerror(errno) + ")");
    return;
  }
  std::string const target = write_target(path);
  if (writes_in_place(target)) {  // a device or FIFO (/dev/null, a named pipe): CSV, as it is
    if (is_hdf5_path(path)) fail(path, "an HDF5 file cannot be written to a device or FIFO");
    return write_csv(target, path, preds, column_names);
  }
  // Temp file in the same directory, so the rename is atomic on one file system.
  std::string const tmp = temp_path_for(target);
  try {
    if (is_hdf5_path(path)) write_h5(tmp, path, preds, column_names);
    else write_csv(tmp, path, preds, column_names);
    commit_temp_file(tmp, target);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
}

}  // namespace kboost
