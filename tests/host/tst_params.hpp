// TrainParams parsing, ranges and the XGBoost CLI config file reader.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <kboost/engine/params.hpp>
#include <kboost/io/model_writer.hpp>
#include "tests/test_util.hpp"

using Catch::Matchers::ContainsSubstring;

TEST_CASE("params " TEST_BACKEND ": defaults as XGBoost", "[params]") {
  auto p = kboost::parse_params({});
  CHECK(p.eta == 0.3f);
  CHECK(p.max_depth == 6);
  CHECK(p.min_child_weight == 1.0f);
  CHECK(p.lambda == 1.0f);
  CHECK(p.alpha == 0.0f);
  CHECK(p.gamma == 0.0f);
  CHECK(p.max_delta_step == 0.0f);
  CHECK(p.max_bin == 256);
  CHECK(p.grow_policy == "depthwise");
  CHECK(p.objective == "reg:squarederror");
  CHECK(!p.base_score.has_value());
  CHECK(p.tree_method == "hist");
  auto q = kboost::parse_params({{"objective", "count:poisson"}});
  CHECK(q.max_delta_step == 0.7f);  // upstream 3.2: tree_train_param.max_delta_step 0.7 for poisson
  CHECK(kboost::objective_params(q).poisson_max_delta_step == 0.7f);
}

TEST_CASE("params " TEST_BACKEND ": values, aliases, lists", "[params]") {
  auto p = kboost::parse_params({{"learning_rate", "0.1"}, {"reg_lambda", "2"}, {"max_depth", "3"},
                                 {"eval_metric", "auc, logloss"}, {"objective", "binary:logistic"},
                                 {"base_score", "0.25"}, {"subsample", "0.5"}, {"seed", "42"}, {"grow_policy", "lossguide"}});
  CHECK(p.eta == 0.1f);
  CHECK(p.lambda == 2.0f);
  CHECK(p.max_depth == 3);
  CHECK(p.eval_metric == std::vector<std::string>{"auc", "logloss"});
  CHECK(*p.base_score == 0.25f);
  CHECK(p.seed == 42);
  CHECK(p.grow_policy == "lossguide");
  auto o = kboost::objective_config_json(kboost::objective_config(p, kboost::objective_params(p)));
  CHECK(o == R"({"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}})");
  auto t = kboost::parse_params({{"objective", "reg:tweedie"}});
  CHECK(kboost::objective_config_json(kboost::objective_config(t, kboost::objective_params(t))) ==
        R"({"name":"reg:tweedie","tweedie_regression_param":{"tweedie_variance_power":"1.5"}})");
  auto m = kboost::parse_params({{"objective", "count:poisson"}});
  CHECK(kboost::objective_config_json(kboost::objective_config(m, kboost::objective_params(m))) ==
        R"({"name":"count:poisson","poisson_regression_param":{"max_delta_step":"0.699999988"}})");
}

TEST_CASE("params " TEST_BACKEND ": constraint and quantile lists in upstream's spellings", "[params]") {
  auto const q = kboost::parse_params({{"objective", "reg:quantileerror"}, {"quantile_alpha", "[0.1, 0.5,0.9]"}});
  CHECK(q.quantile_alpha == std::vector<float>{0.1f, 0.5f, 0.9f});
  CHECK(kboost::objective_config_json(kboost::objective_config(q, kboost::objective_params(q))) ==
        R"({"name":"reg:quantileerror","quantile_loss_param":{"quantile_alpha":"[1E-1,5E-1,9E-1]"}})");
  CHECK(kboost::parse_params({{"quantile_alpha", "0.3"}}).quantile_alpha == std::vector<float>{0.3f});
  CHECK(kboost::parse_params({{"monotone_constraints", "(1,0,-1)"}}).monotone_constraints == std::vector<int>{1, 0, -1});
  CHECK(kboost::parse_params({{"monotone_constraints", "[1,-1]"}}).monotone_constraints == std::vector<int>{1, -1});
  CHECK(kboost::parse_params({{"interaction_constraints", "[[0, 2], [1,3,4]]"}}).interaction_constraints ==
        std::vector<std::vector<int>>{{0, 2}, {1, 3, 4}});
}

TEST_CASE("params " TEST_BACKEND ": errors name the parameter", "[params]") {
  CHECK_THROWS_WITH(kboost::parse_params({{"max_dept", "3"}}), ContainsSubstring("max_dept"));
  CHECK_THROWS_WITH(kboost::parse_params({{"eta", "-1"}}), ContainsSubstring("eta"));
  CHECK_THROWS_WITH(kboost::parse_params({{"objective", "reg:quantileerror"}}), ContainsSubstring("quantile_alpha"));
  CHECK_THROWS_WITH(kboost::parse_params({{"quantile_alpha", "[0.5,1.5]"}}), ContainsSubstring("quantile_alpha"));
  CHECK_THROWS_WITH(kboost::parse_params({{"quantile_alpha", "[0.5,"}}), ContainsSubstring("quantile_alpha"));
  CHECK_THROWS_WITH(kboost::parse_params({{"monotone_constraints", "(1,2)"}}), ContainsSubstring("monotone_constraints"));
  CHECK_THROWS_WITH(kboost::parse_params({{"interaction_constraints", "[[0,1],[\"a\"]]"}}),
                    ContainsSubstring("interaction_constraints"));
  CHECK_THROWS_WITH(kboost::parse_params({{"max_depth", "2.5"}}), ContainsSubstring("max_depth"));
  CHECK_THROWS_WITH(kboost::parse_params({{"subsample", "0"}}), ContainsSubstring("subsample"));
  CHECK_THROWS_WITH(kboost::parse_params({{"max_bin", "1"}}), ContainsSubstring("max_bin"));
  CHECK_THROWS_WITH(kboost::parse_params({{"max_bin", "65535"}}), ContainsSubstring("max_bin"));
  CHECK(kboost::parse_params({{"max_bin", "65534"}}).max_bin == 65534);
  CHECK_THROWS_WITH(kboost::parse_params({{"objective", "reg:foo"}}), ContainsSubstring("objective"));
  CHECK_THROWS_WITH(kboost::parse_params({{"tree_method", "exact"}}), ContainsSubstring("tree_method"));
  CHECK_THROWS_WITH(kboost::parse_params({{"objective", "multi:softprob"}}), ContainsSubstring("num_class"));
  CHECK_THROWS_WITH(kboost::parse_params({{"tweedie_variance_power", "2"}}), ContainsSubstring("tweedie_variance_power"));
  CHECK_THROWS_WITH(kboost::parse_params({{"eta", "abc"}}), ContainsSubstring("eta"));
  // float32 parameters: no inf, nothing beyond float32's largest value
  CHECK_THROWS_WITH(kboost::parse_params({{"eta", "inf"}}), ContainsSubstring("eta") && ContainsSubstring("finite"));
  CHECK_THROWS_WITH(kboost::parse_params({{"eta", "1e40"}}), ContainsSubstring("eta") && ContainsSubstring("overflows float32"));
  CHECK_THROWS_WITH(kboost::parse_params({{"lambda", "3.5e38"}}), ContainsSubstring("lambda") && ContainsSubstring("overflows"));
  CHECK_THROWS_WITH(kboost::parse_params({{"gamma", "INF"}}), ContainsSubstring("gamma") && ContainsSubstring("finite"));
  CHECK(kboost::parse_params({{"eta", "3.4e38"}}).eta == 3.4e38f);
}

TEST_CASE("params " TEST_BACKEND ": sketch_method is upstream_gpu unless another is asked for", "[params]") {
  CHECK(kboost::parse_params({}).sketch_method == "upstream_gpu");
  CHECK(kboost::parse_params({{"kboost_sketch_method", "exact_quantile"}}).sketch_method == "exact_quantile");
  CHECK(kboost::parse_params({{"kboost_sketch_method", "upstream_cpu"}}).sketch_method == "upstream_cpu");
  CHECK(kboost::parse_params({{"sketch_method", "upstream_cpu"}}).sketch_method == "upstream_cpu");
  CHECK_THROWS_WITH(kboost::parse_params({{"kboost_sketch_method", "gpu"}}),
                    ContainsSubstring("kboost_sketch_method") && ContainsSubstring("upstream_gpu, upstream_cpu, exact_quantile"));
}

