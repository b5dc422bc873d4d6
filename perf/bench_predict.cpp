/// bench_predict: latency of kboost::Predictor on the default execution space for several batch
/// sizes. Driven by perf/bench_predict.py, which runs upstream XGBoost's inplace_predict on the same
/// model, data and thread count and prints the ratios.
///   bench_predict MODEL X.f32 N_FEATURES "1,100,10000,1000000" REPEATS [OUT_PREFIX]
/// X.f32: rows × N_FEATURES little-endian float32 (the largest batch uses its first rows).
/// Prints one JSON object per batch: rows, calls, kernel p50/p99 (predict + fence, device input
/// already resident), h2d and d2h p50 (copies of that batch), all in milliseconds. With OUT_PREFIX
/// the predictions of each batch are written to OUT_PREFIX<rows>.f32 (for the bit-identity check).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/engine/predictor.hpp>

namespace {
double pct(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5))];
}
double ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::cerr << "usage: bench_predict MODEL X.f32 N_FEATURES BATCHES REPEATS [OUT_PREFIX]\n";
    return 2;
  }
  kboost::compat::initialize(0);
  {
    using exec = Kokkos::DefaultExecutionSpace;
    using mem = exec::memory_space;
    std::string model = argv[1], xfile = argv[2];
    std::size_t nf = std::stoul(argv[3]);
    std::vector<std::size_t> batches;
    std::stringstream bs(argv[4]);
    for (std::string t; std::getline(bs, t, ',');) batches.push_back(std::stoul(t));
    int repeats = std::stoi(argv[5]);
    std::string out_prefix = argc > 6 ? argv[6] : "";

    std::ifstream in(xfile, std::ios::binary | std::ios::ate);
    std::size_t total_rows = static_cast<std::size_t>(in.tellg()) / (4 * nf);
    in.seekg(0);
    Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> Xh("X_host", total_rows, nf);
    in.read(reinterpret_cast<char*>(Xh.data()), static_cast<std::streamsize>(total_rows * nf * 4));

    kboost::Predictor<exec> predictor(model);
    std::cerr << "backend " << exec::name() << " threads " << kboost::compat::concurrency(exec()) << ", upload "
              << predictor.upload_seconds() * 1e3 << " ms, dense trees " << predictor.dense_trees() << "\n";
    for (std::size_t rows : batches) {
      rows = std::min(rows, total_rows);
      auto Xsub = Kokkos::subview(Xh, std::make_pair<std::size_t, std::size_t>(0, std::size_t(rows)), Kokkos::ALL());
      Kokkos::View<float**, Kokkos::LayoutRight, mem> X("X", rows, nf);
      Kokkos::View<float**, Kokkos::LayoutRight, mem> out("out", rows, static_cast<std::size_t>(predictor.output_columns({})));
      auto out_h = Kokkos::create_mirror_view(out);
      int calls = rows >= 1000000 ? std::max(3, repeats / 100) : rows >= 10000 ? std::max(10, repeats / 10) : repeats;
      std::vector<double> h2d, kern, d2h;
      for (int r = 0; r < calls + 2; ++r) {  // 2 warm-up calls
        auto t0 = std::chrono::steady_clock::now();
        Kokkos::deep_copy(X, Xsub);
        Kokkos::fence();
        double a = ms(t0);
        t0 = std::chrono::steady_clock::now();
        predictor.predict_into(X, out);
        Kokkos::fence();
        double b = ms(t0);
        t0 = std::chrono::steady_clock::now();
        Kokkos::deep_copy(out_h, out);
        double c = ms(t0);
        if (r >= 2) {
          h2d.push_back(a);
          kern.push_back(b);
          d2h.push_back(c);
        }
      }
      std::printf("{\"rows\": %zu, \"calls\": %d, \"kernel_p50_ms\": %.6f, \"kernel_p99_ms\": %.6f, "
                  "\"h2d_p50_ms\": %.6f, \"d2h_p50_ms\": %.6f}\n",
                  rows, calls, pct(kern, 0.5), pct(kern, 0.99), pct(h2d, 0.5), pct(d2h, 0.5));
      std::fflush(stdout);
      if (!out_prefix.empty()) {
        std::ofstream o(out_prefix + std::to_string(rows) + ".f32", std::ios::binary);
        o.write(reinterpret_cast<char const*>(out_h.data()), static_cast<std::streamsize>(rows * 4));
      }
    }
  }
  Kokkos::finalize();
  return 0;
}
