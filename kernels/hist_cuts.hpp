#pragma once
/// \file hist_cuts.hpp
/// Histogram cuts (quantile bin boundaries) per feature, in upstream XGBoost's layout
/// (src/common/hist_util.h HistogramCuts): feature f owns values[ptrs[f] .. ptrs[f+1]), the cut
/// upper bounds in increasing order, the last one a sentinel above the feature's maximum; a value x
/// falls into the first bin whose cut is > x (clamped to the last bin); min_vals[f] is below all.
/// The cuts are computed by the training engine's sketch (engine/detail/sketch.hpp); the kernels
/// (binning, histograms, split evaluation) only read them.
/// A categorical feature (upstream AddCategories, src/common/quantile.cc) has the cuts 0, 1, …,
/// max category: bin k holds category k, and its min_val is 0.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kboost {

/// Cut points of all features in memory space `Mem`.
template <class Mem>
struct HistogramCuts {
  Kokkos::View<std::uint32_t*, Mem> ptrs;  ///< features + 1 offsets into values
  Kokkos::View<float*, Mem> values;        ///< cut upper bounds; feature f: [ptrs[f], ptrs[f+1])
  Kokkos::View<float*, Mem> min_vals;      ///< features; below every value of the feature
  /// features: 1 for a categorical feature (bin = category), 0 numerical; extent 0 when none is.
  Kokkos::View<std::uint8_t*, Mem> categorical;
  std::uint32_t total_bins = 0;            ///< == values.extent(0)
  std::vector<std::uint32_t> host_ptrs;    ///< ptrs on the host (launch shapes, code width), no download

  std::size_t n_features() const { return min_vals.extent(0); }
  /// Whether feature f is categorical (host side, no download).
  bool is_categorical(std::size_t f) const { return f < host_categorical.size() && host_categorical[f] != 0; }
  bool has_categorical() const { return categorical.extent(0) != 0; }

  std::vector<std::uint8_t> host_categorical;  ///< categorical on the host (empty when none)
};

}  // namespace kboost
