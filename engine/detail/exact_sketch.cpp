/// \file exact_sketch.cpp
/// Host half of the exact quantile sketch (engine/detail/exact_sketch.hpp).
#include <kboost/engine/detail/exact_sketch.hpp>
#include <kboost/engine/detail/sketch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace kboost {
namespace {

/// Largest total weight of one feature: k · total stays below 2^63 for every k < max_bin ≤ 65,534.
constexpr std::uint64_t kMaxTotal = std::uint64_t(1) << 46;

}  // namespace

int sketch_weight_shift(std::size_t rows, double max_weight) {
  double const bound = static_cast<double>(rows) * max_weight;
  if (!(bound > 0)) return 0;
  int e = 0;
  std::frexp(bound, &e);  // bound < 2^e
  return 46 - e;
}

RadixSelection::RadixSelection(std::size_t n_features, std::size_t max_slots)
    : max_slots_(max_slots), features_(n_features) {
  if (max_slots == 0) throw std::runtime_error("sketch_cuts: a radix selection needs at least one slot");
  for (auto& f : features_) f.slots.push_back(Bucket{0, 0, 0, 0, 0});
}

namespace {

/// Validates max_bin before RadixSelection sizes anything from it.
std::size_t quantile_slots(int max_bin) {
  if (max_bin < 2) throw std::runtime_error("sketch_cuts: max_bin must be at least 2, got " + std::to_string(max_bin));
  return static_cast<std::size_t>(max_bin) + 1;
}

}  // namespace

RadixQuantileSelection::RadixQuantileSelection(std::size_t n_features, int max_bin)
    : RadixSelection(n_features, quantile_slots(max_bin)), max_bin_(max_bin) {}

std::vector<std::size_t> RadixSelection::holding(std::vector<std::uint64_t> const& targets,
                                                 std::vector<Bucket> const& children) {
  std::vector<std::size_t> out;
  std::size_t j = 0;
  for (std::uint64_t t : targets) {
    while (j < children.size() && children[j].base + children[j].weight <= t) ++j;
    if (j == children.size()) break;
    if (out.empty() || out.back() != j) out.push_back(j);
  }
  return out;
}

std::size_t RadixSelection::max_cells() const {
  return std::max<std::size_t>(sketch_digits(0), max_slots() * sketch_digits(1));
}

std::vector<std::uint32_t> RadixSelection::slot_base() const {
  std::vector<std::uint32_t> base(features_.size() + 1, 0);
  for (std::size_t f = 0; f < features_.size(); ++f)
    base[f + 1] = base[f] + static_cast<std::uint32_t>(features_[f].slots.size());
  return base;
}

std::vector<std::size_t> RadixQuantileSelection::chosen(Feature& feature, std::vector<Bucket> const& children) const {
  std::vector<std::size_t> out;
  if (children.empty()) return out;
  if (feature.every_value && children.size() <= max_slots()) {
    for (std::size_t j = 0; j < children.size(); ++j) out.push_back(j);
    return out;
  }
  feature.every_value = false;
  // The bucket holding rank position k·W/n for k = 1 .. n−1 (n = max_bin), compared as
  // n·base ≤ k·W < n·(base + weight) in integers; plus the first and the last bucket.
  std::uint64_t const n = static_cast<std::uint64_t>(max_bin_), total = feature.total;
  out.push_back(0);
  std::size_t j = 0;
  for (std::uint64_t k = 1; k < n; ++k) {
    std::uint64_t const target = k * total;
    while (j + 1 < children.size() && n * (children[j].base + children[j].weight) <= target) ++j;
    if (out.back() != j) out.push_back(j);
  }
  if (out.back() != children.size() - 1) out.push_back(children.size() - 1);
  return out;
}

std::vector<std::int32_t> RadixSelection::refine(SparseCounts const& counts) {
  if (level_ >= kSketchLevels) throw std::logic_error("RadixSelection::refine after the last level");
  std::vector<std::uint32_t> const base = slot_base();
  Level const level{sketch_digits(level_), sketch_digit_bits(level_), level_ + 1 == kSketchLevels};
  if (counts.size != std::size_t(base.back()) * level.digits || counts.index.size() != counts.count.size())
    throw std::runtime_error("RadixSelection: " + std::to_string(counts.size) + " counts for " +
                             std::to_string(base.back()) + " buckets");
  std::vector<std::int32_t> table(level.last ? 0 : counts.size, -1);
  if (level.last) cuts_.assign(features_.size(), FeatureCuts{});
  // Features are independent (each writes its own slots, cuts and table range): one host task
  // each. A task cannot throw across its thread, so an over-large total is reported after them.
  std::vector<std::uint8_t> too_heavy(features_.size(), 0);
  detail::run_on_host_threads(features_.size(), [&](std::size_t f) {
    too_heavy[f] = refine_feature(f, level, counts, base, table) ? 0 : 1;
  });
  for (std::size_t f = 0; f < features_.size(); ++f)
    if (too_heavy[f] != 0)
      throw std::runtime_error("sketch_cuts: a feature's total weight " + std::to_string(features_[f].total) +
                               " exceeds 2^46 fixed-point units");
  ++level_;
  return table;
}

bool RadixSelection::refine_feature(std::size_t f, Level const& level, SparseCounts const& counts,
                                    std::vector<std::uint32_t> const& base, std::vector<std::int32_t>& table) {
  std::uint32_t const digits = level.digits;
  Feature& feature = features_[f];
  // the feature's non-zero counters in slot and digit order; each slot's children start at the
  // weight below the slot
  std::size_t const begin = std::size_t(base[f]) * digits, end = std::size_t(base[f + 1]) * digits;
  std::size_t k = static_cast<std::size_t>(std::lower_bound(counts.index.begin(), counts.index.end(), begin) -
                                           counts.index.begin());
  std::vector<Bucket> children;
  std::uint32_t slot = ~std::uint32_t(0);
  std::uint64_t below = 0;
  for (; k < counts.index.size() && counts.index[k] < end; ++k) {
    auto const s = static_cast<std::uint32_t>(counts.index[k] / digits - base[f]);
    auto const d = static_cast<std::uint32_t>(counts.index[k] % digits);
    if (s != slot) {
      slot = s;
      below = feature.slots[s].base;
    }
    children.push_back(Bucket{(feature.slots[s].prefix << level.bits) | d, below, counts.count[k], s, d});
    below += counts.count[k];
  }
  if (level_ == 0) {
    feature.total = children.empty() ? 0 : children.back().base + children.back().weight;
    if (feature.total >= kMaxTotal) return false;
  }
  std::vector<std::size_t> const keep = chosen(feature, children);
  if (level.last) {
    cuts_[f] = finish(f, feature, children, keep);
    return true;
  }
  std::vector<Bucket> next;
  for (std::size_t j : keep) {
    Bucket const& c = children[j];
    table[(std::size_t(base[f]) + c.slot) * digits + c.digit] = static_cast<std::int32_t>(next.size());
    next.push_back(c);
  }
  feature.slots = std::move(next);
  return true;
}

FeatureCuts RadixQuantileSelection::finish(std::size_t, Feature const&, std::vector<Bucket> const& children,
                                           std::vector<std::size_t> const& keep) const {
  if (keep.empty()) return empty_feature_cuts();
  std::vector<float> a;
  for (std::size_t j : keep) a.push_back(sketch_value(children[j].prefix));
  return cuts_from_summary(a, static_cast<std::size_t>(max_bin_));
}

std::vector<FeatureCuts> const& RadixSelection::cuts() const {
  if (level_ < kSketchLevels) throw std::logic_error("RadixSelection::cuts before the last level");
  return cuts_;
}

}  // namespace kboost
