// Learning to rank: rank:ndcg, rank:pairwise and rank:map train as upstream XGBoost 3.2.0 hist
// (LambdaMART on top-k or sampled pairs, upstream's intercept) and the ndcg/map/pre metrics score
// as upstream's. Goldens: tests/golden/ranking_goldens.json from tests/golden/make_ranking_goldens.py
// (a synthetic set stored in the golden, and LightGBM's LambdaRank example from ../shared).
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kboost/io/model_writer.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/metrics.hpp>
#include <kboost/engine/params.hpp>
#include "tests/test_util.hpp"
#include "tests/train_data.hpp"

namespace {

nlohmann::json ranking_goldens() {
  return nlohmann::json::parse(std::ifstream(kboost::test::golden_path("ranking_goldens.json")));
}

/// Trains golden case `name` on `train`, scores `test` every round, and checks the intercept's
/// bits, the objective's parameters in the model, the first tree field by field, the first round's
/// metric to 1e-12 and the last round's within 0.5 % (later trees may part at a near-tie).
void check_ranking_case(nlohmann::json const& golden, std::string const& name, kboost::HostDMatrix const& train,
                        kboost::HostDMatrix const& test) {
  auto const& c = golden["cases"][name];
  INFO("case " << name);
  std::map<std::string, std::string> kv;
  for (auto const& [k, v] : golden["common"].items()) kv[k] = v.get<std::string>();
  for (auto const& [k, v] : c["params"].items()) kv[k] = v.get<std::string>();
  kv["num_round"] = std::to_string(c["rounds"].get<int>());
  kv["kboost_sketch_method"] = "upstream_cpu";  // the goldens are upstream 3.2 CPU hist's: its sketch's cuts
  kv["kboost_math_functions"] = "upstream_cpu";  // and its glibc exp/log
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params(kv), train, {{"test", test}});
  auto const& m = b.model();

  auto const base = c["base_score"].get<std::string>();  // "[1.0981358E-9]"
  CHECK(m.base_score.at(0) == std::strtof(base.c_str() + 1, nullptr));
  auto const j = nlohmann::json::parse(kboost::model_to_json_bytes(m));
  CHECK(j["learner"]["objective"] == c["objective"]);
  kboost::test::check_tree_fields(m.trees.at(0), c["tree0"]);

  auto const& history = b.eval_history();
  REQUIRE(history.size() == c["test_metric"].size());
  CHECK(std::get<1>(history.front().back()) == c["metric"].get<std::string>());
  double const first = std::get<2>(history.front().back()), last = std::get<2>(history.back().back());
  double const up_first = c["test_metric"].front().get<double>(), up_last = c["test_metric"].back().get<double>();
  INFO("held-out " << c["metric"].get<std::string>() << ": kboost " << first << " .. " << last << ", upstream "
                   << up_first << " .. " << up_last);
  CHECK(std::fabs(first - up_first) <= 1e-12);
  CHECK(std::fabs(last - up_last) <= 0.005 * up_last);
}

}  // namespace

TEST_CASE("train " TEST_BACKEND ": ranking matches upstream hist (synthetic query groups)", "[train][parity][ranking]") {
  auto const golden = ranking_goldens();
  std::string const name = GENERATE(as<std::string>{}, "synthetic_ndcg", "synthetic_pairwise", "synthetic_map",
                                    "synthetic_mean", "synthetic_linear_gain");
  int const binary = golden["cases"][name]["params"]["objective"] == "rank:map"
                         ? golden["cases"][name]["binary_from"].get<int>()
                         : 0;
  auto const d = kboost::test::ranking_synthetic(golden["synthetic"], binary);
  check_ranking_case(golden, name, d, d);
}

TEST_CASE("train " TEST_BACKEND ": ranking matches upstream hist (LightGBM LambdaRank example)",
          "[train][parity][ranking][shared]") {
  auto const golden = ranking_goldens();
  std::string const name =
      GENERATE(as<std::string>{}, "lambdarank_ndcg", "lambdarank_pairwise", "lambdarank_map", "lambdarank_mean");
  int const binary = golden["cases"][name]["params"]["objective"] == "rank:map"
                         ? golden["cases"][name]["binary_from"].get<int>()
                         : 0;
  check_ranking_case(golden, name, kboost::test::lambdarank_example("train", binary),
                     kboost::test::lambdarank_example("test", binary));
}

TEST_CASE("train " TEST_BACKEND ": ranking metrics and inputs are checked", "[train][ranking][errors]") {
  auto const golden = ranking_goldens();
  auto d = kboost::test::ranking_synthetic(golden["synthetic"]);
  std::map<std::string, std::string> kv{{"objective", "rank:ndcg"}, {"num_round", "1"}};
  using Catch::Matchers::ContainsSubstring;
  SECTION("a fractional relevance degree with exponential gain") {
    d.label(5) = 1.5f;
    kboost::BasicBooster<TEST_EXECSPACE> b;
    CHECK_THROWS_WITH(b.train(kboost::parse_params(kv), d), ContainsSubstring("label 1.5") && ContainsSubstring("row 6"));
  }
  SECTION("rank:map takes binary relevance") {
    kv["objective"] = "rank:map";
    kboost::BasicBooster<TEST_EXECSPACE> b;
    CHECK_THROWS_WITH(b.train(kboost::parse_params(kv), d), ContainsSubstring("is not 0 or 1"));
  }
  SECTION("row weights are refused") {
    d.weight = Kokkos::View<float*, Kokkos::HostSpace>("w", d.n_rows);
    kboost::BasicBooster<TEST_EXECSPACE> b;
    CHECK_THROWS_WITH(b.train(kboost::parse_params(kv), d), ContainsSubstring("takes no row weights"));
  }
  SECTION("an eval set without query groups") {
    auto e = d;
    e.group_ptr = decltype(e.group_ptr)();
    kboost::BasicBooster<TEST_EXECSPACE> b;
    CHECK_THROWS_WITH(b.train(kboost::parse_params(kv), d, {{"e", e}}), ContainsSubstring("has no query groups"));
  }
  SECTION("groups that do not cover the rows") {
    d.group_ptr(d.group_ptr.extent(0) - 1) -= 1;
    kboost::BasicBooster<TEST_EXECSPACE> b;
    CHECK_THROWS_WITH(b.train(kboost::parse_params(kv), d), ContainsSubstring("query groups cover"));
  }
  SECTION("parameters") {
    CHECK_THROWS_WITH(kboost::parse_params({{"lambdarank_unbiased", "1"}}), ContainsSubstring("not implemented"));
    CHECK_THROWS(kboost::parse_params({{"lambdarank_pair_method", "all"}}));
    CHECK_THROWS(kboost::parse_params({{"lambdarank_num_pair_per_sample", "0"}}));
    CHECK_NOTHROW(kboost::parse_params({{"lambdarank_unbiased", "0"}, {"lambdarank_bias_norm", "2"}}));
  }
  SECTION("metric names and the trailing minus") {
    // two groups: one without relevant rows (scores 1, or 0 with '-'), one ranked perfectly
    std::vector<float> const preds{0.1f, 0.2f, 0.9f, 0.5f}, labels{0, 0, 1, 0};
    std::vector<std::uint32_t> const groups{0, 2, 4};
    CHECK(kboost::evaluate_rank_metric("ndcg", preds, labels, groups) == 1.0);
    CHECK(kboost::evaluate_rank_metric("ndcg@1-", preds, labels, groups) == 0.5);
    CHECK(kboost::evaluate_rank_metric("map@-", preds, labels, groups) == 0.5);
    CHECK(kboost::evaluate_rank_metric("pre@1", preds, labels, groups) == 0.5);
    CHECK(kboost::is_rank_metric("ndcg@10"));
    CHECK_FALSE(kboost::is_rank_metric("rmse"));
    CHECK_THROWS_WITH(kboost::evaluate_rank_metric("ndcg@x", preds, labels, groups), ContainsSubstring("positive integer"));
    CHECK_THROWS_WITH(kboost::evaluate_rank_metric("map", preds, {0, 2, 1, 0}, groups), ContainsSubstring("not 0 or 1"));
  }
}
