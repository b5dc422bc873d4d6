#pragma once
/// \file tune_store.hpp
/// Where measured tuning answers (engine/hist_tuner.hpp) are remembered: one small JSON file per
/// device under KBOOST_TUNE_DIR, else $XDG_CACHE_HOME/kboost, else ~/.cache/kboost. An answer is
/// keyed by the device (backend + the geometry it depends on) and by the kboost build: a file
/// written by another build is discarded, never trusted. When the directory cannot be written (or
/// KBOOST_TUNE_DIR is set but empty) answers live in process memory only, so such a process tunes
/// once per shape and process. Follows cajeta.xpu.Autotune's measure-once-and-store design; upstream XGBoost has no
/// equivalent (its GPU histogram picks shared memory from the device limits, src/tree/gpu_hist/
/// histogram.cu DeviceHistogramBuilder).
#include <cstdint>
#include <optional>
#include <string>

namespace kboost {

/// One device's tuning answers for the running build.
class TuneStore {
 public:
  /// `device_key`: backend + geometry (tune_device_key()); `dir`: the store directory, "" = memory
  /// only. The directory is created on the first put(); a file that cannot be parsed, or that was
  /// written by another build or for another device, reads as empty and is replaced on the next put().
  TuneStore(std::string device_key, std::string dir);

  /// The default directory: KBOOST_TUNE_DIR when set (empty = memory only), else
  /// $XDG_CACHE_HOME/kboost, else $HOME/.cache/kboost, else "" (memory only).
  static std::string default_dir();

  /// The running build: "<kboost version>+<16 hex digits>", the hash over the version, the
  /// compiler, the Kokkos version and backends, and a hash of the tuned kernels' sources made at
  /// configure time (CMakeLists.txt KBOOST_TUNED_SOURCES_HASH): a rebuild of the same sources keeps
  /// the key, a change to those sources changes it.
  static std::string build_key();

  /// The stored value of `key` (e.g. "hist.tile.g4.n20"), if any.
  std::optional<std::int64_t> get(std::string const& key) const;

  /// Stores `key` = `value`: merged into the device's file and written atomically (temp file in the
  /// same directory, then rename) under an exclusive flock on `<file>.lock`, so processes storing
  /// at once keep every answer; on any I/O failure the store switches to memory for the rest of
  /// the process (persistent() turns false). Never throws for I/O.
  void put(std::string const& key, std::int64_t value);

  /// Whether answers reach a file (false: memory only).
  bool persistent() const { return !file_.empty(); }
  /// The device's file ("" when memory only).
  std::string const& file() const { return file_; }
  std::string const& device_key() const { return device_key_; }

 private:
  std::string device_key_;
  std::string file_;
};

/// Device key of a Kokkos execution space: its name and concurrency, plus for CUDA the device's
/// name, compute capability, multiprocessor count and shared memory per block (e.g.
/// "Cuda|NVIDIA H200|cc9.0|sm132|smem49152|c270336"). `space_name` is ExecutionSpace::name(),
/// `concurrency` its concurrency(); `cuda_device` the CUDA device id (ignored by host backends).
std::string tune_device_key(std::string const& space_name, int concurrency, int cuda_device);

}  // namespace kboost
