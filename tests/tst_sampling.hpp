// Stage test of kernels/sampling.hpp: which rows upstream's GPU row sampler keeps, computed
// independently from thrust's documented engine (minstd_rand: x <- 48271 x mod 2^31 - 1, seeded with seed mod m or 1; discard(i) = i steps) and
// uniform_real_distribution<float> ((x - 1) as float over 2^31):
//   m = 2**31 - 1
//   def u(seed, i): x = pow(48271, i, m) * (seed % m or 1) % m; x = x * 48271 % m
//                   return np.float32(x - 1) / np.float32(2**31)
//   kept = [i for i in rows if u(seed, first + i) <= np.float32(subsample)]
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

TEST_CASE("sampling " TEST_BACKEND ": rows kept by upstream's GPU sampler, subsample 0.5, on every backend",
          "[sampling][stage]") {
  // u(42, i) for i = 0..11: .001 .571 .257 .448 .654 .967 .629 .716 .042 .228 .761 .536
  CHECK(kept_rows(0.5f, 42, 12) == std::vector<int>{0, 2, 3, 8, 9});
  CHECK(kept_rows(0.5f, 7, 12) == std::vector<int>{0, 2, 3, 5, 9});  // another seed, another draw
  // a shard holding global rows 5..11 keeps the same global rows 8, 9
  CHECK(kept_rows(0.5f, 42, 7, 5) == std::vector<int>{3, 4});
  CHECK(kept_rows(1.0f, 42, 12).size() == 12);
}
