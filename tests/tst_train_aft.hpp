// survival:aft trains as upstream XGBoost 3.2.0 hist: the accelerated failure time likelihood of
// interval labels (exact, right-, left- and interval-censored rows) with normal, logistic and
// extreme noise, and the aft-nloglik / interval-regression-accuracy metrics. Goldens:
// tests/golden/aft_goldens.json from tests/golden/make_aft_goldens.py (a synthetic set stored in
// the golden; the veterans' lung cancer trial from ../shared).
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/model_writer.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/metrics.hpp>
#include <kboost/engine/params.hpp>
#include "tests/test_util.hpp"
#include "tests/train_data.hpp"

namespace {

nlohmann::json aft_goldens() { return nlohmann::json::parse(std::ifstream(kboost::test::golden_path("aft_goldens.json"))); }

/// Trains golden case `name` and checks the intercept, the objective's parameters in the model, the
/// first tree field by field, both metrics of the first round to 1e-12 and of the last within 0.5 %.
void check_aft_case(nlohmann::json const& golden, std::string const& name, kboost::HostDMatrix const& train,
                    kboost::HostDMatrix const& test) {
  auto const& c = golden["cases"][name];
  INFO("case " << name);
  std::map<std::string, std::string> kv{{"num_round", std::to_string(golden["rounds"].get<int>())},
                                        {"eval_metric", "interval-regression-accuracy,aft-nloglik"}};
  kv["kboost_sketch_method"] = "upstream_cpu";  // the goldens are upstream 3.2 CPU hist's: its sketch's cuts
  kv["kboost_math_functions"] = "upstream_cpu";  // and its glibc exp/log
  for (auto const& [k, v] : c["params"].items()) kv[k] = v.get<std::string>();
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params(kv), train, {{"test", test}});
  auto const& m = b.model();
  CHECK(m.base_score.at(0) == 0.5f);
  auto const j = nlohmann::json::parse(kboost::model_to_json_bytes(m));
  CHECK(j["learner"]["objective"] == c["objective"]);
  kboost::test::check_tree_fields(m.trees.at(0), c["tree0"]);
  for (std::size_t k = 0; k < 2; ++k) kboost::test::check_metric_history(b.eval_history(), k, c["test_metrics"]);
}

kboost::HostDMatrix veterans_rows(std::size_t begin, std::size_t end) {
  kboost::ReadOptions csv;
  csv.label_lower_bound_column = "Survival_label_lower_bound";
  csv.label_upper_bound_column = "Survival_label_upper_bound";
  auto const all = kboost::read_dataset(kboost::test::shared_path("data/veterans_lung_cancer/veterans_lung_cancer.csv"), csv);
  return kboost::test::rows_of(all, begin, end < all.n_rows ? end : all.n_rows);
}

}  // namespace

TEST_CASE("train " TEST_BACKEND ": survival:aft matches upstream hist (synthetic censoring)", "[train][parity][aft]") {
  auto const golden = aft_goldens();
  std::string const name = GENERATE(as<std::string>{}, "synthetic_normal", "synthetic_logistic", "synthetic_extreme");
  auto const d = kboost::test::aft_synthetic(golden["synthetic"]);
  check_aft_case(golden, name, d, d);
}

TEST_CASE("train " TEST_BACKEND ": survival:aft matches upstream hist (veterans' lung cancer)",
          "[train][parity][aft][shared]") {
  auto const golden = aft_goldens();
  std::string const name = GENERATE(as<std::string>{}, "veterans_normal", "veterans_logistic", "veterans_extreme");
  std::size_t const n_train = golden["cases"][name]["train_rows"].get<std::size_t>();
  check_aft_case(golden, name, veterans_rows(0, n_train), veterans_rows(n_train, std::numeric_limits<std::size_t>::max()));
}

TEST_CASE("train " TEST_BACKEND ": survival:aft inputs are checked", "[train][aft][errors]") {
  auto const golden = aft_goldens();
  auto d = kboost::test::aft_synthetic(golden["synthetic"]);
  std::map<std::string, std::string> kv{{"objective", "survival:aft"}, {"num_round", "1"}};
  using Catch::Matchers::ContainsSubstring;
  SECTION("no label bounds") {
    d.label_lower_bound = decltype(d.label_lower_bound)();
    kboost::BasicBooster<TEST_EXECSPACE> b;
    CHECK_THROWS_WITH(b.train(kboost::parse_params(kv), d), ContainsSubstring("has no label bounds"));
  }
  SECTION("parameters") {
    CHECK_THROWS(kboost::parse_params({{"aft_loss_distribution", "weibull"}}));
    CHECK_THROWS(kboost::parse_params({{"aft_loss_distribution_scale", "0"}}));
  }
  SECTION("bound columns in a CSV file") {
    auto const dir = kboost::test::temp_dir("aft_bounds");
    kboost::ReadOptions ro;
    ro.label_lower_bound_column = "lo";
    ro.label_upper_bound_column = "hi";
    auto const ok = kboost::test::write_file(dir, "ok.csv", "x,lo,hi\n1,2,inf\n2,0,3\n3,4,4\n");
    auto const m = kboost::read_dataset(ok, ro);
    CHECK(m.n_features == 1);
    CHECK(std::isinf(m.label_upper_bound(0)));
    CHECK(m.label_lower_bound(1) == 0.0f);
    auto const bad = kboost::test::write_file(dir, "bad.csv", "x,lo,hi\n1,2,inf\n2,5,3\n");
    CHECK_THROWS_WITH(kboost::read_dataset(bad, ro), ContainsSubstring("bad.csv:3") &&
                                                         ContainsSubstring("lower bound above the upper bound"));
    auto const missing = kboost::test::write_file(dir, "missing.csv", "x,lo,hi\n1,,4\n");
    CHECK_THROWS_WITH(kboost::read_dataset(missing, ro), ContainsSubstring("missing label bound"));
    ro.label_upper_bound_column.clear();
    CHECK_THROWS_WITH(kboost::read_dataset(ok, ro), ContainsSubstring("both a lower and an upper bound"));
  }
  SECTION("interval metrics") {
    // exp(0) = 1 lies in [0.5, 2] and [1, 1], not in [2, inf): accuracy 2/3
    std::vector<float> const margin{0, 0, 0}, lo{0.5f, 1, 2}, hi{2, 1, std::numeric_limits<float>::infinity()};
    CHECK(kboost::evaluate_interval_metric("interval-regression-accuracy", margin, lo, hi, {}) == 2.0 / 3.0);
    // an exactly observed time 1 at log-time 0 under the standard normal: −log(φ(0)) = log(√(2π))
    CHECK(std::fabs(kboost::evaluate_interval_metric("aft-nloglik", {0}, {1}, {1}, {}) - 0.5 * std::log(2 * M_PI)) < 1e-15);
    CHECK_THROWS(kboost::evaluate_interval_metric("aft-nloglik", margin, lo, {1}, {}));
  }
}
