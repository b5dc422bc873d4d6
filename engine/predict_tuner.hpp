#pragma once
/// \file predict_tuner.hpp
/// Which mapping and forest layout (kernels/predict_mapping.hpp PredictChoice) a Predictor uses for
/// a batch: default_blocking's fixed choice by default; a forced one (PredictorConfig::mapping, for
/// tests and benchmarks); or, opt-in (KBOOST_PREDICT_TUNE=1 or PredictorConfig::tune), the fastest
/// one measured once per (model, device, batch-size class) on the caller's own batch and kept in
/// the tune store (engine/tune_store.hpp), so later calls and later processes read it back. Every
/// choice gives the same bits (the ordered float32 sum of upstream XGBoost 3.2's CPU predictor), so
/// tuning changes only the time. Follows engine/hist_tuner.hpp's measure-once-and-store design;
/// nvForest (RAPIDS cuML FIL) picks its layout and rows per block by a similar measured `optimize()`.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/kernels/predict_layout.hpp>
#include <kboost/kernels/predict_mapping.hpp>
#include <kboost/engine/tune_store.hpp>

namespace kboost {

/// How a Predictor measures candidate mappings.
struct PredictTuneOptions {
  int rounds = 3;                 ///< interleaved rounds per candidate (median of these)
  double sample_seconds = 2e-3;   ///< each timed sample repeats the call until it lasts about this long
  int max_reps = 32;              ///< cap on calls per sample
};

/// A Predictor's mapping policy (engine/predictor.hpp).
struct PredictorConfig {
  enum class Tune { kFromEnv, kOff, kOn };
  /// Forced mapping and layout for every value prediction (pred_leaf calls take the blocking, the
  /// one kernel writing leaf ids, in the forced layout). Default: none forced.
  PredictChoice mapping{};
  /// kFromEnv: KBOOST_PREDICT_TUNE (predict_tune_from_env); a forced mapping wins over tuning.
  Tune tune = Tune::kFromEnv;
  /// The tune store's directory; nullopt: TuneStore::default_dir() (KBOOST_TUNE_DIR, ...); "": memory only.
  std::optional<std::string> tune_dir;
  PredictTuneOptions tune_options{};
};

/// Whether KBOOST_PREDICT_TUNE asks for tuned mappings: unset or "0" no, "1" yes.
/// \throws std::invalid_argument for any other value (the message names the variable).
bool predict_tune_from_env();

/// The tuner's answer for one call. Timings are medians in seconds per call.
struct PredictTuneResult {
  enum class Source { kDefault, kForced, kStore, kMeasured };
  Source source = Source::kDefault;
  PredictChoice choice{};
  std::string key;         ///< the store key ("predict.<fingerprint>.t999.v.xR.b5"), "" when not tuned
  std::string store_file;  ///< "" when the store is memory only
  std::vector<std::pair<std::string, double>> timings;  ///< (choice name, s) per candidate measured
  /// One line for logs: key, choice, where it came from, the measured medians.
  std::string describe() const;
};

/// Batch-size class of n rows: floor(log4(n)) (0 for 0 and 1 row).
int predict_batch_class(std::size_t n_rows);

/// Store key of a batch: the model's fingerprint, trees predicted, values ("v") or leaf ids ("l"),
/// the input's layout ('R' LayoutRight, 'L' LayoutLeft, 'S' strided) and the batch class.
std::string predict_tune_key(std::uint64_t fingerprint, int n_trees, bool pred_leaf, char x_layout, std::size_t n_rows);

/// FNV-1a over a flattened forest's nodes, node ids, categories, leaf vectors, groups and weights:
/// the same model gives the same fingerprint in every process.
std::uint64_t forest_fingerprint(HostForest const& h);

/// 'R', 'L' or 'S' for a View's layout (predict_tune_key).
template <class View>
constexpr char view_layout_code() {
  using L = typename View::array_layout;
  return std::is_same<L, Kokkos::LayoutRight>::value ? 'R' : std::is_same<L, Kokkos::LayoutLeft>::value ? 'L' : 'S';
}

/// The tune-store device key of `space` (engine/tune_store.hpp tune_device_key), made once per
/// execution-space type and device: on CUDA it asks the driver for the device's properties, which
/// costs more than a small batch's prediction, and tuned calls need the key on every call.
template <class ExecutionSpace>
std::string predict_tune_device_key(ExecutionSpace const& space) {
  int device = 0;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecutionSpace, Kokkos::Cuda>) device = space.cuda_device();
#endif
  static std::mutex mutex;
  static std::map<std::pair<int, int>, std::string> keys;  // (device, concurrency) -> key
  int const conc = compat::concurrency(space);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = keys.find({device, conc});
  if (it == keys.end()) it = keys.emplace(std::make_pair(device, conc), tune_device_key(compat::space_name<ExecutionSpace>(), conc, device)).first;
  return it->second;
}

/// A Predictor's tuned choices: those of this process per key (so a call reads no file), backed by
/// one TuneStore per device key. Thread-safe: lock() is held while a batch class is measured, so
/// concurrent first calls measure once.
class PredictTuneState {
 public:
  explicit PredictTuneState(std::optional<std::string> dir) : dir_(std::move(dir)) {}
  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mutex_); }
  /// (under lock()) The choice known for `key` on `device`: this process's, else the store's.
  std::optional<PredictChoice> find(std::string const& device, std::string const& key, std::string& store_file);
  /// (under lock()) Keeps `choice` for `key` on `device`, in the store too.
  void keep(std::string const& device, std::string const& key, PredictChoice choice, std::string& store_file);

 private:
  TuneStore& store(std::string const& device);
  std::mutex mutex_;
  std::optional<std::string> dir_;
  std::map<std::string, PredictChoice> known_;
  std::map<std::string, TuneStore> stores_;
};

/// Medians (seconds per call) of `run(choice)` (a call on `space`) for each candidate: one untimed
/// call each (first launches, lazy layouts), then o.rounds interleaved rounds, each sample repeating
/// the call until it lasts about o.sample_seconds (at most o.max_reps calls) between two fences.
template <class ExecutionSpace, class Run>
std::vector<double> measure_predict_choices(ExecutionSpace const& space, std::vector<PredictChoice> const& candidates,
                                            Run const& run, PredictTuneOptions const& o) {
  auto sample = [&](PredictChoice c, int reps) {
    space.fence();
    auto const t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < reps; ++k) run(c);
    space.fence();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
  };
  std::vector<int> reps;
  for (auto const& c : candidates) {
    sample(c, 1);
    double const once = std::max(sample(c, 1), 1e-9);
    reps.push_back(static_cast<int>(std::clamp(o.sample_seconds / once + 0.999, 1.0, static_cast<double>(std::max(1, o.max_reps)))));
  }
  std::vector<std::vector<double>> s(candidates.size());
  for (int round = 0; round < std::max(1, o.rounds); ++round)
    for (std::size_t i = 0; i < candidates.size(); ++i) s[i].push_back(sample(candidates[i], reps[i]));
  std::vector<double> med;
  for (auto& v : s) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    med.push_back(v[v.size() / 2]);
  }
  return med;
}

}  // namespace kboost
