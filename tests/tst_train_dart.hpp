// DART training (booster = dart) as upstream XGBoost 3.2.0 hist: the same trees dropped in the same
// rounds (upstream's generator and distributions, engine/detail/dart.hpp), the same weight_drop
// after Dart::NormalizeTrees, the same trees. Goldens: tests/golden/dart_goldens.json from
// tests/golden/make_dart_goldens.py (a synthetic set stored in the golden; California housing
// from ../shared).
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kboost/engine/booster.hpp>
#include <kboost/engine/detail/dart.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/model_writer.hpp>
#include "tests/test_util.hpp"
#include "tests/train_data.hpp"

namespace {

nlohmann::json dart_goldens() { return nlohmann::json::parse(std::ifstream(kboost::test::golden_path("dart_goldens.json"))); }

/// Trains golden case `name` and checks the intercepts, every tree's weight_drop bit for bit, the
/// last tree field for field, and the metric of the first round to 1e-12 and of the last within
/// 0.5 %.
void check_dart_case(nlohmann::json const& c, kboost::HostDMatrix const& train, kboost::HostDMatrix const& test) {
  std::map<std::string, std::string> kv{{"num_round", std::to_string(c["rounds"].get<int>())}};
  kv["kboost_sketch_method"] = "upstream_cpu";  // the goldens are upstream 3.2 CPU hist's: its sketch's cuts
  kv["kboost_math_functions"] = "upstream_cpu";  // and its glibc exp/log
  for (auto const& [k, v] : c["params"].items()) kv[k] = v.get<std::string>();
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params(kv), train, {{"test", test}});
  auto const& m = b.model();
  auto const j = nlohmann::json::parse(kboost::model_to_json_bytes(m));
  CHECK(j["learner"]["learner_model_param"]["base_score"] == c["base_score"]);
  CHECK(j["learner"]["gradient_booster"]["name"] == "dart");
  CHECK(m.weight_drop == kboost::test::hex_floats(c["weight_drop"]));
  kboost::test::check_tree_fields(m.trees.back(), c["last_tree"]);
  kboost::test::check_metric_history(b.eval_history(), 0, c["test_metrics"]);
}

}  // namespace

TEST_CASE("train " TEST_BACKEND ": DART matches upstream hist (synthetic)", "[train][parity][dart]") {
  auto const golden = dart_goldens();
  std::string const name = GENERATE(as<std::string>{}, "uniform_tree", "forest_skip_one_drop", "uniform_one_drop_seed",
                                    "weighted_one_drop", "weighted_forest", "multiclass");
  INFO("case " << name);
  auto const& c = golden["cases"][name];
  auto const d = kboost::test::dart_synthetic(golden["synthetic"], c["target"].get<std::string>());
  check_dart_case(c, d, d);
}

TEST_CASE("train " TEST_BACKEND ": DART matches upstream hist (California housing)", "[train][parity][dart][shared]") {
  auto const golden = dart_goldens();
  auto const& c = golden["cases"]["housing"];
  kboost::ReadOptions csv;
  csv.label_column = "median_house_value";
  csv.ignore_columns = {"ocean_proximity"};
  auto const all = kboost::read_dataset(kboost::test::shared_path("data/california_housing/housing.csv"), csv);
  std::size_t const n_train = c["train_rows"].get<std::size_t>();
  check_dart_case(c, kboost::test::rows_of(all, 0, n_train), kboost::test::rows_of(all, n_train, all.n_rows));
}

TEST_CASE("train " TEST_BACKEND ": DART parameters and draws", "[train][dart][errors]") {
  using Catch::Matchers::ContainsSubstring;
  SECTION("DART parameters need booster = dart; ranges and names are checked") {
    CHECK_THROWS_WITH(kboost::parse_params({{"rate_drop", "0.1"}}), ContainsSubstring("applies to booster = dart only"));
    CHECK_THROWS(kboost::parse_params({{"booster", "dart"}, {"rate_drop", "1.5"}}));
    CHECK_THROWS(kboost::parse_params({{"booster", "dart"}, {"sample_type", "random"}}));
    CHECK_THROWS(kboost::parse_params({{"booster", "dart"}, {"normalize_type", "1"}}));
    CHECK_THROWS_WITH(kboost::parse_params({{"booster", "gblinear"}}), ContainsSubstring("linear boosters"));
    auto const p = kboost::parse_params({{"booster", "dart"}, {"rate_drop", "0.25"}, {"skip_drop", "0.5"},
                                         {"one_drop", "1"}, {"sample_type", "weighted"}, {"normalize_type", "forest"}});
    CHECK(p.rate_drop == 0.25f);
    CHECK(p.skip_drop == 0.5f);
    CHECK(p.one_drop);
    CHECK(p.sample_type == "weighted");
    CHECK(p.normalize_type == "forest");
  }
  SECTION("upstream's generator: std::mt19937's outputs and libstdc++'s reductions") {
    kboost::detail::UpstreamRandom r(5489);  // the standard's default seed: its 10000th output is fixed
    for (int k = 1; k < 10000; ++k) (void)r.next();
    CHECK(r.next() == 4123659995u);
    kboost::detail::UpstreamRandom a(0), b(0);
    std::uint32_t const low = b.next(), high = b.next();
    CHECK(a.uniform01() == (static_cast<double>(low) + static_cast<double>(high) * 4294967296.0) / 18446744073709551616.0);
    kboost::detail::UpstreamRandom c(0);
    CHECK(c.discrete({0.0f, 1.0f, 0.0f}) == 1);  // all mass on one tree
    for (std::size_t n : {1u, 2u, 3u, 7u, 1000u}) CHECK(c.uniform_index(n) < n);
  }
  SECTION("a DART model cannot be continued") {
    auto const golden = dart_goldens();
    auto const d = kboost::test::dart_synthetic(golden["synthetic"], "y");
    auto const p = kboost::parse_params({{"booster", "dart"}, {"rate_drop", "0.1"}, {"num_round", "2"}});
    kboost::BasicBooster<TEST_EXECSPACE> b;
    b.train(p, d);
    kboost::BasicBooster<TEST_EXECSPACE> more;
    more.continue_from(b.model(), kboost::TrainState{});
    CHECK_THROWS_WITH(more.train(p, d), ContainsSubstring("booster = dart"));
  }
}
