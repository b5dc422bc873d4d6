/// \file gpu_sketch.cpp
/// One feature's cuts by upstream 3.4.1's GPU sketch (engine/detail/gpu_sketch.hpp): each batch's
/// values sorted as upstream's stable device sort (ascending, ties in row order; a radix sort),
/// weights summed in that order, then pushed into the feature's summary (SketchContainer::Push).
#include <kboost/engine/detail/gpu_sketch.hpp>

#include <algorithm>
#include <cmath>
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

/// order_key's inverse where no value is -0 (order_key maps -0 and +0 alike).
float from_order_key(std::uint32_t key) {
  std::uint32_t const b = (key & 0x80000000u) ? (key & 0x7FFFFFFFu) : ~key;
  float v = 0.0f;
  std::memcpy(&v, &b, 4);
  return v;
}

/// v[0, n) sorted ascending in place, ties (and -0/+0) in their given order: upstream's stable
/// device sort. An LSD radix sort, three stable passes of 11 bits over the order key, each skipped
/// when every key has the same digit. Without a -0 a key gives back its value, so the keys alone
/// are sorted; with one, (key, value bits) pairs packed in 64 bits keep -0 and +0 in row order.
void sort_values(float* v, std::size_t n) {
  bool const negative_zero = std::any_of(v, v + n, [](float x) { return x == 0.0f && std::signbit(x); });
  if (!negative_zero) {
    std::vector<std::uint32_t> key(n), key_out(n);
    for (std::size_t k = 0; k < n; ++k) key[k] = order_key(v[k]);
    DigitCounts c = count_digits(n, [&](std::size_t k) { return key[k]; });
    for (int d = 0; d < 3; ++d) {
      if (!c.needed[d]) continue;
      int const shift = 11 * d;
      for (std::uint32_t x : key) key_out[c.start[d][(x >> shift) & 2047u]++] = x;
      key.swap(key_out);
    }
    for (std::size_t k = 0; k < n; ++k) v[k] = from_order_key(key[k]);
    return;
  }
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
  for (std::size_t k = 0; k < n; ++k) {
    auto const bits = static_cast<std::uint32_t>(item[k]);
    std::memcpy(&v[k], &bits, 4);
  }
}

/// sort_values with weights: v and w (n each) sorted in place by v, w carried along.
void sort_weighted(float* v, float* w, std::size_t n) {
  std::vector<std::uint32_t> key(n), key_out(n);
  for (std::size_t k = 0; k < n; ++k) key[k] = order_key(v[k]);
  DigitCounts c = count_digits(n, [&](std::size_t k) { return key[k]; });
  std::vector<float> vs(v, v + n), ws(w, w + n), v_out(n), w_out(n);
  for (int d = 0; d < 3; ++d) {
    if (!c.needed[d]) continue;
    int const shift = 11 * d;
    for (std::size_t k = 0; k < n; ++k) {
      std::size_t const to = c.start[d][(key[k] >> shift) & 2047u]++;
      key_out[to] = key[k];
      v_out[to] = vs[k];
      w_out[to] = ws[k];
    }
    key.swap(key_out);
    vs.swap(v_out);
    ws.swap(w_out);
  }
  std::copy(vs.begin(), vs.end(), v);
  std::copy(ws.begin(), ws.end(), w);
}

}  // namespace

void sort_sketch_batch(float* v, float* w, std::size_t n) {
  if (w == nullptr) {
    sort_values(v, n);
  } else {
    sort_weighted(v, w, n);
  }
}

FeatureCuts gpu_feature_cuts(float const* v, float const* w, std::uint64_t const* split, SketchBatches const& batches,
                             int max_bin, bool sorted) {
  gpu_sketch::GpuFeatureSketch sketch(max_bin);
  std::vector<float> values, weights, scan;
  for (std::size_t b = 0; b < batches.batches; ++b) {
    std::size_t const lo = split[b], hi = split[b + 1], n = hi - lo;
    float const* batch_values = v + lo;
    float const* batch_weights = w != nullptr ? w + lo : nullptr;
    if (!sorted) {
      values.assign(v + lo, v + hi);
      if (w != nullptr) weights.assign(w + lo, w + hi);
      sort_sketch_batch(values.data(), w != nullptr ? weights.data() : nullptr, n);
      batch_values = values.data();
      batch_weights = weights.data();
    }
    if (w != nullptr) {
      scan.resize(n);
      float running = 0.0f;
      for (std::size_t k = 0; k < n; ++k) scan[k] = running = running + batch_weights[k];
    }
    sketch.push(batch_values, w != nullptr ? scan.data() : nullptr, n, batches.rows[b]);
  }
  FeatureCuts out;
  out.values = sketch.cut_values();
  out.min_val = -std::numeric_limits<float>::infinity();
  return out;
}

void sort_column_batches(GatheredColumns& cols, SketchBatches const& batches, std::size_t features,
                         std::vector<std::uint8_t> const& categorical) {
  std::size_t const B = batches.batches;
  run_on_host_threads(features * B, [&](std::size_t task) {
    std::size_t const f = task / B, b = task % B;
    if (f < categorical.size() && categorical[f] != 0) return;
    std::uint64_t const* split = batches.split.data() + f * (B + 1);
    std::size_t const lo = cols.begin[f] + split[b], n = split[b + 1] - split[b];
    sort_sketch_batch(cols.values.get() + lo, cols.weights ? cols.weights.get() + lo : nullptr, n);
  });
}

namespace {

/// Validates max_bin before the batch budget is computed from it.
std::uint64_t checked_budget(int max_bin, std::size_t rows) {
  if (max_bin < 2) throw std::runtime_error("sketch_cuts: max_bin must be at least 2, got " + std::to_string(max_bin));
  return gpu_sketch::batch_budget(max_bin, rows);
}

}  // namespace

UpstreamGpuSelection::UpstreamGpuSelection(std::size_t n_features, int max_bin, std::size_t rows_in_batch,
                                           gpu_sketch::GpuFeatureSketch* running)
    : RadixSelection(n_features, checked_budget(max_bin, rows_in_batch)),
      max_bin_(max_bin),
      rows_(rows_in_batch),
      budget_(gpu_sketch::batch_budget(max_bin, rows_in_batch)),
      running_(running) {}

std::vector<std::size_t> UpstreamGpuSelection::chosen(Feature& feature, std::vector<Bucket> const& children) const {
  if (feature.total <= budget_) {
    std::vector<std::size_t> all(children.size());
    std::iota(all.begin(), all.end(), std::size_t(0));
    return all;
  }
  if (feature.targets.empty()) feature.targets = gpu_sketch::prune_positions(feature.total, budget_);
  return holding(feature.targets, children);
}

FeatureCuts UpstreamGpuSelection::finish(std::size_t f, Feature const& feature, std::vector<Bucket> const& children,
                                         std::vector<std::size_t> const& keep) const {
  gpu_sketch::GpuFeatureSketch single(max_bin_);
  gpu_sketch::GpuFeatureSketch& sketch = running_ != nullptr ? running_[f] : single;
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
