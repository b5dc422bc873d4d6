// `kboost info` on every dataset in ../shared/data with the flags docs/datasets.md gives for it.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>

#include "tests/test_util.hpp"

namespace {

/// stdout of `kboost info <args>` and its exit status.
std::pair<std::string, int> run_info(std::string const& args) {
  std::string cmd = std::string(kboost::test::cli_path()) + " info " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int rc = ::pclose(p);
  return {out, rc};
}

struct InfoCase {
  std::string args;
  std::vector<std::string> expect;
};

/// `kboost info <args>` succeeds and prints every expected line of each case.
void check_info_cases(std::vector<InfoCase> const& cases) {
  using Catch::Matchers::ContainsSubstring;
  for (auto const& c : cases) {
    auto [out, rc] = run_info(c.args);
    INFO("kboost info " << c.args << "\n" << out);
    REQUIRE(rc == 0);
    for (auto const& e : c.expect) REQUIRE_THAT(out, ContainsSubstring(e));
  }
}

}  // namespace

TEST_CASE("cli " TEST_BACKEND ": kboost info works on agaricus", "[io][cli]") {
  auto d = [](std::string const& rel) { return kboost::test::shared_path("data/" + rel); };
  check_info_cases({
      {d("agaricus/agaricus.txt.train"), {"rows: 6513", "features: 127", "143286 stored entries", "0 x3373, 1 x3140"}},
      {d("agaricus/agaricus.txt.test"), {"rows: 1611", "features: 127", "35442 stored entries"}},
  });
}

TEST_CASE("cli " TEST_BACKEND ": kboost info works on every shared dataset", "[io][cli][shared]") {
  using Catch::Matchers::ContainsSubstring;
  auto d = [](std::string const& rel) { return kboost::test::shared_path("data/" + rel); };
  check_info_cases({
      {d("a1a/a1a.svmlight"), {"format: libsvm", "rows: 1605", "features: 120", "22249 stored entries", "-1 x1210, 1 x395"}},
      {d("adult/adult.data") + " --label-column -1",
       {"rows: 32561", "features: 14", "missing: 4262", "0 ('<=50K') x24720, 1 ('>50K') x7841", "categorical: 8"}},
      {d("california_housing/housing.csv") + " --label-column median_house_value",
       {"header: yes", "rows: 20640", "features: 9", "missing: 207", "label: 'median_house_value' min 14999, max 500001",
        "feature 8 'ocean_proximity': 5 categories"}},
      {d("dermatology/dermatology.data") + " --label-column -1",
       {"rows: 366", "features: 34", "missing: 8", "1 x112, 2 x61, 3 x72, 4 x49, 5 x52, 6 x20"}},
      {d("diamonds/diamonds.csv") + " --label-column price",
       {"rows: 53940", "features: 9", "missing: 0", "categorical: 3", "feature 1 'cut': 5 categories"}},
      {d("lightgbm_binary/binary.train") + " --label-column 0", {"rows: 7000", "features: 28", "0 x3284, 1 x3716"}},
      {d("lightgbm_binary/binary.test") + " --label-column 0", {"rows: 500", "0 x228, 1 x272"}},
      {d("lightgbm_multiclass/multiclass.train") + " --label-column 0",
       {"rows: 7000", "features: 28", "0 x1403, 1 x1409, 2 x1409, 3 x1390, 4 x1389"}},
      {d("lightgbm_multiclass/multiclass.test") + " --label-column 0", {"rows: 500", "3 x110, 4 x111"}},
      {d("lightgbm_regression/regression.train") + " --label-column 0", {"rows: 7000", "features: 28"}},
      {d("lightgbm_regression/regression.test") + " --label-column 0", {"rows: 500"}},
      {d("lightgbm_lambdarank/rank.train") + " --group-file " + d("lightgbm_lambdarank/rank.train.query"),
       {"rows: 3005", "features: 301", "284736 stored entries", "groups: 201 (sizes 1..27)",
        "0 x645, 1 x1211, 2 x858, 3 x222, 4 x69"}},
      {d("lightgbm_lambdarank/rank.test") + " --side-files", {"rows: 768", "74663 stored entries", "groups: 50 (sizes 6..24)"}},
      {d("machine/machine.data") + " --label-column 8 --ignore-columns 1,9",
       {"rows: 209", "features: 7", "categorical: 1", "feature 0: 30 categories"}},
      {d("veterans_lung_cancer/veterans_lung_cancer.csv") + " --label-column Survival_label_lower_bound --missing inf",
       {"rows: 137", "features: 12", "missing: 9"}},
  });
  auto [out, rc] = run_info(d("adult/adult.data") + " --label-column income");
  REQUIRE(rc != 0);
  REQUIRE_THAT(out, ContainsSubstring("adult.data:1") && ContainsSubstring("no header"));
}

TEST_CASE("cli " TEST_BACKEND ": standard input, FIFOs and devices read as files; compressed data and endless "
          "streams are refused with their reason",
          "[io][cli][stream]") {
  using Catch::Matchers::ContainsSubstring;
  auto const dir = kboost::test::temp_dir("cli_streams");
  std::string csv = "a,b,y\n";
  for (int r = 0; r < 300; ++r)
    csv += std::to_string(r % 11) + "," + std::to_string((r * 7) % 13) + "," + std::to_string(r % 2) + "\n";
  std::string const file = kboost::test::write_file(dir, "d.csv", csv);
  std::string const cli = kboost::test::cli_path();
  // stdout + stderr of a shell command line, and its exit status
  auto const sh = [&](std::string const& line) {
    std::string const out = (dir / "out.txt").string();
    int const rc = std::system(("(" + line + ") > " + out + " 2>&1").c_str());
    return std::make_pair(kboost::test::read_file(out), rc);
  };
  auto const [from_file, rc_file] = sh(cli + " info --data " + file + " --label-column y");
  REQUIRE(rc_file == 0);
  REQUIRE_THAT(from_file, ContainsSubstring("rows: 300"));

  auto const [piped, rc_piped] = sh("cat " + file + " | " + cli + " info --data - --label-column y");
  INFO(piped);
  CHECK(rc_piped == 0);
  CHECK_THAT(piped, ContainsSubstring("rows: 300") && ContainsSubstring("features: 2"));

  std::string const fifo = (dir / "fifo").string();
  REQUIRE(std::system(("mkfifo " + fifo).c_str()) == 0);
  auto const [via_fifo, rc_fifo] = sh("cat " + file + " > " + fifo + " & " + cli + " info --data " + fifo + " --label-column y");
  INFO(via_fifo);
  CHECK(rc_fifo == 0);
  CHECK_THAT(via_fifo, ContainsSubstring("rows: 300"));

  // a model trained from standard input equals the one trained from the file
  std::string const m1 = (dir / "m1.json").string(), m2 = (dir / "m2.json").string();
  std::string const train = " train --label-column y --num-round 3 --max-depth 3 --quiet --model-out ";
  REQUIRE(sh(cli + train + m1 + " --data " + file).second == 0);
  REQUIRE(sh("cat " + file + " | " + cli + train + m2 + " --data -").second == 0);
  CHECK(kboost::test::read_file(m1) == kboost::test::read_file(m2));

  auto const [zeros, rc_zeros] = sh(cli + " info --data /dev/zero");
  CHECK(rc_zeros != 0);
  CHECK_THAT(zeros, ContainsSubstring("/dev/zero: starts with 1 MiB of NUL bytes"));
  auto const [capped, rc_capped] = sh("cat " + file + " | KBOOST_MAX_INPUT_BYTES=100 " + cli + " info --data -");
  CHECK(rc_capped != 0);
  CHECK_THAT(capped, ContainsSubstring("standard input: more than 100 bytes") &&
                         ContainsSubstring("KBOOST_MAX_INPUT_BYTES"));

  REQUIRE(std::system(("gzip -c " + file + " > " + file + ".gz").c_str()) == 0);
  auto const [gz, rc_gz] = sh(cli + " info --data " + file + ".gz --label-column y");
  CHECK(rc_gz != 0);
  CHECK_THAT(gz, ContainsSubstring("d.csv.gz: is gzip-compressed") && ContainsSubstring("gzip -dc"));
  auto const [gunzipped, rc_gunzipped] = sh("gzip -dc " + file + ".gz | " + cli + " info --data - --label-column y");
  CHECK(rc_gunzipped == 0);
  CHECK_THAT(gunzipped, ContainsSubstring("rows: 300"));
  auto const [negative_cap, rc_negative_cap] = sh("cat " + file + " | KBOOST_MAX_INPUT_BYTES=-5 " + cli + " info --data -");
  CHECK(rc_negative_cap != 0);
  CHECK_THAT(negative_cap, ContainsSubstring("KBOOST_MAX_INPUT_BYTES='-5' is not a positive number of bytes"));

  // one input from standard input; compressed models and checkpoints named as what they are
  auto const [two_stdin, rc_two_stdin] = sh("cat " + m1 + " | " + cli + " predict --model - --data -");
  CHECK(rc_two_stdin != 0);
  CHECK_THAT(two_stdin, ContainsSubstring("--data -: --model already reads standard input"));
  REQUIRE(std::system(("gzip -c " + m1 + " > " + m1 + ".gz").c_str()) == 0);
  auto const [gz_model, rc_gz_model] = sh(cli + " predict --model " + m1 + ".gz --data " + file + " --label-column y");
  CHECK(rc_gz_model != 0);
  CHECK_THAT(gz_model, ContainsSubstring("m1.json.gz: is gzip-compressed: decompress it first"));
  std::string const ck = (dir / "ck").string();
  REQUIRE(sh(cli + train + m2 + " --data " + file + " --checkpoint-every 1 --checkpoint-dir " + ck).second == 0);
  auto const [checkpoint, rc_checkpoint] =
      sh(cli + " predict --model " + ck + "/checkpoint-00000002.json --data " + file + " --label-column y");
  CHECK(rc_checkpoint != 0);
  CHECK_THAT(checkpoint, ContainsSubstring("is a kboost checkpoint, not a model"));
  auto const [to_stdout, rc_to_stdout] = sh(cli + " train --label-column y --data " + file + " --model-out -");
  CHECK(rc_to_stdout != 0);
  CHECK_THAT(to_stdout, ContainsSubstring("--model-out -: a model goes to a file"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli " TEST_BACKEND ": columns that cannot be features, and hints for the delimiter and huge fields",
          "[io][cli]") {
  using Catch::Matchers::ContainsSubstring;
  auto const dir = kboost::test::temp_dir("readers_columns");
  auto const info = [&](std::string const& name, std::string const& text, std::string const& args) {
    std::string out;
    int const rc = kboost::test::run_cli(dir, "info --data " + kboost::test::write_file(dir, name, text) + " " + args, out);
    CHECK(rc != 0);
    return out;
  };
  CHECK_THAT(info("e.csv", "x1,,,y\n1,2,3,0\n2,3,4,1\n", "--label-column y"),
             ContainsSubstring("column 1 and column 2 have no name (empty header fields)"));
  CHECK_THAT(info("s.csv", "a;b;y\n1;2;0\n2;3;1\n", "--label-column y"),
             ContainsSubstring("if its fields are separated by ';', pass --delimiter ';'"));
  CHECK_THAT(info("l.csv", "a,y\n1,0\n2,1\n", "--label-column y --ignore-columns y"),
             ContainsSubstring("ignored column 'y': column 1 ('y') is already the label"));
  CHECK_THAT(info("o.csv", "y,a\n0,1\n1,2\n", "--label-column y --ignore-columns a"),
             ContainsSubstring("no feature columns"));
  std::string const huge(100000, '7');
  std::string rows = "a,y\n";
  for (int i = 0; i < 200; ++i) rows += std::to_string(i) + "," + std::to_string(i % 2) + "\n";
  std::string const out = info("h.csv", rows + huge + "x,1\n", "--label-column y");
  CHECK_THAT(out, ContainsSubstring("more bytes of the message"));
  CHECK(out.size() < 3000);
  std::filesystem::remove_all(dir);
}
