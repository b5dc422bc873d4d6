// Host-device copy counting (core/transfers.hpp) and its phase-log line, and the exact integer sums
// without Kokkos reductions (kernels/integer_sum.hpp): copies are counted exactly when they cross
// between host and device memory (never on host backends), a fit reports its levels and copies per
// level, and IntegerSums returns the exact int64 sums for empty, small and multi-lane inputs.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

#include <kboost/core/transfers.hpp>
#include <kboost/kernels/integer_sum.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/params.hpp>
#include "tests/test_util.hpp"

namespace {
constexpr bool kTestOnDevice = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, TEST_MEMSPACE>::accessible;
}

TEST_CASE("transfers " TEST_BACKEND ": copies are counted only across host and device", "[transfers]") {
  Kokkos::View<int*, Kokkos::HostSpace> h("h", 8);
  Kokkos::View<int*, TEST_MEMSPACE> d("d", 8);
  for (int i = 0; i < 8; ++i) h(i) = i * i;
  auto const c0 = kboost::transfer_count();
  kboost::counted_deep_copy(d, h);                 // up
  auto const back = kboost::counted_to_host(d);    // down
  auto const again = kboost::counted_copy_to<TEST_MEMSPACE>(h);  // up
  Kokkos::View<int*, Kokkos::HostSpace> h2("h2", 8);
  kboost::counted_deep_copy(h2, h);                // host to host: never counted
  auto const c1 = kboost::transfer_count();
  for (int i = 0; i < 8; ++i) CHECK(back(i) == i * i);
  CHECK(c1.uploads - c0.uploads == (kTestOnDevice ? 2 : 0));
  CHECK(c1.downloads - c0.downloads == (kTestOnDevice ? 1 : 0));
  (void)again;
}

TEST_CASE("transfers " TEST_BACKEND ": staged_upload copies every row through the staging buffers, one upload", "[transfers]") {
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> h("h", 1001, 7);
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t j = 0; j < h.extent(1); ++j) h(i, j) = static_cast<float>(i * 7 + j) + 0.5f;
  Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE> d("d", 1001, 7);
  auto const c0 = kboost::transfer_count();
  // 1 KiB chunks: 36 rows each, 28 chunks, the last one partial
  kboost::staged_upload(TEST_EXECSPACE(), d, Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace>(h), 1024);
  auto const c1 = kboost::transfer_count();
  CHECK(c1.uploads - c0.uploads == (kTestOnDevice ? 1 : 0));
  auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t j = 0; j < h.extent(1); ++j) wrong += back(i, j) != h(i, j);
  CHECK(wrong == 0);
  Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE> small("small", 3, 7);
  CHECK_THROWS_WITH(kboost::staged_upload(TEST_EXECSPACE(), small, Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace>(h)),
                    Catch::Matchers::ContainsSubstring("extents differ"));
}

TEST_CASE("transfers " TEST_BACKEND ": a fit reports levels and host-device copies per level", "[transfers]") {
  kboost::ReadOptions lib;
  lib.format = "libsvm";
  auto const d = kboost::read_dataset(kboost::test::shared_path("data/agaricus/agaricus.txt.train"), lib);
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params({{"objective", "binary:logistic"}, {"num_round", "3"}, {"max_depth", "3"}}), d);
  auto const& t = b.phases();
  CHECK(t.trees == 3);
  // depthwise, depth 3: the root level plus one expansion step per depth that had a valid split
  CHECK(t.levels >= 3 * 2);
  CHECK(t.levels <= 3 * 4);
  if (kTestOnDevice) {
    CHECK(t.grow_copies.uploads > 0);
    CHECK(t.grow_copies.downloads > 0);
    CHECK(t.grow_copies.downloads <= 3 * t.levels);  // candidates + partition counts (+ root sums)
    CHECK(t.fit_copies.uploads > t.grow_copies.uploads);
    CHECK(t.fit_copies.downloads >= t.grow_copies.downloads);
  } else {
    CHECK(t.grow_copies.uploads == 0);
    CHECK(t.grow_copies.downloads == 0);
    CHECK(t.fit_copies.uploads == 0);
    CHECK(t.fit_copies.downloads == 0);
  }
  std::string const log = t.summary();
  CHECK(log.find("host-device copies: tree growth") != std::string::npos);
  CHECK(log.find("levels of 3 trees") != std::string::npos);
}

TEST_CASE("integer sums " TEST_BACKEND ": exact int64 sums over lanes, any size", "[transfers]") {
  kboost::IntegerSums<2, TEST_EXECSPACE, TEST_MEMSPACE> sums;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(3 * 16384 + 5)}) {
    Kokkos::View<std::int64_t*, Kokkos::HostSpace> h("h", n);
    std::int64_t want0 = 0, want1 = 0;
    for (std::size_t i = 0; i < n; ++i) {
      h(i) = static_cast<std::int64_t>((i * 2654435761u) % 1000003) - 500000 + (std::int64_t(1) << 40);
      want0 += h(i);
      want1 += static_cast<std::int64_t>(i);
    }
    auto d = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), h);
    auto const got = sums(TEST_EXECSPACE(), "kboost::test::sum", n, KOKKOS_LAMBDA(std::size_t i, std::int64_t(&acc)[2]) {
      acc[0] += d(i);
      acc[1] += static_cast<std::int64_t>(i);
    });
    CHECK(got[0] == want0);
    CHECK(got[1] == want1);
  }
}
