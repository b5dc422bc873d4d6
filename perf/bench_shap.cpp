/// \file bench_shap.cpp
/// SHAP speed beside upstream XGBoost's GPUTreeShap (perf/upstream_gpu/run.sh shap drives both):
///   bench_shap gen --rows N --train-rows M --features F --out-dir D
///       writes D/train.bin and D/eval.bin: int64 rows, int64 features, rows × features float32
///       row-major (normal values, 10% missing as NaN), rows float32 labels (a noisy nonlinear
///       rule); every value comes from its own counter, so the files do not depend on threads.
///   bench_shap time --model M --data D/eval.bin [--upstream U.f32] [--repeats 3] [--approx]
///       times Explainer::contributions on the default execution space (fenced; one warm-up call on
///       1,000 rows first) and, with --upstream (rows × (F + 1) float32 from upstream), reports the
///       largest |kboost − upstream| over the row's sum of |contributions| and the exact fraction.
/// Prints CSV: what,rows,trees,seconds,max_rel_diff,exact_fraction.
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <kboost/engine/explainer.hpp>

#include "perf/synthetic_counter.hpp"

namespace {

using kboost::perf::normal;
using kboost::perf::uniform;

/// Rows [first, first + rows) of the synthetic set, written in the drivers' binary format.
void write_rows(std::string const& path, std::uint64_t first, std::int64_t rows, std::int64_t features) {
  std::vector<float> X(static_cast<std::size_t>(rows * features)), y(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i) {
    std::uint64_t const r = first + static_cast<std::uint64_t>(i);
    double s = 0.3 * normal(0x7000000000ull + r);
    for (std::int64_t f = 0; f < features; ++f) {
      std::uint64_t const c = r * static_cast<std::uint64_t>(features) + static_cast<std::uint64_t>(f);
      double const v = normal(c);
      bool const missing = uniform(0x5000000000000ull + c) < 0.1;
      X[static_cast<std::size_t>(i * features + f)] = missing ? NAN : static_cast<float>(v);
      if (!missing) s += (f % 3 == 0 ? std::sin(v) : f % 3 == 1 ? 0.5 * v * v : 0.2 * v) / (1.0 + 0.1 * static_cast<double>(f));
    }
    y[static_cast<std::size_t>(i)] = static_cast<float>(s);
  }
  std::string const tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(reinterpret_cast<char const*>(&rows), 8);
    out.write(reinterpret_cast<char const*>(&features), 8);
    out.write(reinterpret_cast<char const*>(X.data()), static_cast<std::streamsize>(X.size() * 4));
    out.write(reinterpret_cast<char const*>(y.data()), static_cast<std::streamsize>(y.size() * 4));
    if (!out) throw std::runtime_error(tmp + ": write failed");
  }
  std::filesystem::rename(tmp, path);
}

Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> read_rows(std::string const& path) {
  std::ifstream in(path, std::ios::binary);
  std::int64_t rows = 0, cols = 0;
  in.read(reinterpret_cast<char*>(&rows), 8);
  in.read(reinterpret_cast<char*>(&cols), 8);
  if (!in || rows <= 0 || cols <= 0) throw std::runtime_error(path + ": bad header");
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> X("bench::X", static_cast<std::size_t>(rows),
                                                                   static_cast<std::size_t>(cols));
  in.read(reinterpret_cast<char*>(X.data()), static_cast<std::streamsize>(X.size() * 4));
  if (!in) throw std::runtime_error(path + ": truncated");
  return X;
}

int time_contributions(std::string const& model, std::string const& data, std::string const& upstream, int repeats,
                       bool approx) {
  using exec = Kokkos::DefaultExecutionSpace;
  auto const Xh = read_rows(data);
  Kokkos::View<float**, Kokkos::LayoutRight, exec::memory_space> X("bench::X", Xh.extent(0), Xh.extent(1));
  Kokkos::deep_copy(X, Xh);
  kboost::Explainer<exec> explainer(model);
  kboost::ShapOptions opt;
  opt.approx_contribs = approx;
  auto const warm = Kokkos::subview(X, std::pair<std::size_t, std::size_t>(0, std::min<std::size_t>(1000, X.extent(0))), Kokkos::ALL());
  Kokkos::View<float**, Kokkos::LayoutRight, exec::memory_space> Xw("bench::Xw", warm.extent(0), warm.extent(1));
  Kokkos::deep_copy(Xw, warm);
  explainer.contributions(Xw, opt);
  Kokkos::fence();
  std::vector<double> seconds;
  typename kboost::Explainer<exec>::contributions_type out;
  for (int r = 0; r < repeats; ++r) {
    auto const t0 = std::chrono::steady_clock::now();
    out = explainer.contributions(X, opt);
    Kokkos::fence();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  double max_rel = -1, exact = -1;
  if (!upstream.empty()) {
    auto const h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    std::vector<float> u(h.size());
    std::ifstream in(upstream, std::ios::binary);
    in.read(reinterpret_cast<char*>(u.data()), static_cast<std::streamsize>(u.size() * 4));
    if (!in) throw std::runtime_error(upstream + ": expected " + std::to_string(u.size()) + " floats");
    std::size_t const C = h.size() / h.extent(0), same_count = [&] {
      std::size_t n = 0;
      for (std::size_t i = 0; i < u.size(); ++i) n += h.data()[i] == u[i];
      return n;
    }();
    max_rel = 0;
    for (std::size_t r = 0; r < h.extent(0); ++r) {
      double total = 0, worst = 0;
      for (std::size_t c = 0; c < C; ++c) {
        total += std::fabs(h.data()[r * C + c]);
        worst = std::max(worst, std::fabs(static_cast<double>(h.data()[r * C + c]) - u[r * C + c]));
      }
      max_rel = std::max(max_rel, worst / std::max(total, 1e-30));
    }
    exact = static_cast<double>(same_count) / static_cast<double>(u.size());
  }
  std::sort(seconds.begin(), seconds.end());
  std::printf("what,rows,trees,seconds,max_rel_diff,exact_fraction\n");
  std::printf("kboost_%s_%s,%zu,%zu,%.4f,%.3g,%.6f\n", exec::name(), approx ? "approx" : "treeshap", X.extent(0),
              explainer.model().trees.size(), seconds.front(), max_rel, exact);
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  CLI::App app{"kboost SHAP benchmark"};
  app.require_subcommand(1);
  std::int64_t rows = 100000, train_rows = 200000, features = 28;
  std::string out_dir = ".", model, data, upstream;
  int repeats = 3;
  bool approx = false;
  auto* gen = app.add_subcommand("gen", "write train.bin and eval.bin");
  gen->add_option("--rows", rows, "eval rows");
  gen->add_option("--train-rows", train_rows, "training rows");
  gen->add_option("--features", features, "features");
  gen->add_option("--out-dir", out_dir, "output folder");
  auto* time = app.add_subcommand("time", "time contributions");
  time->add_option("--model", model)->required();
  time->add_option("--data", data)->required();
  time->add_option("--upstream", upstream, "upstream's rows x (features + 1) float32 contributions");
  time->add_option("--repeats", repeats);
  time->add_flag("--approx", approx, "Saabas' approximation");
  CLI11_PARSE(app, argc, argv);
  try {
    if (*gen) {
      std::filesystem::create_directories(out_dir);
      write_rows(out_dir + "/train.bin", 0, train_rows, features);
      write_rows(out_dir + "/eval.bin", 1ull << 40, rows, features);
      return 0;
    }
    return time_contributions(model, data, upstream, repeats, approx);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "bench_shap: %s\n", e.what());
    return 1;
  }
}
