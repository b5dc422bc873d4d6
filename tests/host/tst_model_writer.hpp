// Model writer: schema fields as upstream 3.2, deterministic bytes, atomic write, round trips
// through kboost's reader, and byte identity with upstream: every model in tests/golden/models
// (saved by xgboost 3.2) re-saved by kboost in its own format gives exactly the upstream file.
// scripts/check_model_writer.py loads the written files into upstream xgboost and compares
// predictions (set KBOOST_WRITER_OUT=<dir> to keep the re-saved files for it).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <nlohmann/json.hpp>

#include <kboost/io/model_reader.hpp>
#include <kboost/io/model_writer.hpp>
#include "tests/test_util.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

kboost::Model small_model() {
  kboost::Model m;
  m.objective = "binary:logistic";
  m.objective_config = kboost::ObjectiveConfig{"binary:logistic", "reg_loss_param", {{"scale_pos_weight", "1"}}};
  m.base_score = {0.4821127f};
  m.num_feature = 3;
  for (int t = 0; t < 2; ++t) {
    kboost::TreeModel tr;
    tr.left_children = {1, -1, -1};
    tr.right_children = {2, -1, -1};
    tr.parents = {-1, 0, 0};
    tr.split_indices = {t, 0, 0};
    tr.split_conditions = {0.5f, -0.1f * (t + 1), 0.3f};
    tr.default_left = {1, 0, 0};
    tr.split_type = {0, 0, 0};
    tr.loss_changes = {12.5f, 0.0f, 0.0f};
    tr.sum_hessian = {100.0f, 40.0f, 60.0f};
    tr.base_weights = {0.01f, -0.1f * (t + 1), 0.3f};
    tr.num_feature = 3;
    m.trees.push_back(tr);
    m.tree_info.push_back(0);
  }
  m.iteration_indptr = {0, 1, 2};
  return m;
}

void require_same(kboost::Model const& a, kboost::Model const& b) {
  REQUIRE(a.trees.size() == b.trees.size());
  CHECK(a.objective == b.objective);
  CHECK(a.base_score == b.base_score);
  CHECK(a.num_class == b.num_class);
  CHECK(a.num_feature == b.num_feature);
  CHECK(a.tree_info == b.tree_info);
  CHECK(a.iteration_indptr == b.iteration_indptr);
  CHECK(a.booster == b.booster);
  CHECK(a.weight_drop == b.weight_drop);
  for (std::size_t t = 0; t < a.trees.size(); ++t) {
    auto const &x = a.trees[t], &y = b.trees[t];
    INFO("tree " << t);
    CHECK(x.left_children == y.left_children);
    CHECK(x.right_children == y.right_children);
    CHECK(x.split_indices == y.split_indices);
    CHECK(x.default_left == y.default_left);
    CHECK(x.categories == y.categories);
    CHECK(x.categories_nodes == y.categories_nodes);
    REQUIRE(x.split_conditions.size() == y.split_conditions.size());
    CHECK(std::memcmp(x.split_conditions.data(), y.split_conditions.data(), 4 * x.split_conditions.size()) == 0);
    CHECK(std::memcmp(x.base_weights.data(), y.base_weights.data(), 4 * x.base_weights.size()) == 0);
    CHECK(std::memcmp(x.sum_hessian.data(), y.sum_hessian.data(), 4 * x.sum_hessian.size()) == 0);
    CHECK(std::memcmp(x.loss_changes.data(), y.loss_changes.data(), 4 * x.loss_changes.size()) == 0);
  }
}

}  // namespace

TEST_CASE("model writer " TEST_BACKEND ": upstream 3.2 schema fields", "[model_writer]") {
  auto m = small_model();
  auto j = nlohmann::json::parse(kboost::model_to_json_bytes(m));
  CHECK(j["version"] == nlohmann::json::array({3, 2, 0}));
  auto const& l = j["learner"];
  CHECK(l["learner_model_param"]["base_score"] == "[4.821127E-1]");
  CHECK(l["learner_model_param"]["num_feature"] == "3");
  CHECK(l["learner_model_param"]["num_class"] == "0");
  CHECK(l["learner_model_param"]["num_target"] == "1");
  CHECK(l["learner_model_param"]["boost_from_average"] == "1");
  CHECK(l["objective"]["reg_loss_param"]["scale_pos_weight"] == "1");
  auto const& gb = l["gradient_booster"];
  CHECK(gb["name"] == "gbtree");
  CHECK(gb["model"]["gbtree_model_param"]["num_trees"] == "2");
  CHECK(gb["model"]["iteration_indptr"] == nlohmann::json::array({0, 1, 2}));
  auto const& t = gb["model"]["trees"][1];
  CHECK(t["id"] == 1);
  CHECK(t["parents"][0] == 2147483647);  // upstream writes Node::Parent() of the root
  CHECK(t["tree_param"]["num_nodes"] == "3");
  CHECK(t["split_conditions"][1].get<float>() == -0.2f);
  // shortest float32 text, e.g. 0.3f -> 0.3 (not 0.30000001192092896)
  CHECK(kboost::model_to_json_bytes(m).find("0.30000001") == std::string::npos);
  CHECK(kboost::upstream_float_string(0.5f) == "5E-1");
  CHECK(kboost::upstream_float_string(1.985f) == "1.985E0");
  CHECK(kboost::upstream_float_string(206855.81f) == "2.0685581E5");
  CHECK(kboost::upstream_float_string(-8.695102E-2f) == "-8.695102E-2");
  CHECK(kboost::upstream_float_string(0.0f) == "0E0");
}

TEST_CASE("model writer " TEST_BACKEND ": deterministic bytes, atomic file, round trip", "[model_writer]") {
  auto m = small_model();
  CHECK(kboost::model_to_json_bytes(m) == kboost::model_to_json_bytes(m));
  CHECK(kboost::model_to_ubjson_bytes(m) == kboost::model_to_ubjson_bytes(small_model()));
  auto dir = kboost::test::temp_dir("model_writer");
  for (std::string name : {"m.json", "m.ubj"}) {
    auto path = (dir / name).string();
    kboost::save_model(m, path);
    kboost::save_model(m, path);  // overwrite in place
    auto bytes = kboost::test::read_file(path);
    CHECK(bytes == (name == "m.ubj" ? kboost::model_to_ubjson_bytes(m) : kboost::model_to_json_bytes(m)));
    CHECK((bytes[0] == '{') == true);
    require_same(m, kboost::read_model(path));
  }
  std::size_t files = 0;
  for (auto const& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  CHECK(files == 2);  // no temporary left behind
  CHECK_THROWS_AS(kboost::save_model(m, (dir / "no_such_dir" / "m.json").string()), std::runtime_error);
  auto broken = m;
  broken.trees[0].parents.pop_back();
  CHECK_THROWS_AS(kboost::model_to_json_bytes(broken), std::runtime_error);
}

TEST_CASE("model writer " TEST_BACKEND ": vector-leaf trees without statistics", "[model_writer]") {
  // 2.x's MultiTargetTree stored no loss_changes or sum_hessian; 3.x's schema requires both, so
  // they are written as zeros, and the model reads back with them.
  auto m = kboost::read_model(kboost::test::golden_path("models/vector_leaf.ubj"));
  REQUIRE(m.trees[0].size_leaf_vector > 1);
  m.trees[0].loss_changes.clear();
  m.trees[0].sum_hessian.clear();
  kboost::validate_model(m, "2.x vector leaves");
  auto const back = kboost::parse_model(kboost::model_to_json_bytes(m), "written");
  std::vector<float> const zeros(m.trees[0].num_nodes(), 0.0f);
  CHECK(back.trees[0].loss_changes == zeros);
  CHECK(back.trees[0].sum_hessian == zeros);
  CHECK(back.trees[0].leaf_weights == m.trees[0].leaf_weights);
  m.trees[1].sum_hessian.pop_back();
  CHECK_THROWS_WITH(kboost::model_to_json_bytes(m), Catch::Matchers::ContainsSubstring("tree 1: sum_hessian has"));
}

TEST_CASE("model writer " TEST_BACKEND ": upstream models survive read -> write -> read", "[model_writer]") {
  char const* keep = std::getenv("KBOOST_WRITER_OUT");
  auto dir = kboost::test::temp_dir("model_writer_rt");
  int n = 0;
  for (auto const& e : std::filesystem::directory_iterator(kboost::test::golden_path("models"))) {
    auto const ext = e.path().extension().string();
    if (ext != ".json" && ext != ".ubj") continue;
    auto const orig = kboost::read_model(e.path().string());
    // every golden model was saved by upstream 3.2: re-saving it in its own format gives its bytes
    INFO(e.path().filename().string());
    CHECK((ext == ".ubj" ? kboost::model_to_ubjson_bytes(orig) : kboost::model_to_json_bytes(orig)) ==
          kboost::test::read_file(e.path().string()));
    for (std::string out_ext : {".json", ".ubj"}) {
      auto out = (std::filesystem::path(keep ? keep : dir.string()) / (e.path().stem().string() + out_ext)).string();
      kboost::save_model(orig, out);
      INFO(e.path().filename().string() << " -> " << out);
      require_same(orig, kboost::read_model(out));
    }
    ++n;
  }
  CHECK(n >= 20);
}
