#pragma once
/// \file dart.hpp
/// DART's tree drops and weights as upstream XGBoost 3.2 (src/gbm/gbtree.cc Dart::DropTrees and
/// Dart::NormalizeTrees), drawn from upstream's global generator (src/common/random.h: a
/// std::mt19937 seeded with `seed`) through libstdc++'s distributions, replicated here so the
/// same trees are dropped on any machine and standard library.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <kboost/engine/params.hpp>

namespace kboost::detail {

/// Upstream's common::GlobalRandom() (std::mt19937: its outputs are fixed by the C++ standard)
/// with libstdc++'s uniform_real_distribution<double>(0, 1), uniform_int_distribution<size_t>
/// and discrete_distribution<size_t> over it.
class UpstreamRandom {
 public:
  explicit UpstreamRandom(std::uint64_t seed) : engine_(static_cast<std::mt19937::result_type>(seed)) {}

  /// One raw 32-bit output (upstream's MakeColumnSampler takes one per fit).
  std::uint32_t next() { return static_cast<std::uint32_t>(engine_()); }

  /// generate_canonical<double, 53>: two outputs, low word first, over 2^64.
  double uniform01() {
    double const low = static_cast<double>(next());
    double sum = low + static_cast<double>(next()) * 4294967296.0;
    double const ret = sum / 18446744073709551616.0;
    return ret >= 1.0 ? std::nextafter(1.0, 0.0) : ret;
  }

  /// uniform_int_distribution<size_t>(0, n − 1) for a 32-bit generator: Lemire's nearly
  /// divisionless reduction in 64-bit products (libstdc++'s _S_nd). n ≥ 1, n ≤ 2^32.
  std::size_t uniform_index(std::size_t n) {
    std::uint32_t const range = static_cast<std::uint32_t>(n);
    std::uint64_t product = static_cast<std::uint64_t>(next()) * range;
    std::uint32_t low = static_cast<std::uint32_t>(product);
    if (low < range) {
      std::uint32_t const threshold = static_cast<std::uint32_t>(-range) % range;
      while (low < threshold) {
        product = static_cast<std::uint64_t>(next()) * range;
        low = static_cast<std::uint32_t>(product);
      }
    }
    return static_cast<std::size_t>(product >> 32);
  }

  /// discrete_distribution<size_t> over `weights`: probabilities w / Σw (double), their partial
  /// sums with the last set to 1, the first sum not below one uniform01() draw.
  std::size_t discrete(std::vector<float> const& weights) {
    if (weights.size() < 2) return 0;
    double sum = 0;
    for (float w : weights) sum += static_cast<double>(w);
    std::vector<double> cumulative;
    double acc = 0;
    for (float w : weights) {
      acc += static_cast<double>(w) / sum;
      cumulative.push_back(acc);
    }
    cumulative.back() = 1.0;
    double const p = uniform01();
    return static_cast<std::size_t>(std::lower_bound(cumulative.begin(), cumulative.end(), p) - cumulative.begin());
  }

 private:
  std::mt19937 engine_;
};

/// The trees a DART round leaves out of the training margins (sorted), as Dart::DropTrees:
/// with probability skip_drop none; else each tree with probability rate_drop ("uniform") or
/// rate_drop · trees · weight / Σweight ("weighted"), and one tree when one_drop and none fell.
inline std::vector<std::size_t> dart_drop_trees(DartParams const& p, std::vector<float> const& weight_drop,
                                                UpstreamRandom& rng) {
  std::vector<std::size_t> drop;
  if (p.skip_drop > 0.0 && rng.uniform01() < p.skip_drop) return drop;
  if (p.sample_type == "weighted") {
    float sum_weight = 0.0f;
    for (float w : weight_drop) sum_weight += w;
    float const trees = static_cast<float>(weight_drop.size());
    for (std::size_t i = 0; i < weight_drop.size(); ++i)
      if (rng.uniform01() < p.rate_drop * trees * weight_drop[i] / sum_weight) drop.push_back(i);
    if (p.one_drop && drop.empty() && !weight_drop.empty()) drop.push_back(rng.discrete(weight_drop));
  } else {
    for (std::size_t i = 0; i < weight_drop.size(); ++i)
      if (rng.uniform01() < p.rate_drop) drop.push_back(i);
    if (p.one_drop && drop.empty() && !weight_drop.empty()) drop.push_back(rng.uniform_index(weight_drop.size()));
  }
  return drop;
}

/// Dart::NormalizeTrees after a round of `new_trees` trees grown with learning rate `eta`: the
/// dropped trees are scaled down and the new ones weighted so the round adds one step
/// ("tree": k / (k + lr) and 1 / (k + lr); "forest": 1 / (1 + lr) for both), lr = eta /
/// new_trees, in upstream's float/double mix.
inline void dart_normalize(DartParams const& p, float eta, std::size_t new_trees, std::vector<std::size_t> const& drop,
                           std::vector<float>& weight_drop) {
  float const lr = static_cast<float>(1.0 * eta / static_cast<double>(new_trees));
  std::size_t const num_drop = drop.size();
  if (num_drop == 0) {
    weight_drop.insert(weight_drop.end(), new_trees, 1.0f);
  } else if (p.normalize_type == "forest") {
    float const factor = static_cast<float>(1.0 / (1.0 + lr));
    for (auto i : drop) weight_drop[i] *= factor;
    weight_drop.insert(weight_drop.end(), new_trees, factor);
  } else {
    float const k_plus_lr = static_cast<float>(num_drop) + lr;  // size_t + float is a float sum upstream too
    float const factor = static_cast<float>(1.0 * static_cast<double>(num_drop) / k_plus_lr);
    for (auto i : drop) weight_drop[i] *= factor;
    weight_drop.insert(weight_drop.end(), new_trees, static_cast<float>(1.0 / k_plus_lr));
  }
}

}  // namespace kboost::detail
