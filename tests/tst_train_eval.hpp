// Eval sets and early stopping as upstream's xgboost.train (callback.EarlyStopping): on LightGBM's
// binary example with eval sets train and test, metrics error and logloss, 5 rounds of patience,
// kboost stops at the same round with the same best_iteration / best_score attributes and the same
// per-round test logloss. Golden: tests/golden/train_early_stopping.json (make_train_goldens.py).
// Also: `kboost train` with a config file, parameter errors that name the parameter, and a fit
// that diverges (non-finite leaves) stopped at its round with no model written.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/model_reader.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/params.hpp>
#include "tests/test_util.hpp"

TEST_CASE("train " TEST_BACKEND ": early stopping matches upstream", "[train][eval][shared]") {
  using kboost::test::shared_path;
  std::ifstream in(kboost::test::golden_path("train_early_stopping.json"));
  REQUIRE(in.good());
  auto const g = nlohmann::json::parse(in);
  kboost::ReadOptions tsv;
  tsv.label_column = "0";
  auto const tr = kboost::read_dataset(shared_path("data/lightgbm_binary/binary.train"), tsv);
  auto const te = kboost::read_dataset(shared_path("data/lightgbm_binary/binary.test"), tsv);
  kboost::BasicBooster<TEST_EXECSPACE> b;
  std::ostringstream log;
  b.train(kboost::parse_params({{"objective", "binary:logistic"}, {"max_depth", "6"}, {"eta", "0.3"},
                                {"max_bin", "256"}, {"eval_metric", "error,logloss"}, {"num_round", "200"},
                                {"early_stopping_rounds", "5"}, {"verbosity", "0"},
                                {"kboost_sketch_method", "upstream_cpu"},  // the golden is upstream 3.2 CPU hist's
                                {"kboost_math_functions", "upstream_cpu"}}),
          tr, {{"train", tr}, {"test", te}}, &log);
  auto const& m = b.model();
  CHECK(m.num_rounds() == g.at("rounds").get<int>());
  CHECK(m.attributes.at("best_iteration") == g.at("best_iteration").get<std::string>());
  CHECK(m.attributes.at("best_score") == g.at("best_score").get<std::string>());
  auto const& want = g.at("test_logloss");
  auto const& hist = b.eval_history();
  REQUIRE(hist.size() == want.size());
  for (std::size_t r = 0; r < hist.size(); ++r) {
    auto const& [data, metric, value] = hist[r].back();
    CHECK(data == "test");
    CHECK(metric == "logloss");
    CHECK(std::fabs(value - want[r].get<double>()) <= 1e-12 * std::fabs(want[r].get<double>()));
  }
  // upstream's line format: "[0]\ttrain-error:0.12345\ttrain-logloss:...\ttest-error:...\ttest-logloss:..."
  std::string first;
  std::getline(std::istringstream(log.str()) >> std::ws, first);
  CHECK(first.rfind("[0]\ttrain-error:", 0) == 0);
  CHECK(first.find("\ttest-logloss:") != std::string::npos);
}

TEST_CASE("train " TEST_BACKEND ": CLI with config file; bad parameters are named", "[train][cli]") {
  auto const dir = kboost::test::temp_dir("train_cli");
  std::string const data = kboost::test::shared_path("data/agaricus/agaricus.txt.train");
  std::string const model = (dir / "m.json").string();
  std::string const cfg = kboost::test::write_file(
      dir, "train.conf", "# upstream CLI style\nobjective = binary:logistic\nmax_depth = 3\neta = 0.5\nnum_round = 2\n");
  std::string const cli = kboost::test::cli_path();
  auto const run = [&](std::string const& args, std::string const& out) {
    return std::system((cli + " train " + args + " > " + out + " 2>&1").c_str());
  };
  REQUIRE(run("--data " + data + " --format libsvm --config " + cfg + " --model-out " + model + " --quiet",
              (dir / "ok.txt").string()) == 0);
  auto const m = kboost::read_model(model);
  CHECK(m.objective == "binary:logistic");
  CHECK(m.trees.size() == 2);
  CHECK(m.trees[0].num_nodes() <= 15);  // max_depth 3 from the config
  auto const err_of = [&](std::string const& args) {
    std::string const out = (dir / "err.txt").string();
    CHECK(run("--data " + data + " --format libsvm --model-out " + model + " " + args, out) != 0);
    std::ifstream f(out);
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  CHECK(err_of("--max_dpth 3").find("max_dpth") != std::string::npos);
  CHECK(err_of("--subsample 1.5").find("subsample") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("train " TEST_BACKEND ": a fit that diverges stops at the round it did, and no model is written",
          "[train][cli][errors]") {
  auto const dir = kboost::test::temp_dir("train_diverges");
  std::string text;
  std::vector<float> x, y;
  for (int r = 0; r < 200; ++r) {
    float const label = 1.0e4f * static_cast<float>(r % 7), a = static_cast<float>(r % 13), b = static_cast<float>(r % 5);
    y.push_back(label);
    x.push_back(a);
    x.push_back(b);
    text += std::to_string(static_cast<int>(label)) + " 0:" + std::to_string(static_cast<int>(a)) + " 1:" +
            std::to_string(static_cast<int>(b)) + "\n";
  }
  // eta times the first leaf's weight overflows float32: the leaf is inf
  kboost::BasicBooster<TEST_EXECSPACE> booster;
  CHECK_THROWS_WITH(booster.train(kboost::parse_params({{"objective", "reg:squarederror"}, {"eta", "3e38"},
                                                        {"num_round", "3"}}),
                                  kboost::host_dmatrix(x.data(), y.size(), 2, y.data())),
                    Catch::Matchers::ContainsSubstring("round 0") && Catch::Matchers::ContainsSubstring("leaf value is inf"));

  std::string const data = kboost::test::write_file(dir, "big.libsvm", text);
  std::string const model = (dir / "m.json").string();
  std::string out;
  CHECK(kboost::test::run_cli(dir, "train --data " + data + " --format libsvm --eta 3e38 --model-out " + model, out) != 0);
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring("round 0"));
  CHECK_FALSE(std::filesystem::exists(model));
  CHECK(kboost::test::run_cli(dir, "train --data " + data + " --format libsvm --eta 1e40 --model-out " + model, out) != 0);
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring("eta") && Catch::Matchers::ContainsSubstring("overflows float32"));
  CHECK_FALSE(std::filesystem::exists(model));
  std::filesystem::remove_all(dir);
}
