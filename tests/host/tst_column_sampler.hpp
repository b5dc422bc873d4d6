// kernels/column_sampler.hpp and sampling.hpp's UpstreamEngine: thrust::shuffle against thrust's
// own output (tests/golden/thrust/shuffle.txt, written by perf/upstream_gpu/thrust_shuffle_goldens.cpp
// from CUDA 13's thrust), upstream's engine against std::mt19937(0)'s published first outputs, and
// the sampler's draws in upstream's order: one per tree, one per level the first time it is asked
// for, one per node, none at fraction 1.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <kboost/kernels/column_sampler.hpp>
#include "tests/test_util.hpp"

namespace {

using Shuffles = std::map<std::pair<std::uint32_t, int>, std::vector<int>>;

/// (seed, m) -> thrust::shuffle of 0..m-1.
Shuffles thrust_shuffles() {
  std::ifstream file(kboost::test::golden_path("thrust/shuffle.txt"));
  REQUIRE(file);
  Shuffles out;
  std::string line;
  while (std::getline(file, line)) {
    std::istringstream in(line);
    std::uint32_t seed = 0;
    int m = 0;
    in >> seed >> m;
    std::vector<int> v(static_cast<std::size_t>(m));
    for (int& x : v) in >> x;
    REQUIRE(in);
    out[{seed, m}] = v;
  }
  return out;
}

std::vector<int> iota(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

/// The first n of thrust::shuffle(0..m-1, seed), sorted: one ColSample draw.
std::vector<int> sorted_head(Shuffles const& s, std::uint32_t seed, int m, int n) {
  std::vector<int> v = s.at({seed, m});
  v.resize(static_cast<std::size_t>(n));
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("column_sampler " TEST_BACKEND ": thrust::shuffle as thrust computes it", "[sampling][stage]") {
  auto const shuffles = thrust_shuffles();
  REQUIRE(shuffles.size() == 78);
  for (auto const& [key, expected] : shuffles) {
    INFO("seed " << key.first << ", m " << key.second);
    CHECK(kboost::thrust_shuffle(iota(key.second), key.first) == expected);
  }
}

TEST_CASE("column_sampler " TEST_BACKEND ": upstream's engine is std::mt19937(seed), resumable by count",
          "[sampling][stage]") {
  kboost::UpstreamEngine engine(0);
  CHECK(engine() == 2357136044u);  // std::mt19937(0)'s first outputs
  CHECK(engine() == 2546248239u);
  CHECK(engine.draws() == 2);
  kboost::UpstreamEngine resumed(0, 3);
  CHECK(resumed() == 3626093760u);  // the fourth
  CHECK(resumed.draws() == 4);
  CHECK(kboost::UpstreamEngine(std::uint64_t(1) << 32)() == 2357136044u);  // seed mod 2^32
}

TEST_CASE("column_sampler " TEST_BACKEND ": draws per tree, level and node in upstream's order", "[sampling][stage]") {
  auto const shuffles = thrust_shuffles();
  SECTION("colsample_bytree alone: one draw per tree, every node gets the tree's sample") {
    kboost::UpstreamEngine engine(0);
    kboost::ColumnSampler columns(engine, 1.0f, 1.0f, 0.5f);
    columns.start_tree(28);
    CHECK(engine.draws() == 1);
    auto const tree = sorted_head(shuffles, 2357136044u, 28, 14);
    CHECK(columns.node_features(0) == tree);
    CHECK(columns.node_features(3) == tree);
    CHECK(engine.draws() == 1);
  }
  SECTION("at least one feature; fraction 1 draws nothing") {
    kboost::UpstreamEngine engine(0);
    kboost::ColumnSampler tiny(engine, 1.0f, 1.0f, 0.01f);
    tiny.start_tree(28);
    CHECK(tiny.node_features(0) == sorted_head(shuffles, 2357136044u, 28, 1));
    kboost::ColumnSampler all(engine, 1.0f, 1.0f, 1.0f);
    all.start_tree(5);
    CHECK(all.node_features(2) == iota(5));
    CHECK(engine.draws() == 1);
  }
  SECTION("by level: drawn once per depth, on first use, from the tree's sample") {
    kboost::UpstreamEngine engine(5489);  // outputs 3499211612, 581869302, ...
    kboost::ColumnSampler columns(engine, 1.0f, 0.5f, 1.0f);
    columns.start_tree(28);
    CHECK(engine.draws() == 0);
    auto const level0 = columns.node_features(0);
    CHECK(level0 == sorted_head(shuffles, 3499211612u, 28, 14));
    CHECK(columns.node_features(0) == level0);
    CHECK(engine.draws() == 1);
  }
  SECTION("by node: the level's draw, then one per node") {
    kboost::UpstreamEngine engine(0);
    kboost::ColumnSampler columns(engine, 0.5f, 0.8f, 1.0f);
    columns.start_tree(28);
    auto const root = columns.node_features(0);  // level 0 (2357136044), then the root (2546248239)
    CHECK(engine.draws() == 2);
    auto const level0 = sorted_head(shuffles, 2357136044u, 28, 22);  // int(0.8f × 28) = 22
    std::vector<int> expected = kboost::thrust_shuffle(level0, 2546248239u);
    expected.resize(11);
    std::sort(expected.begin(), expected.end());
    CHECK(root == expected);
    (void)columns.node_features(1);  // level 1, then the node
    (void)columns.node_features(1);  // the node alone
    CHECK(engine.draws() == 5);
  }
}
