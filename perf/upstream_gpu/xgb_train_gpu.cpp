/// \file xgb_train_gpu.cpp
/// Upstream XGBoost's GPU fit, timed as ../shared/reference/anchors-h200.md says, on the data file
/// that perf/bench_train_gpu --write-data writes (int64 rows, int64 features, rows × features
/// float32 row-major, rows float32 labels). Outside the timed region: XGDMatrixCreateFromMat and the
/// labels (kboost's host data exists before Booster::train as well). Timed per fit: XGBoosterCreate,
/// the parameters, `rounds` × XGBoosterUpdateOneIter and XGBoosterSaveModelToBuffer (which waits
/// for the device). The first fit on the DMatrix includes upstream's GPU sketch and compressed
/// matrix; later fits reuse them. With TEST_DATA (a file of the same format; "-" for none), each
/// fit's model is evaluated on it after the timing with upstream's own metric (auc for
/// binary:logistic, mlogloss for multi:softprob). Prints one CSV line per fit:
/// fit,seconds,model_bytes,test_metric (nan without TEST_DATA).
///   xgb_train_gpu DATA ROUNDS DEPTH [FITS=4] [DEVICE=cuda] [GROW_POLICY=depthwise] [MAX_LEAVES=0]
///                 [TEST_DATA=-] [OBJECTIVE=binary:logistic] [NUM_CLASS=0]
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
#include <utility>
#include <vector>

using upstream_bench::check;

namespace {

/// The value of "[i]\ttest-<metric>:<value>" from XGBoosterEvalOneIter.
double eval_value(char const* text) {
  std::string const t = text;
  auto const colon = t.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error(std::string("unexpected evaluation text: ") + text);
  return std::stod(t.substr(colon + 1));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: xgb_train_gpu DATA ROUNDS DEPTH [FITS=4] [DEVICE=cuda] [GROW_POLICY=depthwise] "
                         "[MAX_LEAVES=0] [TEST_DATA=-] [OBJECTIVE=binary:logistic] [NUM_CLASS=0]\n");
    return 2;
  }
  try {
    auto const arg = [&](int i, char const* fallback) { return std::string(argc > i ? argv[i] : fallback); };
    std::string const path = argv[1], depth = argv[3], device = arg(5, "cuda");
    std::string const grow_policy = arg(6, "depthwise"), max_leaves = arg(7, "0"), test_path = arg(8, "-");
    std::string const objective = arg(9, "binary:logistic"), num_class = arg(10, "0");
    std::string const metric = objective == "multi:softprob" ? "mlogloss" : "auc";
    int const rounds = std::atoi(argv[2]), fits = argc > 4 ? std::atoi(argv[4]) : 4;
    upstream_bench::Rows const data = upstream_bench::read_rows(path);
    DMatrixHandle d, test = nullptr;
    check(XGDMatrixCreateFromMat(data.X.data(), data.rows, data.cols, NAN, &d), "XGDMatrixCreateFromMat");
    check(XGDMatrixSetFloatInfo(d, "label", data.y.data(), data.rows), "XGDMatrixSetFloatInfo");
    if (test_path != "-") {
      upstream_bench::Rows const t = upstream_bench::read_rows(test_path);
      check(XGDMatrixCreateFromMat(t.X.data(), t.rows, t.cols, NAN, &test), "XGDMatrixCreateFromMat (test)");
      check(XGDMatrixSetFloatInfo(test, "label", t.y.data(), t.rows), "XGDMatrixSetFloatInfo (test)");
    }
    std::printf("fit,seconds,model_bytes,test_metric\n");
    for (int fit = 0; fit < fits; ++fit) {
      auto const t0 = std::chrono::steady_clock::now();
      BoosterHandle b;
      check(XGBoosterCreate(&d, 1, &b), "XGBoosterCreate");
      std::vector<std::pair<std::string, std::string>> params = {
          {"device", device},           {"tree_method", "hist"}, {"objective", objective},
          {"max_depth", depth},         {"eta", "0.3"},          {"max_bin", "256"},
          {"nthread", "16"},            {"grow_policy", grow_policy}, {"max_leaves", max_leaves},
          {"eval_metric", metric}};
      if (objective == "multi:softprob") params.emplace_back("num_class", num_class);
      for (auto const& [k, v] : params) check(XGBoosterSetParam(b, k.c_str(), v.c_str()), "XGBoosterSetParam");
      for (int r = 0; r < rounds; ++r) check(XGBoosterUpdateOneIter(b, r, d), "XGBoosterUpdateOneIter");
      bst_ulong len = 0;
      char const* buf = nullptr;
      check(XGBoosterSaveModelToBuffer(b, "{\"format\": \"json\"}", &len, &buf), "XGBoosterSaveModelToBuffer");
      double const s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      double value = NAN;
      if (test) {
        char const* names[] = {"test"};
        char const* text = nullptr;
        check(XGBoosterEvalOneIter(b, rounds - 1, &test, names, 1, &text), "XGBoosterEvalOneIter");
        value = eval_value(text);
      }
      std::printf("%d,%.4f,%llu,%.6f\n", fit, s, static_cast<unsigned long long>(len), value);
      std::fflush(stdout);
      XGBoosterFree(b);
    }
    if (test) XGDMatrixFree(test);
    XGDMatrixFree(d);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "xgb_train_gpu: %s\n", e.what());
    return 1;
  }
  return 0;
}
