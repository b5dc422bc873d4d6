// Multi-target training (a label matrix, multi_strategy one_output_per_tree) as upstream XGBoost
// 3.2.0 hist: one tree per target per round, one intercept per target, element-wise metrics over
// rows × targets. Goldens: tests/golden/multi_target_goldens.json from
// tests/golden/make_multi_target_goldens.py (a synthetic set stored in the golden; California
// housing from ../shared).
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <hdf5.h>
#include <nlohmann/json.hpp>

#include <kboost/engine/base_score.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/metrics.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/model_writer.hpp>
#include "tests/test_util.hpp"
#include "tests/train_data.hpp"

namespace {

nlohmann::json multi_target_goldens() {
  return nlohmann::json::parse(std::ifstream(kboost::test::golden_path("multi_target_goldens.json")));
}

/// Trains golden case `name` and checks num_target, the intercepts, the first round's trees (one
/// per target) field for field, tree_info, and the metric of the first round to 1e-12 and of the
/// last within 0.5 %.
void check_multi_target_case(nlohmann::json const& golden, std::string const& name, kboost::HostDMatrix const& train,
                             kboost::HostDMatrix const& test) {
  auto const& c = golden["cases"][name];
  INFO("case " << name);
  std::map<std::string, std::string> kv{{"num_round", std::to_string(golden["rounds"].get<int>())}};
  kv["kboost_sketch_method"] = "upstream_cpu";  // the goldens are upstream 3.2 CPU hist's: its sketch's cuts
  kv["kboost_math_functions"] = "upstream_cpu";  // and its glibc exp/log
  for (auto const& [k, v] : c["params"].items()) kv[k] = v.get<std::string>();
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params(kv), train, {{"test", test}});
  auto const& m = b.model();
  auto const j = nlohmann::json::parse(kboost::model_to_json_bytes(m));
  auto const& lmp = j["learner"]["learner_model_param"];
  CHECK(lmp["num_target"] == c["num_target"]);
  CHECK(lmp["base_score"] == c["base_score"]);
  std::size_t const targets = train.n_targets;
  REQUIRE(m.trees.size() == targets * golden["rounds"].get<std::size_t>());
  for (std::size_t t = 0; t < targets; ++t) {
    INFO("round 0, target " << t);
    kboost::test::check_tree_fields(m.trees.at(t), c["round0_trees"][t]);
  }
  std::vector<int> const info(m.tree_info.begin(), m.tree_info.begin() + static_cast<std::ptrdiff_t>(2 * targets));
  CHECK(info == c["tree_info"].get<std::vector<int>>());
  kboost::test::check_metric_history(b.eval_history(), 0, c["test_metrics"]);
}

kboost::HostDMatrix housing_two_targets() {
  kboost::ReadOptions csv;
  csv.label_column = "median_house_value,median_income";
  csv.ignore_columns = {"ocean_proximity"};
  return kboost::read_dataset(kboost::test::shared_path("data/california_housing/housing.csv"), csv);
}

/// An HDF5 file with X (rows × 2) and y (rows × targets) as float32.
std::string write_h5_targets(std::string const& path, std::vector<float> const& x, std::vector<float> const& y,
                             hsize_t rows, hsize_t targets) {
  hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t const xd[2] = {rows, 2}, yd[2] = {rows, targets};
  for (auto const& [name, dims, data] : {std::make_tuple("X", xd, x.data()), std::make_tuple("y", yd, y.data())}) {
    hid_t s = H5Screate_simple(2, dims, nullptr);
    hid_t d = H5Dcreate2(f, name, H5T_IEEE_F32LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(d);
    H5Sclose(s);
  }
  H5Fclose(f);
  return path;
}

}  // namespace

TEST_CASE("train " TEST_BACKEND ": multi-target labels match upstream hist (synthetic)", "[train][parity][multi_target]") {
  auto const golden = multi_target_goldens();
  std::string const name = GENERATE(as<std::string>{}, "synthetic_squarederror", "synthetic_squarederror_weighted",
                                    "synthetic_logistic", "synthetic_absoluteerror", "synthetic_pseudohuber");
  auto const& c = golden["cases"][name];
  auto const d = kboost::test::multi_target_synthetic(golden["synthetic"], c["target"].get<std::string>(),
                                                      c["weighted"].get<bool>());
  check_multi_target_case(golden, name, d, d);
}

TEST_CASE("train " TEST_BACKEND ": multi-target labels match upstream hist (California housing)",
          "[train][parity][multi_target][shared]") {
  auto const golden = multi_target_goldens();
  auto const all = housing_two_targets();
  REQUIRE(all.n_targets == 2);
  REQUIRE(all.n_features == 7);
  std::size_t const n_train = golden["cases"]["housing_squarederror"]["train_rows"].get<std::size_t>();
  check_multi_target_case(golden, "housing_squarederror", kboost::test::rows_of(all, 0, n_train),
                          kboost::test::rows_of(all, n_train, all.n_rows));
}

TEST_CASE("train " TEST_BACKEND ": multi-target inputs are read and checked", "[train][multi_target][errors]") {
  using Catch::Matchers::ContainsSubstring;
  auto const golden = multi_target_goldens();
  auto const d = kboost::test::multi_target_synthetic(golden["synthetic"], "y", false);
  auto const dir = kboost::test::temp_dir("multi_target");
  SECTION("several CSV label columns, by name or index; text and missing labels are errors") {
    auto const path = kboost::test::write_file(dir, "t.csv", "a,y1,b,y2\n1,10,2,20\n3,30,4,40\n");
    kboost::ReadOptions ro;
    ro.label_column = "y2, y1";
    auto const m = kboost::read_dataset(path, ro);
    REQUIRE(m.n_targets == 2);
    REQUIRE(m.n_features == 2);
    CHECK(std::vector<float>(m.label.data(), m.label.data() + 4) == std::vector<float>{20, 10, 40, 30});
    CHECK(m.dense(1, 1) == 4.0f);
    ro.label_column = "1,3";
    CHECK(kboost::read_dataset(path, ro).label(1) == 20.0f);
    ro.label_column = "1,y1";
    CHECK_THROWS_WITH(kboost::read_dataset(path, ro), ContainsSubstring("named twice"));
    auto const text = kboost::test::write_file(dir, "text.csv", "a,y1,y2\n1,10,20\n3,x,40\n");
    ro.label_column = "y1,y2";
    CHECK_THROWS_WITH(kboost::read_dataset(text, ro), ContainsSubstring("text.csv:3") && ContainsSubstring("'y1'"));
    auto const missing = kboost::test::write_file(dir, "missing.csv", "a,y1,y2\n1,10,20\n3,5,\n");
    CHECK_THROWS_WITH(kboost::read_dataset(missing, ro),
                      ContainsSubstring("missing.csv:3") && ContainsSubstring("missing label"));
  }
  SECTION("a 2-D HDF5 label dataset, whole and as shards") {
    auto const path = write_h5_targets((dir / "t.h5").string(), {1, 2, 3, 4, 5, 6}, {1, 10, 2, 20, 3, 30}, 3, 2);
    auto const m = kboost::read_dataset(path);
    REQUIRE(m.n_targets == 2);
    CHECK(std::vector<float>(m.label.data(), m.label.data() + 6) == std::vector<float>{1, 10, 2, 20, 3, 30});
    kboost::ReadOptions ro;
    ro.shard_index = 1;
    ro.shard_count = 2;
    auto const s = kboost::read_dataset(path, ro);  // rows [1, 3)
    REQUIRE(s.n_targets == 2);
    CHECK(std::vector<float>(s.label.data(), s.label.data() + 4) == std::vector<float>{2, 20, 3, 30});
  }
  SECTION("objectives without per-target losses, eval sets of another width, multi_output_tree") {
    kboost::BasicBooster<TEST_EXECSPACE> b;
    for (char const* obj : {"survival:cox", "multi:softprob", "reg:quantileerror"}) {
      INFO(obj);
      CHECK_THROWS_WITH(b.train(kboost::parse_params({{"objective", obj}, {"num_class", "3"}, {"quantile_alpha", "0.5"},
                                                      {"num_round", "1"}}),
                                d),
                        ContainsSubstring("takes one label per row") && ContainsSubstring("3 label columns"));
    }
    auto const one = kboost::test::rows_of(kboost::test::multi_target_synthetic(golden["synthetic"], "binary", false), 0, 50);
    CHECK_THROWS_WITH(b.train(kboost::parse_params({{"num_round", "1"}}), d, {{"other", one}}),
                      ContainsSubstring("eval set 'other' has 2 label columns"));
    CHECK_THROWS_WITH(kboost::parse_params({{"multi_strategy", "multi_output_tree"}}),
                      ContainsSubstring("vector-leaf trees are not implemented"));
    CHECK_NOTHROW(kboost::parse_params({{"multi_strategy", "one_output_per_tree"}}));
  }
  SECTION("labels outside an objective's domain name the row and target") {
    auto bad = kboost::test::multi_target_synthetic(golden["synthetic"], "binary", false);
    bad.label(2 * 7 + 1) = 2.0f;
    CHECK_THROWS_WITH(kboost::check_labels(kboost::objective_params(kboost::parse_params({{"objective", "binary:logistic"}})),
                                           bad.label.data(), bad.label.extent(0), "b.csv", 0, 2),
                      ContainsSubstring("label 2 (target 1) of row 8 (1-based)"));
  }
  SECTION("element-wise metrics over rows × targets, one weight per row") {
    std::vector<float> const preds{1, 2, 3, 4}, labels{1, 0, 3, 6}, weights{1, 3};
    // squared errors 0, 4 (row 0, weight 1) and 0, 4 (row 1, weight 3): (4 + 12) / (1 + 1 + 3 + 3)
    CHECK(kboost::evaluate_metric("rmse", preds, labels, weights, 2) == std::sqrt(16.0 / 8.0));
    CHECK(kboost::evaluate_metric("mae", preds, labels, {}, 2) == 1.0);
    CHECK_THROWS_WITH(kboost::evaluate_metric("auc", preds, labels, {}, 2), ContainsSubstring("multi-target"));
  }
  SECTION("the library's rows × targets View trains the same model as the matrix") {
    kboost::TrainParams const p = kboost::parse_params({{"num_round", "3"}, {"max_depth", "3"}});
    Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::HostSpace> X("X", d.n_rows, d.n_features);
    Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::HostSpace> y("y", d.n_rows, d.n_targets);
    for (std::size_t i = 0; i < d.n_rows; ++i) {
      for (std::size_t f = 0; f < d.n_features; ++f) X(i, f) = d.dense(i, f);
      for (std::size_t t = 0; t < d.n_targets; ++t) y(i, t) = d.label(i * d.n_targets + t);
    }
    kboost::BasicBooster<TEST_EXECSPACE> from_views, from_matrix;
    from_views.train(p, X, y);
    from_matrix.train(p, d);
    CHECK(kboost::model_to_json_bytes(from_views.model()) == kboost::model_to_json_bytes(from_matrix.model()));
  }
}
