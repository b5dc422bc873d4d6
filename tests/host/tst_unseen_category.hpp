// A category value the model was not trained on, against upstream XGBoost 3.4.1
// (tests/golden/make_unseen_category_goldens.py): refused by default as upstream refuses it, or
// predicted as missing with `--unseen-category missing`, bit for bit as upstream predicts the same
// rows with those cells missing, and counted per column on standard error.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include "tests/test_util.hpp"

namespace {

/// Float32 bits (hex) of each value of a one-column prediction file.
std::vector<std::string> prediction_bits(std::string const& path) {
  std::ifstream in(path);
  std::vector<std::string> bits;
  std::string line;
  while (std::getline(in, line)) {
    char* end = nullptr;
    float const v = std::strtof(line.c_str(), &end);
    if (end == line.c_str()) continue;  // a header
    std::uint32_t u = 0;
    std::memcpy(&u, &v, sizeof u);
    char hex[9];
    std::snprintf(hex, sizeof hex, "%08x", u);
    bits.emplace_back(hex);
  }
  return bits;
}

}  // namespace

TEST_CASE("unseen categories " TEST_BACKEND ": refused as upstream 3.4.1 refuses them, or predicted as its missing",
          "[predict][input][categorical]") {
  nlohmann::json golden;
  std::ifstream(kboost::test::golden_path("unseen_category/goldens.json")) >> golden;
  REQUIRE(golden.at("xgboost") == "3.4.1");
  auto const dir = kboost::test::temp_dir("unseen_category");
  std::string const model = kboost::test::golden_path("unseen_category/model.json");
  std::string const data = kboost::test::golden_path("unseen_category/predict.csv");
  std::string const pred = (dir / "pred.csv").string();
  std::string out;

  // Upstream raises for an unseen value before, between and after the training categories.
  for (auto const& [value, message] : golden.at("upstream_errors").items())
    CHECK_THAT(message.get<std::string>(), Catch::Matchers::ContainsSubstring("Found a category not in the training set") &&
                                               Catch::Matchers::ContainsSubstring("`" + value + "`"));
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --out " + pred, out) != 0);
  // Data row 1 holds 'a', the first of the unseen values before (a), between (c) and after (g).
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring("predict.csv: data row 1: column 1 ('colour'): category 'a' is not "
                                                     "one of the training categories") &&
                      Catch::Matchers::ContainsSubstring("--unseen-category missing"));
  CHECK_FALSE(std::ifstream(pred).good());
  for (std::string const value : {"c", "g"}) {
    auto const one = kboost::test::write_file(dir, "one.csv", "x0,colour,x2\n0.5,b,0.1\n0.1," + value + ",0.2\n");
    CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + one + " --out " + pred, out) != 0);
    CHECK_THAT(out, Catch::Matchers::ContainsSubstring("data row 2: column 1 ('colour'): category '" + value + "'"));
  }

  REQUIRE(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --unseen-category missing --out " +
                                         pred, out) == 0);
  CHECK(prediction_bits(pred) == golden.at("expected_missing").get<std::vector<std::string>>());
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring(
                      "predict.csv: column 1 ('colour'): " + std::to_string(golden.at("unseen_cells").get<int>()) +
                      " values are categories the training data lacks (first 'a', data row 1), read as missing"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("unseen categories " TEST_BACKEND ": an eval file's category the training file lacks", "[train][input][categorical]") {
  auto const dir = kboost::test::temp_dir("unseen_category_eval");
  std::string rows = "colour,x,y\n";
  for (int i = 0; i < 40; ++i) rows += std::string(i % 2 ? "red" : "blue") + "," + std::to_string(i % 7) + "," + std::to_string(i % 2) + "\n";
  auto const train = kboost::test::write_file(dir, "tr.csv", rows);
  auto const eval = kboost::test::write_file(dir, "ev.csv", "colour,x,y\nred,1,1\ngreen,2,0\ngreen,3,1\n");
  std::string const common = "train --data " + train + " --eval test=" + eval +
                             " --label-column y --objective binary:logistic --num-round 2 --model-out " +
                             (dir / "m.json").string();
  std::string out;
  CHECK(kboost::test::run_cli(dir, common, out) != 0);
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring("ev.csv:3: column 0 ('colour'): category 'green' is not one of the "
                                                     "training categories of this column (") &&
                      Catch::Matchers::ContainsSubstring("tr.csv"));
  REQUIRE(kboost::test::run_cli(dir, common + " --unseen-category missing", out) == 0);
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring("kboost: warning: ") &&
                      Catch::Matchers::ContainsSubstring("ev.csv: column 0 ('colour'): 2 values are categories the "
                                                         "training data lacks (first 'green', data row 2), read as missing"));
  std::filesystem::remove_all(dir);
}
