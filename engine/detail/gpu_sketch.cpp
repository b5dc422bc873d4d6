/// \file gpu_sketch.cpp
/// One feature's cuts by upstream 3.4.1's GPU sketch (engine/detail/gpu_sketch.hpp): each batch's
/// values sorted as upstream's stable device sort (ascending, ties in row order), weights summed
/// in that order, then pushed into the feature's summary (SketchContainer::Push).
#include <kboost/engine/detail/gpu_sketch.hpp>

#include <algorithm>
#include <limits>
#include <numeric>

namespace kboost::detail {

FeatureCuts gpu_feature_cuts(float const* v, float const* w, std::uint64_t const* split, SketchBatches const& batches,
                             int max_bin) {
  gpu_sketch::GpuFeatureSketch sketch(max_bin);
  std::vector<float> values, scan;
  std::vector<std::size_t> order;
  for (std::size_t b = 0; b < batches.batches; ++b) {
    std::size_t const lo = split[b], n = split[b + 1] - split[b];
    order.resize(n);
    std::iota(order.begin(), order.end(), lo);
    std::stable_sort(order.begin(), order.end(), [v](std::size_t x, std::size_t y) { return v[x] < v[y]; });
    values.resize(n);
    for (std::size_t k = 0; k < n; ++k) values[k] = v[order[k]];
    if (w != nullptr) {
      scan.resize(n);
      float running = 0.0f;
      for (std::size_t k = 0; k < n; ++k) scan[k] = running = running + w[order[k]];
    }
    sketch.push(values.data(), w != nullptr ? scan.data() : nullptr, n, batches.rows[b]);
  }
  FeatureCuts out;
  out.values = sketch.cut_values();
  out.min_val = -std::numeric_limits<float>::infinity();
  return out;
}

}  // namespace kboost::detail
