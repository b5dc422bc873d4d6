// What `kboost predict` does with its input: XGBoost >= 3.1 category encoders (cats.enc) applied to
// it, text columns without an encoder refused (or coded by --reference-data), header and
// feature-count checks, a dense-size guard before densify, and --repeat's range.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <kboost/kernels/densify.hpp>
#include <kboost/io/model_reader.hpp>
#include "tests/predict_test_models.hpp"
#include "tests/test_util.hpp"

namespace {

/// Numeric CSV cells (header skipped) as rows of doubles; `first_col` drops leading columns.
std::vector<std::vector<double>> read_numbers(std::string const& path, std::size_t first_col = 0) {
  std::ifstream f(path);
  std::string line;
  std::getline(f, line);
  std::vector<std::vector<double>> rows;
  while (std::getline(f, line)) {
    std::stringstream ss(line);
    std::string cell;
    std::vector<double> r;
    for (std::size_t c = 0; std::getline(ss, cell, ','); ++c)
      if (c >= first_col) r.push_back(std::strtod(cell.c_str(), nullptr));
    rows.push_back(r);
  }
  return rows;
}

/// Our predictions (CSV, maybe headerless) against the source repository's recorded outputs.
void check_close(std::string const& ours_path, std::vector<std::vector<double>> const& expected) {
  std::ifstream f(ours_path);
  std::string line;
  std::vector<std::vector<double>> ours;
  while (std::getline(f, line)) {
    if (line.empty() || !(std::isdigit(static_cast<unsigned char>(line[0])) || line[0] == '-')) continue;
    std::stringstream ss(line);
    std::string cell;
    std::vector<double> r;
    while (std::getline(ss, cell, ',')) r.push_back(std::strtod(cell.c_str(), nullptr));
    ours.push_back(r);
  }
  REQUIRE(ours.size() == expected.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    REQUIRE(ours[i].size() == expected[i].size());
    for (std::size_t k = 0; k < ours[i].size(); ++k)
      if (std::fabs(ours[i][k] - expected[i][k]) > 1e-5 * std::max(1.0, std::fabs(expected[i][k]))) ++bad;
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("predict input " TEST_BACKEND ": category encoder of a 3.3 model is read", "[predict][input][shared]") {
  auto m = kboost::read_model(kboost::test::shared_path("models/jpmml_auto_reg_dart_v330.json"));
  REQUIRE(m.category_encoder.size() == 7);
  CHECK(m.has_category_encoder());
  CHECK(m.category_encoder[0].strings == std::vector<std::string>{"3", "4", "5", "6", "8"});
  CHECK(m.category_encoder[1].empty());
  CHECK(m.category_encoder[5].strings.size() == 13);
  CHECK(m.category_encoder[5].strings.front() == "70");
  CHECK(m.category_encoder[6].strings == std::vector<std::string>{"1", "2", "3"});
  auto old = kboost::read_model(kboost::test::shared_path("models/jpmml_auto_multirf_v300.json"));
  CHECK_FALSE(old.has_category_encoder());
}

TEST_CASE("predict input " TEST_BACKEND ": models with an encoder predict the recorded outputs",
          "[predict][input][shared]") {
  auto const dir = kboost::test::temp_dir("predict_input_enc");
  std::string out;
  auto const models = kboost::test::shared_path("models/");
  // Numeric category columns (cylinders 8 -> code of "8"), all 392 rows; recorded with best_iteration + 1 = 22 rounds.
  auto const pred = (dir / "auto.csv").string();
  REQUIRE(kboost::test::run_cli(dir, "predict --model " + models + "jpmml_auto_reg_dart_v330.json --data " + models +
                              "jpmml_auto_reg_dart_v330.input.csv --label-column mpg --iteration-range 0:22 --out " + pred, out) == 0);
  check_close(pred, read_numbers(models + "jpmml_auto_reg_dart_v330.expected.csv"));
  // String categories; the full file, then 5 rows (most categories absent from the file).
  auto const audit = (dir / "audit.csv").string();
  REQUIRE(kboost::test::run_cli(dir, "predict --model " + models + "jpmml_audit_softprob_dart_v341.ubj --data " + models +
                              "jpmml_audit_softprob_dart_v341.input.csv --label-column Adjusted --out " + audit, out) == 0);
  auto expected = read_numbers(models + "jpmml_audit_softprob_dart_v341.expected.csv", 1);
  check_close(audit, expected);
  auto const input = kboost::test::read_file(models + "jpmml_audit_softprob_dart_v341.input.csv");
  std::size_t pos = 0;
  for (int i = 0; i < 6; ++i) pos = input.find('\n', pos) + 1;
  auto const small = kboost::test::write_file(dir, "small.csv", input.substr(0, pos));
  REQUIRE(kboost::test::run_cli(dir, "predict --model " + models + "jpmml_audit_softprob_dart_v341.ubj --data " + small +
                              " --label-column Adjusted --out " + audit, out) == 0);
  expected.resize(5);
  check_close(audit, expected);
}

TEST_CASE("predict input " TEST_BACKEND ": recode_categories refuses unseen categories or counts them as missing",
          "[predict][input]") {
  float const x[] = {0, 7,
                     1, 5,
                     std::nanf(""), 9};
  auto data = [&] {
    kboost::HostDMatrix d = kboost::host_dmatrix(x, 3, 2);
    d.info.source = "p.csv";
    d.info.feature_names = {"colour", "size"};
    d.info.categories[0] = {"b", "zz"};  // per-file codes: b = 0, zz = 1
    return d;
  };
  std::vector<kboost::FeatureCategories> enc(2);
  enc[0].strings = {"a", "b"};
  enc[1].numbers = {5, 7};
  auto refused = data();
  try {
    kboost::recode_categories(enc, refused);
    FAIL("expected an error");
  } catch (std::runtime_error const& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("p.csv: data row 2: column 0 ('colour'): category 'zz' is not one of "
                                                     "the training categories of this column (the model's category list)"));
  }
  auto d = data();
  kboost::recode_categories(enc, d, kboost::UnseenCategory::kMissing);
  CHECK(d.dense(0, 0) == 1.0f);
  CHECK(std::isnan(d.dense(1, 0)));  // "zz" unseen
  CHECK(std::isnan(d.dense(2, 0)));
  CHECK(d.dense(0, 1) == 1.0f);
  CHECK(d.dense(1, 1) == 0.0f);
  CHECK(std::isnan(d.dense(2, 1)));  // 9 unseen
  REQUIRE(d.info.unseen_categories.size() == 2);
  CHECK(d.info.unseen_categories.at(0).first_value == "zz");
  CHECK(d.info.unseen_categories.at(0).first_row == 1);
  CHECK(d.info.unseen_categories.at(1).cells == 1);
  CHECK(d.info.unseen_categories.at(1).first_value == "9");
  CHECK(d.info.unseen_categories.at(1).first_row == 2);
}

TEST_CASE("predict input " TEST_BACKEND ": text columns need an encoder or --reference-data", "[predict][input]") {
  auto const dir = kboost::test::temp_dir("predict_input_text");
  auto const model = kboost::test::write_file(dir, "tiny.json", kboost::test::tiny_model_json().dump());
  auto const data = kboost::test::write_file(dir, "p.csv", "a,b\nx,2\n");
  auto const train = kboost::test::write_file(dir, "t.csv", "a,b\nw,0\nx,0\n");
  auto const pred = (dir / "p_out.csv").string();
  std::string out;
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --out " + pred, out) != 0);
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring("p.csv") && Catch::Matchers::ContainsSubstring("'a'") &&
                      Catch::Matchers::ContainsSubstring("--reference-data"));
  // x is code 1 in the training file: x0 = 1 >= 0.5, x1 = 2 >= 1.5 -> leaf 3 + base 0.5.
  REQUIRE(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --reference-data " + train + " --out " + pred, out) == 0);
  auto rows = read_numbers(pred);
  auto const text = kboost::test::read_file(pred);
  CHECK(text.find("3.5") != std::string::npos);
  CHECK(text.find("-0.5") == std::string::npos);
  (void)rows;
}

TEST_CASE("predict input " TEST_BACKEND ": columns must match the model's features", "[predict][input]") {
  auto const dir = kboost::test::temp_dir("predict_input_cols");
  auto j = kboost::test::tiny_model_json();
  j["learner"]["feature_names"] = {"f0", "f1"};
  j["learner"]["feature_types"] = {"float", "float"};
  auto const model = kboost::test::write_file(dir, "named.json", j.dump());
  auto const pred = (dir / "out.csv").string();
  std::string out;
  auto const ok = kboost::test::write_file(dir, "ok.csv", "f0,f1\n1,2\n");
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + ok + " --out " + pred, out) == 0);
  auto const swapped = kboost::test::write_file(dir, "swapped.csv", "f1,f0\n1,2\n");
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + swapped + " --out " + pred, out) != 0);
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring("column 0 is 'f1'") && Catch::Matchers::ContainsSubstring("'f0'"));
  auto const narrow = kboost::test::write_file(dir, "narrow.csv", "f0\n1\n");
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + narrow + " --out " + pred, out) != 0);
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring("narrow.csv") && Catch::Matchers::ContainsSubstring("1 feature columns") &&
                      Catch::Matchers::ContainsSubstring("2 features"));
  auto const wide = kboost::test::write_file(dir, "wide.csv", "1,2,3\n");
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + wide + " --out " + pred, out) != 0);
}

TEST_CASE("predict input " TEST_BACKEND ": dense size guard and --repeat range", "[predict][input]") {
  CHECK_THROWS_WITH(kboost::check_dense_size(1000000000, 2000000001, "x.svm"),
                    Catch::Matchers::ContainsSubstring("x.svm") && Catch::Matchers::ContainsSubstring("2000000001 features") &&
                        Catch::Matchers::ContainsSubstring("bytes"));
  CHECK_NOTHROW(kboost::check_dense_size(1000, 1000, "small"));
  auto const dir = kboost::test::temp_dir("predict_input_repeat");
  auto const model = kboost::test::write_file(dir, "tiny.json", kboost::test::tiny_model_json().dump());
  auto const data = kboost::test::write_file(dir, "d.csv", "1,2\n");
  std::string out;
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --out " + (dir / "o.csv").string() + " --repeat 0", out) != 0);
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring("--repeat") && Catch::Matchers::ContainsSubstring("1"));
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --out " + (dir / "o.csv").string() + " --repeat 2", out) == 0);
}
