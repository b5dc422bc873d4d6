// What `kboost train` checks and does with its inputs: eval files coded with the training file's
// categories and label classes; --weight-file/--group-file only for the training file; label errors
// naming file and row before the intercept; num_round/--threads ranges; repeated --eval_metric;
// unknown config keys named with file and line; train --help.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include <kboost/io/dataset_reader.hpp>
#include <kboost/engine/base_score.hpp>
#include "tests/test_util.hpp"

TEST_CASE("train input " TEST_BACKEND ": eval files are coded with the training file's categories and classes",
          "[train][input][readers]") {
  auto const dir = kboost::test::temp_dir("train_input_codes");
  auto const tr = kboost::test::write_file(dir, "tr.csv", "f0,f1,y\nred,1,cat\ngreen,2,dog\nblue,3,cat\n");
  // Lacks "blue" and "green", has an unseen "purple"; its own sorted codes would make red 1, not 2.
  auto const te = kboost::test::write_file(dir, "te.csv", "f0,f1,y\nred,1,dog\npurple,2,cat\n");
  kboost::ReadOptions opt;
  opt.label_column = "y";
  auto const mtr = kboost::read_dataset(tr, opt);
  REQUIRE(mtr.info.categories.at(0) == std::vector<std::string>{"blue", "green", "red"});
  REQUIRE(mtr.info.label_classes == std::vector<std::string>{"cat", "dog"});
  opt.category_reference = &mtr.info;
  // Upstream's rule: a category the training data lacks is an error naming file, line and column.
  try {
    kboost::read_dataset(te, opt);
    FAIL("expected an error");
  } catch (std::runtime_error const& e) {
    std::string const msg = e.what();
    CHECK(msg.find("te.csv:3") != std::string::npos);
    CHECK(msg.find("'f0'") != std::string::npos);
    CHECK(msg.find("'purple'") != std::string::npos);
    CHECK(msg.find("--unseen-category missing") != std::string::npos);
  }
  opt.unseen_category = kboost::UnseenCategory::kMissing;
  auto const mte = kboost::read_dataset(te, opt);
  CHECK(mte.dense(0, 0) == 2.0f);         // red: the training file's code
  CHECK(std::isnan(mte.dense(1, 0)));     // purple: unseen -> missing, and counted
  REQUIRE(mte.info.unseen_categories.size() == 1);
  CHECK(mte.info.unseen_categories.at(0).cells == 1);
  CHECK(mte.info.unseen_categories.at(0).first_value == "purple");
  CHECK(mte.info.unseen_categories.at(0).first_row == 1);
  auto const notes = kboost::unseen_category_notes(mte.info);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("te.csv: column 0 ('f0'): 1 value is a category the training data lacks (first 'purple', data row 2)") !=
        std::string::npos);
  CHECK(mte.label(0) == 1.0f);            // dog
  CHECK(mte.label(1) == 0.0f);            // cat
  CHECK(mte.info.categories.at(0) == mtr.info.categories.at(0));
  CHECK(mte.info.label_classes == mtr.info.label_classes);

  // An unseen label class is an error naming file and line.
  auto const bad = kboost::test::write_file(dir, "bad.csv", "f0,f1,y\nred,1,cat\nred,1,bird\n");
  try {
    kboost::read_dataset(bad, opt);
    FAIL("expected an error");
  } catch (std::runtime_error const& e) {
    std::string const msg = e.what();
    CHECK(msg.find("bad.csv:3") != std::string::npos);
    CHECK(msg.find("bird") != std::string::npos);
  }
  // A category column that holds only numbers in the eval file keeps the training codes.
  auto const tr2 = kboost::test::write_file(dir, "tr2.csv", "f0,y\n1,0\nx,1\n");
  kboost::ReadOptions o2;
  o2.label_column = "y";
  auto const m2 = kboost::read_dataset(tr2, o2);
  REQUIRE(m2.info.categories.at(0) == std::vector<std::string>{"1", "x"});
  o2.category_reference = &m2.info;
  auto const e2 = kboost::read_dataset(kboost::test::write_file(dir, "te2.csv", "f0,y\n1,0\n"), o2);
  CHECK(e2.dense(0, 0) == 0.0f);
  std::filesystem::remove_all(dir);
}

TEST_CASE("train input " TEST_BACKEND ": check_labels names the file and the 1-based row", "[train][input]") {
  kboost::ObjectiveParams p;
  p.objective = "binary:logistic";
  float const y[] = {0.0f, 1.0f, -0.5f};
  try {
    kboost::check_labels(p, y, 3, "f.csv");
    FAIL("expected an error");
  } catch (std::runtime_error const& e) {
    std::string const msg = e.what();
    CHECK(msg.find("f.csv") != std::string::npos);
    CHECK(msg.find("-0.5") != std::string::npos);
    CHECK(msg.find("row 3") != std::string::npos);
    CHECK(msg.find("[0, 1]") != std::string::npos);
  }
  p.objective = "multi:softprob";
  p.num_class = 2;
  float const c[] = {0.0f, 2.0f};
  CHECK_THROWS(kboost::check_labels(p, c, 2, "f.csv"));
  float const ok[] = {0.0f, 1.0f};
  CHECK_NOTHROW(kboost::check_labels(p, ok, 2, "f.csv"));
}

TEST_CASE("train input " TEST_BACKEND ": kboost train's side files, label errors, ranges, eval_metric, config keys, help",
          "[train][input][cli]") {
  auto const dir = kboost::test::temp_dir("train_input_cli");
  auto const tr = kboost::test::write_file(dir, "tr.csv", "f0,y\n1,0\n2,1\n3,0\n4,1\n5,1\n6,0\n");
  auto const te = kboost::test::write_file(dir, "te.csv", "f0,y\n1,0\n4,1\n");
  auto const w = kboost::test::write_file(dir, "tr.weight", "1\n2\n1\n2\n1\n2\n");
  auto const g = kboost::test::write_file(dir, "tr.group", "3\n3\n");
  std::string const model = (dir / "m.json").string();
  std::string const base = "train --data " + tr + " --label-column y --model-out " + model + " ";
  std::string out;
  // Weight and group files belong to the training file only.
  CHECK(kboost::test::run_cli(dir, base + "--num-round 2 --quiet --weight-file " + w + " --eval test=" + te, out) == 0);
  CHECK(kboost::test::run_cli(dir, base + "--num-round 2 --quiet --objective rank:ndcg --group-file " + g, out) == 0);
  CHECK(kboost::test::run_cli(dir, base + "--num-round 2 --quiet --group-file " + g, out) != 0);  // no groups in reg:*
  // Labels outside [0, 1] for binary:logistic: a label error, not a base_score one.
  auto const neg = kboost::test::write_file(dir, "neg.csv", "f0,y\n1,0\n2,1\n3,-1\n");
  CHECK(kboost::test::run_cli(dir, "train --data " + neg + " --label-column y --objective binary:logistic --model-out " + model, out) != 0);
  CHECK(out.find("neg.csv") != std::string::npos);
  CHECK(out.find("row 3") != std::string::npos);
  CHECK(out.find("base_score") == std::string::npos);
  // Ranges.
  CHECK(kboost::test::run_cli(dir, base + "--num-round -2", out) != 0);
  CHECK(out.find("num_round") != std::string::npos);
  CHECK(kboost::test::run_cli(dir, "--threads -1 " + base + "--num-round 1", out) != 0);
  // Repeated --eval_metric accumulates.
  CHECK(kboost::test::run_cli(dir, base + "--num-round 1 --eval_metric rmse --eval_metric mae --eval test=" + te, out) == 0);
  CHECK(out.find("test-rmse") != std::string::npos);
  CHECK(out.find("test-mae") != std::string::npos);
  // Unknown key in a config file: file and line.
  auto const cfg = kboost::test::write_file(dir, "t.conf", "max_depth = 2\nmax_dpth = 3\n");
  CHECK(kboost::test::run_cli(dir, base + "--config " + cfg, out) != 0);
  CHECK(out.find("t.conf:2") != std::string::npos);
  CHECK(out.find("max_dpth") != std::string::npos);
  // A bad value in a config file: file and line too.
  auto const cfg_bad = kboost::test::write_file(dir, "v.conf", "max_depth = 2\n\neta = -1\n");
  CHECK(kboost::test::run_cli(dir, base + "--config " + cfg_bad, out) != 0);
  CHECK(out.find("v.conf:3") != std::string::npos);
  CHECK(out.find("eta = '-1'") != std::string::npos);
  // A key given twice in a config file: both lines named.
  auto const cfg_twice = kboost::test::write_file(dir, "w.conf", "eta = 0.1\nmax_depth = 2\neta = 0.5\n");
  CHECK(kboost::test::run_cli(dir, base + "--config " + cfg_twice, out) != 0);
  CHECK(out.find("w.conf:3: parameter 'eta' given twice (lines 1 and 3)") != std::string::npos);
  // A config line without '=': named as such, with its line.
  auto const cfg_no_eq = kboost::test::write_file(dir, "n.conf", "eta = 0.1\nobjective binary:logistic\n");
  CHECK(kboost::test::run_cli(dir, base + "--config " + cfg_no_eq, out) != 0);
  CHECK(out.find("n.conf:2: 'objective binary:logistic' is not `key = value` (no '=')") != std::string::npos);
  // CSV-only options on a LibSVM file are refused, not ignored.
  auto const svm = kboost::test::write_file(dir, "tr.svm", "0 0:1\n1 0:2\n0 0:3\n1 0:4\n");
  CHECK(kboost::test::run_cli(dir, "train --data " + svm + " --num-round 1 --model-out " + model, out) == 0);
  CHECK(kboost::test::run_cli(dir, "train --data " + svm + " --label-column 3 --header --num-round 1 --model-out " + model, out) != 0);
  CHECK(out.find("tr.svm: a LibSVM file takes no label column, header (CSV options") != std::string::npos);
  // Metrics and options that do not fit the objective or the labels.
  auto const reg = kboost::test::write_file(dir, "reg.csv", "f0,y\n1,0.5\n2,3.25\n3,0\n4,1\n");
  std::string const reg_base = "train --data " + reg + " --label-column y --num-round 1 --model-out " + model + " ";
  CHECK(kboost::test::run_cli(dir, reg_base + "--eval t=" + reg + " --eval_metric logloss", out) != 0);
  CHECK(out.find("eval_metric logloss needs labels in [0, 1] (binary outcomes); eval set 't' row 2 (1-based) has 3.25") !=
        std::string::npos);
  CHECK(kboost::test::run_cli(dir, reg_base + "--eval t=" + reg + " --eval_metric auc", out) != 0);
  CHECK(out.find("eval_metric auc needs labels in [0, 1]") != std::string::npos);
  CHECK(kboost::test::run_cli(dir, reg_base + "--eval t=" + reg + " --eval_metric mlogloss", out) != 0);
  CHECK(out.find("eval_metric mlogloss scores multi-class objectives") != std::string::npos);
  CHECK(kboost::test::run_cli(dir, base + "--num-round 1 --objective binary:logistic --num_class 3", out) != 0);
  CHECK(out.find("num_class = 3 applies to multi:softmax and multi:softprob, not binary:logistic") != std::string::npos);
  CHECK(kboost::test::run_cli(dir, base + "--num-round 3 --early_stopping_rounds 2", out) != 0);
  CHECK(out.find("early_stopping_rounds needs an eval set") != std::string::npos);
  // Two names of one parameter in a config file.
  auto const cfg_alias = kboost::test::write_file(dir, "a.conf", "max_depth = 3\nmax-depth = 5\n");
  CHECK(kboost::test::run_cli(dir, base + "--config " + cfg_alias, out) != 0);
  CHECK(out.find("a.conf:2: parameter 'max-depth' sets --max_depth again (as 'max_depth' did on line 1)") !=
        std::string::npos);
  // Metric domains beyond [0, 1]; eval sets named twice or with other columns.
  auto const neg_reg = kboost::test::write_file(dir, "nr.csv", "f0,y\n1,0.5\n2,-3\n3,0\n4,1\n");
  CHECK(kboost::test::run_cli(dir, reg_base + "--eval t=" + neg_reg + " --eval_metric rmsle", out) != 0);
  CHECK(out.find("eval_metric rmsle needs labels above -1 (log1p of the label); eval set 't' row 2") != std::string::npos);
  CHECK(kboost::test::run_cli(dir, reg_base + "--eval t=" + reg + " --eval t=" + reg, out) != 0);
  CHECK(out.find("two eval sets are named 't'") != std::string::npos);
  auto const renamed = kboost::test::write_file(dir, "rn.csv", "g0,y\n1,0.5\n");
  CHECK(kboost::test::run_cli(dir, reg_base + "--eval t=" + renamed, out) != 0);
  CHECK(out.find("feature column 0 is column 0 ('g0') but feature 0 of the reference (training) data") !=
        std::string::npos);
  // A checkpoint directory that nothing writes or reads; all-zero weights.
  CHECK(kboost::test::run_cli(dir, reg_base + "--checkpoint-dir " + (dir / "ck").string(), out) != 0);
  CHECK(out.find("writes and reads nothing") != std::string::npos);
  auto const zero_w = kboost::test::write_file(dir, "zw.csv", "f0,w,y\n1,0,0\n2,0,1\n");
  CHECK(kboost::test::run_cli(dir, "train --data " + zero_w + " --label-column y --weight-column w --model-out " + model,
                              out) != 0);
  CHECK(out.find("every row weight of the training data is 0") != std::string::npos);
  // A label name that the header repeats.
  auto const two_y = kboost::test::write_file(dir, "yy.csv", "a,y,y\n1,0,1\n2,1,0\n");
  CHECK(kboost::test::run_cli(dir, "train --data " + two_y + " --label-column y --model-out " + model, out) != 0);
  CHECK(out.find("label column 'y': names columns 1 and 2 (repeated header name)") != std::string::npos);
  // The data options by their underscore names too (label_column for --label-column).
  auto const cfg_read = kboost::test::write_file(dir, "r.conf", "label_column = y\nnum_round = 1\n");
  CHECK(kboost::test::run_cli(dir, "train --data " + tr + " --model-out " + model + " --config " + cfg_read, out) == 0);
  // A config file from standard input; an endless one is refused.
  CHECK(kboost::test::run_cli(dir, base + "--config - < " + cfg_bad, out) != 0);
  CHECK(out.find("standard input:3: ") != std::string::npos);
  CHECK(kboost::test::run_cli(dir, base + "--config /dev/zero", out) != 0);
  CHECK(out.find("/dev/zero: starts with 1 MiB of NUL bytes") != std::string::npos);
  // A directory as the config file, and a float32 parameter beyond float32.
  CHECK(kboost::test::run_cli(dir, base + "--config " + dir.string(), out) != 0);
  CHECK(out.find("is a directory, not a config file") != std::string::npos);
  CHECK(kboost::test::run_cli(dir, base + "--eta inf", out) != 0);
  CHECK(out.find("must be finite") != std::string::npos);
  // --help: --model-out required; the parameters by their XGBoost names.
  CHECK(kboost::test::run_cli(dir, "train --help", out) == 0);
  CHECK(out.find("REQUIRED") != std::string::npos);
  CHECK(out.find("XGBoost's names") != std::string::npos);
  std::filesystem::remove_all(dir);
}
