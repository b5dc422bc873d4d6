#pragma once
/// \file sampling.hpp
/// Row subsampling as upstream 3.4.1's GPU hist (src/tree/gpu_hist/sampler.cu UniformSampling):
/// each tree draws a seed from upstream's std::mt19937 (seeded once with `seed`), and row r is kept
/// when thrust's uniform float of minstd_rand(seed) advanced r steps is at most `subsample`; integer
/// arithmetic and one exact float division, so every backend and rank count draws upstream's rows.
/// Column sampling: column_sampler.hpp.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <random>

#include <kboost/core/compat.hpp>
#include <kboost/kernels/gradients.hpp>
#include <kboost/kernels/quantiser.hpp>

namespace kboost {

/// Upstream's random engine (xgboost Context::Rng(): std::mt19937, whose outputs the C++
/// standard fixes), seeded once with `seed` (LearnerConfiguration::Configure; no reseeding per
/// round unless seed_per_iteration), counting its outputs so that a resumed fit continues the
/// stream where a checkpoint left it. Per tree, upstream's GPU hist draws the row seed
/// (UniformSampling::Sample, subsample < 1), then the column samples (column_sampler.hpp).
class UpstreamEngine {
 public:
  /// The engine after `draws` outputs of std::mt19937(seed mod 2^32).
  explicit UpstreamEngine(std::uint64_t seed, std::uint64_t draws = 0)
      : engine_(static_cast<std::uint32_t>(seed)), draws_(draws) {
    engine_.discard(draws);
  }
  std::uint32_t operator()() {
    ++draws_;
    return static_cast<std::uint32_t>(engine_());
  }
  /// Outputs drawn since seeding.
  std::uint64_t draws() const { return draws_; }

 private:
  std::mt19937 engine_;
  std::uint64_t draws_;
};

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

}  // namespace kboost
