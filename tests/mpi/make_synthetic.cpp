/// make_synthetic: a deterministic synthetic training set for the distributed tests and perf/
/// scaling runs, written as HDF5 (X: rows × features float32 with NaN for missing, y: rows).
///   make_synthetic OUT.h5 ROWS FEATURES [MISSING_FRACTION=0.05] [SEED=1] [binary|regression]
/// Features: uniform in [-1, 1) from a counter-based hash of (seed, row, feature), so any row range
/// can be made alone; the label: 1 when Σ_j w_j x_j + 0.5 x_0 x_1 + noise > 0 (binary), or that sum
/// (regression), with w_j = 1 / (j + 1) and missing values counted as 0.
#include <hdf5.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

double uniform(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  return static_cast<double>(mix(mix(mix(seed) ^ a) ^ b) >> 11) * (1.0 / 9007199254740992.0);
}

int usage() {
  std::fprintf(stderr, "usage: make_synthetic OUT.h5 ROWS FEATURES [MISSING=0.05] [SEED=1] [binary|regression]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return usage();
  std::string const out = argv[1];
  long long const rows = std::atoll(argv[2]), features = std::atoll(argv[3]);
  double const missing = argc > 4 ? std::atof(argv[4]) : 0.05;
  std::uint64_t const seed = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 1;
  std::string const task = argc > 6 ? argv[6] : "binary";
  if (rows <= 0 || features < 2 || missing < 0 || missing >= 1 || (task != "binary" && task != "regression"))
    return usage();
  hid_t file = H5Fcreate((out + ".tmp").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) return std::fprintf(stderr, "make_synthetic: cannot create %s\n", out.c_str()), 1;
  hsize_t const dims[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(features)};
  hid_t xs = H5Screate_simple(2, dims, nullptr), ys = H5Screate_simple(1, dims, nullptr);
  hid_t X = H5Dcreate2(file, "X", H5T_IEEE_F32LE, xs, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t Y = H5Dcreate2(file, "y", H5T_IEEE_F32LE, ys, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t const block = 65536;
  std::vector<float> x, y;
  bool ok = X >= 0 && Y >= 0;
  for (hsize_t r0 = 0; ok && r0 < dims[0]; r0 += block) {
    hsize_t const n = std::min(block, dims[0] - r0);
    x.assign(n * dims[1], 0.0f);
    y.assign(n, 0.0f);
    for (hsize_t i = 0; i < n; ++i) {
      double s = 0, v[2] = {0, 0};
      for (hsize_t j = 0; j < dims[1]; ++j) {
        double const u = 2 * uniform(seed, r0 + i, j) - 1;
        bool const miss = uniform(seed + 1, r0 + i, j) < missing;
        x[i * dims[1] + j] = miss ? NAN : static_cast<float>(u);
        if (!miss) s += u / static_cast<double>(j + 1);
        if (j < 2) v[j] = miss ? 0 : u;
      }
      s += 0.5 * v[0] * v[1] + 0.3 * (2 * uniform(seed + 2, r0 + i, 0) - 1);
      y[i] = task == "binary" ? (s > 0 ? 1.0f : 0.0f) : static_cast<float>(s);
    }
    hsize_t const start[2] = {r0, 0}, count[2] = {n, dims[1]};
    hid_t fx = H5Dget_space(X), mx = H5Screate_simple(2, count, nullptr);
    H5Sselect_hyperslab(fx, H5S_SELECT_SET, start, nullptr, count, nullptr);
    ok = ok && H5Dwrite(X, H5T_NATIVE_FLOAT, mx, fx, H5P_DEFAULT, x.data()) >= 0;
    hid_t fy = H5Dget_space(Y), my = H5Screate_simple(1, count, nullptr);
    H5Sselect_hyperslab(fy, H5S_SELECT_SET, start, nullptr, count, nullptr);
    ok = ok && H5Dwrite(Y, H5T_NATIVE_FLOAT, my, fy, H5P_DEFAULT, y.data()) >= 0;
    H5Sclose(fx), H5Sclose(mx), H5Sclose(fy), H5Sclose(my);
  }
  H5Dclose(X), H5Dclose(Y), H5Sclose(xs), H5Sclose(ys);
  ok = H5Fclose(file) >= 0 && ok;
  if (!ok || std::rename((out + ".tmp").c_str(), out.c_str()) != 0)
    return std::fprintf(stderr, "make_synthetic: writing %s failed\n", out.c_str()), 1;
  return 0;
}
