#pragma once
/// \file phase_times.hpp
/// Wall time and host-device copies per training phase (BasicBooster::phases()), and the scoped
/// timer the booster and the tree grower charge them with.
#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdint>
#include <string>

#include <kboost/core/memory_meter.hpp>
#include <kboost/core/transfers.hpp>

namespace kboost {

/// Wall time per training phase, seconds (each phase fences before it stops its clock).
struct PhaseTimes {
  double upload = 0;  ///< training matrix, labels and weights to the execution space (0 on host backends)
  double cuts = 0, binning = 0, gradients = 0, histograms = 0, splits = 0, partition = 0, leaves = 0, eval = 0;
  double tune = 0;  ///< histogram kernel tuning (engine/hist_tuner.hpp), first fit of a shape only
  /// Host-device copies (core/transfers.hpp): during tree growth, and in the whole fit.
  TransferCount grow_copies, fit_copies;
  std::int64_t levels = 0;  ///< grow steps (depthwise: one per depth; lossguide: one per expansion, fewer with look-ahead)
  std::int64_t trees = 0;
  /// Distributed fits: ranks, and the histogram Allreduce (time within `histograms`, payload bytes
  /// per rank, calls).
  int ranks = 1;
  double comm = 0;
  std::int64_t comm_bytes = 0, comm_calls = 0;
  /// Peak bytes of the fit's Kokkos allocations in device and host spaces, and the process' peak
  /// resident set (core/memory_meter.hpp).
  MemoryPeaks memory;
  /// One line per phase plus the total, for the end of a training log.
  std::string summary() const;
};

/// Adds the time from construction to destruction (after a fence) to one PhaseTimes field.
class PhaseTimer {
 public:
  explicit PhaseTimer(double& slot) : slot_(slot), t0_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    Kokkos::fence();
    slot_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  PhaseTimer(PhaseTimer const&) = delete;
  PhaseTimer& operator=(PhaseTimer const&) = delete;

 private:
  double& slot_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace kboost
