// Training is bit-identical across runs, backends and thread counts: the saved model bytes of two
// runs on TEST_EXECSPACE agree, and (in the OpenMP binary, run at 1 and 2 threads) agree with
// Kokkos::Serial in the same process. Covers missing values (agaricus is sparse), depthwise and
// lossguide growth, regression with row/column sampling, multiclass and eval sets. Every backend
// (CUDA and HIP included) also reproduces the committed tree fingerprints.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/model_writer.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/params.hpp>
#include "tests/test_util.hpp"
#include "tests/train_data.hpp"

namespace {

template <class Space>
std::string train_bytes(std::map<std::string, std::string> const& kv, kboost::HostDMatrix const& d,
                        kboost::HostDMatrix const& eval) {
  kboost::BasicBooster<Space> b;
  b.train(kboost::parse_params(kv), d, {{"eval", eval}});
  return kboost::model_to_json_bytes(b.model());
}

/// FNV-1a 64 over the bits of every tree array: a backend-independent fingerprint of the trees
/// (independent of the writer's text formatting).
std::string tree_fingerprint(kboost::Model const& m) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](void const* p, std::size_t n) {
    auto const* c = static_cast<unsigned char const*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ull;
  };
  for (auto const& t : m.trees) {
    mix(t.left_children.data(), t.left_children.size() * 4);
    mix(t.right_children.data(), t.right_children.size() * 4);
    mix(t.split_indices.data(), t.split_indices.size() * 4);
    mix(t.split_conditions.data(), t.split_conditions.size() * 4);
    mix(t.default_left.data(), t.default_left.size());
    mix(t.base_weights.data(), t.base_weights.size() * 4);
    mix(t.loss_changes.data(), t.loss_changes.size() * 4);
    mix(t.sum_hessian.data(), t.sum_hessian.size() * 4);
    if (!t.categories_nodes.empty()) {  // categorical splits (numerical trees keep their old prints)
      mix(t.split_type.data(), t.split_type.size());
      mix(t.categories_nodes.data(), t.categories_nodes.size() * 4);
      mix(t.categories_sizes.data(), t.categories_sizes.size() * 8);
      mix(t.categories.data(), t.categories.size() * 4);
    }
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

/// Fingerprints every backend must reproduce (tests/golden/train_fingerprints.txt, "name hash" lines,
/// written by the Serial backend when KBOOST_WRITE_TRAIN_FINGERPRINTS=1).
void check_fingerprint(std::string const& name, kboost::Model const& m) {
  std::string const path = kboost::test::golden_path("train_fingerprints.txt");
  std::string const fp = tree_fingerprint(m);
  if (std::getenv("KBOOST_WRITE_TRAIN_FINGERPRINTS") && std::string(TEST_BACKEND) == "SERIAL") {
    std::ofstream(path, std::ios::app) << name << " " << fp << "\n";
    return;
  }
  std::ifstream in(path);
  std::map<std::string, std::string> want;
  std::string k, v;
  while (in >> k >> v) want[k] = v;
  INFO("fingerprint of " << name);
  REQUIRE(want.count(name) == 1);
  CHECK(fp == want[name]);
}

void check_bits(std::string const& name, std::map<std::string, std::string> const& kv, kboost::HostDMatrix const& d,
                kboost::HostDMatrix const& eval) {
  {
    kboost::BasicBooster<TEST_EXECSPACE> b;
    b.train(kboost::parse_params(kv), d, {{"eval", eval}});
    check_fingerprint(name, b.model());
  }
  std::string const a = train_bytes<TEST_EXECSPACE>(kv, d, eval);
  std::string const b = train_bytes<TEST_EXECSPACE>(kv, d, eval);
  REQUIRE(a.size() > 1000);
  CHECK(a == b);
#if defined(KOKKOS_ENABLE_SERIAL)
  std::string const s = train_bytes<Kokkos::Serial>(kv, d, eval);
  CHECK(a == s);
#endif
}

/// California housing with its label column (the shared data; skips without it).
kboost::HostDMatrix read_housing() {
  kboost::ReadOptions csv;
  csv.label_column = "median_house_value";
  return kboost::read_dataset(kboost::test::shared_path("data/california_housing/housing.csv"), csv);
}

}  // namespace

TEST_CASE("train " TEST_BACKEND ": model bytes identical across runs and backends (agaricus)", "[train][bits]") {
  using kboost::test::shared_path;
  kboost::ReadOptions lib;
  lib.format = "libsvm";
  auto const agaricus = kboost::read_dataset(shared_path("data/agaricus/agaricus.txt.train"), lib);
  auto const agaricus_test = kboost::read_dataset(shared_path("data/agaricus/agaricus.txt.test"), lib);
  SECTION("binary:logistic depthwise, sparse (missing) input") {
    check_bits("agaricus_depthwise", {{"objective", "binary:logistic"}, {"num_round", "5"}, {"max_depth", "6"}}, agaricus, agaricus_test);
  }
  SECTION("lossguide with max_leaves, gamma, alpha, max_delta_step") {
    check_bits("agaricus_lossguide", {{"objective", "binary:logistic"}, {"num_round", "4"}, {"grow_policy", "lossguide"},
                {"max_leaves", "12"}, {"max_depth", "0"}, {"gamma", "0.1"}, {"alpha", "0.5"},
                {"max_delta_step", "1"}},
               agaricus, agaricus_test);
  }
}

TEST_CASE("train " TEST_BACKEND ": model bytes identical across runs and backends (categorical)", "[train][bits]") {
  auto const d = kboost::test::synthetic_categorical(30000);
  SECTION("partition and one-hot splits, missing categories") {
    check_bits("synthetic_categorical", {{"num_round", "4"}, {"max_depth", "6"}}, d, d);
  }
  SECTION("lossguide, max_cat_threshold, column sampling") {
    check_bits("synthetic_categorical_lossguide", {{"num_round", "4"}, {"grow_policy", "lossguide"}, {"max_leaves", "20"},
                {"max_depth", "0"}, {"max_cat_threshold", "5"}, {"colsample_bynode", "0.7"}, {"seed", "5"}},
               d, d);
  }
}

TEST_CASE("train " TEST_BACKEND ": model bytes identical across runs and backends (ranking)", "[train][bits]") {
  auto const golden = nlohmann::json::parse(std::ifstream(kboost::test::golden_path("ranking_goldens.json")));
  auto const d = kboost::test::ranking_synthetic(golden["synthetic"]);
  SECTION("rank:ndcg, top-k pairs on the host") {
    check_bits("synthetic_rank_ndcg", {{"objective", "rank:ndcg"}, {"num_round", "4"}}, d, d);
  }
  SECTION("rank:pairwise, sampled pairs (mean), row sampling") {
    check_bits("synthetic_rank_pairwise_mean", {{"objective", "rank:pairwise"}, {"lambdarank_pair_method", "mean"},
                {"lambdarank_num_pair_per_sample", "3"}, {"subsample", "0.8"}, {"seed", "3"}, {"num_round", "4"}},
               d, d);
  }
}

TEST_CASE("train " TEST_BACKEND ": model bytes identical across runs and backends (survival:aft)", "[train][bits]") {
  auto const golden = nlohmann::json::parse(std::ifstream(kboost::test::golden_path("aft_goldens.json")));
  auto const d = kboost::test::aft_synthetic(golden["synthetic"]);
  check_bits("synthetic_aft_extreme", {{"objective", "survival:aft"}, {"aft_loss_distribution", "extreme"},
              {"aft_loss_distribution_scale", "0.7"}, {"num_round", "6"}, {"subsample", "0.8"}, {"seed", "2"}},
             d, d);
}

TEST_CASE("train " TEST_BACKEND ": model bytes identical across runs and backends (multi-target)", "[train][bits]") {
  auto const golden = nlohmann::json::parse(std::ifstream(kboost::test::golden_path("multi_target_goldens.json")));
  SECTION("reg:squarederror, weighted rows, column sampling") {
    auto const d = kboost::test::multi_target_synthetic(golden["synthetic"], "y", true);
    check_bits("synthetic_multi_target_weighted", {{"num_round", "4"}, {"colsample_bynode", "0.7"}, {"seed", "4"}}, d, d);
  }
  SECTION("reg:absoluteerror, each target's leaves refit, row sampling") {
    auto const d = kboost::test::multi_target_synthetic(golden["synthetic"], "y", false);
    check_bits("synthetic_multi_target_absoluteerror", {{"objective", "reg:absoluteerror"}, {"num_round", "4"},
                {"subsample", "0.8"}, {"seed", "6"}}, d, d);
  }
}

TEST_CASE("train " TEST_BACKEND ": model bytes identical across runs and backends (DART)", "[train][bits]") {
  auto const golden = nlohmann::json::parse(std::ifstream(kboost::test::golden_path("dart_goldens.json")));
  auto const d = kboost::test::dart_synthetic(golden["synthetic"], "classes");
  check_bits("synthetic_dart_multiclass", {{"booster", "dart"}, {"objective", "multi:softprob"}, {"num_class", "3"},
              {"rate_drop", "0.3"}, {"one_drop", "1"}, {"sample_type", "weighted"}, {"subsample", "0.8"},
              {"num_round", "6"}}, d, d);
}

TEST_CASE("train " TEST_BACKEND ": model bytes identical across runs and backends (dense data)", "[train][bits][shared]") {
  using kboost::test::shared_path;
  SECTION("regression with subsample and column sampling, missing values") {
    auto const housing = read_housing();
    check_bits("housing_sampling", {{"objective", "reg:squarederror"}, {"num_round", "4"}, {"subsample", "0.7"},
                {"colsample_bytree", "0.8"}, {"colsample_bylevel", "0.9"}, {"colsample_bynode", "0.8"},
                {"seed", "7"}},
               housing, housing);
  }
  SECTION("exact quantile sketch (sketch_method = exact_quantile), weighted rows") {
    auto housing = read_housing();
    housing.info.feature_types.at(8) = kboost::FeatureType::kNumerical;  // the exact sketch takes no categories
    housing.weight = Kokkos::View<float*, Kokkos::HostSpace>("w", housing.n_rows);
    for (std::size_t i = 0; i < housing.n_rows; ++i) housing.weight(i) = 0.5f + static_cast<float>(i % 5) * 0.25f;
    check_bits("housing_exact_quantile", {{"objective", "reg:squarederror"}, {"num_round", "4"}, {"max_depth", "8"},
                {"kboost_sketch_method", "exact_quantile"}},
               housing, housing);
  }
  SECTION("adaptive leaves: reg:absoluteerror refit with row sampling, reg:quantileerror with weights") {
    auto housing = read_housing();
    check_bits("housing_mae_subsample", {{"objective", "reg:absoluteerror"}, {"num_round", "4"}, {"subsample", "0.7"},
                {"seed", "3"}},
               housing, housing);
    housing.weight = Kokkos::View<float*, Kokkos::HostSpace>("w", housing.n_rows);
    for (std::size_t i = 0; i < housing.n_rows; ++i) housing.weight(i) = 0.5f + static_cast<float>(i % 7) * 0.3f;
    check_bits("housing_quantile3_weighted", {{"objective", "reg:quantileerror"}, {"quantile_alpha", "[0.1,0.5,0.9]"},
                {"num_round", "3"}},
               housing, housing);
  }
  SECTION("monotone and interaction constraints") {
    auto const housing = read_housing();
    check_bits("housing_monotone", {{"objective", "reg:squarederror"}, {"num_round", "4"}, {"max_depth", "7"},
                {"monotone_constraints", "(1,-1,0,0,0,0,0,1)"}},
               housing, housing);
    check_bits("housing_interaction_lossguide", {{"objective", "reg:squarederror"}, {"num_round", "4"},
                {"grow_policy", "lossguide"}, {"max_leaves", "31"}, {"max_depth", "0"},
                {"interaction_constraints", "[[0,1],[2,3,4],[5,6,7,8]]"}},
               housing, housing);
  }
  SECTION("reg:squaredlogerror (portable log1p)") {
    auto const housing = read_housing();
    check_bits("housing_squaredlogerror", {{"objective", "reg:squaredlogerror"}, {"num_round", "4"}}, housing, housing);
  }
  SECTION("survival:cox (risk sets on the host), right-censored rows") {
    kboost::ReadOptions csv;
    csv.label_column = "Survival_label_lower_bound";
    csv.missing_markers.push_back("inf");
    auto vet = kboost::read_dataset(shared_path("data/veterans_lung_cancer/veterans_lung_cancer.csv"), csv);
    for (std::size_t i = 0; i < vet.n_rows; ++i)  // column 0 is the upper bound: inf = censored
      if (std::isnan(vet.dense(i, 0))) {
        vet.label(i) = -vet.label(i);
        vet.dense(i, 0) = std::numeric_limits<float>::infinity();  // kept a value: infinities train as values
      }
    check_bits("veterans_cox", {{"objective", "survival:cox"}, {"num_round", "10"}, {"max_depth", "3"}}, vet, vet);
  }
  SECTION("categorical features from text columns (adult)") {
    kboost::ReadOptions csv;
    csv.label_column = "-1";
    auto const adult = kboost::read_dataset(shared_path("data/adult/adult.data"), csv);
    check_bits("adult_categorical", {{"objective", "binary:logistic"}, {"num_round", "4"}, {"max_depth", "6"}}, adult, adult);
  }
  SECTION("rank:ndcg on the LambdaRank example") {
    auto const rank = kboost::test::lambdarank_example("train");
    check_bits("lambdarank_ndcg", {{"objective", "rank:ndcg"}, {"num_round", "4"}}, rank, rank);
  }
  SECTION("multi:softprob") {
    kboost::ReadOptions tsv;
    tsv.label_column = "0";
    auto const mc = kboost::read_dataset(shared_path("data/lightgbm_multiclass/multiclass.test"), tsv);
    check_bits("multiclass", {{"objective", "multi:softprob"}, {"num_class", "5"}, {"num_round", "2"}, {"max_depth", "4"}}, mc, mc);
  }
}
