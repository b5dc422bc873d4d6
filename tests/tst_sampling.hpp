// Stage test of kernels/sampling.hpp: splitmix64 against its published outputs; which rows
// upstream's GPU row sampler keeps, computed independently from thrust's documented engine
// (minstd_rand: x <- 48271 x mod 2^31 - 1, seeded with seed mod m or 1; discard(i) = i steps) and
// uniform_real_distribution<float> ((x - 1) as float over 2^31), and the round engine's first
// outputs (std::mt19937, which numpy's legacy RandomState(seed) reproduces):
//   m = 2**31 - 1
//   def u(seed, i): x = pow(48271, i, m) * (seed % m or 1) % m; x = x * 48271 % m
//                   return np.float32(x - 1) / np.float32(2**31)
//   kept = [i for i in rows if u(seed, first + i) <= np.float32(subsample)]
//   np.random.RandomState(42).randint(0, 2**32, size=3, dtype=np.uint64)
// and which features are kept for seed 42 (a feature sample keeps the features with the smallest
// keys; uniform01 = top 53 bits of splitmix64 chained over seed, stream, key, index):
//   M = 2**64 - 1
//   def sm(x):
//       x = (x + 0x9E3779B97F4A7C15) & M
//       x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
//       x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
//       return x ^ (x >> 31)
//   def u01(seed, a, b, c): return (sm(sm(sm(sm(seed) ^ a) ^ b) ^ c) >> 11) / 2**53
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <vector>

#include <kboost/kernels/sampling.hpp>
#include "tests/stage_util.hpp"
#include "tests/test_util.hpp"

namespace {

/// The rows upstream_subsample_rows keeps (fixed-point and float gradients both left as they were).
std::vector<int> kept_rows(float subsample, std::uint32_t seed, std::size_t rows, std::uint64_t first_row = 0) {
  std::vector<kboost::GradientPair> g;
  for (std::size_t i = 0; i < rows; ++i) g.push_back({static_cast<float>(i) + 1.0f, 0.5f});
  Kokkos::View<kboost::GradientPair*, TEST_MEMSPACE> gpair("gpair", rows);
  Kokkos::View<kboost::GradientPairInt64*, TEST_MEMSPACE> gq("gq", rows);
  auto hg = Kokkos::create_mirror_view(gpair);
  auto hq = Kokkos::create_mirror_view(gq);
  for (std::size_t i = 0; i < rows; ++i) hg(i) = g[i], hq(i) = kboost::GradientPairInt64{std::int64_t(i) + 1, 7};
  Kokkos::deep_copy(gpair, hg);
  Kokkos::deep_copy(gq, hq);
  kboost::upstream_subsample_rows(TEST_EXECSPACE(), subsample, seed, gq, gpair, first_row);
  Kokkos::deep_copy(hg, gpair);
  Kokkos::deep_copy(hq, gq);
  std::vector<int> kept;
  for (std::size_t i = 0; i < rows; ++i) {
    bool const zero = hg(i).grad == 0.0f && hg(i).hess == 0.0f;
    REQUIRE(zero == (hq(i) == kboost::GradientPairInt64{}));  // both forms dropped, or neither
    if (!zero) {
      CHECK(hg(i).grad == static_cast<float>(i) + 1.0f);  // kept rows untouched
      CHECK(hq(i).grad == std::int64_t(i) + 1);
      kept.push_back(static_cast<int>(i));
    }
  }
  return kept;
}

}  // namespace

TEST_CASE("sampling " TEST_BACKEND ": splitmix64 gives the published outputs", "[sampling][stage]") {
  CHECK(kboost::splitmix64(0) == 0xE220A8397B1DCDAFull);  // SplitMix64 seeded with 0, first output
  CHECK(kboost::splitmix64(1234567) == 6457827717110365317ull);
  CHECK(kboost::splitmix64(1234567 + 0x9E3779B97F4A7C15ull) == 3203168211198807973ull);  // its second output
}

TEST_CASE("sampling " TEST_BACKEND ": rows kept by upstream's GPU sampler, subsample 0.5, on every backend",
          "[sampling][stage]") {
  // u(42, i) for i = 0..11: .001 .571 .257 .448 .654 .967 .629 .716 .042 .228 .761 .536
  CHECK(kept_rows(0.5f, 42, 12) == std::vector<int>{0, 2, 3, 8, 9});
  CHECK(kept_rows(0.5f, 7, 12) == std::vector<int>{0, 2, 3, 5, 9});  // another seed, another draw
  // a shard holding global rows 5..11 keeps the same global rows 8, 9
  CHECK(kept_rows(0.5f, 42, 7, 5) == std::vector<int>{3, 4});
  CHECK(kept_rows(1.0f, 42, 12).size() == 12);
}

TEST_CASE("sampling " TEST_BACKEND ": tree seeds are upstream's mt19937 outputs", "[sampling][stage]") {
  CHECK(kboost::upstream_row_seed(0, 0) == 2357136044u);  // std::mt19937(0)'s first output
  CHECK(kboost::upstream_row_seed(5489, 0) == 3499211612u);
  CHECK(kboost::upstream_row_seed(5489, 1) == 581869302u);
  CHECK(kboost::upstream_row_seed(5489, 2) == 3890346734u);
  CHECK(kboost::upstream_row_seed(std::uint64_t(1) << 32 | 5489u, 1) == 581869302u);  // seed mod 2^32
}

TEST_CASE("sampling " TEST_BACKEND ": features kept by colsample, nested and at least one",
          "[sampling][stage]") {
  std::vector<int> const all = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  // keys u01(42, 2, 0, f): 6 .065, 5 .073, 7 .092, 0 .410, 3 .651, 4 .662, 8 .674, 9 .856, 2 .862, 1 .956
  auto const tree = kboost::sample_features(all, 0.5, 42, kboost::kTreeColStream, 0);
  CHECK(tree == std::vector<int>{0, 3, 5, 6, 7});
  CHECK(kboost::sample_features(all, 0.05, 42, kboost::kTreeColStream, 0) == std::vector<int>{6});
  CHECK(kboost::sample_features(all, 1.0, 42, kboost::kTreeColStream, 0) == all);
  // by level, from the tree's sample: floor(0.5 × 5) = 2 of keys u01(42, 3, 1, f):
  // 3 .296, 7 .542, 6 .567, 0 .585, 5 .982
  CHECK(kboost::sample_features(tree, 0.5, 42, kboost::kLevelColStream, 1) == std::vector<int>{3, 7});
}
