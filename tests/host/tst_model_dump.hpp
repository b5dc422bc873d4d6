// Model dumps (text, json, dot; with and without statistics and feature maps), dump_model files and
// feature importance equal upstream XGBoost 3.2.0's get_dump / dump_model / get_score byte for byte
// on every model of tests/golden/models and ../shared/models; feature-map errors name file and line;
// the `kboost dump`, `kboost importance` and `kboost info --model` commands. Goldens are made by
// tests/golden/make_dump_goldens.py (its docstring describes the files).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <kboost/engine/importance.hpp>
#include <kboost/io/feature_map.hpp>
#include <kboost/io/model_dump.hpp>
#include <kboost/io/model_reader.hpp>
#include "tests/sha256.hpp"
#include "tests/test_util.hpp"

namespace {

using nlohmann::json;

/// "shared:<rel>" -> shared_path(rel) (skips without ../shared), "golden:<rel>" -> tests/golden/<rel>.
std::string resolve(std::string const& ref) {
  auto const colon = ref.find(':');
  std::string const where = ref.substr(0, colon), rel = ref.substr(colon + 1);
  return where == "shared" ? kboost::test::shared_path(rel) : kboost::test::golden_path(rel);
}

/// The golden files of one source ("shared" or "golden"), sorted.
std::vector<std::string> golden_files(std::string const& source) {
  std::vector<std::string> out;
  for (auto const& e : std::filesystem::directory_iterator(kboost::test::golden_path("dump")))
    if (e.path().extension() == ".json" && e.path().filename().string().rfind(source + "__", 0) == 0)
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

kboost::FeatureMap fmap_of(json const& entry) {
  if (entry.at("fmap").is_null()) return {};
  return kboost::read_feature_map(resolve(entry.at("fmap").get<std::string>()));
}

/// One dump entry: every tree's bytes (or their hashes), or an error where upstream refuses.
void check_dump(kboost::Model const& model, json const& e) {
  kboost::DumpOptions opt;
  opt.format = kboost::parse_dump_format(e.at("format").get<std::string>());
  opt.with_stats = e.at("with_stats").get<bool>();
  opt.fmap = fmap_of(e);
  auto const& r = e.at("result");
  INFO("format " << e.at("format") << ", with_stats " << opt.with_stats << ", fmap " << e.at("fmap"));
  if (r.contains("error")) {
    INFO("upstream: " << r.at("error").get<std::string>());
    CHECK_THROWS_AS(kboost::dump_trees(model, opt), std::runtime_error);
    return;
  }
  auto const trees = kboost::dump_trees(model, opt);
  if (r.contains("trees")) {
    CHECK(trees == r.at("trees").get<std::vector<std::string>>());
    return;
  }
  auto const hashes = r.at("sha256").get<std::vector<std::string>>();
  REQUIRE(trees.size() == hashes.size());
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < trees.size(); ++i) mismatches += kboost::test::sha256_hex(trees[i]) != hashes[i];
  if (r.contains("head"))
    for (std::size_t i = 0; i < r.at("head").size(); ++i) CHECK(trees[i] == r.at("head")[i].get<std::string>());
  CHECK(mismatches == 0);
}

/// The dump_model file bytes (no feature map, no statistics).
void check_dump_file(kboost::Model const& model, json const& e) {
  kboost::DumpOptions opt;
  opt.format = kboost::parse_dump_format(e.at("format").get<std::string>());
  INFO("dump_model format " << e.at("format"));
  if (e.at("result").contains("error")) {
    CHECK_THROWS_AS(kboost::dump_model_file(model, opt), std::runtime_error);
    return;
  }
  CHECK(kboost::test::sha256_hex(kboost::dump_model_file(model, opt)) == e.at("result").at("sha256").get<std::string>());
}

/// get_score: same keys in the same order, values exactly equal (float32 widened to double).
void check_scores(kboost::Model const& model, json const& e) {
  INFO("importance " << e.at("type") << ", fmap " << e.at("fmap"));
  auto const type = kboost::parse_importance_type(e.at("type").get<std::string>());
  auto const fmap = fmap_of(e);
  auto const& r = e.at("result");
  if (r.contains("error")) {
    CHECK_THROWS_AS(kboost::feature_importance(model, type, fmap), std::runtime_error);
    return;
  }
  auto const scores = kboost::feature_importance(model, type, fmap);
  auto const& pairs = r.at("pairs");
  REQUIRE(scores.size() == pairs.size());
  for (std::size_t i = 0; i < scores.size(); ++i) {
    CHECK(scores[i].first == pairs[i][0].get<std::string>());
    CHECK(scores[i].second == pairs[i][1].get<double>());
  }
}

/// Every golden of one source; dumps or scores. Returns the number of model files checked.
int check_goldens(std::string const& source, bool dumps) {
  int models = 0;
  for (auto const& file : golden_files(source)) {
    json const g = json::parse(kboost::test::read_file(file));
    INFO("golden " << file << " (" << g.at("model").get<std::string>() << ")");
    auto const model = kboost::read_model(resolve(g.at("model").get<std::string>()));
    REQUIRE(model.trees.size() == g.at("num_trees").get<std::size_t>());
    if (dumps) {
      for (auto const& e : g.at("dumps")) check_dump(model, e);
      for (auto const& e : g.at("dump_model")) check_dump_file(model, e);
    } else {
      for (auto const& e : g.at("scores")) check_scores(model, e);
    }
    ++models;
  }
  return models;
}

}  // namespace

TEST_CASE("model dump " TEST_BACKEND ": text/json/dot dumps equal XGBoost 3.2 on the repository's models", "[dump]") {
  int const models = check_goldens("golden", true);
  CHECK(models >= 26);
}

TEST_CASE("model dump " TEST_BACKEND ": text/json/dot dumps equal XGBoost 3.2 on every shared model", "[dump][shared]") {
  kboost::test::shared_path("models");  // skips here without ../shared (a SKIP inside CHECK would be an error)
  int const models = check_goldens("shared", true);
  CHECK(models >= 9);
}

TEST_CASE("importance " TEST_BACKEND ": get_score of XGBoost 3.2 on the repository's models", "[importance]") {
  int const models = check_goldens("golden", false);
  CHECK(models >= 26);
}

TEST_CASE("importance " TEST_BACKEND ": get_score of XGBoost 3.2 on every shared model", "[importance][shared]") {
  kboost::test::shared_path("models");  // skips here without ../shared (a SKIP inside CHECK would be an error)
  int const models = check_goldens("shared", false);
  CHECK(models >= 9);
}

TEST_CASE("model dump " TEST_BACKEND ": feature-map errors name the file, line and field", "[dump]") {
  using Catch::Matchers::ContainsSubstring;
  auto const fails = [](std::string const& text) {
    try {
      kboost::parse_feature_map(text, "my.fmap");
    } catch (std::runtime_error const& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(kboost::parse_feature_map("0\ta\tq\n\n1 b int\n2\tc\tc\n", "x").names ==
        std::vector<std::string>{"a", "b", "c"});
  CHECK_THAT(fails("0\ta\tq\n1\tb\n"), ContainsSubstring("my.fmap:2: expected 3 fields"));
  CHECK_THAT(fails("0\ta\tq\n2\tb\tq\n"), ContainsSubstring("my.fmap:2: field 1 (id): '2', expected 1"));
  CHECK_THAT(fails("0\ta\tq\n1\tb\tquantity\n"), ContainsSubstring("my.fmap:2: field 3 (type): unknown feature type 'quantity'"));
  CHECK_THAT(fails("x\ta\tq\n"), ContainsSubstring("my.fmap:1: field 1 (id)"));
  CHECK_THROWS_WITH(kboost::read_feature_map("/nonexistent/x.fmap"), ContainsSubstring("/nonexistent/x.fmap"));
  // a map of the wrong length is refused, as upstream's GenerateFeatureMap check
  auto const model = kboost::read_model(kboost::test::golden_path("models/binary_logistic.json"));
  kboost::DumpOptions opt;
  opt.fmap = kboost::parse_feature_map("0 a q\n1 b q\n", "short.fmap");
  CHECK_THROWS_WITH(kboost::dump_trees(model, opt), ContainsSubstring("the feature map has 2 features, the model 28"));
}

TEST_CASE("model dump " TEST_BACKEND ": a categorical split on a non-categorical map entry is refused", "[dump]") {
  using Catch::Matchers::ContainsSubstring;
  auto const model = kboost::read_model(kboost::test::golden_path("models/categorical.ubj"));
  kboost::DumpOptions opt;
  opt.fmap = kboost::parse_feature_map("0 a q\n1 b q\n2 c q\n3 d c\n4 e q\n5 f q\n", "x.fmap");
  CHECK_THROWS_WITH(kboost::dump_trees(model, opt),
                    ContainsSubstring("tree 0: node 0: feature 'a' is not categorical in the feature map"));
  opt.format = kboost::DumpFormat::kDot;  // upstream's dot dump does not check types
  CHECK(kboost::dump_trees(model, opt).size() == model.trees.size());
}

TEST_CASE("cli " TEST_BACKEND ": kboost dump and kboost importance", "[dump][importance][cli]") {
  using Catch::Matchers::ContainsSubstring;
  auto const dir = kboost::test::temp_dir("model_dump");
  std::string const model_path = kboost::test::golden_path("models/categorical.ubj");
  std::string const fmap = kboost::test::golden_path("dump/categorical.fmap");
  auto const model = kboost::read_model(model_path);
  std::string out;
  for (std::string fmt : {"text", "json", "dot"}) {
    std::string const file = (dir / ("dump." + fmt)).string();
    REQUIRE(kboost::test::run_cli(dir, "dump --model " + model_path + " --format " + fmt + " --with-stats --fmap " +
                                           fmap + " --out " + file, out) == 0);
    kboost::DumpOptions opt;
    opt.format = kboost::parse_dump_format(fmt);
    opt.with_stats = true;
    opt.fmap = kboost::read_feature_map(fmap);
    CHECK(kboost::test::read_file(file) == kboost::dump_model_file(model, opt));
  }
  REQUIRE(kboost::test::run_cli(dir, "dump --model " + model_path, out) == 0);
  CHECK(out == kboost::dump_model_file(model, {}));
  CHECK(kboost::test::run_cli(dir, "dump --model " + model_path + " --format yaml", out) != 0);
  CHECK(kboost::test::run_cli(dir, "dump --model " + model_path + " --fmap " + (dir / "none.fmap").string(), out) != 0);
  CHECK_THAT(out, ContainsSubstring("none.fmap"));

  std::string const csv = (dir / "gain.csv").string();
  REQUIRE(kboost::test::run_cli(dir, "importance --model " + model_path + " --type total_gain --fmap " + fmap +
                                         " --out " + csv, out) == 0);
  std::string expected = "feature,total_gain\n";
  for (auto const& [name, value] :
       kboost::feature_importance(model, kboost::ImportanceType::kTotalGain, kboost::read_feature_map(fmap))) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", value);
    expected += name + "," + buf + "\n";
  }
  CHECK(kboost::test::read_file(csv) == expected);
  REQUIRE(kboost::test::run_cli(dir, "importance --model " + model_path, out) == 0);
  CHECK_THAT(out, ContainsSubstring("feature,weight\nf0,"));
  CHECK(kboost::test::run_cli(dir, "importance --model " + model_path + " --type average", out) != 0);
}

TEST_CASE("cli " TEST_BACKEND ": kboost info --model", "[info][cli]") {
  using Catch::Matchers::ContainsSubstring;
  auto const dir = kboost::test::temp_dir("info_model");
  std::string out;
  REQUIRE(kboost::test::run_cli(dir, "info --model " + kboost::test::golden_path("models/multi_softprob.json"), out) == 0);
  for (char const* line : {"version: 3.2.0\n", "objective: multi:softprob\n", "booster: gbtree\n", "num_feature: 28\n",
                           "num_class: 5\n", "num_target: 1\n", "trees: 40\n", "rounds: 8\n", "depth: max ",
                           "leaves: ", "leaf type: scalar\n", "best_iteration: "})
    CHECK_THAT(out, ContainsSubstring(line));
  REQUIRE(kboost::test::run_cli(dir, "info --model " + kboost::test::golden_path("models/vector_leaf.ubj"), out) == 0);
  CHECK_THAT(out, ContainsSubstring("leaf type: vector (multi_output_tree)\n"));
  REQUIRE(kboost::test::run_cli(dir, "info --model " + kboost::test::golden_path("models/dart.json"), out) == 0);
  CHECK_THAT(out, ContainsSubstring("booster: dart"));
  CHECK_THAT(out, ContainsSubstring("feature_names: none (f0, f1, ...)\ncategorical features: none\n"));
  // A model with upstream's category encoder: names and each categorical feature's categories.
  REQUIRE(kboost::test::run_cli(dir, "info --model " + kboost::test::golden_path("unseen_category/model.json"), out) == 0);
  CHECK_THAT(out, ContainsSubstring("feature_names: x0, colour, x2\ncategorical features: 1\n  1 'colour' [b, d, f]\n"));
  std::string const data = kboost::test::write_file(dir, "d.csv", "y,a\n0,1\n1,2\n");
  CHECK(kboost::test::run_cli(dir, "info --model x.json --data " + data, out) != 0);
  CHECK(kboost::test::run_cli(dir, "info", out) != 0);
  CHECK_THAT(out, ContainsSubstring("exactly one of --data and --model"));
  REQUIRE(kboost::test::run_cli(dir, "info --data " + data, out) == 0);
  CHECK_THAT(out, ContainsSubstring("rows: 2\n"));
}
