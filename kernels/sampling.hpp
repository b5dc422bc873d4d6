#pragma once
/// \file sampling.hpp
/// Row subsampling and column sampling with a counter-based hash (splitmix64 of seed, round, node,
/// row/feature), so every backend and thread count draws the same sample. Upstream draws from
/// std::mt19937 (src/common/random.h ColumnSampler) and thrust (gpu_hist/sampler.cu UniformSampling);
/// those streams cannot be reproduced portably, so kboost's samples are its own (same fractions and
/// the same semantics: unsampled rows get zero gradient; colsample_bytree, then _bylevel, then _bynode
/// are nested subsets of at least one feature each).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/kernels/gradients.hpp>

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

/// Stream tags so that row and column draws never share a key.
enum SampleStream : std::uint64_t { kRowStream = 1, kTreeColStream = 2, kLevelColStream = 3, kNodeColStream = 4 };

/// Zero the gradients (all groups) of rows not drawn for this round: row i is kept iff
/// uniform01(seed, kRowStream, round, first_row + i) < subsample. gpair: groups × rows;
/// first_row: the global index of row 0 (a shard's offset in a job of several ranks), so a row
/// draws the same on any number of ranks. No-op when subsample ≥ 1.
template <class ExecutionSpace, class Mem>
void subsample_rows(ExecutionSpace const& space, double subsample, std::uint64_t seed, int round,
                    Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair, std::uint64_t first_row = 0) {
  if (subsample >= 1.0) return;
  compat::ScopedRegion region("kboost::sampling::subsample");
  int const ng = static_cast<int>(gpair.extent(0));
  Kokkos::parallel_for(
      "kboost::sampling::subsample_rows", Kokkos::RangePolicy<ExecutionSpace>(space, 0, gpair.extent(1)),
      KOKKOS_LAMBDA(std::int64_t i) {
        if (uniform01(seed, kRowStream, static_cast<std::uint64_t>(round), first_row + static_cast<std::uint64_t>(i)) <
            subsample)
          return;
        for (int g = 0; g < ng; ++g) gpair(g, i) = GradientPair{0.0f, 0.0f};
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
