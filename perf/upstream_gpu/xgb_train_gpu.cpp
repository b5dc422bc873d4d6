/// \file xgb_train_gpu.cpp
/// Upstream XGBoost's GPU fit, timed as ../shared/reference/anchors-h200.md says, on the data file
/// that perf/bench_train_gpu --write-data writes (int64 rows, int64 features, rows × features
/// float32 row-major, rows float32 labels). Outside the timed region: XGDMatrixCreateFromMat and the
/// labels (kboost's host data exists before Booster::train as well). Timed per fit: XGBoosterCreate,
/// the parameters, `rounds` × XGBoosterUpdateOneIter and XGBoosterSaveModelToBuffer (which waits
/// for the device). The first fit on the DMatrix includes upstream's GPU sketch and compressed
/// matrix; later fits reuse them. Prints one CSV line per fit: fit,seconds,model_bytes.
///   xgb_train_gpu DATA ROUNDS DEPTH [FITS=4] [DEVICE=cuda] [GROW_POLICY=depthwise] [MAX_LEAVES=0]
/// Built against upstream's C API (perf/upstream_gpu/run.sh builds upstream and this driver).
#include <xgboost/c_api.h>

#include "bench_file.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

using upstream_bench::check;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: xgb_train_gpu DATA ROUNDS DEPTH [FITS=4] [DEVICE=cuda] [GROW_POLICY=depthwise] [MAX_LEAVES=0]\n");
    return 2;
  }
  try {
    std::string const path = argv[1], depth = argv[3], device = argc > 5 ? argv[5] : "cuda";
    std::string const grow_policy = argc > 6 ? argv[6] : "depthwise", max_leaves = argc > 7 ? argv[7] : "0";
    int const rounds = std::atoi(argv[2]), fits = argc > 4 ? std::atoi(argv[4]) : 4;
    upstream_bench::Rows const data = upstream_bench::read_rows(path);
    std::int64_t const rows = data.rows, cols = data.cols;
    std::vector<float> const& X = data.X;
    std::vector<float> const& y = data.y;
    DMatrixHandle d;
    check(XGDMatrixCreateFromMat(X.data(), rows, cols, NAN, &d), "XGDMatrixCreateFromMat");
    check(XGDMatrixSetFloatInfo(d, "label", y.data(), rows), "XGDMatrixSetFloatInfo");
    std::printf("fit,seconds,model_bytes\n");
    for (int fit = 0; fit < fits; ++fit) {
      auto const t0 = std::chrono::steady_clock::now();
      BoosterHandle b;
      check(XGBoosterCreate(&d, 1, &b), "XGBoosterCreate");
      char const* params[][2] = {{"device", device.c_str()}, {"tree_method", "hist"}, {"objective", "binary:logistic"},
                                 {"max_depth", depth.c_str()}, {"eta", "0.3"}, {"max_bin", "256"}, {"nthread", "16"},
                                 {"grow_policy", grow_policy.c_str()}, {"max_leaves", max_leaves.c_str()}};
      for (auto const& p : params) check(XGBoosterSetParam(b, p[0], p[1]), "XGBoosterSetParam");
      for (int r = 0; r < rounds; ++r) check(XGBoosterUpdateOneIter(b, r, d), "XGBoosterUpdateOneIter");
      bst_ulong len = 0;
      char const* buf = nullptr;
      check(XGBoosterSaveModelToBuffer(b, "{\"format\": \"json\"}", &len, &buf), "XGBoosterSaveModelToBuffer");
      double const s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("%d,%.4f,%llu\n", fit, s, static_cast<unsigned long long>(len));
      std::fflush(stdout);
      XGBoosterFree(b);
    }
    XGDMatrixFree(d);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "xgb_train_gpu: %s\n", e.what());
    return 1;
  }
  return 0;
}
