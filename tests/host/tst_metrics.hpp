// Metrics and base_score against upstream 3.2 goldens (tests/golden/make_train_front_goldens.py).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>

#include <kboost/core/objective.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/engine/base_score.hpp>
#include <kboost/engine/metrics.hpp>
#include "tests/test_util.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>

namespace {

std::vector<float> from_bits(nlohmann::json const& a) {
  std::vector<std::uint32_t> b = a;
  std::vector<float> out(b.size());
  std::memcpy(out.data(), b.data(), b.size() * 4);
  return out;
}

nlohmann::json golden(std::string const& name) {
  nlohmann::json g;
  std::ifstream(kboost::test::golden_path(name)) >> g;
  REQUIRE(!g.is_null());
  return g;
}

}  // namespace

TEST_CASE("metrics " TEST_BACKEND ": upstream 3.2 values for fixed margins", "[metrics]") {
  auto g = golden("metrics.json");
  std::size_t const n = g["rows"];
  std::vector<float> w(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = 1.0f + float(i % 7) / 4;
  int checked = 0;
  for (auto const& c : g["cases"]) {
    std::string const obj = c["objective"];
    int const k = c["groups"];
    auto const labels = from_bits(c["labels_bits"]);
    auto const margins = from_bits(c["margins_bits"]);
    auto const kind = kboost::objective_kind(obj);
    std::vector<float> preds(margins);
    if (k > 1) {
      for (std::size_t i = 0; i < n; ++i) kboost::softmax_inplace(preds.data() + i * k, k);
    } else {
      for (auto& p : preds) p = kboost::pred_transform(kind, p);
    }
    for (auto const& [metric, value] : c["metrics"].items()) {
      double const got = kboost::evaluate_metric(metric, preds, labels, c["weighted"] ? w : std::vector<float>{}, k);
      double const want = value.get<double>();
      INFO(obj << " " << metric << (c["weighted"] ? " weighted" : "") << ": kboost " << got << " upstream " << want);
      // same per-row float losses summed in double; upstream sums per thread, so allow 1e-12 relative
      CHECK_THAT(got, Catch::Matchers::WithinRel(want, 1e-12) || Catch::Matchers::WithinAbs(want, 1e-15));
      ++checked;
    }
  }
  CHECK(checked == 36);
}

TEST_CASE("metrics " TEST_BACKEND ": defaults and errors", "[metrics]") {
  CHECK(kboost::default_metric("reg:squarederror") == "rmse");
  CHECK(kboost::default_metric("binary:logistic") == "logloss");
  CHECK(kboost::default_metric("reg:logistic") == "rmse");
  CHECK(kboost::default_metric("multi:softmax") == "mlogloss");
  CHECK(kboost::default_metric("count:poisson") == "poisson-nloglik");
  CHECK(kboost::default_metric("reg:gamma") == "gamma-deviance");
  CHECK(kboost::default_metric("reg:tweedie", 1.5f) == "tweedie-nloglik@1.5");
  CHECK(kboost::default_metric("reg:pseudohubererror") == "mphe");
  CHECK(kboost::default_metric("reg:absoluteerror") == "mae");
  CHECK_THROWS_AS(kboost::evaluate_metric("nope", {0.5f}, {1.0f}, {}), std::runtime_error);
  CHECK_THROWS_AS(kboost::evaluate_metric("rmse", {0.5f, 1.0f}, {1.0f}, {}), std::runtime_error);
  CHECK(std::isnan(kboost::evaluate_metric("auc", {0.1f, 0.7f}, {1.0f, 1.0f}, {})));
  CHECK(kboost::evaluate_metric("auc", {0.1f, 0.7f}, {0.0f, 1.0f}, {}) == 1.0);
}

TEST_CASE("metrics " TEST_BACKEND ": the direction early stopping watches", "[metrics]") {
  // upstream callback.py EarlyStopping maximize_metrics: auc, aucpr, pre, map, ndcg (and their @k)
  for (char const* m : {"auc", "ndcg", "ndcg@32", "ndcg@5-", "map", "map@8", "pre", "pre@3"}) {
    INFO(m);
    CHECK(kboost::metric_maximize(m));
  }
  for (char const* m : {"rmse", "logloss", "error@0.7", "mlogloss", "tweedie-nloglik@1.5", "aft-nloglik", "unknown"}) {
    INFO(m);
    CHECK_FALSE(kboost::metric_maximize(m));
  }
  auto const names = kboost::known_metric_names();
  CHECK(names.size() == 21);
  CHECK(names.front() == "rmse");
  CHECK(names.back() == "pre");
}

namespace {

/// The golden base_score cases on agaricus (registry data) or on the other datasets (../shared).
void check_base_score_cases(bool agaricus) {
  auto g = golden("base_score.json");
  std::map<std::string, kboost::HostDMatrix> data;
  auto load = [&](std::string const& ds) -> kboost::HostDMatrix const& {
    if (!data.count(ds)) {
      kboost::ReadOptions ro;
      std::string file;
      if (ds == "agaricus") file = "agaricus/agaricus.txt.train";
      if (ds == "california_housing") {
        file = "california_housing/housing.csv";
        ro.label_column = "median_house_value";
      }
      if (ds == "lightgbm_multiclass") {
        file = "lightgbm_multiclass/multiclass.train";
        ro.label_column = "0";
      }
      data[ds] = kboost::read_dataset(kboost::test::shared_path("data/" + file), ro);
    }
    return data[ds];
  };
  int checked = 0;
  for (auto const& c : g["cases"]) {
    if ((c["dataset"] == "agaricus") != agaricus) continue;
    ++checked;
    auto const& d = load(c["dataset"]);
    std::vector<float> y(d.label.data(), d.label.data() + d.n_rows), w;
    if (c["weighted"])
      for (std::size_t i = 0; i < d.n_rows; ++i) w.push_back(1.0f + float(i % 7) / 4);
    kboost::ObjectiveParams p;
    p.objective = c["objective"];
    p.math_functions = "upstream_cpu";  // the goldens are upstream 3.2 CPU's: glibc's logf
    int groups = 1;
    if (c["params"].contains("num_class")) groups = p.num_class = std::stoi(c["params"]["num_class"].get<std::string>());
    if (c["params"].contains("scale_pos_weight"))
      p.scale_pos_weight = std::stof(c["params"]["scale_pos_weight"].get<std::string>());
    auto const got = kboost::estimate_base_score(p, y, w, groups);
    auto const want = from_bits(c["base_score_bits"]);
    REQUIRE(got.size() == want.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      INFO(c["dataset"].get<std::string>() << " " << p.objective << (c["weighted"] ? " weighted" : "") << " [" << k
                                           << "]: kboost " << got[k] << " upstream " << want[k]);
      CHECK(got[k] == want[k]);
    }
  }
  CHECK(checked >= 6);
}

}  // namespace

TEST_CASE("base_score " TEST_BACKEND ": upstream 3.2 boost_from_average on agaricus", "[base_score]") {
  check_base_score_cases(true);
}

TEST_CASE("base_score " TEST_BACKEND ": upstream 3.2 boost_from_average on dense data", "[base_score][shared]") {
  check_base_score_cases(false);
}
