/// \file bench_train_gpu.cpp
/// Training time on the default execution space (CUDA in a CUDA build) for the benchmark:
/// synthetic dense float32 rows × features (normal values, label from a noisy linear rule),
/// binary:logistic, eta 0.3, depth 6, 256 bins, 10 rounds. Runs, after two warm-up fits that load
/// every kernel: one first fit with an empty tune store (its "tune" phase is the tuner's cost), then
/// `repeats` fits with the tuned histogram kernel choice (read from the store), interleaved with as
/// many fits with the global-atomic kernel forced (kboost_min_shared = 9e18) when --compare-global
/// is 1. --sketch sets kboost_sketch_method (upstream_gpu, upstream_cpu or exact_quantile). Each fit is
/// Booster::train from host data (upload, cuts, binning and all rounds); --compare-input 1 adds, to
/// each repeat, a fit from the same rows already in a row-major View of the execution space's
/// memory (Booster::train's View overload, as a simulation code with its data on the GPU calls it;
/// the View filled before the timing), in alternating order. Prints medians and the tuned/global
/// and device-input/host-input ratios, checks every model is byte-identical, writes one CSV row
/// per fit.
///   bench_train_gpu [--rows 1000000] [--features 28] [--rounds 10] [--depth 6] [--bins 256]
///                   [--repeats 7] [--csv FILE] [--write-data FILE] [--tune-dir DIR]
///                   [--sketch upstream_gpu] [--compare-global 0] [--compare-input 0]
///                   [--grow-policy depthwise] [--max-leaves 0] [--missing none|third_half]
///                   [--compare-lookahead 0] [--objective binary:logistic] [--num-class 0]
///                   [--test-rows 0] [--warmup 1]
/// --compare-lookahead 1 pairs each tuned fit with one that expands one lossguide node per step
/// (kboost_lossguide_lookahead 0) instead of the global-atomic fit; the CSV's grow_steps column
/// counts the device steps of the trees.
/// --objective multi:softprob --num-class K labels each row with one of K classes (the largest of
/// K noisy linear scores). --test-rows N draws N held-out rows after the training rows and prints
/// the first fit's held-out metric (auc for binary:logistic, mlogloss for multi:softprob; every
/// fit's model is the first one's, bytes checked), also in the CSV's test_metric column.
/// --warmup 0 leaves out the two warm-up fits: the first timed fit then also loads every kernel
/// (JIT-compiling PTX where the device needs it, unless CUDA's compute cache holds it already).
/// --write-data writes the data for other tools: int64 rows, int64 features, rows × features
/// float32 (row-major), rows float32 labels; the held-out rows in the same format to FILE.test. --tune-dir sets KBOOST_TUNE_DIR (default: a fresh
/// directory under /tmp, so the first fit always tunes).
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/io/model_writer.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/hist_tuner.hpp>
#include <kboost/engine/metrics.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/engine/predictor.hpp>

#include "perf/synthetic_counter.hpp"

namespace {

using kboost::perf::normal;
using kboost::perf::uniform;

/// The synthetic data's shape: rows from global row index `first_row` on (a held-out set continues
/// the training rows' counters), binary label, or `num_class` > 1 classes.
struct Shape {
  std::size_t rows = 0, features = 0, first_row = 0;
  std::string missing = "none";
  int num_class = 0;
};

/// shape.rows × features, standard normal values; missing "third_half": every third feature (0, 3,
/// 6, ...) missing in about half the rows (its own counter per value). The label: binary from a
/// noisy linear rule, or with num_class > 1 the class of the largest of num_class noisy linear
/// scores (class 0's rule is the binary one).
kboost::HostDMatrix synthetic(Shape const& shape) {
  std::size_t const rows = shape.rows, features = shape.features;
  kboost::HostDMatrix d;
  d.n_rows = rows;
  d.n_features = features;
  d.dense = kboost::HostDMatrix::dense_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::X"), rows, features);
  d.label = Kokkos::View<float*, Kokkos::HostSpace>("bench::y", rows);
  if (shape.missing != "none" && shape.missing != "third_half")
    throw std::runtime_error("--missing " + shape.missing + ": expected none or third_half");
  bool const third_half = shape.missing == "third_half";
  std::size_t const scores = shape.num_class > 1 ? static_cast<std::size_t>(shape.num_class) : 1;
  std::vector<double> w(scores * features);
  for (std::size_t k = 0; k < w.size(); ++k) w[k] = normal(0xfeed0000ull + k);
  // Rows in parallel blocks: every value comes from its own counter, so the data do not depend on
  // the thread count (100M rows took 2 minutes on one thread).
  auto const rows_of = [&](std::size_t begin, std::size_t end) {
    std::vector<double> s(scores);
    for (std::size_t i = begin; i < end; ++i) {
      std::uint64_t const g = shape.first_row + i;
      s[0] = 2.0 * normal(0x7000000000ull + g);
      for (std::size_t k = 1; k < scores; ++k) s[k] = 2.0 * normal(0x7100000000ull + g * scores + k);
      for (std::size_t f = 0; f < features; ++f) {
        std::uint64_t const at = g * features + f;
        float const v = static_cast<float>(normal(at));
        bool const gone = third_half && f % 3 == 0 && uniform(0x5000000000000ull + at) < 0.5;
        d.dense(i, f) = gone ? NAN : v;
        for (std::size_t k = 0; k < scores; ++k) s[k] += w[k * features + f] * v;
      }
      d.label(i) = scores == 1 ? (s[0] > 0 ? 1.0f : 0.0f)
                               : static_cast<float>(std::max_element(s.begin(), s.end()) - s.begin());
    }
  };
  std::size_t const n_threads = std::max(1u, std::thread::hardware_concurrency());
  std::size_t const chunk = (rows + n_threads - 1) / n_threads;
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < n_threads; ++t)
    pool.emplace_back(rows_of, std::min(rows, t * chunk), std::min(rows, (t + 1) * chunk));
  for (auto& t : pool) t.join();
  return d;
}

void write_data(std::string const& path, kboost::HostDMatrix const& d) {
  std::string const tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    std::int64_t const r = static_cast<std::int64_t>(d.n_rows), c = static_cast<std::int64_t>(d.n_features);
    out.write(reinterpret_cast<char const*>(&r), 8);
    out.write(reinterpret_cast<char const*>(&c), 8);
    out.write(reinterpret_cast<char const*>(d.dense.data()), static_cast<std::streamsize>(r * c * 4));
    out.write(reinterpret_cast<char const*>(d.label.data()), static_cast<std::streamsize>(r * 4));
    if (!out) throw std::runtime_error(tmp + ": write failed");
  }
  std::filesystem::rename(tmp, path);
}

std::uint64_t fnv(std::string const& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Fit {
  double wall = 0;
  kboost::PhaseTimes phases;
  kboost::HistTuneResult tuning;
  std::uint64_t hash = 0;
  double test_metric = NAN;  ///< Heldout::metric of the model on the held-out rows (NaN without them)
};

using DeviceRows = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::DefaultExecutionSpace::memory_space>;
using DeviceLabels = Kokkos::View<float*, Kokkos::DefaultExecutionSpace::memory_space>;

/// Held-out rows on the device and the metric upstream reports for the objective by default in
/// its benchmarks (auc for binary:logistic, mlogloss for multi:softprob).
struct Heldout {
  DeviceRows X;
  std::vector<float> labels;
  std::string metric;
  int groups = 1;
};

/// The model's Heldout::metric on h's rows: predicted on the device, evaluated on the host by
/// kboost::evaluate_metric (upstream 3.2's definitions).
double heldout_metric(kboost::Model const& model, Heldout const& h) {
  kboost::Predictor<> p(model);
  auto const out = p.predict(h.X);
  auto const host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::vector<float> const preds(host.data(), host.data() + host.size());
  return kboost::evaluate_metric(h.metric, preds, h.labels, {}, h.groups);
}

/// One fit by `train(booster)`, timed from a fenced start to a fenced end; its held-out metric
/// after the timing when `h` is given.
template <class Train>
Fit timed_fit(Train&& train, Heldout const* h) {
  Kokkos::fence();
  auto const t0 = std::chrono::steady_clock::now();
  kboost::Booster b;
  train(b);
  Kokkos::fence();
  Fit f;
  f.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  f.phases = b.phases();
  f.tuning = b.hist_tuning();
  f.hash = fnv(kboost::model_to_json_bytes(b.model()));
  if (h) f.test_metric = heldout_metric(b.model(), *h);
  return f;
}

Fit fit(std::map<std::string, std::string> const& kv, kboost::HostDMatrix const& d, Heldout const* h = nullptr) {
  return timed_fit([&](kboost::Booster& b) { b.train(kboost::parse_params(kv), d); }, h);
}

Fit fit_from_views(std::map<std::string, std::string> const& kv, DeviceRows const& X, DeviceLabels const& y,
                   Heldout const* h = nullptr) {
  return timed_fit([&](kboost::Booster& b) { b.train(kboost::parse_params(kv), X, y); }, h);
}

}  // namespace

int main(int argc, char* argv[]) {
  std::map<std::string, std::string> a{{"rows", "1000000"}, {"features", "28"}, {"rounds", "10"}, {"depth", "6"},
                                       {"bins", "256"},      {"repeats", "7"},   {"csv", ""},      {"write-data", ""},
                                       {"tune-dir", ""},     {"sketch", "upstream_gpu"}, {"compare-global", "0"},
                                       {"compare-input", "0"},  {"grow-policy", "depthwise"}, {"max-leaves", "0"},
                                       {"missing", "none"},     {"compare-lookahead", "0"},
                                       {"objective", "binary:logistic"}, {"num-class", "0"}, {"test-rows", "0"},
                                       {"warmup", "1"}};
  CLI::App app{"kboost GPU benchmark"};
  for (auto& [key, value] : a) app.add_option("--" + key, value)->default_val(value);
  CLI11_PARSE(app, argc, argv);
  std::string tune_dir = a["tune-dir"];
  if (tune_dir.empty()) {
    tune_dir = (std::filesystem::temp_directory_path() / ("kboost_bench_tune_" + std::to_string(::getpid()))).string();
    std::filesystem::remove_all(tune_dir);
  }
  ::setenv("KBOOST_TUNE_DIR", tune_dir.c_str(), 1);
  kboost::compat::initialize(0);
  int rc = 0;
  {
    std::size_t const rows = std::stoull(a["rows"]), features = std::stoull(a["features"]);
    int const repeats = std::stoi(a["repeats"]);
    auto const t0 = std::chrono::steady_clock::now();
    std::string const objective = a["objective"];
    if (objective != "binary:logistic" && objective != "multi:softprob")
      throw std::runtime_error("--objective " + objective + ": expected binary:logistic or multi:softprob");
    int const num_class = objective == "multi:softprob" ? std::stoi(a["num-class"]) : 0;
    if (objective == "multi:softprob" && num_class < 2) throw std::runtime_error("--num-class: at least 2 for multi:softprob");
    Shape shape{rows, features, 0, a["missing"], num_class};
    auto const d = synthetic(shape);
    shape.rows = std::stoull(a["test-rows"]);
    shape.first_row = rows;
    auto const test = synthetic(shape);
    std::printf("data: %zu x %zu synthetic, %zu held-out rows (%.2f s to generate)\n", rows, features, shape.rows,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!a["write-data"].empty()) {
      write_data(a["write-data"], d);
      if (shape.rows > 0) write_data(a["write-data"] + ".test", test);
    }
    Heldout heldout{DeviceRows("bench::X_test", shape.rows, features),
                    std::vector<float>(test.label.data(), test.label.data() + shape.rows),
                    num_class > 1 ? "mlogloss" : "auc", num_class > 1 ? num_class : 1};
    Kokkos::deep_copy(heldout.X, test.dense);
    Heldout const* h = shape.rows > 0 ? &heldout : nullptr;
    std::map<std::string, std::string> base{{"objective", objective}, {"num_round", a["rounds"]},
                                                  {"max_depth", a["depth"]},        {"max_bin", a["bins"]},
                                                  {"eta", "0.3"},                   {"verbosity", "0"},
                                                  {"kboost_sketch_method", a["sketch"]},
                                                  {"grow_policy", a["grow-policy"]}, {"max_leaves", a["max-leaves"]}};
    if (num_class > 1) base["num_class"] = std::to_string(num_class);
    bool const compare_lookahead = a["compare-lookahead"] == "1";
    if (compare_lookahead && a["compare-global"] == "1")
      throw std::runtime_error("--compare-lookahead and --compare-global: one comparison per run");
    bool const compare_pair = a["compare-global"] == "1" || compare_lookahead;
    auto with = [&](std::map<std::string, std::string> extra) {
      auto kv = base;
      for (auto const& [k, v] : extra) kv[k] = v;
      return kv;
    };
    // the second configuration of a pair: global-atomic histograms, or lossguide one node per step
    auto const paired = compare_lookahead ? with({{"kboost_lossguide_lookahead", "0"}})
                                          : with({{"kboost_min_shared", "9000000000000000000"}});
    std::string const other = compare_lookahead ? "one_per_step" : "global";
    auto const tuned = with({});
    // Warm-up: every kernel loaded (and JIT-compiled from PTX where the device needs it) on a
    // subset below the tuner's row threshold, once per histogram kernel. --warmup 0 leaves it out,
    // so the first fit is a new process's (loading, JIT, tuning).
    if (a["warmup"] != "0") {
      std::size_t const sub = std::min<std::size_t>(rows, 50000);
      kboost::HostDMatrix w = d;
      w.n_rows = sub;
      w.dense = Kokkos::subview(d.dense, std::pair<std::size_t, std::size_t>(0, sub), Kokkos::ALL());
      w.label = Kokkos::subview(d.label, std::pair<std::size_t, std::size_t>(0, sub));
      fit(with({{"kboost_min_shared", "0"}}), w);
      fit(paired, w);
    }
    bool const compare_input = a["compare-input"] == "1";
    DeviceRows X_dev;
    DeviceLabels y_dev;
    if (compare_input) {
      X_dev = DeviceRows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::X_device"), rows, features);
      y_dev = DeviceLabels(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::y_device"), rows);
      Kokkos::deep_copy(X_dev, d.dense);
      Kokkos::deep_copy(y_dev, d.label);
      fit_from_views(with({}), Kokkos::subview(X_dev, std::pair<std::size_t, std::size_t>(0, std::min<std::size_t>(rows, 50000)),
                                               Kokkos::ALL()),
                     Kokkos::subview(y_dev, std::pair<std::size_t, std::size_t>(0, std::min<std::size_t>(rows, 50000))));
    }
    std::vector<std::pair<std::string, Fit>> fits;
    // every fit's model is checked byte-identical to the first one's, so its metric is theirs too
    fits.emplace_back("tuned_first", fit(tuned, d, h));
    std::printf("first fit (tunes): %.4f s, tune phase %.4f s, held-out %s %.6f\n  %s\n", fits.back().second.wall,
                fits.back().second.phases.tune, heldout.metric.c_str(), fits.back().second.test_metric,
                fits.back().second.tuning.describe().c_str());
    for (int r = 0; r < repeats; ++r) {
      bool const tuned_first = r % 2 == 0;
      for (int k = 0; k < (compare_pair ? 2 : 1); ++k) {
        bool const is_tuned = (k == 0) == tuned_first || !compare_pair;
        fits.emplace_back(is_tuned ? "tuned" : other, fit(is_tuned ? tuned : paired, d));
      }
      if (compare_input) {
        auto const host_fit = fits.back();
        if (tuned_first) fits.pop_back();  // alternate which input goes first
        fits.emplace_back("device_input", fit_from_views(tuned, X_dev, y_dev));
        if (tuned_first) fits.push_back(host_fit);
      }
    }
    std::vector<double> wt, wg, ht, hg, wd;
    bool same_bits = true;
    for (auto const& [mode, f] : fits) {
      same_bits = same_bits && f.hash == fits.front().second.hash;
      if (mode == "tuned") {
        wt.push_back(f.wall);
        ht.push_back(f.phases.histograms);
      }
      if (mode == other) {
        wg.push_back(f.wall);
        hg.push_back(f.phases.histograms);
      }
      if (mode == "device_input") wd.push_back(f.wall);
    }
    std::string const space = Kokkos::DefaultExecutionSpace::name();
    if (!a["csv"].empty()) {
      std::ofstream out(a["csv"]);
      out << "tool,space,mode,rep,rows,features,rounds,wall_s,upload_s,cuts_s,binning_s,gradients_s,histograms_s,splits_s,"
             "partition_s,leaves_s,eval_s,tune_s,tile_rows,min_shared,model_fnv,grow_steps,test_metric\n";
      int rep = 0;
      for (auto const& [mode, f] : fits) {
        auto const& p = f.phases;
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      "kboost,%s,%s,%d,%zu,%zu,%s,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%d,%lld,%016llx,%lld,%.6f\n",
                      space.c_str(), mode.c_str(), mode == "tuned_first" ? 0 : (rep++) / ((compare_pair ? 2 : 1) + (compare_input ? 1 : 0)), rows, features,
                      a["rounds"].c_str(), f.wall, p.upload, p.cuts, p.binning, p.gradients, p.histograms, p.splits, p.partition,
                      p.leaves, p.eval, p.tune, mode == "global" ? 0 : f.tuning.tile_rows,
                      mode == "global" ? -1LL : static_cast<long long>(f.tuning.min_shared),
                      static_cast<unsigned long long>(f.hash), static_cast<long long>(p.levels), fits.front().second.test_metric);
        out << buf;
      }
    }
    Fit const* last_tuned = &fits.front().second;
    for (auto const& [mode, f] : fits)
      if (mode == "tuned") last_tuned = &f;
    std::printf("%s: %d pairs, median wall tuned %.4f s, %s %.4f s, tuned/%s %.3f; histograms phase %.4f vs "
                "%.4f s; models byte-identical: %s\n",
                space.c_str(), repeats, median(wt), other.c_str(), median(wg), other.c_str(),
                median(wg) > 0 ? median(wt) / median(wg) : 0.0, median(ht), median(hg), same_bits ? "yes" : "NO");
    if (compare_input)
      std::printf("%s: median wall from device Views %.4f s, from the host DMatrix %.4f s, device/host %.3f\n",
                  space.c_str(), median(wd), median(wt), median(wt) > 0 ? median(wd) / median(wt) : 0.0);
    std::printf("last tuned fit phases:\n%s", last_tuned->phases.summary().c_str());
    if (!same_bits) rc = 1;
  }
  Kokkos::finalize();
  return rc;
}
