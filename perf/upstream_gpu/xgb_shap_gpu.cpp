/// \file xgb_shap_gpu.cpp
/// Upstream XGBoost's SHAP values on the GPU (GPUTreeShap) for perf/bench_shap.cpp's comparison:
///   xgb_shap_gpu TRAIN EVAL TREES DEPTH MODEL_OUT CONTRIBS_OUT [REPEATS=3] [DEVICE=cuda]
/// TRAIN and EVAL are perf/bench_shap gen's files. Trains TREES rounds of reg:squarederror (hist,
/// max_depth DEPTH, eta 0.1) on DEVICE, saves the model (JSON, for kboost), then times
/// XGBoosterPredictFromDMatrix with type 2 (pred_contribs) on EVAL: one warm-up call on the first
/// 1,000 rows, then REPEATS calls on all rows, each ended by reading the result back to the host
/// (the C API returns host memory). Writes the last result (rows × (features + 1) float32) to
/// CONTRIBS_OUT. Prints CSV: what,rows,trees,seconds. Built by perf/upstream_gpu/run.sh build.
#include <xgboost/c_api.h>

#include "bench_file.hpp"

#include <algorithm>
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
using upstream_bench::Rows;
using upstream_bench::read_rows;

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: xgb_shap_gpu TRAIN EVAL TREES DEPTH MODEL_OUT CONTRIBS_OUT [REPEATS=3] [DEVICE=cuda]\n");
    return 2;
  }
  try {
    int const trees = std::atoi(argv[3]), repeats = argc > 7 ? std::atoi(argv[7]) : 3;
    std::string const depth = argv[4], device = argc > 8 ? argv[8] : "cuda";
    Rows const train = read_rows(argv[1]), eval = read_rows(argv[2]);
    DMatrixHandle dtrain, deval, dwarm;
    check(XGDMatrixCreateFromMat(train.X.data(), train.rows, train.cols, NAN, &dtrain), "XGDMatrixCreateFromMat");
    check(XGDMatrixSetFloatInfo(dtrain, "label", train.y.data(), train.rows), "XGDMatrixSetFloatInfo");
    check(XGDMatrixCreateFromMat(eval.X.data(), eval.rows, eval.cols, NAN, &deval), "XGDMatrixCreateFromMat");
    check(XGDMatrixCreateFromMat(eval.X.data(), std::min<std::int64_t>(1000, eval.rows), eval.cols, NAN, &dwarm),
          "XGDMatrixCreateFromMat");
    BoosterHandle b;
    check(XGBoosterCreate(&dtrain, 1, &b), "XGBoosterCreate");
    char const* params[][2] = {{"device", device.c_str()}, {"tree_method", "hist"}, {"objective", "reg:squarederror"},
                               {"max_depth", depth.c_str()}, {"eta", "0.1"}, {"max_bin", "256"}};
    for (auto const& p : params) check(XGBoosterSetParam(b, p[0], p[1]), "XGBoosterSetParam");
    auto const t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < trees; ++r) check(XGBoosterUpdateOneIter(b, r, dtrain), "XGBoosterUpdateOneIter");
    check(XGBoosterSaveModel(b, argv[5]), "XGBoosterSaveModel");
    double const train_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char const* config = "{\"type\": 2, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": false}";
    bst_ulong const* shape = nullptr;
    bst_ulong dim = 0;
    float const* result = nullptr;
    check(XGBoosterPredictFromDMatrix(b, dwarm, config, &shape, &dim, &result), "warm-up contributions");
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
      auto const t1 = std::chrono::steady_clock::now();
      check(XGBoosterPredictFromDMatrix(b, deval, config, &shape, &dim, &result), "contributions");
      seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
    }
    std::size_t n = 1;
    for (bst_ulong i = 0; i < dim; ++i) n *= static_cast<std::size_t>(shape[i]);
    std::ofstream out(argv[6], std::ios::binary);
    out.write(reinterpret_cast<char const*>(result), static_cast<std::streamsize>(n * 4));
    if (!out) throw std::runtime_error(std::string(argv[6]) + ": write failed");
    std::sort(seconds.begin(), seconds.end());
    std::printf("what,rows,trees,seconds\n");
    std::printf("upstream_train_%s,%lld,%d,%.4f\n", device.c_str(), static_cast<long long>(train.rows), trees, train_s);
    std::printf("upstream_contribs_%s,%lld,%d,%.4f\n", device.c_str(), static_cast<long long>(eval.rows), trees, seconds.front());
    return 0;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "xgb_shap_gpu: %s\n", e.what());
    return 1;
  }
}
