// kboost's first 10 trees on agaricus route every training row to a leaf whose value equals the one
// upstream XGBoost 3.2.0 (tree_method=hist, max_depth=6, eta=0.3, max_bin=256, binary:logistic)
// reaches, to 1e-6 relative. Golden: tests/golden/train_agaricus_leaves.txt from
// tests/golden/make_train_goldens.py (upstream's pred_leaf + leaf values). Leaf ids may differ
// (kboost follows the GPU enumeration, which mirrors some splits), the values may not.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <kboost/kernels/densify.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/params.hpp>
#include "tests/test_util.hpp"

namespace {

/// golden[row][tree] = upstream's reached leaf value.
std::vector<std::vector<float>> read_leaf_golden(std::string const& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::size_t rows = 0, trees = 0;
  in >> rows >> trees;
  std::vector<std::map<int, float>> value(trees);
  std::string word, v;
  for (std::size_t t = 0; t < trees; ++t) {
    std::size_t tt = 0, n = 0;
    in >> word >> tt >> n;
    REQUIRE(word == "tree");
    for (std::size_t k = 0; k < n; ++k) {
      int nid = 0;
      in >> nid >> v;
      value[t][nid] = std::strtof(v.c_str(), nullptr);
    }
  }
  std::size_t n_paths = 0;
  in >> word >> n_paths;
  REQUIRE(word == "paths");
  std::vector<std::vector<float>> paths(n_paths, std::vector<float>(trees));
  for (auto& p : paths)
    for (std::size_t t = 0; t < trees; ++t) {
      int nid = 0;
      in >> nid;
      p[t] = value[t].at(nid);
    }
  in >> word;
  REQUIRE(word == "rows");
  std::vector<std::vector<float>> out(rows);
  for (auto& r : out) {
    std::size_t k = 0;
    in >> k;
    r = paths.at(k);
  }
  REQUIRE(in.good());
  return out;
}

/// Leaf value tree `t` gives row `i` of X (rows × features, NaN missing): left iff x < cond.
template <class HostView>
float reach(kboost::TreeModel const& t, HostView const& X, std::size_t i) {
  int n = 0;
  while (!t.is_leaf(n)) {
    float const x = X(i, t.split_indices[n]);
    n = std::isnan(x) ? (t.default_left[n] ? t.left_children[n] : t.right_children[n])
                      : (x < t.split_conditions[n] ? t.left_children[n] : t.right_children[n]);
  }
  return t.split_conditions[n];
}

}  // namespace

TEST_CASE("train " TEST_BACKEND ": agaricus routing matches upstream hist", "[train][agaricus]") {
  kboost::ReadOptions lib;
  lib.format = "libsvm";
  auto const d = kboost::read_dataset(kboost::test::shared_path("data/agaricus/agaricus.txt.train"), lib);
  auto const golden = read_leaf_golden(kboost::test::golden_path("train_agaricus_leaves.txt"));
  REQUIRE(golden.size() == d.n_rows);
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params({{"objective", "binary:logistic"}, {"num_round", "10"}, {"max_depth", "6"},
                                {"eta", "0.3"}, {"max_bin", "256"}}),
          d);
  auto const& m = b.model();
  REQUIRE(m.trees.size() == 10);
  auto const X = kboost::densify(Kokkos::DefaultHostExecutionSpace(), d);
  std::size_t bad = 0;
  for (std::size_t t = 0; t < 10; ++t) {
    for (std::size_t i = 0; i < d.n_rows; ++i) {
      float const got = reach(m.trees[t], X, i), want = golden[i][t];
      if (!(std::fabs(got - want) <= 1e-6f * std::fabs(want))) {
        if (bad < 5) UNSCOPED_INFO("tree " << t << " row " << i << ": kboost " << got << " upstream " << want);
        ++bad;
      }
    }
  }
  CHECK(bad == 0);
}
