#pragma once
/// \file bench_file.hpp
/// What the upstream drivers share: the C API error check and the benchmark data file that
/// perf/bench_train_gpu --write-data and perf/bench_shap gen write (int64 rows, int64 features,
/// rows × features float32 row-major, rows float32 labels).
#include <xgboost/c_api.h>

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace upstream_bench {

inline void check(int rc, char const* what) {
  if (rc != 0) throw std::runtime_error(std::string(what) + ": " + XGBGetLastError());
}

struct Rows {
  std::int64_t rows = 0, cols = 0;
  std::vector<float> X, y;
};

/// \throws std::runtime_error naming the file for a bad header or a short file.
inline Rows read_rows(std::string const& path) {
  Rows d;
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(&d.rows), 8);
  in.read(reinterpret_cast<char*>(&d.cols), 8);
  if (!in || d.rows <= 0 || d.cols <= 0) throw std::runtime_error(path + ": bad header");
  d.X.resize(static_cast<std::size_t>(d.rows * d.cols));
  d.y.resize(static_cast<std::size_t>(d.rows));
  in.read(reinterpret_cast<char*>(d.X.data()), static_cast<std::streamsize>(d.X.size() * 4));
  in.read(reinterpret_cast<char*>(d.y.data()), static_cast<std::streamsize>(d.y.size() * 4));
  if (!in) throw std::runtime_error(path + ": truncated");
  return d;
}

}  // namespace upstream_bench
