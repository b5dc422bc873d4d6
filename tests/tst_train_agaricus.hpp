// kboost's first 10 trees on agaricus route every training row to a leaf whose value equals the one
// upstream XGBoost 3.2.0 (tree_method=hist, max_depth=6, eta=0.3, max_bin=256, binary:logistic)
// reaches, to 1e-6 relative. Golden: tests/golden/train_agaricus_leaves.txt from
// tests/golden/make_train_goldens.py (upstream's pred_leaf + leaf values). Leaf ids may differ
// (kboost follows the GPU enumeration, which mirrors some splits), the values may not.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <kboost/kernels/densify.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/model_reader.hpp>
#include <kboost/io/model_writer.hpp>
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

/// Rows × trees where tree t of `m` leads row i of X to a value further than tol(t, want) from
/// golden[i][t] (the first few reported).
template <class HostView, class Tol>
std::size_t leaf_mismatches(kboost::Model const& m, HostView const& X, std::vector<std::vector<float>> const& golden,
                            std::size_t trees, Tol const& tol) {
  std::size_t bad = 0;
  for (std::size_t t = 0; t < trees; ++t) {
    for (std::size_t i = 0; i < golden.size(); ++i) {
      float const got = reach(m.trees[t], X, i), want = golden[i][t];
      if (!(std::fabs(got - want) <= tol(t, want))) {
        if (bad < 5) UNSCOPED_INFO("tree " << t << " row " << i << ": kboost " << got << " upstream " << want);
        ++bad;
      }
    }
  }
  return bad;
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
  CHECK(leaf_mismatches(m, X, golden, 10, [](std::size_t, float want) { return 1e-6f * std::fabs(want); }) == 0);
}

TEST_CASE("train " TEST_BACKEND ": continuing upstream's 5-round model routes like upstream's 10 rounds",
          "[train][agaricus][continue]") {
  // Upstream's 5 + 5 rounds equal its 10 (tests/golden/make_continue_goldens.py checks this), so
  // trees 5..9 of kboost continuing upstream's own 5-round file must reach upstream's leaf values.
  kboost::ReadOptions lib;
  lib.format = "libsvm";
  auto const d = kboost::read_dataset(kboost::test::shared_path("data/agaricus/agaricus.txt.train"), lib);
  auto const golden = read_leaf_golden(kboost::test::golden_path("train_agaricus_leaves.txt"));
  auto start = kboost::read_model(kboost::test::golden_path("models/agaricus_hist_5rounds.json"));
  REQUIRE(start.num_rounds() == 5);
  auto const base_score = start.base_score;
  kboost::TrainState s;
  s.base_rounds = s.rounds_done = 5;
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.continue_from(start, s);
  b.train(kboost::parse_params({{"objective", "binary:logistic"}, {"num_round", "5"}, {"max_depth", "6"},
                                {"eta", "0.3"}, {"max_bin", "256"}}),
          d);
  auto const& m = b.model();
  REQUIRE(m.trees.size() == 10);
  REQUIRE(m.num_rounds() == 10);
  CHECK(m.base_score == base_score);  // upstream keeps the continued model's intercept
  auto const X = kboost::densify(Kokkos::DefaultHostExecutionSpace(), d);
  // trees 0..4 are upstream's own (bit for bit), 5..9 kboost's, to upstream's within 1e-6
  CHECK(leaf_mismatches(m, X, golden, 10, [](std::size_t t, float want) {
          return t < 5 ? 0.0f : 1e-6f * std::fabs(want);
        }) == 0);
}

TEST_CASE("train " TEST_BACKEND ": 4 rounds continued by 6 with the first fit's state are the bytes of 10 rounds, "
          "with sampling", "[train][agaricus][continue]") {
  kboost::ReadOptions lib;
  lib.format = "libsvm";
  auto const d = kboost::read_dataset(kboost::test::shared_path("data/agaricus/agaricus.txt.train"), lib);
  std::map<std::string, std::string> kv{{"objective", "binary:logistic"}, {"max_depth", "4"},
                                        {"subsample", "0.8"},             {"colsample_bynode", "0.7"},
                                        {"seed", "5"},                    {"kboost_hist_tune", "0"}};
  auto with_rounds = [&](char const* n) {
    auto k = kv;
    k["num_round"] = n;
    return kboost::parse_params(k);
  };
  kboost::BasicBooster<TEST_EXECSPACE> whole, first, second;
  whole.train(with_rounds("10"), d);
  kboost::TrainState s;
  first.on_round([&s](kboost::Model const&, kboost::TrainState const& state) { s = state; });
  first.train(with_rounds("4"), d);
  REQUIRE(s.rounds_done == 4);
  CHECK(s.rng_draws > 8);  // per tree: the row seed, then the nodes' feature samples
  s.base_rounds = 4;
  second.continue_from(first.model(), s);
  second.train(with_rounds("6"), d);
  CHECK(kboost::model_to_json_bytes(second.model()) == kboost::model_to_json_bytes(whole.model()));
  // a fresh continuation (a model file alone) seeds upstream's engine anew, as upstream does
  kboost::BasicBooster<TEST_EXECSPACE> fresh;
  kboost::TrainState from_file;
  from_file.base_rounds = from_file.rounds_done = 4;
  fresh.continue_from(first.model(), from_file);
  fresh.train(with_rounds("6"), d);
  CHECK(kboost::model_to_json_bytes(fresh.model()) != kboost::model_to_json_bytes(whole.model()));
  // a model of another objective is refused, naming both
  kboost::BasicBooster<TEST_EXECSPACE> other;
  other.continue_from(first.model(), s);
  auto p = with_rounds("1");
  p.objective = "reg:squarederror";
  CHECK_THROWS_WITH(other.train(p, d), Catch::Matchers::ContainsSubstring("objective is binary:logistic"));
}
