/// \file xgb_golden_gpu.cpp
/// One golden case of tests/golden/upstream_gpu/make_goldens.py through upstream's C API (the
/// Python package of the GPU machine's image crashes in libxgboost's first call): trains upstream's
/// device=cuda hist model on a data file in perf/upstream_gpu/bench_file.hpp's format and writes
/// OUT/model.json (XGBoosterSaveModel) and the DMatrix's cuts after training
/// (XGDMatrixGetQuantileCut: the GPU sketch's), OUT/cut_ptrs.u64 and OUT/cut_values.f32.
///   xgb_golden_gpu DATA OUT ROUNDS FEATURE_TYPES key=value...
/// FEATURE_TYPES: "-" for all numerical, else one comma-separated "q"/"c" per feature.
#include <xgboost/c_api.h>
#include <nlohmann/json.hpp>
#include "bench_file.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using upstream_bench::check;

namespace {

/// The pointer and length an array-interface JSON text (as XGDMatrixGetQuantileCut returns) holds.
template <class T>
std::vector<T> from_array_interface(char const* text) {
  auto const j = nlohmann::json::parse(text);
  auto const* p = reinterpret_cast<T const*>(j.at("data").at(0).get<std::uintptr_t>());
  std::size_t const n = j.at("shape").at(0).get<std::size_t>();
  return std::vector<T>(p, p + n);
}

template <class T>
void write_all(std::string const& path, std::vector<T> const& v) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<char const*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: xgb_golden_gpu DATA OUT ROUNDS FEATURE_TYPES key=value...\n");
    return 2;
  }
  try {
    std::string const out = argv[2], types = argv[4];
    int const rounds = std::atoi(argv[3]);
    upstream_bench::Rows const data = upstream_bench::read_rows(argv[1]);
    DMatrixHandle d;
    check(XGDMatrixCreateFromMat(data.X.data(), data.rows, data.cols, NAN, &d), "XGDMatrixCreateFromMat");
    check(XGDMatrixSetFloatInfo(d, "label", data.y.data(), data.rows), "XGDMatrixSetFloatInfo");
    if (types != "-") {
      std::vector<std::string> kinds;
      std::stringstream ss(types);
      for (std::string t; std::getline(ss, t, ',');) kinds.push_back(t);
      std::vector<char const*> ptrs;
      for (auto const& t : kinds) ptrs.push_back(t.c_str());
      check(XGDMatrixSetStrFeatureInfo(d, "feature_type", ptrs.data(), ptrs.size()), "feature_type");
    }
    BoosterHandle b;
    check(XGBoosterCreate(&d, 1, &b), "XGBoosterCreate");
    check(XGBoosterSetParam(b, "device", "cuda"), "device");
    check(XGBoosterSetParam(b, "tree_method", "hist"), "tree_method");
    for (int a = 5; a < argc; ++a) {
      std::string const kv = argv[a];
      auto const eq = kv.find('=');
      if (eq == std::string::npos) throw std::runtime_error("not key=value: " + kv);
      check(XGBoosterSetParam(b, kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str()), kv.c_str());
    }
    for (int r = 0; r < rounds; ++r) check(XGBoosterUpdateOneIter(b, r, d), "XGBoosterUpdateOneIter");
    check(XGBoosterSaveModel(b, (out + "/model.json").c_str()), "XGBoosterSaveModel");
    char const *indptr = nullptr, *values = nullptr;
    check(XGDMatrixGetQuantileCut(d, "{}", &indptr, &values), "XGDMatrixGetQuantileCut");
    write_all(out + "/cut_ptrs.u64", from_array_interface<std::uint64_t>(indptr));
    write_all(out + "/cut_values.f32", from_array_interface<float>(values));
    XGBoosterFree(b);
    XGDMatrixFree(d);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "xgb_golden_gpu: %s\n", e.what());
    return 1;
  }
  return 0;
}
