/// \file bench_predict_gpu.cpp
/// Inference latency on the default execution space (CUDA in a CUDA build) for the issue-5
/// benchmark: a model file (e.g. 999 trees, depth 6) predicted at several batch sizes from host
/// input to host output. End to end per call = H2D copy of the batch + Predictor::predict_into +
/// D2H copy of the result (pinned host buffers where the backend has them), timed on the host clock;
/// median and p99 over `iters` calls after 20 warm-up calls. A second loop fences between the stages
/// to split the time into H2D / kernel / D2H (medians; the fences add their own cost).
///   bench_predict_gpu --model FILE [--batches 1,10,100,1000,10000,100000] [--iters 300] [--csv FILE]
/// Input values: uniform in [-2, 2) from a fixed LCG (the upstream driver uses the same), no missing.
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/engine/predictor.hpp>

namespace {

#if defined(KOKKOS_ENABLE_CUDA)
using PinnedSpace = Kokkos::CudaHostPinnedSpace;
#else
using PinnedSpace = Kokkos::HostSpace;
#endif

using clk = std::chrono::steady_clock;
double since(clk::time_point t0) { return std::chrono::duration<double>(clk::now() - t0).count(); }

double pct(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  std::size_t const i = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

}  // namespace

int main(int argc, char* argv[]) {
  std::map<std::string, std::string> a{{"model", ""}, {"batches", "1,10,100,1000,10000,100000"}, {"iters", "300"}, {"csv", ""}};
  CLI::App app{"kboost GPU benchmark"};
  for (auto& [key, value] : a) app.add_option("--" + key, value)->default_val(value);
  CLI11_PARSE(app, argc, argv);
  if (a["model"].empty()) {
    std::fprintf(stderr, "usage: %s --model FILE [--batches 1,10000] [--iters N] [--csv FILE]\n", argv[0]);
    return 2;
  }
  kboost::compat::initialize(0);
  {
    using Space = Kokkos::DefaultExecutionSpace;
    using Mem = Space::memory_space;
    kboost::Predictor<Space> pred(a["model"]);
    int const nf = pred.model().num_feature;
    kboost::PredictOptions opt;
    int const cols = pred.output_columns(opt);
    std::printf("%s: model %s, %zu trees, %d features, %d outputs per row (upload %.3f s)\n", Space::name(),
                a["model"].c_str(), pred.model().trees.size(), nf, cols, pred.upload_seconds());
    std::ofstream csv;
    if (!a["csv"].empty()) {
      csv.open(a["csv"]);
      csv << "tool,space,batch,iters,p50_ms,p99_ms,mean_ms,h2d_p50_ms,kernel_p50_ms,d2h_p50_ms,checksum\n";
    }
    std::stringstream bs(a["batches"]);
    std::string tok;
    while (std::getline(bs, tok, ',')) {
      long long const batch = std::stoll(tok);
      Kokkos::View<float**, Kokkos::LayoutRight, PinnedSpace> hx("bench::hx", batch, nf), hout("bench::hout", batch, cols);
      Kokkos::View<float**, Kokkos::LayoutRight, Mem> dx("bench::dx", batch, nf), dout("bench::dout", batch, cols);
      std::uint64_t s = 12345;
      for (long long i = 0; i < batch; ++i)
        for (int f = 0; f < nf; ++f) {
          s = s * 6364136223846793005ull + 1442695040888963407ull;
          hx(i, f) = static_cast<float>((s >> 40) & 0xffffff) / 16777216.0f * 4.0f - 2.0f;
        }
      int const iters = batch >= 100000 ? 30 : batch >= 10000 ? 100 : std::stoi(a["iters"]);
      std::vector<double> e2e, h2d, ker, d2h;
      kboost::Predictor<Space>::const_matrix_type cdx(dx);
      for (int i = 0; i < iters + 20; ++i) {
        auto const t0 = clk::now();
        Kokkos::deep_copy(dx, hx);
        pred.predict_into(cdx, dout, opt);
        Kokkos::deep_copy(hout, dout);
        Kokkos::fence();
        if (i >= 20) e2e.push_back(since(t0) * 1e3);
      }
      double checksum = 0;
      for (long long i = 0; i < batch; ++i)
        for (int c = 0; c < cols; ++c) checksum += hout(i, c);
      for (int i = 0; i < iters + 20; ++i) {
        auto t0 = clk::now();
        Kokkos::deep_copy(dx, hx);
        Kokkos::fence();
        double const a1 = since(t0);
        t0 = clk::now();
        pred.predict_into(cdx, dout, opt);
        Kokkos::fence();
        double const a2 = since(t0);
        t0 = clk::now();
        Kokkos::deep_copy(hout, dout);
        Kokkos::fence();
        double const a3 = since(t0);
        if (i >= 20) {
          h2d.push_back(a1 * 1e3);
          ker.push_back(a2 * 1e3);
          d2h.push_back(a3 * 1e3);
        }
      }
      double mean = 0;
      for (double v : e2e) mean += v;
      mean /= static_cast<double>(e2e.size());
      std::printf("batch %7lld: end-to-end p50 %.4f ms p99 %.4f ms (H2D %.4f, kernel %.4f, D2H %.4f ms) checksum %.6f\n",
                  batch, pct(e2e, 0.5), pct(e2e, 0.99), pct(h2d, 0.5), pct(ker, 0.5), pct(d2h, 0.5), checksum);
      if (csv) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "kboost,%s,%lld,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.6f\n", Space::name(), batch,
                      iters, pct(e2e, 0.5), pct(e2e, 0.99), mean, pct(h2d, 0.5), pct(ker, 0.5), pct(d2h, 0.5), checksum);
        csv << buf;
      }
    }
  }
  Kokkos::finalize();
  return 0;
}
