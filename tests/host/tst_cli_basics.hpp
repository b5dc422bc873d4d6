// The CLI's top level: --version (with the OpenMP wait policy in effect), and host thread counts the Kokkos in use cannot start (Kokkos
// 3.4's OpenMP backend crashes above 512 threads) refused with a message before Kokkos starts.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>

#include <kboost/core/compat.hpp>
#include <kboost/core/version.hpp>
#include "tests/test_util.hpp"

TEST_CASE("cli " TEST_BACKEND ": --version and host thread limits", "[cli]") {
  using Catch::Matchers::ContainsSubstring;
  auto const dir = kboost::test::temp_dir("cli_basics");
  std::string out;
  REQUIRE(kboost::test::run_cli(dir, "--version", out) == 0);
  CHECK_THAT(out, ContainsSubstring(std::string("kboost ") + kboost::version()));
  // passive OpenMP waiting unless the user chose a policy (apps/main.cpp default_wait_policy)
  auto const version_with = [&](std::string const& env) {
    std::string const file = (dir / "version.txt").string();
    CHECK(std::system((env + " " + kboost::test::cli_path() + " --version > " + file + " 2>&1").c_str()) == 0);
    return kboost::test::read_file(file);
  };
  CHECK_THAT(version_with("env -u OMP_WAIT_POLICY"), ContainsSubstring("OMP_WAIT_POLICY passive"));
  CHECK_THAT(version_with("OMP_WAIT_POLICY=active"), ContainsSubstring("OMP_WAIT_POLICY active"));
  int const limit = kboost::compat::max_host_threads();
  if (limit < (1 << 20)) {
    std::string const data = kboost::test::write_file(dir, "d.csv", "y,a\n0,1\n1,2\n");
    CHECK(kboost::test::run_cli(dir, "--threads " + std::to_string(limit + 1) + " info --data " + data, out) != 0);
    CHECK_THAT(out, ContainsSubstring(std::to_string(limit)));
    CHECK(kboost::test::run_cli(dir, "info --data " + data, out) == 0);
    int const rc = std::system(("OMP_NUM_THREADS=" + std::to_string(limit + 1) + " " + kboost::test::cli_path() + " info --data " +
                                data + " > " + (dir / "omp.txt").string() + " 2>&1")
                                   .c_str());
    CHECK(rc != 0);
    CHECK_THAT(kboost::test::read_file((dir / "omp.txt").string()), ContainsSubstring("OMP_NUM_THREADS"));
  }
}

TEST_CASE("cli " TEST_BACKEND ": usage errors exit with status 2, failures with 1, help with 0", "[cli]") {
  using Catch::Matchers::ContainsSubstring;
  auto const dir = kboost::test::temp_dir("cli_exit_status");
  std::string out;
  auto status = [](int rc) { return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1; };
  CHECK(status(kboost::test::run_cli(dir, "--bogus", out)) == 2);
  CHECK_THAT(out, ContainsSubstring("kboost: error: "));
  CHECK(status(kboost::test::run_cli(dir, "info --bogus", out)) == 2);
  CHECK_THAT(out, ContainsSubstring("kboost: error: ") && ContainsSubstring("--bogus"));
  CHECK(status(kboost::test::run_cli(dir, "", out)) == 2);
  CHECK(status(kboost::test::run_cli(dir, "predict --model m.json --data d.csv --out o.csv --pred-contribs --output-margin", out)) == 2);
  CHECK_THAT(out, ContainsSubstring("excludes"));
  CHECK(status(kboost::test::run_cli(dir, "predict --model missing.json --data d.csv --out o.csv", out)) == 1);
  CHECK(status(kboost::test::run_cli(dir, "train --help", out)) == 0);
}

TEST_CASE("cli " TEST_BACKEND ": predict --out - (the default) writes the file's CSV to standard output", "[cli]") {
  using Catch::Matchers::ContainsSubstring;
  auto const dir = kboost::test::temp_dir("cli_stdout");
  std::string const data = kboost::test::write_file(dir, "d.csv", "y,a,b\n0,1,5\n1,2,4\n0,3,\n1,4,2\n0,5,1\n1,6,0\n");
  std::string const model = (dir / "m.json").string(), file = (dir / "p.csv").string();
  std::string out;
  REQUIRE(kboost::test::run_cli(dir, "train --data " + data + " --label-column 0 --objective binary:logistic --num-round 3 "
                                     "--min_child_weight 0 --quiet --model-out " + model, out) == 0);
  REQUIRE(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --label-column 0 --out " + file, out) == 0);
  std::string const expected = kboost::test::read_file(file);
  REQUIRE(std::count(expected.begin(), expected.end(), '\n') == 6);
  std::string const to_stdout = (dir / "stdout.txt").string(), to_stderr = (dir / "stderr.txt").string();
  auto const predict_to_stdout = [&](std::string const& extra) {
    return std::system((std::string(kboost::test::cli_path()) + " predict --model " + model + " --data " + data + " --label-column 0 --out - " +
                        extra + " > " + to_stdout + " 2> " + to_stderr)
                           .c_str());
  };
  REQUIRE(predict_to_stdout("") == 0);
  CHECK(kboost::test::read_file(to_stdout) == expected);
  REQUIRE(predict_to_stdout("--timing") == 0);  // the timing report goes to standard error
  CHECK(kboost::test::read_file(to_stdout) == expected);
  CHECK_THAT(kboost::test::read_file(to_stderr), ContainsSubstring("kernel:"));
  // without --out, standard output is the default
  REQUIRE(std::system((std::string(kboost::test::cli_path()) + " predict --model " + model + " --data " + data + " --label-column 0 > " +
                       to_stdout)
                          .c_str()) == 0);
  CHECK(kboost::test::read_file(to_stdout) == expected);
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --label-column 0 --iteration-range 3:1",
                              out) != 0);
  CHECK_THAT(out, ContainsSubstring("[3, 1) is reversed"));
  // the label column left in: named, with the option that leaves it out
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data, out) != 0);
  CHECK_THAT(out, ContainsSubstring("3 feature columns, but the model has 2 features") &&
                      ContainsSubstring("not among the model's features: 'y'") && ContainsSubstring("--label-column"));
}

TEST_CASE("cli " TEST_BACKEND ": outputs through links and FIFOs stay links and FIFOs; lost standard output fails",
          "[cli]") {
  using Catch::Matchers::ContainsSubstring;
  namespace fs = std::filesystem;
  auto const dir = kboost::test::temp_dir("cli_outputs");
  std::string const data = kboost::test::write_file(dir, "d.csv", "y,a,b\n0,1,5\n1,2,4\n0,3,\n1,4,2\n0,5,1\n1,6,0\n");
  std::string const model = (dir / "m.json").string();
  std::string out;
  REQUIRE(kboost::test::run_cli(dir, "train --data " + data + " --label-column 0 --num-round 2 --quiet --model-out " + model,
                                out) == 0);
  std::string const predict = "predict --model " + model + " --data " + data + " --label-column 0 --out ";
  REQUIRE(kboost::test::run_cli(dir, predict + (dir / "p.csv").string(), out) == 0);
  std::string const expected = kboost::test::read_file((dir / "p.csv").string());
  // a link to a file: the file gets the predictions, the link stays a link
  fs::create_symlink("real.csv", dir / "link.csv");
  REQUIRE(kboost::test::run_cli(dir, predict + (dir / "link.csv").string(), out) == 0);
  CHECK(fs::is_symlink(dir / "link.csv"));
  CHECK(kboost::test::read_file((dir / "real.csv").string()) == expected);
  // a link to a device: written through, the link and the device stay
  fs::create_symlink("/dev/null", dir / "null");
  REQUIRE(kboost::test::run_cli(dir, predict + (dir / "null").string(), out) == 0);
  REQUIRE(kboost::test::run_cli(dir, "train --data " + data + " --label-column 0 --num-round 2 --quiet --model-out " +
                                         (dir / "null").string(), out) == 0);
  CHECK(fs::is_symlink(dir / "null"));
  CHECK(fs::is_character_file("/dev/null"));
  // a FIFO: a reader gets the predictions
  std::string const fifo = (dir / "fifo").string(), got = (dir / "got.csv").string();
  REQUIRE(std::system(("mkfifo " + fifo).c_str()) == 0);
  REQUIRE(std::system(("(cat " + fifo + " > " + got + " &) ; " + kboost::test::cli_path() + " " + predict + fifo +
                       " > /dev/null 2>&1 && sleep 1").c_str()) == 0);
  CHECK(fs::is_fifo(fifo));
  CHECK(kboost::test::read_file(got) == expected);
  // a device that refuses the bytes, and standard output that cannot take them: errors
  CHECK(kboost::test::run_cli(dir, predict + "/dev/full", out) != 0);
  CHECK_THAT(out, ContainsSubstring("/dev/full: write failed (No space left on device)"));
  CHECK(std::system((std::string(kboost::test::cli_path()) + " dump --model " + model + " > /dev/full 2> " + got).c_str()) != 0);
  CHECK_THAT(kboost::test::read_file(got), ContainsSubstring("standard output: write failed"));
  // an output that is one of the inputs is refused before anything is written
  CHECK(kboost::test::run_cli(dir, predict + model, out) != 0);
  CHECK_THAT(out, ContainsSubstring("is the file --model reads"));
  CHECK(kboost::test::run_cli(dir, "train --data " + data + " --label-column 0 --num-round 1 --model-out " + data, out) != 0);
  CHECK_THAT(out, ContainsSubstring("is the file --data reads"));
  CHECK(kboost::test::read_file(data).rfind("y,a,b\n", 0) == 0);
  CHECK(kboost::test::run_cli(dir, "dump --model " + model + " --out " + model, out) != 0);
  CHECK_THAT(out, ContainsSubstring("is the file --model reads"));
  CHECK(kboost::test::run_cli(dir, "importance --model " + model + " --out " + model, out) != 0);
  CHECK(kboost::test::read_file(model).rfind("{", 0) == 0);
  // an empty output path, and a loop of links
  CHECK(kboost::test::run_cli(dir, predict + "''", out) != 0);
  CHECK_THAT(out, ContainsSubstring("an empty output path"));
  fs::create_symlink("loop2", dir / "loop1");
  fs::create_symlink("loop1", dir / "loop2");
  CHECK(kboost::test::run_cli(dir, "dump --model " + model + " --out " + (dir / "loop1").string(), out) != 0);
  CHECK_THAT(out, ContainsSubstring("too many levels of symbolic links"));
  CHECK(fs::is_symlink(dir / "loop1"));
  // --iteration-range takes exactly two integers
  CHECK(kboost::test::run_cli(dir, predict + "- --iteration-range 0:1:2", out) != 0);
  CHECK_THAT(out, ContainsSubstring("expected integers a:b, got '0:1:2'"));
  CHECK(kboost::test::run_cli(dir, predict + "- --iteration-range 0:1x", out) != 0);
  fs::remove_all(dir);
}

TEST_CASE("cli " TEST_BACKEND ": a text label column is read as class codes, and train says so", "[cli]") {
  auto const dir = kboost::test::temp_dir("cli_text_labels");
  std::string rows = "x,animal\n";
  for (int i = 0; i < 30; ++i) rows += std::to_string(i) + "," + (i % 3 ? "dog" : "cat") + "\n";
  auto const data = kboost::test::write_file(dir, "d.csv", rows);
  std::string out;
  REQUIRE(kboost::test::run_cli(dir, "train --data " + data + " --label-column animal --objective binary:logistic "
                                     "--num-round 1 --model-out " + (dir / "m.json").string(), out) == 0);
  CHECK_THAT(out, Catch::Matchers::ContainsSubstring(
                      "d.csv: the label column holds text, read as class codes: 'cat' = 0, 'dog' = 1 (sorted; "
                      "predictions are in these codes)"));
  std::filesystem::remove_all(dir);
}
