// Parameters are honoured or refused, never ignored: misspellings get the nearest known name,
// eval_metric names are checked when read, device and nthread must describe the run they are given
// to, the config-file keys of upstream's CLI are honoured (eval_train) or refused (save_period,
// model_dir, name_pred, test_path), query groups need a ranking objective, and early stopping says
// which round it keeps.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <string>

#include <kboost/engine/detail/nearest_name.hpp>
#include <kboost/engine/detail/run_params.hpp>
#include <kboost/engine/metrics.hpp>
#include <kboost/engine/params.hpp>
#include "tests/test_util.hpp"

using Catch::Matchers::ContainsSubstring;

TEST_CASE("params " TEST_BACKEND ": misspelt names get the nearest known one", "[params]") {
  CHECK(kboost::detail::edit_distance("max_dpeth", "max_depth") == 1);  // a transposition is one edit
  CHECK(kboost::detail::edit_distance("", "eta") == 3);
  CHECK(kboost::detail::nearest_name("colsample_bytre", {"eta", "colsample_bytree", "colsample_bynode"}) ==
        "colsample_bytree");
  CHECK(kboost::detail::nearest_name("zzzzzz", {"eta", "max_depth"}).empty());
  CHECK_THROWS_WITH(kboost::parse_params({{"max_dpeth", "3"}}),
                    ContainsSubstring("unknown parameter 'max_dpeth' (did you mean 'max_depth'?)"));
  CHECK_THROWS_WITH(kboost::parse_params({{"learning_rat", "0.1"}}), ContainsSubstring("did you mean 'learning_rate'?"));
  CHECK_THROWS_WITH(kboost::parse_params({{"objective", "binary:logisitc"}}),
                    ContainsSubstring("unknown objective (did you mean 'binary:logistic'?)"));
  CHECK_THROWS_WITH(kboost::parse_params({{"objective", "binary:hinge"}}),
                    ContainsSubstring("predicts binary:hinge models but does not train them"));
}

TEST_CASE("params " TEST_BACKEND ": eval_metric names are checked when read", "[params]") {
  for (char const* ok : {"rmse", "error@0.7", "tweedie-nloglik@1.2", "mphe@2", "ndcg@5-", "map", "pre@3", "auc",
                         "aft-nloglik", "cox-nloglik", "mlogloss"}) {
    INFO(ok);
    CHECK(kboost::is_known_metric(ok));
    CHECK(kboost::parse_params({{"eval_metric", ok}}).eval_metric.back() == ok);
  }
  for (char const* bad : {"aucc", "error@x", "tweedie-nloglik", "rmse@2", "ndcg@x", "auc@0.5", ""}) {
    INFO(bad);
    CHECK_FALSE(kboost::is_known_metric(bad));
  }
  CHECK_THROWS_WITH(kboost::parse_params({{"eval_metric", "rmse,aucc"}}),
                    ContainsSubstring("unknown metric 'aucc' (did you mean 'auc'?)"));
  CHECK_THROWS_WITH(kboost::parse_params({{"eval_metric", "error@x"}}), ContainsSubstring("unknown metric 'error@x'"));
}

TEST_CASE("params " TEST_BACKEND ": device and nthread describe the run or are refused", "[params]") {
  bool const on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, TEST_MEMSPACE>::accessible;
  auto const with = [](std::string const& k, std::string const& v) { return kboost::parse_params({{k, v}}); };
  for (char const* bad : {"cuda:x", "tpu", "cpu:0", "cuda:", "cuda:-1"})
    CHECK_THROWS_WITH(with("device", bad), ContainsSubstring("parameter device"));
  TEST_EXECSPACE space;
  CHECK_NOTHROW(kboost::detail::check_device_and_threads(kboost::parse_params({}), space));  // not given
  CHECK_NOTHROW(kboost::detail::check_device_and_threads(with("device", on_host ? "cpu" : "cuda"), space));
  CHECK_THROWS_WITH(kboost::detail::check_device_and_threads(with("device", on_host ? "cuda" : "cpu"), space),
                    ContainsSubstring(std::string("runs on Kokkos' ") + TEST_EXECSPACE::name()));
  int const threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  CHECK_NOTHROW(kboost::detail::check_device_and_threads(with("nthread", std::to_string(threads)), space));
  CHECK_NOTHROW(kboost::detail::check_device_and_threads(with("nthread", "0"), space));
  CHECK_THROWS_WITH(kboost::detail::check_device_and_threads(with("nthread", std::to_string(threads + 1)), space),
                    ContainsSubstring("Kokkos runs " + std::to_string(threads) + " host threads"));
}

TEST_CASE("cli " TEST_BACKEND ": train parameters are honoured or refused before the data is read", "[cli]") {
  auto const dir = kboost::test::temp_dir("cli_params");
  std::string const data = kboost::test::shared_path("data/agaricus/agaricus.txt.train");
  std::string const test = kboost::test::shared_path("data/agaricus/agaricus.txt.test");
  std::string const model = (dir / "m.json").string();
  std::string const base = "train --data " + data + " --format libsvm --objective binary:logistic --model-out " + model;
  std::string out;
  // the CLI's Kokkos is the test binary's: its default space decides which device name it takes
  bool const cli_on_host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;
  CHECK(kboost::test::run_cli(dir, base + " --num_round 1 --quiet --device " + (cli_on_host ? "cpu" : "cuda"), out) == 0);
  CHECK(kboost::test::run_cli(dir, base + " --device " + (cli_on_host ? "cuda" : "cpu"), out) != 0);
  CHECK_THAT(out, ContainsSubstring("parameter device"));
  // refused before reading: a data file that does not exist is never opened
  std::string const missing = "train --data " + (dir / "absent.svm").string() + " --format libsvm --model-out " + model;
  CHECK(kboost::test::run_cli(dir, missing + " --eval_metric aucc", out) != 0);
  CHECK_THAT(out, ContainsSubstring("did you mean 'auc'?"));
  CHECK(kboost::test::run_cli(dir, missing + " --max_dpeth 3", out) != 0);
  CHECK_THAT(out, ContainsSubstring("did you mean 'max_depth'?"));
  CHECK(kboost::test::run_cli(dir, missing + " --objective binary:logistic --group-file " + data, out) != 0);
  CHECK_THAT(out, ContainsSubstring("--group-file: query groups apply to the rank:* objectives"));
  // upstream CLI config keys
  std::string const conf = kboost::test::write_file(dir, "c.conf", "num_round = 2\n# comment\nsave_period = 5\n");
  CHECK(kboost::test::run_cli(dir, base + " --config " + conf, out) != 0);
  CHECK_THAT(out, ContainsSubstring("c.conf:3: parameter save_period = 5"));
  for (char const* key : {"model_dir = ./models", "name_pred = p.txt", "test_path = t.svm", "task = pred"}) {
    std::string const c = kboost::test::write_file(dir, "k.conf", std::string(key) + "\n");
    CHECK(kboost::test::run_cli(dir, base + " --config " + c, out) != 0);
    CHECK_THAT(out, ContainsSubstring("k.conf:1: parameter"));
  }
  std::string const train_eval = kboost::test::write_file(dir, "e.conf", "num_round = 2\neval_train = 1\n");
  REQUIRE(kboost::test::run_cli(dir, base + " --config " + train_eval + " --eval test=" + test, out) == 0);
  CHECK_THAT(out, ContainsSubstring("[0]\ttest-logloss:0.43865\ttrain-logloss:0.43933\n"));
  // early stopping names the round it keeps, with that round's line
  REQUIRE(kboost::test::run_cli(dir, base + " --eval test=" + test +
                                         " --early_stopping_rounds 3 --num_round 300 --eta 0.9 --max_depth 2",
                                out) == 0);
  auto const stop = out.find("Stopping. Best iteration:\n[");
  REQUIRE(stop != std::string::npos);
  std::string const best_line = out.substr(out.find('[', stop), out.find('\n', out.find('[', stop)) - out.find('[', stop));
  CHECK(out.find(best_line) < stop);  // the line repeated is one the fit logged
  auto const model_text = kboost::test::read_file(model);
  std::string const best = best_line.substr(1, best_line.find(']') - 1);
  CHECK_THAT(model_text, ContainsSubstring("\"best_iteration\":\"" + best + "\""));
  CHECK_THAT(out, ContainsSubstring("the best is round " + best + ": predict with it by kboost predict --model " + model +
                                    " --iteration-range 0:" + std::to_string(std::stoi(best) + 1)));
}

TEST_CASE("cli " TEST_BACKEND ": a mistyped command or output path fails before any work", "[cli]") {
  auto const dir = kboost::test::temp_dir("cli_paths");
  std::string const absent = (dir / "absent.svm").string();
  std::string out;
  CHECK(kboost::test::run_cli(dir, "trian --data " + absent, out) != 0);
  CHECK_THAT(out, ContainsSubstring("unknown command 'trian' (did you mean 'train'?)"));
  // the output's directory is checked before the data (which does not exist) is read
  std::string const no_dir = (dir / "no" / "such").string();
  CHECK(kboost::test::run_cli(dir, "train --data " + absent + " --model-out " + no_dir + "/m.json", out) != 0);
  CHECK_THAT(out, ContainsSubstring(no_dir + "/m.json: cannot be written: directory '" + no_dir + "' does not exist"));
  CHECK(kboost::test::run_cli(dir, "train --data " + absent + " --model-out " + dir.string(), out) != 0);
  CHECK_THAT(out, ContainsSubstring(dir.string() + ": cannot be written: it is a directory"));
  CHECK(kboost::test::run_cli(dir, "predict --model " + absent + " --data " + absent + " --out " + no_dir + "/p.csv", out) != 0);
  CHECK_THAT(out, ContainsSubstring(no_dir + "/p.csv: cannot be written: directory '" + no_dir + "' does not exist"));
  for (char const* command : {"dump", "importance"}) {
    CHECK(kboost::test::run_cli(dir, std::string(command) + " --model " + absent + " --out " + no_dir + "/o.txt", out) != 0);
    CHECK_THAT(out, ContainsSubstring(no_dir + "/o.txt: cannot be written: directory '" + no_dir + "' does not exist"));
  }
}

TEST_CASE("cli " TEST_BACKEND ": the config file is read by CLI11 and the command line wins", "[cli]") {
  auto const dir = kboost::test::temp_dir("cli_config");
  std::string const data = kboost::test::shared_path("data/agaricus/agaricus.txt.train");
  std::string const test = kboost::test::shared_path("data/agaricus/agaricus.txt.test");
  std::string const model = (dir / "m.json").string();
  std::string const conf = kboost::test::write_file(dir, "train.conf",
                                                    "# General Parameters\n"
                                                    "booster = gbtree\n"
                                                    "objective = binary:logistic   # inline comment\n"
                                                    "\n"
                                                    "eta = 1.0\n"
                                                    "num_round = 3\n"
                                                    "monotone_constraints = (0,0,1)\n"
                                                    "eval_metric = auc\n"
                                                    "eval_metric = logloss\n"
                                                    "data = \"" + data + "\"\n"
                                                    "eval[heldout] = \"" + test + "\"\n"
                                                    "model_out = \"" + model + "\"\n");
  std::string from_file, overridden;
  REQUIRE(kboost::test::run_cli(dir, "train --format libsvm --config " + conf, from_file) == 0);
  CHECK_THAT(from_file, ContainsSubstring("[2]\theldout-auc:"));
  CHECK_THAT(from_file, ContainsSubstring("\theldout-logloss:"));
  CHECK(from_file.find("[3]") == std::string::npos);  // num_round = 3 from the file
  auto const model_text = kboost::test::read_file(model);
  CHECK_THAT(model_text, ContainsSubstring("\"name\":\"binary:logistic\""));
  REQUIRE(kboost::test::run_cli(dir, "train --format libsvm --config " + conf + " --eta 0.1 --eval_metric auc", overridden) == 0);
  CHECK(overridden.find("logloss") == std::string::npos);  // the command line's eval_metric replaces the file's
  auto const last_auc = [](std::string const& log) { return log.substr(log.rfind("heldout-auc:")); };
  CHECK(last_auc(overridden).substr(0, 20) != last_auc(from_file).substr(0, 20));  // eta 0.1, not 1.0
  // errors name the file and line of the key
  std::string out;
  auto const bad = [&](std::string const& name, std::string const& text) {
    return kboost::test::write_file(dir, name, "data = \"" + data + "\"\nmodel_out = \"" + model + "\"\n" + text);
  };
  CHECK(kboost::test::run_cli(dir, "train --format libsvm --config " + bad("a.conf", "max_dpeth = 3\n"), out) != 0);
  CHECK_THAT(out, ContainsSubstring("a.conf:3: unknown parameter 'max_dpeth' (did you mean 'max_depth'?)"));
  CHECK(kboost::test::run_cli(dir, "train --format libsvm --config " + bad("b.conf", "eta = 1\nmax_depth 3\n"), out) != 0);
  CHECK_THAT(out, ContainsSubstring("b.conf:4: 'max_depth 3' is not `key = value` (no '=')"));
  CHECK(kboost::test::run_cli(dir, "train --format libsvm --config " + bad("c.conf", "eta = -1\n"), out) != 0);
  CHECK_THAT(out, ContainsSubstring("c.conf:3: parameter eta = '-1': out of range [0, inf]"));
  CHECK(kboost::test::run_cli(dir, "train --format libsvm --config " + (dir / "absent.conf").string(), out) != 0);
  CHECK_THAT(out, ContainsSubstring("absent.conf: no such file"));
}

TEST_CASE("cli " TEST_BACKEND ": train --help lists every parameter with its type and default", "[cli]") {
  auto const dir = kboost::test::temp_dir("cli_help");
  std::string help;
  REQUIRE(kboost::test::run_cli(dir, "train --help", help) == 0);
  for (auto const& doc : kboost::train_param_docs()) {
    INFO(doc.name);
    CHECK_THAT(help, ContainsSubstring("--" + doc.name));
  }
  CHECK_THAT(help, ContainsSubstring("--max_depth,--max-depth INT >= 0"));
  CHECK_THAT(help, ContainsSubstring("--eta,--learning_rate,--learning-rate FLOAT in [0, inf]"));
  CHECK_THAT(help, ContainsSubstring("(default: 0.3)"));
  CHECK_THAT(help, ContainsSubstring("Tree booster (upstream TrainParam):"));
}
