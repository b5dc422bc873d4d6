#pragma once
/// \file sampling.hpp
/// Row subsampling as upstream 3.4.1's GPU hist (src/tree/gpu_hist/sampler.cu UniformSampling):
/// each tree draws a seed from upstream's std::mt19937 (seeded once with `seed`), and row r is kept
/// when thrust's uniform float of minstd_rand(seed) advanced r steps is at most `subsample`; integer
/// arithmetic and one exact float division, so every backend and rank count draws upstream's rows. Column sampling with a counter-based hash (splitmix64 of
/// seed, round, node, feature): upstream's GPU column sampler (thrust::shuffle's Feistel bijection
/// over minstd_rand, drawn in its node order) is not reproduced, so kboost's feature samples are its
/// own (same fractions; colsample_bytree, then _bylevel, then _bynode nested subsets of at least one
/// feature each).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/kernels/gradients.hpp>
#include <kboost/kernels/quantiser.hpp>

namespace kboost {

/// splitmix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mix.
KOKKOS_INLINE_FUNCTION std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// A uniform double in [0, 1) keyed by (seed, a, b, c): 53 random bits, exact on every backend.
KOKKOS_INLINE_FUNCTION double uniform01(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  std::uint64_t h = splitmix64(seed);
  h = splitmix64(h ^ a);
  h = splitmix64(h ^ b);
  h = splitmix64(h ^ c);
  return static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0);
}

/// Stream tags so that the column draws of a tree, a level and a node never share a key (their
/// values key the draws: changing one changes every feature sample).
enum SampleStream : std::uint64_t { kTreeColStream = 2, kLevelColStream = 3, kNodeColStream = 4 };

/// Upstream's random engine (xgboost Context::Rng(), std::mt19937, whose outputs the C++ standard
/// fixes), seeded once with `seed` (LearnerConfiguration::Configure; no reseeding per round unless
/// seed_per_iteration), positioned before tree `first_tree`'s draw: each tree that samples rows draws
/// one output, its row seed (UniformSampling::Sample). A round takes one engine and draws its
/// trees' seeds in order, so a fit advances the engine once per tree.
inline std::mt19937 upstream_row_engine(std::uint64_t seed, std::uint64_t first_tree) {
  std::mt19937 engine(static_cast<std::uint32_t>(seed));
  engine.discard(first_tree);
  return engine;
}

/// Tree `tree`'s row seed: upstream_row_engine(seed, tree)'s next output.
inline std::uint32_t upstream_row_seed(std::uint64_t seed, std::uint64_t tree) {
  return static_cast<std::uint32_t>(upstream_row_engine(seed, tree)());
}

/// thrust's minstd_rand (a = 48271, m = 2^31 - 1) seeded with `seed`, advanced `steps` draws
/// (linear_congruential_engine_discard: a^steps mod m), then one draw through
/// thrust::uniform_real_distribution<float>: (x - 1) as float over 2^31 (the float of 1 + max - min).
KOKKOS_INLINE_FUNCTION float upstream_row_uniform(std::uint32_t seed, std::uint64_t steps) {
  constexpr std::uint64_t kModulus = 2147483647u, kMultiplier = 48271u;
  std::uint64_t state = seed % kModulus;
  if (state == 0) state = 1;
  std::uint64_t power = 1, base = kMultiplier;
  for (std::uint64_t z = steps; z > 0; z >>= 1) {
    if (z & 1u) power = power * base % kModulus;
    base = base * base % kModulus;
  }
  state = power * state % kModulus;
  state = state * kMultiplier % kModulus;
  return static_cast<float>(static_cast<std::uint32_t>(state - 1)) / 2147483648.0f;
}

/// Zero the fixed-point (gq) and float (gpair, one output group) gradients of the rows upstream's
/// GPU UniformSampling leaves out of a tree with row seed `row_seed`: row i is kept iff
/// upstream_row_uniform(row_seed, first_row + i) <= subsample (as float). first_row: the global
/// index of row 0 (a shard's offset in a job of several ranks). Call after the quantiser is made
/// from every row's gradients, as upstream samples the quantised gradients.
template <class ExecutionSpace, class Mem>
void upstream_subsample_rows(ExecutionSpace const& space, float subsample, std::uint32_t row_seed,
                             Kokkos::View<GradientPairInt64*, Mem> gq, Kokkos::View<GradientPair*, Mem> gpair,
                             std::uint64_t first_row = 0) {
  compat::ScopedRegion region("kboost::sampling::subsample");
  Kokkos::parallel_for(
      "kboost::sampling::upstream_subsample_rows", Kokkos::RangePolicy<ExecutionSpace>(space, 0, gq.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) {
        if (upstream_row_uniform(row_seed, first_row + static_cast<std::uint64_t>(i)) <= subsample) return;
        gq(i) = GradientPairInt64{};
        gpair(i) = GradientPair{0.0f, 0.0f};
      });
}

/// Keep max(1, floor(fraction × |candidates|)) of `candidates` (sorted feature ids): those with the
/// smallest hash keys uniform01(seed, stream, key, f); result sorted by feature id. Host-side
/// (at most one draw per feature). fraction ≥ 1 returns candidates unchanged.
inline std::vector<int> sample_features(std::vector<int> const& candidates, double fraction, std::uint64_t seed,
                                        SampleStream stream, std::uint64_t key) {
  if (fraction >= 1.0 || candidates.empty()) return candidates;
  std::size_t n = static_cast<std::size_t>(fraction * static_cast<double>(candidates.size()));
  n = std::max<std::size_t>(1, std::min(n, candidates.size()));
  std::vector<std::pair<double, int>> keyed;
  keyed.reserve(candidates.size());
  for (int f : candidates) keyed.emplace_back(uniform01(seed, stream, key, static_cast<std::uint64_t>(f)), f);
  std::sort(keyed.begin(), keyed.end());
  std::vector<int> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(keyed[i].second);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kboost
