/// \file bench_shap.cpp
/// SHAP speed beside upstream XGBoost's GPUTreeShap (perf/upstream_gpu/run.sh shap drives both):
///   bench_shap gen --rows N --train-rows M --features F --out-dir D
///       writes D/train.bin and D/eval.bin: int64 rows, int64 features, rows × features float32
///       row-major (normal values, 10% missing as NaN), rows float32 labels (a noisy nonlinear
///       rule); every value comes from its own counter, so the files do not depend on threads.
///   bench_shap time --model M --data D/eval.bin [--upstream U.f32] [--repeats 3] [--approx]
///                   [--kernel auto|per_row|paths|both] [--scratch-mib S]
///       times Explainer::contributions on the default execution space (fenced; one warm-up call on
///       1,000 rows first; best of the repeats) with the chosen TreeSHAP kernel (ShapKernel; both:
///       per_row then paths, and their bytes must be equal) and, with --upstream (rows × (F + 1)
///       float32 from upstream), reports the largest |kboost − upstream| over the row's sum of
///       |contributions| and the exact fraction.
/// Prints CSV: what,rows,trees,seconds,max_rel_diff,exact_fraction (what: kboost_<space>_<method>_<kernel>);
/// with both, a last line "# paths vs per_row: N of M floats differ" and exit status 1 when N > 0.
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
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

using exec = Kokkos::DefaultExecutionSpace;
using DeviceMatrix = Kokkos::View<float**, Kokkos::LayoutRight, exec::memory_space>;
using Contributions = kboost::Explainer<exec>::contributions_type;

/// Best of `repeats` fenced calls of contributions with `opt`, and the last call's values.
std::pair<double, Contributions> best_time(kboost::Explainer<exec> const& explainer, DeviceMatrix const& X,
                                           kboost::ShapOptions const& opt, int repeats) {
  double best = 1e300;
  Contributions out;
  for (int r = 0; r < repeats; ++r) {
    auto const t0 = std::chrono::steady_clock::now();
    out = explainer.contributions(X, opt);
    Kokkos::fence();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return {best, out};
}

/// Largest |kboost − upstream| over the row's sum of |contributions|, and the exact fraction, from
/// upstream's rows × (F + 1) float32 file; (-1, -1) without one.
std::pair<double, double> compare_upstream(Contributions const& out, std::string const& upstream) {
  if (upstream.empty()) return {-1, -1};
  auto const h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::vector<float> u(h.size());
  std::ifstream in(upstream, std::ios::binary);
  in.read(reinterpret_cast<char*>(u.data()), static_cast<std::streamsize>(u.size() * 4));
  if (!in) throw std::runtime_error(upstream + ": expected " + std::to_string(u.size()) + " floats");
  std::size_t const C = h.size() / h.extent(0);
  std::size_t same = 0;
  double max_rel = 0;
  for (std::size_t r = 0; r < h.extent(0); ++r) {
    double total = 0, worst = 0;
    for (std::size_t c = 0; c < C; ++c) {
      float const k = h.data()[r * C + c], v = u[r * C + c];
      same += k == v;
      total += std::fabs(k);
      worst = std::max(worst, std::fabs(static_cast<double>(k) - v));
    }
    max_rel = std::max(max_rel, worst / std::max(total, 1e-30));
  }
  return {max_rel, static_cast<double>(same) / static_cast<double>(u.size())};
}

/// Floats whose bytes differ between two results of the same shape.
std::size_t differing_floats(Contributions const& a, Contributions const& b) {
  auto const ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto const hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  std::size_t n = 0;
  for (std::size_t i = 0; i < ha.size(); ++i) n += std::memcmp(ha.data() + i, hb.data() + i, sizeof(float)) != 0;
  return n;
}

kboost::ShapKernel parse_kernel(std::string const& name) {
  if (name == "auto") return kboost::ShapKernel::kAuto;
  if (name == "per_row") return kboost::ShapKernel::kPerRow;
  if (name == "paths") return kboost::ShapKernel::kPathParallel;
  throw std::runtime_error("--kernel " + name + ": expected auto, per_row, paths or both");
}

/// Times contributions with `kernel` (auto, per_row, paths, or both: per_row then paths, whose bytes
/// must be equal) and prints one CSV line per kernel; 1 when "both" found differing bytes.
int time_contributions(std::string const& model, std::string const& data, std::string const& upstream, int repeats,
                       bool approx, std::string const& kernel, double scratch_mib) {
  auto const Xh = read_rows(data);
  DeviceMatrix X("bench::X", Xh.extent(0), Xh.extent(1));
  Kokkos::deep_copy(X, Xh);
  kboost::Explainer<exec> explainer(model);
  if (scratch_mib > 0) explainer.set_scratch_limit(static_cast<std::size_t>(scratch_mib * 1048576.0));
  std::vector<std::string> const kernels = kernel == "both" ? std::vector<std::string>{"per_row", "paths"} : std::vector<std::string>{kernel};
  auto const warm = Kokkos::subview(X, std::pair<std::size_t, std::size_t>(0, std::min<std::size_t>(1000, X.extent(0))), Kokkos::ALL());
  DeviceMatrix Xw("bench::Xw", warm.extent(0), warm.extent(1));
  Kokkos::deep_copy(Xw, warm);
  std::printf("what,rows,trees,seconds,max_rel_diff,exact_fraction\n");
  std::vector<Contributions> results;
  for (auto const& k : kernels) {
    kboost::ShapOptions opt;
    opt.approx_contribs = approx;
    opt.kernel = parse_kernel(k);
    explainer.contributions(Xw, opt);
    Kokkos::fence();
    auto const [seconds, out] = best_time(explainer, X, opt, repeats);
    auto const [max_rel, exact] = compare_upstream(out, upstream);
    std::printf("kboost_%s_%s_%s,%zu,%zu,%.4f,%.3g,%.6f\n", exec::name(), approx ? "approx" : "treeshap", k.c_str(), X.extent(0),
                explainer.model().trees.size(), seconds, max_rel, exact);
    results.push_back(out);
  }
  if (results.size() == 2) {
    std::size_t const differ = differing_floats(results[0], results[1]);
    std::printf("# paths vs per_row: %zu of %zu floats differ\n", differ, results[0].size());
    return differ == 0 ? 0 : 1;
  }
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
  std::string kernel = "auto";
  double scratch_mib = 0;
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
  time->add_option("--kernel", kernel, "TreeSHAP kernel: auto, per_row, paths, or both (their bytes must be equal)")
      ->check(CLI::IsMember({"auto", "per_row", "paths", "both"}));
  time->add_option("--scratch-mib", scratch_mib, "Explainer scratch limit in MiB (default: the Explainer's)")->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  try {
    if (*gen) {
      std::filesystem::create_directories(out_dir);
      write_rows(out_dir + "/train.bin", 0, train_rows, features);
      write_rows(out_dir + "/eval.bin", 1ull << 40, rows, features);
      return 0;
    }
    return time_contributions(model, data, upstream, repeats, approx, kernel, scratch_mib);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "bench_shap: %s\n", e.what());
    return 1;
  }
}
