#pragma once
/// \file hist_cuts.hpp
/// Histogram cuts (quantile bin boundaries) per feature, in upstream XGBoost's layout
/// (src/common/hist_util.h HistogramCuts): feature f owns values[ptrs[f] .. ptrs[f+1]), the cut
/// upper bounds in increasing order, the last one a sentinel above the feature's maximum; a value x
/// falls into the first bin whose cut is > x (clamped to the last bin); min_vals[f] is below all.
///
/// Algorithm: upstream's CPU hist path (common::SketchOnDMatrix -> HostSketchContainer,
/// src/common/quantile.{h,cc}: WQuantileSketch per feature with rows pushed in order, AllReduce
/// prune to 8*max_bin, MakeCuts prune to max_bin+1, AddCutPoint), replicated on the host in float
/// like upstream's WQSummary. Features with <= max_bin distinct values get one bin per distinct
/// value (exactly upstream); verified bit for bit against xgboost 3.2's CPU cuts also for features
/// with more distinct values (tests/tst_cuts.hpp). Each feature is sketched sequentially on the host
/// (features spread over std::threads), so the result is independent of backend and thread count.
/// See kernels/hist_cuts.cpp.
#include "core/compat.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace kboost {

/// Cut points of all features in memory space `Mem`.
template <class Mem>
struct HistogramCuts {
  Kokkos::View<std::uint32_t*, Mem> ptrs;  ///< features + 1 offsets into values
  Kokkos::View<float*, Mem> values;        ///< cut upper bounds; feature f: [ptrs[f], ptrs[f+1])
  Kokkos::View<float*, Mem> min_vals;      ///< features; below every value of the feature
  std::uint32_t total_bins = 0;            ///< == values.extent(0)

  std::size_t n_features() const { return min_vals.extent(0); }
};

/// Host cuts of one feature (the sketch itself; exposed for tests).
struct FeatureCuts {
  std::vector<float> values;  ///< increasing cuts, last = sentinel
  float min_val = 0;
};

/// Upstream's CPU sketch of one feature: `values`/`weights` are the non-missing entries in row
/// order (weights empty = all 1). Deterministic. Throws std::runtime_error if max_bin < 2.
FeatureCuts sketch_feature(std::vector<float> const& values, std::vector<float> const& weights, int max_bin);

/// Cuts of every column of X (rows × features, NaN = missing) with sample weights `weight`
/// (rows, or extent 0 = all 1), at most `max_bin` bins per feature. X is copied to the host and
/// each feature sketched in order (upstream CPU hist, see file comment). Throws std::runtime_error
/// on max_bin < 2 or a weight extent that is neither 0 nor rows.
template <class ExecutionSpace, class Mem>
HistogramCuts<Mem> sketch_cuts(ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                               Kokkos::View<const float*, Mem> weight, int max_bin) {
  compat::ScopedRegion region("kboost::hist_cuts::sketch_cuts");
  space.fence();
  auto hX = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), X);
  auto hw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), weight);
  std::size_t const rows = hX.extent(0), features = hX.extent(1);
  bool const weighted = hw.extent(0) != 0;
  if (weighted && hw.extent(0) != rows) {
    throw std::runtime_error("sketch_cuts: weight has " + std::to_string(hw.extent(0)) + " entries for " +
                             std::to_string(rows) + " rows");
  }
  if (max_bin < 2) {
    throw std::runtime_error("sketch_cuts: max_bin must be at least 2, got " + std::to_string(max_bin));
  }
  // Features are independent and each is sketched sequentially over its rows, so spreading the
  // features over host threads does not change any bit. std::thread rather than a Kokkos host
  // policy: device builds often have a Serial host space (the CUDA build here), and the sketch is
  // most of a GPU fit's time.
  std::vector<FeatureCuts> per_feature(features);
  std::atomic<std::size_t> next{0};
  auto worker = [&]() {
    std::vector<float> col, wcol;
    for (std::size_t f = next++; f < features; f = next++) {
      col.clear();
      wcol.clear();
      for (std::size_t i = 0; i < rows; ++i) {
        float const v = hX(i, f);
        if (v != v) continue;  // NaN = missing
        col.push_back(v);
        if (weighted) wcol.push_back(hw(i));
      }
      per_feature[f] = sketch_feature(col, wcol, max_bin);
    }
  };
  std::size_t const n_threads =
      std::max<std::size_t>(1, std::min<std::size_t>(features, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < n_threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  std::vector<std::uint32_t> ptrs(features + 1, 0);
  std::vector<float> values, mins(features);
  for (std::size_t f = 0; f < features; ++f) {
    values.insert(values.end(), per_feature[f].values.begin(), per_feature[f].values.end());
    ptrs[f + 1] = static_cast<std::uint32_t>(values.size());
    mins[f] = per_feature[f].min_val;
  }
  HistogramCuts<Mem> cuts;
  cuts.ptrs = Kokkos::View<std::uint32_t*, Mem>("kboost::HistogramCuts::ptrs", features + 1);
  cuts.values = Kokkos::View<float*, Mem>("kboost::HistogramCuts::values", values.size());
  cuts.min_vals = Kokkos::View<float*, Mem>("kboost::HistogramCuts::min_vals", features);
  Kokkos::deep_copy(space, cuts.ptrs, Kokkos::View<std::uint32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(ptrs.data(), ptrs.size()));
  Kokkos::deep_copy(space, cuts.values, Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(values.data(), values.size()));
  Kokkos::deep_copy(space, cuts.min_vals, Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(mins.data(), mins.size()));
  space.fence();
  cuts.total_bins = static_cast<std::uint32_t>(values.size());
  return cuts;
}

}  // namespace kboost
