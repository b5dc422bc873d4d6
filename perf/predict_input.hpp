#pragma once
/// \file predict_input.hpp
/// The inference benchmarks' input rows, one generator for every tool of the prediction suite
/// (perf/bench_predict_gpu.cpp for kboost, perf/upstream_gpu/xgb_predict_gpu.cpp for upstream's C
/// API), so that both predict the same bytes and their checksums can be compared; and the pieces
/// both drivers share: output checks, percentiles, the warm-up/trial plan and the suite CSV row.
///
/// Row-major rows × cols float32, element by element (row 0's features, then row 1's, ...): one step
/// of a 64-bit LCG (Knuth's MMIX constants) per element, state starting at `seed`. The value is bits
/// 40..63 of the state, mapped to [-2, 2) (multiples of 2^-22); the element is NaN instead when bits
/// 16..39 of the same state are below missing × 2^24 (so about `missing` of all elements, and with
/// missing = 0 exactly the values of the earlier NaN-free generator). Batch b is the first b rows of
/// any larger batch. Header-only, no dependencies.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace kboost_bench {

/// Fills x[0 .. rows × cols) as described above. `missing`: fraction of NaN, clamped to [0, 1].
inline void fill_predict_input(float* x, long long rows, int cols, double missing, std::uint64_t seed = 12345) {
  double const m = missing < 0 ? 0.0 : missing > 1 ? 1.0 : missing;
  std::uint64_t const cut = static_cast<std::uint64_t>(std::llround(m * 16777216.0));
  float const nan = std::numeric_limits<float>::quiet_NaN();
  std::uint64_t s = seed;
  std::size_t const n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  for (std::size_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    float const v = static_cast<float>((s >> 40) & 0xffffff) / 16777216.0f * 4.0f - 2.0f;
    x[i] = ((s >> 16) & 0xffffff) < cut ? nan : v;
  }
}

/// Output summaries printed by both drivers for one batch's host result (row-major, n floats):
/// the plain sum (the suite CSV's checksum), a position-weighted sum (softprob rows always sum to
/// 1, so the plain sum alone says little) and an FNV-1a hash of the bytes (bit identity).
struct OutputCheck {
  double sum = 0, weighted = 0;
  std::uint64_t bits = 1469598103934665603ull;
};

inline OutputCheck check_output(float const* out, std::size_t n) {
  OutputCheck c;
  for (std::size_t i = 0; i < n; ++i) {
    c.sum += static_cast<double>(out[i]);
    c.weighted += static_cast<double>(out[i]) * static_cast<double>(i % 7 + 1);
    unsigned char const* b = reinterpret_cast<unsigned char const*>(out + i);
    for (int k = 0; k < 4; ++k) c.bits = (c.bits ^ b[k]) * 1099511628211ull;
  }
  return c;
}

/// Nearest-rank percentile `q` (0..1) of `v` (not empty).
inline double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  std::size_t const i = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

/// Warm-up calls and timed trials for one (tool, batch) point from one timed probe call of
/// `probe_ms` (made after a first, untimed call): warm-up about 0.5 s of calls, 1 to 20; trials
/// `max_trials`, or fewer for slow calls: max(5, 2000 ms / call), never more than `max_trials`;
/// the loop that splits a call into its parts (H2D, kernel, D2H) runs max(5, trials / 2) calls.
struct TrialPlan {
  int warmup = 20, trials = 50, split_trials = 25;
};

inline TrialPlan plan_trials(double probe_ms, int max_trials) {
  double const t = std::max(probe_ms, 1e-3);
  TrialPlan p;
  p.warmup = static_cast<int>(std::clamp(500.0 / t, 1.0, 20.0));
  p.trials = std::min(std::max(max_trials, 1), static_cast<int>(std::max(5.0, std::min(1e6, 2000.0 / t))));
  p.split_trials = std::min(p.trials, std::max(5, p.trials / 2));
  return p;
}

/// One (tool, batch) point: end-to-end times of `plan.trials` calls and the split loop's parts, in ms.
struct Point {
  TrialPlan plan;
  std::vector<double> e2e, h2d, kernel, d2h;
};

/// Times one point the same way for every tool: a call is h2d(), kernel(), d2h(), fence(). One
/// untimed call (first-call costs), one timed probe call (-> plan_trials), plan.warmup calls,
/// plan.trials timed calls (end to end), then plan.split_trials calls with fence() after each stage,
/// each stage timed on its own.
template <class H2D, class Kernel, class D2H, class Fence>
Point measure_point(int max_trials, H2D const& h2d, Kernel const& kernel, D2H const& d2h, Fence const& fence) {
  using clk = std::chrono::steady_clock;
  auto ms_since = [](clk::time_point t0) { return std::chrono::duration<double, std::milli>(clk::now() - t0).count(); };
  auto call = [&] {
    h2d();
    kernel();
    d2h();
    fence();
  };
  Point p;
  call();
  auto t0 = clk::now();
  call();
  p.plan = plan_trials(ms_since(t0), max_trials);
  for (int i = 0; i < p.plan.warmup; ++i) call();
  for (int i = 0; i < p.plan.trials; ++i) {
    t0 = clk::now();
    call();
    p.e2e.push_back(ms_since(t0));
  }
  for (int i = 0; i < p.plan.split_trials; ++i) {
    t0 = clk::now();
    h2d();
    fence();
    p.h2d.push_back(ms_since(t0));
    t0 = clk::now();
    kernel();
    fence();
    p.kernel.push_back(ms_since(t0));
    t0 = clk::now();
    d2h();
    fence();
    p.d2h.push_back(ms_since(t0));
  }
  return p;
}

/// The prediction suite's CSV columns (perf/predict_suite_gpu.sh, the CPU suite alike).
inline char const* suite_csv_header() {
  return "machine,tool,model,trees,batch,trials,p50_ms,p99_ms,h2d_p50_ms,kernel_p50_ms,d2h_p50_ms,check\n";
}

/// One suite CSV row; check = "checksum=<plain sum of the outputs>".
inline std::string suite_csv_row(std::string const& machine, std::string const& tool, std::string const& model,
                                 long long trees, long long batch, int trials, double p50, double p99, double h2d,
                                 double kernel, double d2h, double checksum) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s,%s,%s,%lld,%lld,%d,%.4f,%.4f,%.4f,%.4f,%.4f,checksum=%.6f\n", machine.c_str(),
                tool.c_str(), model.c_str(), trees, batch, trials, p50, p99, h2d, kernel, d2h, checksum);
  return buf;
}

/// The model's name for the CSV: the file name without directory and extension.
inline std::string model_name_from_path(std::string const& path) {
  std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  std::size_t const dot = name.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

}  // namespace kboost_bench
