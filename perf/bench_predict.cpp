/// bench_predict: latency of kboost::Predictor on the default execution space for several batch
/// sizes. Driven by perf/bench_predict.py (kboost vs upstream XGBoost) and perf/predict_suite_cpu.py
/// (kboost vs XGBoost, TL2cgen and oneDAL), which run the peers on the same model, rows and threads.
///   bench_predict MODEL X.f32 N_FEATURES "1,100,10000" MAX_TRIALS [OUT_PREFIX]
///                 [--budget-ms 1000] [--min-trials 3] [--seed 0] [--host-path block|team|quickscorer]
///                 [--host-isa scalar|avx2|avx512]
/// X.f32: total_rows × N_FEATURES little-endian float32. Call c of a batch of n rows reads rows
/// [off, off + n) with off = ((seed + c + 1) · 2654435761 + n · 40503) mod (total_rows − n + 1), so
/// each call sees other rows and every peer sees the same ones. Call 0 is the warm-up; its time t
/// sets the timed calls 1..trials: trials = clamp(floor(budget_ms / t), min_trials, MAX_TRIALS).
/// One untimed call on the first row precedes the first batch (first-launch costs).
/// Each call is timed end to end (H2D copy of its rows + predict + fence + D2H copy of the output)
/// and in its parts: h2d, kernel (predict_into + fence, input resident) and d2h; on host backends the
/// copies are plain memory copies (d2h of a host mirror is none).
/// Prints one JSON object per batch: rows, calls (= trials), check_offset (call 0's first row),
/// warmup_ms, e2e and kernel p50/p99, h2d and d2h p50, all in milliseconds. With OUT_PREFIX, call 0's
/// predictions (rows × output columns) are written to OUT_PREFIX<rows>.f32 for the bit-identity check.
/// --host-path: the kernel host backends predict with (Predictor::set_host_path; default block, the
/// Predictor's default; quickscorer is refused for a model QuickScorer cannot serve); --host-isa: the block walk's instruction set (Predictor::set_host_isa;
/// default the widest the CPU has; one it lacks is refused). Device backends refuse both.
/// stderr: backend, threads, host path, upload time, dense trees and the node pool's size (16 B per node).
#include <Kokkos_Core.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
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
/// First row of call `call` for a batch of `rows` out of `total` (the same formula as the Python peers).
std::size_t offset(std::uint64_t seed, int call, std::size_t rows, std::size_t total) {
  return static_cast<std::size_t>(((seed + static_cast<std::uint64_t>(call) + 1) * 2654435761ull + rows * 40503ull) %
                                  (total - rows + 1));
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench_predict: kboost::Predictor latency per batch size"};
  std::string model, xfile, batch_list, out_prefix, host_path, host_isa;
  std::size_t nf = 0;
  int max_trials = 0, min_trials = 3;
  double budget_ms = 1000;
  std::uint64_t seed = 0;
  app.add_option("MODEL", model)->required();
  app.add_option("X", xfile, "rows × N_FEATURES little-endian float32")->required();
  app.add_option("N_FEATURES", nf)->required();
  app.add_option("BATCHES", batch_list, "comma-separated batch sizes")->required();
  app.add_option("MAX_TRIALS", max_trials, "timed calls per batch at most")->required();
  app.add_option("OUT_PREFIX", out_prefix, "write call 0's predictions to OUT_PREFIX<rows>.f32");
  app.add_option("--budget-ms", budget_ms, "timed calls per batch: floor(budget / warm-up time), clamped");
  app.add_option("--min-trials", min_trials, "timed calls per batch at least");
  app.add_option("--seed", seed, "seed of the rows each call reads");
  app.add_option("--host-path", host_path, "host backends: block (default), team kernel or quickscorer")
      ->check(CLI::IsMember({"block", "team", "quickscorer"}));
  app.add_option("--host-isa", host_isa, "host block walk: scalar, avx2 or avx512 (default: the widest available)")
      ->check(CLI::IsMember({"scalar", "avx2", "avx512"}));
  CLI11_PARSE(app, argc, argv);
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;
  if (!host && !(host_path.empty() && host_isa.empty())) {
    std::cerr << "bench_predict: --host-path and --host-isa apply to host backends only\n";
    return 2;
  }

  kboost::compat::initialize(0);
  {
    using exec = Kokkos::DefaultExecutionSpace;
    using mem = exec::memory_space;
    std::vector<std::size_t> batches;
    std::stringstream bs(batch_list);
    for (std::string t; std::getline(bs, t, ',');) batches.push_back(std::stoul(t));

    std::ifstream in(xfile, std::ios::binary | std::ios::ate);
    std::size_t total_rows = static_cast<std::size_t>(in.tellg()) / (4 * nf);
    in.seekg(0);
    Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> Xh("X_host", total_rows, nf);
    in.read(reinterpret_cast<char*>(Xh.data()), static_cast<std::streamsize>(total_rows * nf * 4));

    kboost::Predictor<exec> predictor(model);
    predictor.set_host_path(host_path == "team"          ? kboost::HostPath::kTeam
                            : host_path == "quickscorer" ? kboost::HostPath::kQuickScorer
                                                         : kboost::HostPath::kBlock);
    if (!host_isa.empty())
      predictor.set_host_isa(host_isa == "scalar" ? kboost::HostIsa::kScalar
                             : host_isa == "avx2" ? kboost::HostIsa::kAvx2
                                                  : kboost::HostIsa::kAvx512);
    std::size_t pool = kboost::flatten_forest(predictor.model()).nodes.size();
    std::cerr << "backend " << exec::name() << " threads " << kboost::compat::concurrency(exec()) << ", host path "
              << (host ? (host_path.empty() ? "block" : host_path) : "none") << ", host isa "
              << kboost::host_isa_name(predictor.host_isa()) << ", upload "
              << predictor.upload_seconds() * 1e3 << " ms, dense trees " << predictor.dense_trees() << ", pool "
              << pool << " nodes (" << static_cast<double>(pool * sizeof(kboost::PredictNode)) / 1e6 << " MB)\n";
    auto const cols = static_cast<std::size_t>(predictor.output_columns({}));
    {  // one untimed call: first-launch costs stay out of the first batch's warm-up
      Kokkos::View<float**, Kokkos::LayoutRight, mem> X("X", 1, nf), out("out", 1, cols);
      Kokkos::deep_copy(X, Kokkos::subview(Xh, std::make_pair(std::size_t(0), std::size_t(1)), Kokkos::ALL()));
      predictor.predict_into(X, out);
      Kokkos::fence();
    }
    for (std::size_t rows : batches) {
      rows = std::min(rows, total_rows);
      Kokkos::View<float**, Kokkos::LayoutRight, mem> X("X", rows, nf);
      Kokkos::View<float**, Kokkos::LayoutRight, mem> out("out", rows, cols);
      auto out_h = Kokkos::create_mirror_view(out);
      std::vector<float> first;  // call 0's predictions
      std::vector<double> e2e, h2d, kern, d2h;
      double warmup = 0;
      int trials = 0;
      for (int call = 0; call <= trials; ++call) {
        std::size_t off = offset(seed, call, rows, total_rows);
        auto Xsub = Kokkos::subview(Xh, std::make_pair(off, off + rows), Kokkos::ALL());
        auto t0 = std::chrono::steady_clock::now();
        auto t = t0;
        Kokkos::deep_copy(X, Xsub);
        Kokkos::fence();
        double a = ms(t);
        t = std::chrono::steady_clock::now();
        predictor.predict_into(X, out);
        Kokkos::fence();
        double b = ms(t);
        t = std::chrono::steady_clock::now();
        Kokkos::deep_copy(out_h, out);
        double c = ms(t), total = ms(t0);
        if (call == 0) {
          warmup = total;
          int by_budget = static_cast<int>(std::floor(budget_ms / std::max(total, 1e-6)));
          trials = std::min(max_trials, std::max(min_trials, by_budget));
          first.assign(out_h.data(), out_h.data() + rows * cols);
          continue;
        }
        e2e.push_back(total);
        h2d.push_back(a);
        kern.push_back(b);
        d2h.push_back(c);
      }
      std::printf("{\"rows\": %zu, \"calls\": %d, \"check_offset\": %zu, \"warmup_ms\": %.6f, \"e2e_p50_ms\": %.6f, "
                  "\"e2e_p99_ms\": %.6f, \"kernel_p50_ms\": %.6f, \"kernel_p99_ms\": %.6f, \"h2d_p50_ms\": %.6f, "
                  "\"d2h_p50_ms\": %.6f}\n",
                  rows, trials, offset(seed, 0, rows, total_rows), warmup, pct(e2e, 0.5), pct(e2e, 0.99),
                  pct(kern, 0.5), pct(kern, 0.99), pct(h2d, 0.5), pct(d2h, 0.5));
      std::fflush(stdout);
      if (!out_prefix.empty()) {
        std::ofstream o(out_prefix + std::to_string(rows) + ".f32", std::ios::binary);
        o.write(reinterpret_cast<char const*>(first.data()), static_cast<std::streamsize>(first.size() * 4));
      }
    }
  }
  Kokkos::finalize();
  return 0;
}
