// Loader: every shared model's schema facts, float32 number parsing, and one test per malformed-model
// case (each error names the file, the tree and the field).
#include <catch2/catch_test_macros.hpp>
#include <nlohmann/json.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstring>

#include <kboost/io/model_reader.hpp>
#include "tests/predict_test_models.hpp"
#include "tests/test_util.hpp"

using Catch::Matchers::ContainsSubstring;

namespace {
kboost::Model load_text(nlohmann::json const& j) { return kboost::parse_model(j.dump(), "tiny.json"); }
}  // namespace

TEST_CASE("model reader " TEST_BACKEND ": schema facts of every shared model (XGBoost 1.0 to 3.4)", "[model_reader][shared]") {
  using kboost::read_model;
  auto rank = read_model(kboost::test::shared_path("models/xgb100_rank_ndcg.json"));
  CHECK(rank.version == std::array<int, 3>{1, 0, 0});
  CHECK(rank.objective == "rank:ndcg");
  CHECK(rank.trees.size() == 4);
  CHECK(rank.iteration_indptr == std::vector<int>{0, 1, 2, 3, 4});  // rebuilt: 1.0 has none
  CHECK(rank.trees[0].split_type.empty());
  CHECK(rank.base_score == std::vector<float>{0.5f});

  auto iris = read_model(kboost::test::shared_path("models/xgbgo_iris_softmax_v120.json"));  // pretty-printed
  CHECK(iris.num_class == 3);
  CHECK(iris.base_score == std::vector<float>(3, 0.5f));
  CHECK(iris.num_rounds() == 10);

  auto dart132 = read_model(kboost::test::shared_path("models/jpmml_iris_dart_v132.json"));
  CHECK(dart132.booster == "dart");
  CHECK(dart132.weight_drop.size() == 51);

  auto toycat = read_model(kboost::test::shared_path("models/tl2cgen_toycat_reg_v140.json"));  // bare NaN tokens
  CHECK(toycat.trees.size() == 5);
  CHECK(toycat.trees[0].split_type[0] == 1);
  CHECK(std::isnan(toycat.trees[0].split_conditions[0]));

  auto visit = read_model(kboost::test::shared_path("models/jpmml_visit_poisson_dart_v172.ubj"));
  CHECK(visit.objective == "count:poisson");
  CHECK(visit.booster == "dart");
  CHECK(visit.weight_drop.size() == 31);
  CHECK(visit.feature_types.size() == 9);

  auto auditna = read_model(kboost::test::shared_path("models/jpmml_auditna_binary_cat_v210.json"));
  CHECK(auditna.base_score == std::vector<float>{2.5760543e-1f});

  auto multirf = read_model(kboost::test::shared_path("models/jpmml_auto_multirf_v300.json"));
  CHECK(multirf.num_target == 2);
  CHECK(multirf.num_parallel_tree == 37);
  CHECK(multirf.base_score == std::vector<float>(2, 1.9493622e1f));  // scalar string broadcast
  CHECK(multirf.num_rounds() == 1);

  auto dart330 = read_model(kboost::test::shared_path("models/jpmml_auto_reg_dart_v330.json"));
  CHECK(dart330.booster == "dart");  // "gbtree" + weight_drop beside "model"
  CHECK(dart330.weight_drop.size() == 25);
  CHECK(dart330.base_score == std::vector<float>{2.3445919e1f});

  auto dart341 = read_model(kboost::test::shared_path("models/jpmml_audit_softprob_dart_v341.ubj"));
  CHECK(dart341.booster == "dart");  // weight_drop inside "model"
  CHECK(dart341.weight_drop.size() == 62);
  CHECK(dart341.base_score == std::vector<float>{5.890679e-1f, -5.890678e-1f});

  auto tiny = read_model(kboost::test::shared_path("models/nvforest_tiny_reg_v312.json"));
  CHECK(tiny.trees.size() == 1);
  CHECK(tiny.trees[0].split_conditions[0] == 1.0f);
}

TEST_CASE("model reader " TEST_BACKEND ": thresholds are parsed as float32 text, not via double", "[model_reader]") {
  auto j = kboost::test::tiny_model_json();
  // 1.00000006 is a float32 midpoint neighbour: strtof and (float)strtod agree here, but the point is
  // that each parsed value equals strtof of the same text.
  auto text = j.dump();
  for (char const* num : {"0.1", "16777217", "3.4028235E38", "1.00000006", "1e-45", "-0.0"}) {
    auto t = text;
    t.replace(t.find("[0.5,-1.0,1.5"), 4, std::string("[") + num);
    auto m = kboost::parse_model(t, "num.json");
    float want = std::strtof(num, nullptr);
    INFO(num);
    CHECK(std::memcmp(&m.trees[0].split_conditions[0], &want, 4) == 0);
  }
  // default_left as JSON booleans (1.0-1.5 files) and base_score as a plain number string.
  j["learner"]["gradient_booster"]["model"]["trees"][0]["default_left"] = {true, false, false, false, false};
  j["learner"]["learner_model_param"]["base_score"] = "0.500000";
  auto m = load_text(j);
  CHECK(m.trees[0].default_left[0] == 1);
  CHECK(m.base_score == std::vector<float>{0.5f});
}

TEST_CASE("model reader " TEST_BACKEND ": malformed models are clear errors", "[model_reader]") {
  using kboost::parse_model;
  auto base = kboost::test::tiny_model_json();
  auto tree = [](nlohmann::json& j) -> nlohmann::json& { return j["learner"]["gradient_booster"]["model"]["trees"][0]; };
  auto expect = [&](nlohmann::json const& j, std::string const& what) {
    INFO("expected error containing: " << what);
    CHECK_THROWS_WITH(load_text(j), ContainsSubstring("tiny.json") && ContainsSubstring(what));
  };
  REQUIRE_NOTHROW(load_text(base));
  { auto j = base; tree(j)["left_children"] = {1, -1, 3, -1}; expect(j, "tree 0: field 'left_children': expected 5 entries"); }
  { auto j = base; tree(j)["right_children"][2] = 9; expect(j, "tree 0: field 'left_children/right_children'"); }
  { auto j = base; tree(j)["left_children"][2] = 1; expect(j, "reached twice"); }  // shared child / cycle
  { auto j = base; tree(j)["left_children"][2] = 0; expect(j, "out of range"); }   // back edge to the root
  { auto j = base; tree(j)["split_conditions"][2] = nullptr; expect(j, "NaN threshold"); }
  { auto j = base; tree(j)["split_conditions"][3] = nullptr; expect(j, "NaN leaf"); }
  { auto j = base; tree(j)["split_indices"][0] = 7; expect(j, "field 'split_indices'"); }
  { auto j = base; tree(j)["split_type"][0] = 3; expect(j, "split_type"); }
  { auto j = base; tree(j).erase("parents"); expect(j, "field 'parents': missing"); }
  for (char const* stat : {"loss_changes", "sum_hessian", "base_weights"}) {
    auto j = base;
    tree(j).erase(stat);
    expect(j, std::string("tree 0: field '") + stat + "': missing");
  }
  {  // a Model built in memory goes through validate_model on its way to the predictor and SHAP
    auto m = load_text(base);
    m.trees[0].sum_hessian.pop_back();
    CHECK_THROWS_WITH(kboost::validate_model(m, "in memory"),
                      ContainsSubstring("in memory: tree 0: field 'sum_hessian': 4 entries for 5 nodes (expected 5)"));
  }
  { auto j = base; tree(j)["split_conditions"][0] = "x"; expect(j, "split_conditions"); }
  { auto j = base; j["learner"]["objective"]["name"] = "reg:nonsense"; expect(j, "unknown objective 'reg:nonsense'"); }
  { auto j = base; j["learner"]["gradient_booster"]["name"] = "gblinear"; expect(j, "unsupported booster"); }
  { auto j = base; j["learner"]["learner_model_param"]["base_score"] = "[5E-1,1]"; expect(j, "base_score"); }
  { auto j = base; j["learner"]["learner_model_param"]["base_score"] = "abc"; expect(j, "base_score"); }
  { auto j = base; j["learner"]["learner_model_param"]["num_feature"] = "two"; expect(j, "num_feature"); }
  { auto j = base; j["learner"]["gradient_booster"]["model"]["tree_info"] = {3}; expect(j, "tree_info"); }
  { auto j = base; j["learner"]["gradient_booster"]["model"]["iteration_indptr"] = {0, 2}; expect(j, "iteration_indptr"); }
  { auto j = base; j["learner"]["gradient_booster"]["model"]["gbtree_model_param"]["num_trees"] = "2"; expect(j, "num_trees"); }
  { auto j = base; j["learner"]["gradient_booster"]["weight_drop"] = {1.0, 0.5}; expect(j, "weight_drop"); }
  {
    auto j = base;
    tree(j)["split_type"][2] = 1;
    tree(j)["categories_nodes"] = {2};
    tree(j)["categories_segments"] = {0};
    tree(j)["categories_sizes"] = {4};
    tree(j)["categories"] = {1, 3};
    expect(j, "categories_segments");
  }
  // Not JSON, truncated JSON, truncated UBJSON, empty file.
  CHECK_THROWS_WITH(parse_model("{\"version\": [1,", "tiny.json"), ContainsSubstring("tiny.json") && ContainsSubstring("not a valid"));
  CHECK_THROWS_WITH(parse_model("", "tiny.json"), ContainsSubstring("tiny.json") && ContainsSubstring("the model file is empty"));
  CHECK_THROWS_WITH(parse_model(" \n", "tiny.ubj"), ContainsSubstring("tiny.ubj") && ContainsSubstring("the model file is empty"));
  CHECK_THROWS_WITH(parse_model("hello", "tiny.json"), ContainsSubstring("not a valid"));
  auto ubj = nlohmann::json::to_ubjson(base);
  std::string ubj_text(ubj.begin(), ubj.begin() + static_cast<long>(ubj.size() / 2));
  CHECK_THROWS_WITH(parse_model(ubj_text, "tiny.json"), ContainsSubstring("not a valid"));
  std::string full(ubj.begin(), ubj.end());
  CHECK_NOTHROW(parse_model(full, "tiny.ubj"));
  CHECK_THROWS_WITH(kboost::read_model("/nonexistent/model.json"), ContainsSubstring("/nonexistent/model.json"));
}

TEST_CASE("model reader " TEST_BACKEND ": upstream's bare Infinity and -Infinity in JSON are read as float values",
          "[model_reader]") {
  // XGBoost's own JSON writer (src/common/charconv.cc) spells non-finite floats as bare words;
  // GPU-trained trees carry -Infinity split conditions.
  std::string text = kboost::test::read_file(kboost::test::golden_path("models/reg_squarederror.json"));
  std::string const key = "\"split_conditions\":[";
  auto const at = text.find(key) + key.size();
  auto const end = text.find(',', at);
  auto const second_end = text.find(',', end + 1);
  text = text.substr(0, at) + "-Infinity," + "+Infinity" + text.substr(second_end);
  kboost::Model const m = kboost::parse_model(text, "inf.json");
  auto const& c = m.trees.at(0).split_conditions;
  CHECK(std::isinf(c[0]));
  CHECK(c[0] < 0);
  CHECK(std::isinf(c[1]));
  CHECK(c[1] > 0);
}
