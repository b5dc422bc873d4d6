// Continued training through the CLI: a checkpointed fit on categorical features resumes to the
// bytes of an uninterrupted one, --model-in adds rounds, and a model is never continued on data
// whose columns or categories mean something else than they did for its trees.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <filesystem>
#include <string>

#include "tests/test_util.hpp"

namespace {

/// Rows of y, x, color (a, b, c, d), size: the colour decides most of the label.
std::string categorical_rows(char const* colors, bool swapped) {
  std::string rows = swapped ? "y,color,x,size\n" : "y,x,color,size\n";
  for (int i = 0; i < 240; ++i) {
    char const c = colors[i % 4 == 3 ? (i / 4) % 4 : i % 4];
    int const y = (c == 'b' || c == 'd') != (i % 7 == 0);
    std::string const x = i % 11 == 0 ? "" : std::to_string((i * 37) % 101);
    std::string const color(1, c);
    rows += std::to_string(y) + "," + (swapped ? color + "," + x : x + "," + color) + "," +
            std::to_string((i * 13) % 17) + "\n";
  }
  return rows;
}

}  // namespace

TEST_CASE("continue cli " TEST_BACKEND ": categorical fits resume and continue to the uninterrupted bytes; "
          "changed columns or categories are refused", "[cli][checkpoint][categorical]") {
  using Catch::Matchers::ContainsSubstring;
  auto const dir = kboost::test::temp_dir("continue_cli");
  std::string const data = kboost::test::write_file(dir, "d.csv", categorical_rows("abcd", false));
  std::string const base = "train --data " + data + " --label-column y --objective binary:logistic --max_depth 3 --quiet ";
  auto const model = [&](std::string const& name) { return (dir / name).string(); };
  std::string out;
  REQUIRE(kboost::test::run_cli(dir, base + "--num-round 6 --model-out " + model("whole.json"), out) == 0);
  std::string const whole = kboost::test::read_file(model("whole.json"));
  REQUIRE(whole.find("\"c\"") != std::string::npos);  // a categorical feature in the model
  // checkpoints at 2 and 4, stopped after 4; resumed to 6
  std::string const ck = "--checkpoint-every 2 --checkpoint-dir " + (dir / "ck").string() + " ";
  REQUIRE(kboost::test::run_cli(dir, base + ck + "--num-round 4 --model-out " + model("part.json"), out) == 0);
  REQUIRE(kboost::test::run_cli(dir, base + ck + "--resume --num-round 6 --model-out " + model("resumed.json"), out) == 0);
  CHECK(kboost::test::read_file(model("resumed.json")) == whole);
  // --model-in: 4 rounds and 2 more
  REQUIRE(kboost::test::run_cli(dir, base + "--num-round 2 --model-in " + model("part.json") + " --model-out " +
                                         model("continued.json"), out) == 0);
  CHECK(kboost::test::read_file(model("continued.json")) == whole);
  // the same columns in another order, and data without one of the categories
  std::string const swapped = kboost::test::write_file(dir, "s.csv", categorical_rows("abcd", true));
  CHECK(kboost::test::run_cli(dir, "train --data " + swapped + " --label-column y --objective binary:logistic --quiet "
                                   "--num-round 1 --model-in " + model("part.json") + " --model-out " + model("x.json"),
                              out) != 0);
  CHECK_THAT(out, ContainsSubstring("its feature 0 is 'x', the data's is 'color'"));
  std::string const fewer = kboost::test::write_file(dir, "f.csv", categorical_rows("abca", false));
  CHECK(kboost::test::run_cli(dir, "train --data " + fewer + " --label-column y --objective binary:logistic --quiet "
                                   "--num-round 1 --model-in " + model("part.json") + " --model-out " + model("x.json"),
                              out) != 0);
  CHECK_THAT(out, ContainsSubstring("feature 1 ('color') has the categories [a, b, c, d] in the model, [a, b, c] in"));
  CHECK_FALSE(std::filesystem::exists(model("x.json")));
  // without --objective, the continued model's objective (upstream's Booster keeps it)
  REQUIRE(kboost::test::run_cli(dir, "train --data " + data + " --label-column y --max_depth 3 --quiet --num-round 2 "
                                     "--model-in " + model("part.json") + " --model-out " + model("kept.json"), out) == 0);
  CHECK(kboost::test::read_file(model("kept.json")) == whole);
  // a checkpoint is not resumed on data whose values changed under the same name and shape
  std::string changed = categorical_rows("abcd", false);
  changed[changed.find('\n') + 1] = changed[changed.find('\n') + 1] == '0' ? '1' : '0';
  kboost::test::write_file(dir, "d.csv", changed);
  CHECK(kboost::test::run_cli(dir, base + ck + "--resume --num-round 6 --model-out " + model("x.json"), out) != 0);
  CHECK_THAT(out, ContainsSubstring("was written by another job"));
  std::filesystem::remove_all(dir);
}
