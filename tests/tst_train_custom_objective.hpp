// A caller's objective as a device functor (kboost::custom_objective): it trains the model the
// built-in objective with the same gradients trains, on every backend, and takes upstream's
// intercept for custom objectives (0.5: Learner::BoostOneIter fits none; checked with xgboost
// 3.2.0: xgb.train({}, d, 2, obj=f) saves base_score "[5E-1]", boost_from_average "1").
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include <kboost/core/portable_math.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/io/model_writer.hpp>
#include "tests/test_util.hpp"
#include "tests/train_data.hpp"

namespace {

/// reg:squarederror's gradients as a caller would write them (scale_pos_weight left out).
struct SquaredError {
  KOKKOS_INLINE_FUNCTION kboost::GradientPair operator()(std::size_t, int, float margin, float label, float w) const {
    return kboost::GradientPair{(margin - label) * w, 1.0f * w};
  }
};

/// binary:logistic's gradients through kboost's portable sigmoid.
struct Logistic {
  KOKKOS_INLINE_FUNCTION kboost::GradientPair operator()(std::size_t, int, float margin, float label, float w) const {
    float const p = kboost::pmath::sigmoid(margin);
    float const h = p * (1.0f - p);
    return kboost::GradientPair{(p - label) * w, (h > 1e-16f ? h : 1e-16f) * w};
  }
};

template <class F>
std::string custom_bytes(std::map<std::string, std::string> const& kv, kboost::HostDMatrix const& d, F f) {
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params(kv), d, kboost::custom_objective(f));
  return kboost::model_to_json_bytes(b.model());
}

std::string builtin_bytes(std::map<std::string, std::string> const& kv, kboost::HostDMatrix const& d) {
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params(kv), d);
  return kboost::model_to_json_bytes(b.model());
}

kboost::HostDMatrix one_label(std::string const& target) {
  auto const golden = nlohmann::json::parse(std::ifstream(kboost::test::golden_path("dart_goldens.json")));
  return kboost::test::dart_synthetic(golden["synthetic"], target);
}

}  // namespace

TEST_CASE("train " TEST_BACKEND ": a custom objective functor trains as the built-in one", "[train][custom_objective]") {
  using Catch::Matchers::ContainsSubstring;
  auto const golden = nlohmann::json::parse(std::ifstream(kboost::test::golden_path("multi_target_goldens.json")));
  SECTION("squared error: one label column, and three with row weights") {
    std::map<std::string, std::string> const kv{{"num_round", "4"}, {"base_score", "0.5"}, {"max_depth", "4"}};
    auto const three = kboost::test::multi_target_synthetic(golden["synthetic"], "y", true);
    CHECK(custom_bytes(kv, three, SquaredError{}) == builtin_bytes(kv, three));
    auto const one = one_label("y");
    CHECK(custom_bytes(kv, one, SquaredError{}) == builtin_bytes(kv, one));
  }
  SECTION("logistic, the objective's transform and metric kept") {
    auto const d = one_label("binary");
    // Logistic{} computes with glibc's expf: the built-in one does with kboost_math_functions = upstream_cpu
    std::map<std::string, std::string> const kv{{"objective", "binary:logistic"},
                                                {"num_round", "5"},
                                                {"base_score", "0.5"},
                                                {"kboost_math_functions", "upstream_cpu"}};
    CHECK(custom_bytes(kv, d, Logistic{}) == builtin_bytes(kv, d));
  }
  SECTION("no base_score: upstream's 0.5, not the estimate") {
    auto const d = one_label("y");
    auto const j = nlohmann::json::parse(custom_bytes({{"num_round", "2"}}, d, SquaredError{}));
    CHECK(j["learner"]["learner_model_param"]["base_score"] == "[5E-1]");
    CHECK(j["learner"]["learner_model_param"]["boost_from_average"] == "1");
    kboost::BasicBooster<TEST_EXECSPACE> b;
    CHECK_THROWS_WITH(b.train(kboost::parse_params({{"objective", "survival:aft"}}), d, kboost::custom_objective(SquaredError{})),
                      ContainsSubstring("interval labels"));
    b.train(kboost::parse_params({{"num_round", "1"}}), d);  // the next fit takes the built-in gradients again
    CHECK(b.model().base_score.at(0) != 0.5f);
  }
}
