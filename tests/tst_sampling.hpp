// Stage test of kernels/sampling.hpp: splitmix64 against its published outputs, and which rows and
// features are kept for seed 42, computed independently from the documented algorithm (row i kept
// iff uniform01(seed, stream, round, i) < subsample; a feature sample keeps the features with the
// smallest keys; uniform01 = top 53 bits of splitmix64 chained over seed, stream, key, index):
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

/// The rows of a groups × rows gradient matrix that subsample_rows left non-zero in every group.
std::vector<int> kept_rows(double subsample, int round, std::size_t rows, std::uint64_t first_row = 0) {
  std::vector<kboost::GradientPair> g;
  for (int k = 0; k < 2; ++k)
    for (std::size_t i = 0; i < rows; ++i) g.push_back({static_cast<float>(i) + 1.0f, 0.5f + static_cast<float>(k)});
  auto gpair = kboost::test::to_device(g, 2, rows);
  kboost::subsample_rows<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), subsample, 42, round, gpair, first_row);
  auto const h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gpair);
  std::vector<int> kept;
  for (std::size_t i = 0; i < rows; ++i) {
    bool const zero0 = h(0, i).grad == 0.0f && h(0, i).hess == 0.0f;
    bool const zero1 = h(1, i).grad == 0.0f && h(1, i).hess == 0.0f;
    REQUIRE(zero0 == zero1);  // a row is dropped in every group or in none
    if (!zero0) {
      CHECK(h(0, i).grad == static_cast<float>(i) + 1.0f);  // kept rows untouched
      CHECK(h(1, i).hess == 1.5f);
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

TEST_CASE("sampling " TEST_BACKEND ": rows kept by subsample 0.5, seed 42, on every backend",
          "[sampling][stage]") {
  // u01(42, 1, 0, i) for i = 0..11: .243 .443 .988 .955 .338 .621 .480 .624 .719 .086 .105 .111
  CHECK(kept_rows(0.5, 0, 12) == std::vector<int>{0, 1, 4, 6, 9, 10, 11});
  CHECK(kept_rows(0.5, 1, 12) == std::vector<int>{2, 4, 5, 10, 11});  // another round, another draw
  // a shard holding global rows 5..11 keeps the same global rows 6, 9, 10, 11
  CHECK(kept_rows(0.5, 0, 7, 5) == std::vector<int>{1, 4, 5, 6});
  CHECK(kept_rows(1.0, 0, 12).size() == 12);  // subsample 1: no draw
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
