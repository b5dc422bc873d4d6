// lossguide's look-ahead (engine/detail/tree_grower.hpp lookahead_nodes): preparing the children
// of several waiting nodes per step, and of their children before their parent expands, must give
// the model bytes of expanding one node per step (kboost_lossguide_lookahead=0, upstream's
// src/tree/updater_gpu_hist.cu order) while taking fewer steps. Covers leaf budgets that end a tree
// with prepared nodes never expanded, depth limits, gamma and min_child_weight, leaf refit
// (reg:absoluteerror), monotone and interaction constraints, categorical splits, row and tree
// column sampling, and the fallback to one node per step when columns are drawn per node.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <kboost/core/dmatrix.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/io/model_writer.hpp>
#include "tests/train_data.hpp"

namespace {

/// `rows` × 8 features from a splitmix64 stream of the row index (the same everywhere): a label
/// with interactions, steps and noise, every 7th value of features 2 and 5 missing.
kboost::HostDMatrix lookahead_data(std::size_t rows) {
  std::size_t const cols = 8;
  std::vector<float> X(rows * cols), y(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    float v[cols];
    for (std::size_t f = 0; f < cols; ++f)
      v[f] = static_cast<float>(kboost::test::splitmix64(i * cols + f) >> 40) / 16777216.0f;  // [0, 1)
    y[i] = 3.0f * v[0] * v[1] + (v[2] > 0.6f ? 1.5f : 0.0f) - 2.0f * (v[3] - 0.5f) * (v[3] - 0.5f) +
           (v[4] > 0.3f && v[5] < 0.4f ? 1.0f : 0.0f) + 0.3f * v[6] + 0.2f * (v[7] - 0.5f);
    for (std::size_t f = 0; f < cols; ++f) X[i * cols + f] = (f == 2 || f == 5) && (i + f) % 7 == 0 ? NAN : v[f];
  }
  return kboost::host_dmatrix(X.data(), rows, cols, y.data());
}

struct Fit {
  std::string bytes;
  std::int64_t steps;  ///< the trees' device steps (PhaseTimes::levels)
};

Fit fit(std::map<std::string, std::string> kv, kboost::HostDMatrix const& d, bool lookahead) {
  kv["kboost_lossguide_lookahead"] = lookahead ? "1" : "0";
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params(kv), d);
  return Fit{kboost::model_to_json_bytes(b.model()), static_cast<std::int64_t>(b.phases().levels)};
}

/// The look-ahead fit's bytes equal the one-node-per-step fit's; it takes at most `at_most` of the
/// steps.
void check_same_trees(std::map<std::string, std::string> kv, kboost::HostDMatrix const& d, double at_most) {
  kv["grow_policy"] = "lossguide";
  Fit const ahead = fit(kv, d, true), one = fit(kv, d, false);
  REQUIRE(ahead.bytes.size() > 1000);
  CHECK(ahead.bytes == one.bytes);
  INFO("steps with look-ahead " << ahead.steps << ", one node per step " << one.steps);
  CHECK(static_cast<double>(ahead.steps) <= at_most * static_cast<double>(one.steps));
}

}  // namespace

TEST_CASE("train " TEST_BACKEND ": lossguide look-ahead keeps the one-node-per-step trees in fewer steps",
          "[train][lossguide]") {
  auto const d = lookahead_data(4000);
  std::map<std::string, std::string> const base{{"num_round", "3"}, {"max_bin", "64"}};
  auto with = [&](std::map<std::string, std::string> extra) {
    auto kv = base;
    for (auto const& [k, v] : extra) kv[k] = v;
    return kv;
  };
  SECTION("a leaf budget that ends each tree with prepared nodes never expanded") {
    check_same_trees(with({{"max_leaves", "63"}, {"max_depth", "0"}}), d, 0.35);
  }
  SECTION("depth limit without a leaf budget") { check_same_trees(with({{"max_leaves", "0"}, {"max_depth", "5"}}), d, 0.35); }
  SECTION("both limits, gamma and min_child_weight") {
    check_same_trees(with({{"max_leaves", "20"}, {"max_depth", "4"}, {"gamma", "0.05"}, {"min_child_weight", "8"}}), d,
                     0.6);
  }
  SECTION("leaf refit: rows of leaves partitioned ahead") {
    check_same_trees(with({{"objective", "reg:absoluteerror"}, {"max_leaves", "31"}, {"max_depth", "0"}}), d, 0.6);
  }
  SECTION("monotone and interaction constraints") {
    check_same_trees(with({{"max_leaves", "40"}, {"max_depth", "0"}, {"monotone_constraints", "(1,0,0,-1)"},
                           {"interaction_constraints", "[[0,1],[2,3,4],[5,6,7]]"}}),
                     d, 0.6);
  }
  SECTION("row and tree column sampling") {
    check_same_trees(with({{"max_leaves", "48"}, {"max_depth", "0"}, {"subsample", "0.7"}, {"colsample_bytree", "0.75"},
                           {"seed", "11"}}),
                     d, 0.6);
  }
  SECTION("categorical splits") {
    check_same_trees(with({{"max_leaves", "24"}, {"max_depth", "0"}, {"max_cat_to_onehot", "1"}}),
                     kboost::test::synthetic_categorical(3000), 0.6);
  }
  SECTION("columns drawn per node or level: one node per step") {
    for (char const* key : {"colsample_bynode", "colsample_bylevel"}) {
      auto kv = with({{"max_leaves", "31"}, {"max_depth", "0"}, {key, "0.6"}, {"seed", "5"}, {"grow_policy", "lossguide"}});
      Fit const ahead = fit(kv, d, true), one = fit(kv, d, false);
      CHECK(ahead.bytes == one.bytes);
      CHECK(ahead.steps == one.steps);
    }
  }
}
