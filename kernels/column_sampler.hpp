#pragma once
/// \file column_sampler.hpp
/// colsample_bytree / _bylevel / _bynode as upstream 3.4.1's GPU hist draws them
/// (src/common/random.h ColumnSampler, src/common/random.cu cuda_impl::SampleFeature): every draw
/// takes one output of upstream's engine (Context::Rng(), UpstreamEngine), seeds thrust's
/// default_random_engine with it, thrust::shuffle's the candidate features, keeps the first
/// max(1, int(fraction × candidates)) and sorts them. thrust::shuffle is thrust's generic
/// algorithm (thrust/system/detail/generic/shuffle.inl, the one its CUDA system runs): a 24-round
/// Feistel bijection over the next power of two, keyed by 24 engine outputs, its indices below the
/// size compacted in order. Host code: a draw is a few dozen integer operations per feature.
#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <vector>

#include <kboost/kernels/sampling.hpp>

namespace kboost {

/// thrust's minstd_rand (linear_congruential_engine<uint32_t, 48271, 0, 2^31 - 1>): seeded with
/// s mod m (1 when that is 0); each call returns the next state.
class ThrustMinstd {
 public:
  explicit ThrustMinstd(std::uint32_t seed) : state_(seed % kModulus) {
    if (state_ == 0) state_ = 1;
  }
  std::uint32_t operator()() {
    state_ = static_cast<std::uint32_t>(static_cast<std::uint64_t>(state_) * 48271u % kModulus);
    return state_;
  }

 private:
  static constexpr std::uint64_t kModulus = 2147483647u;
  std::uint32_t state_;
};

/// thrust's feistel_bijection over [0, 2^bits), bits = max(4, ceil(log2 m)), its 24 round keys
/// the next 24 outputs of `keys`.
class ThrustFeistel {
 public:
  ThrustFeistel(std::uint64_t m, ThrustMinstd& keys) {
    std::uint64_t bits = 4;
    if (m > 16) {
      bits = 0;
      for (std::uint64_t v = m - 1; v != 0; v >>= 1) ++bits;
    }
    left_bits_ = bits / 2;
    right_bits_ = bits - left_bits_;
    left_mask_ = (1ull << left_bits_) - 1;
    right_mask_ = (1ull << right_bits_) - 1;
    for (auto& k : key_) k = keys();
  }

  std::uint64_t domain() const { return 1ull << (left_bits_ + right_bits_); }

  std::uint64_t operator()(std::uint64_t v) const {
    std::uint32_t left = static_cast<std::uint32_t>(v >> right_bits_);
    std::uint32_t right = static_cast<std::uint32_t>(v & right_mask_);
    for (std::uint32_t const k : key_) {
      std::uint64_t const product = 0xD2B74407B1CE6E93ull * left;
      auto const hi = static_cast<std::uint32_t>(product >> 32);
      auto lo = static_cast<std::uint32_t>(product);
      lo = (lo << (right_bits_ - left_bits_)) | right >> left_bits_;
      left = static_cast<std::uint32_t>(((hi ^ k) ^ right) & left_mask_);
      right = static_cast<std::uint32_t>(lo & right_mask_);
    }
    return (static_cast<std::uint64_t>(left) << right_bits_) | right;
  }

 private:
  std::uint64_t left_bits_, right_bits_, left_mask_, right_mask_;
  std::uint32_t key_[24];
};

/// thrust::shuffle(values, default_random_engine(seed)): out[k] = values[b(i_k)] for the indices
/// i_0 < i_1 < … of [0, 2^bits) whose image b(i) falls below values.size().
template <class T>
std::vector<T> thrust_shuffle(std::vector<T> const& values, std::uint32_t seed) {
  ThrustMinstd engine(seed);
  ThrustFeistel const bijection(values.size(), engine);
  std::vector<T> out;
  out.reserve(values.size());
  for (std::uint64_t i = 0; i < bijection.domain(); ++i) {
    std::uint64_t const from = bijection(i);
    if (from < values.size()) out.push_back(values[from]);
  }
  return out;
}

/// One tree's feature samples, drawn in upstream's GPU order: start_tree() at the tree's start
/// (ColumnSampler::Init, after the row draw), then node_features(depth) once per node evaluated,
/// the root first and then each expanded node's left and right child in expansion order
/// (GPUHistMakerDevice::EvaluateSplits). Features are ids 0..n-1; samples are sorted.
class ColumnSampler {
 public:
  /// Fractions in (0, 1] (upstream's float parameters); `engine` must outlive the sampler.
  ColumnSampler(UpstreamEngine& engine, float bynode, float bylevel, float bytree)
      : engine_(&engine), bynode_(bynode), bylevel_(bylevel), bytree_(bytree) {}

  /// A new tree over features 0..n_features-1: one draw when colsample_bytree < 1.
  void start_tree(int n_features) {
    std::vector<int> all(static_cast<std::size_t>(n_features));
    std::iota(all.begin(), all.end(), 0);
    level_.clear();
    tree_ = sample(all, bytree_);
  }

  /// Whether node_features draws from the engine (colsample_bylevel or _bynode below 1): then the
  /// nodes must be evaluated in upstream's order, one expansion at a time.
  bool draws_per_node() const { return bylevel_ != 1.0f || bynode_ != 1.0f; }

  /// The features a node at `depth` may split on (ColumnSampler::GetFeatureSet): the level's
  /// sample (drawn the first time its depth is asked for), sampled again per node.
  std::vector<int> node_features(int depth) {
    if (bylevel_ == 1.0f && bynode_ == 1.0f) return tree_;
    auto level = level_.find(depth);
    if (level == level_.end()) level = level_.emplace(depth, sample(tree_, bylevel_)).first;
    return sample(level->second, bynode_);
  }

 private:
  /// ColumnSampler::ColSample: no draw at fraction 1.
  std::vector<int> sample(std::vector<int> const& features, float fraction) {
    if (fraction == 1.0f) return features;
    int const n = std::max(1, static_cast<int>(fraction * static_cast<float>(features.size())));
    std::vector<int> kept = thrust_shuffle(features, (*engine_)());
    kept.resize(static_cast<std::size_t>(n));
    std::sort(kept.begin(), kept.end());
    return kept;
  }

  UpstreamEngine* engine_;
  float bynode_, bylevel_, bytree_;
  std::vector<int> tree_;
  std::map<int, std::vector<int>> level_;
};

}  // namespace kboost
