/// \file gpu_sketch.cpp
/// One feature's cuts by upstream 3.4.1's GPU sketch (engine/detail/gpu_sketch.hpp): each batch's
/// values sorted as upstream's stable device sort (ascending, ties in row order; a radix sort),
/// weights summed in that order, then pushed into the feature's summary (SketchContainer::Push).
#include <kboost/engine/detail/gpu_sketch.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace kboost::detail {
namespace {

/// Order key of a float as upstream's comparison sees it (-0 and +0 equal; NaN never comes).
std::uint32_t order_key(float v) {
  if (v == 0.0f) v = 0.0f;
  std::uint32_t b = 0;
  std::memcpy(&b, &v, 4);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

/// The three 11-bit digits of the LSD radix sort below, and which of them it must pass over.
struct DigitCounts {
  std::vector<std::size_t> start[3];
  bool needed[3] = {false, false, false};
};

/// Every digit's counts in one read of the keys; a digit whose value every key shares needs no pass.
template <class KeyOf>
DigitCounts count_digits(std::size_t n, KeyOf const& key_of) {
  DigitCounts c;
  for (auto& s : c.start) s.assign(2049, 0);
  for (std::size_t k = 0; k < n; ++k) {
    std::uint32_t const key = key_of(k);
    for (int d = 0; d < 3; ++d) ++c.start[d][((key >> (11 * d)) & 2047u) + 1];
  }
  for (int d = 0; d < 3; ++d) {
    c.needed[d] = std::find(c.start[d].begin(), c.start[d].end(), n) == c.start[d].end();
    for (std::size_t b = 1; b < c.start[d].size(); ++b) c.start[d][b] += c.start[d][b - 1];
  }
  return c;
}

/// v[lo, hi) into `out` sorted ascending, ties (and -0/+0) in their given order: upstream's stable
/// device sort. An LSD radix sort of (order key, value bits) pairs packed in 64 bits, three stable
/// passes of 11 bits over the key, each skipped when every key has the same digit.
void stable_sorted_values(float const* v, std::size_t n, std::vector<float>& out) {
  std::vector<std::uint64_t> item(n), item_out(n);
  for (std::size_t k = 0; k < n; ++k) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v[k], 4);
    item[k] = (std::uint64_t(order_key(v[k])) << 32) | bits;
  }
  DigitCounts c = count_digits(n, [&](std::size_t k) { return static_cast<std::uint32_t>(item[k] >> 32); });
  for (int d = 0; d < 3; ++d) {
    if (!c.needed[d]) continue;
    int const shift = 32 + 11 * d;
    for (std::uint64_t x : item) item_out[c.start[d][(x >> shift) & 2047u]++] = x;
    item.swap(item_out);
  }
  out.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    auto const bits = static_cast<std::uint32_t>(item[k]);
    std::memcpy(&out[k], &bits, 4);
  }
}

/// stable_sorted_values with weights: v and w (n each) sorted by v, w carried along.
void stable_sort_weighted(std::vector<float>& v, std::vector<float>& w) {
  std::size_t const n = v.size();
  std::vector<std::uint32_t> key(n), key_out(n);
  for (std::size_t k = 0; k < n; ++k) key[k] = order_key(v[k]);
  DigitCounts c = count_digits(n, [&](std::size_t k) { return key[k]; });
  std::vector<float> v_out(n), w_out(n);
  for (int d = 0; d < 3; ++d) {
    if (!c.needed[d]) continue;
    int const shift = 11 * d;
    for (std::size_t k = 0; k < n; ++k) {
      std::size_t const to = c.start[d][(key[k] >> shift) & 2047u]++;
      key_out[to] = key[k];
      v_out[to] = v[k];
      w_out[to] = w[k];
    }
    key.swap(key_out);
    v.swap(v_out);
    w.swap(w_out);
  }
}

}  // namespace

FeatureCuts gpu_feature_cuts(float const* v, float const* w, std::uint64_t const* split, SketchBatches const& batches,
                             int max_bin) {
  gpu_sketch::GpuFeatureSketch sketch(max_bin);
  std::vector<float> values, weights, scan;
  for (std::size_t b = 0; b < batches.batches; ++b) {
    std::size_t const lo = split[b], hi = split[b + 1];
    if (w == nullptr) {
      stable_sorted_values(v + lo, hi - lo, values);
    } else {
      values.assign(v + lo, v + hi);
      weights.assign(w + lo, w + hi);
      stable_sort_weighted(values, weights);
      scan.resize(weights.size());
      float running = 0.0f;
      for (std::size_t k = 0; k < weights.size(); ++k) scan[k] = running = running + weights[k];
    }
    sketch.push(values.data(), w != nullptr ? scan.data() : nullptr, values.size(), batches.rows[b]);
  }
  FeatureCuts out;
  out.values = sketch.cut_values();
  out.min_val = -std::numeric_limits<float>::infinity();
  return out;
}

namespace {

/// Validates max_bin before the batch budget is computed from it.
std::uint64_t checked_budget(int max_bin, std::size_t rows) {
  if (max_bin < 2) throw std::runtime_error("sketch_cuts: max_bin must be at least 2, got " + std::to_string(max_bin));
  return gpu_sketch::batch_budget(max_bin, rows);
}

}  // namespace

UpstreamGpuSelection::UpstreamGpuSelection(std::size_t n_features, int max_bin, std::size_t rows_in_batch)
    : RadixSelection(n_features, checked_budget(max_bin, rows_in_batch)),
      max_bin_(max_bin),
      rows_(rows_in_batch),
      budget_(gpu_sketch::batch_budget(max_bin, rows_in_batch)) {}

std::vector<std::size_t> UpstreamGpuSelection::chosen(Feature& feature, std::vector<Bucket> const& children) const {
  if (feature.total <= budget_) {
    std::vector<std::size_t> all(children.size());
    std::iota(all.begin(), all.end(), std::size_t(0));
    return all;
  }
  if (feature.targets.empty()) feature.targets = gpu_sketch::prune_positions(feature.total, budget_);
  return holding(feature.targets, children);
}

FeatureCuts UpstreamGpuSelection::finish(Feature const& feature, std::vector<Bucket> const& children,
                                         std::vector<std::size_t> const& keep) const {
  gpu_sketch::GpuFeatureSketch sketch(max_bin_);
  std::vector<std::uint64_t> positions = feature.targets;
  if (feature.total <= budget_) {
    positions.resize(feature.total);
    std::iota(positions.begin(), positions.end(), std::uint64_t(0));
  }
  std::vector<float> values;
  std::size_t j = 0;
  for (std::uint64_t p : positions) {  // ascending; each in one kept bucket (a whole key)
    while (children[keep[j]].base + children[keep[j]].weight <= p) ++j;
    values.push_back(sketch_value(children[keep[j]].prefix));
  }
  sketch.push_summary(gpu_sketch::position_summary(positions, values), rows_);
  FeatureCuts out;
  out.values = sketch.cut_values();
  out.min_val = -std::numeric_limits<float>::infinity();
  return out;
}

}  // namespace kboost::detail
