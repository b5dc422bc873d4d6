// Training jobs from files (engine/train_job.hpp) through the C++ API and the C ABI's
// kboost_train_job: job keys, continued training, checkpoints, and a resumed job that makes the
// bytes of an uninterrupted one.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <kboost/engine/train_job.hpp>
#include <kboost/io/model_writer.hpp>
#include <kboost/kboost_c.h>
#include "tests/test_util.hpp"

namespace {

using Catch::Matchers::ContainsSubstring;

std::string agaricus() { return kboost::test::shared_path("data/agaricus/agaricus.txt.train"); }

/// A job's model bytes with `extra` job keys and num_round rounds.
std::string job_bytes(std::map<std::string, std::string> keys, int rounds) {
  keys["objective"] = "binary:logistic";
  keys["max_depth"] = "4";
  keys["num_round"] = std::to_string(rounds);
  kboost::TrainJob const job = kboost::train_job_from_keys(agaricus(), keys);
  return kboost::model_to_json_bytes(
      kboost::run_train_job(job, kboost::parse_params(keys), kboost::local_collective(), nullptr, nullptr));
}

}  // namespace

TEST_CASE("train job " TEST_BACKEND ": job keys are taken out, the rest are training parameters", "[train_job]") {
  std::map<std::string, std::string> keys{{"label_column", "0"}, {"format", "csv"}, {"header", "1"},
                                          {"eval:test", "t.csv"}, {"model_in", "m.json"}, {"checkpoint_dir", "ck"},
                                          {"checkpoint_every", "5"}, {"resume", "1"}, {"max_depth", "3"}};
  kboost::TrainJob const job = kboost::train_job_from_keys("d.csv", keys);
  CHECK(job.data == "d.csv");
  CHECK(job.read.label_column == "0");
  CHECK(job.read.format == "csv");
  CHECK(job.read.header == std::optional<bool>(true));
  REQUIRE(job.evals.size() == 1);
  CHECK(job.evals[0] == std::make_pair(std::string("test"), std::string("t.csv")));
  CHECK(job.model_in == "m.json");
  CHECK(job.checkpoint_dir == "ck");
  CHECK(job.checkpoint_every == 5);
  CHECK(job.resume);
  CHECK(keys == std::map<std::string, std::string>{{"max_depth", "3"}});
  CHECK(job.given_params == keys);

  std::map<std::string, std::string> bad{{"checkpoint_every", "-2"}};
  CHECK_THROWS_WITH(kboost::train_job_from_keys("d.csv", bad), ContainsSubstring("checkpoint_every = -2"));
  std::map<std::string, std::string> bad_flag{{"resume", "yes"}};
  CHECK_THROWS_WITH(kboost::train_job_from_keys("d.csv", bad_flag), ContainsSubstring("not a boolean"));
}

TEST_CASE("train job " TEST_BACKEND ": a job resumed from its checkpoint makes the bytes of an uninterrupted one",
          "[train_job][checkpoint]") {
  auto const dir = kboost::test::temp_dir("train_job");
  std::string const whole = job_bytes({}, 8);
  std::map<std::string, std::string> const ck{{"checkpoint_dir", (dir / "ck").string()}, {"checkpoint_every", "3"}};
  // the first part stops after 5 rounds (checkpoints at 3 and 5); the resumed job runs to 8
  auto first = ck;
  CHECK(job_bytes(first, 5) != whole);
  auto resumed = ck;
  resumed["resume"] = "1";
  CHECK(job_bytes(resumed, 8) == whole);
  // a checkpoint of another job is refused
  auto other = resumed;
  other["eta"] = "0.5";
  CHECK_THROWS_WITH(job_bytes(other, 8), ContainsSubstring("was written by another job"));
  // continuing from a model file: the rounds add up
  std::string const five = (dir / "five.json").string();
  kboost::test::write_file(dir, "five.json", job_bytes({}, 5));
  CHECK(job_bytes({{"model_in", five}}, 3) == whole);
  std::filesystem::remove_all(dir);
}

TEST_CASE("train job " TEST_BACKEND ": kboost_train_job trains and resumes as the C++ job does", "[train_job][c_api]") {
  auto const dir = kboost::test::temp_dir("train_job_c");
  std::string const data = agaricus(), ckdir = (dir / "ck").string();
  std::string const whole = job_bytes({}, 8);
  auto train = [&](char const* rounds, char const* resume) {
    char const* keys[] = {"objective", "max_depth", "num_round", "checkpoint_dir", "checkpoint_every", "resume"};
    char const* values[] = {"binary:logistic", "4", rounds, ckdir.c_str(), "3", resume};
    kboost_model* m = nullptr;
    int const status = kboost_train_job(data.c_str(), keys, values, 6, &m);
    INFO(kboost_last_error());
    REQUIRE(status == KBOOST_SUCCESS);
    std::string const path = (dir / "c.json").string();
    REQUIRE(kboost_model_save(m, path.c_str()) == KBOOST_SUCCESS);
    kboost_model_free(m);
    return kboost::test::read_file(path);
  };
  CHECK(train("5", "0") != whole);
  CHECK(train("8", "1") == whole);
  char const* keys[] = {"checkpoint_every"};
  char const* values[] = {"x"};
  kboost_model* m = nullptr;
  CHECK(kboost_train_job(data.c_str(), keys, values, 1, &m) == KBOOST_ERROR);
  CHECK_THAT(std::string(kboost_last_error()), ContainsSubstring("checkpoint_every = x"));
  CHECK(m == nullptr);
  std::filesystem::remove_all(dir);
}
