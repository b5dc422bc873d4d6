// Training is bit-identical across runs, backends and thread counts: the saved model bytes of two
// runs on TEST_EXECSPACE agree, and (in the OpenMP binary, run at 1 and 2 threads) agree with
// Kokkos::Serial in the same process. Covers missing values (agaricus is sparse), depthwise and
// lossguide growth, regression with row/column sampling, multiclass and eval sets.
#include <catch2/catch_test_macros.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/booster.hpp"
#include "core/params.hpp"
#include "io/dataset_reader.hpp"
#include "io/model_writer.hpp"
#include "tests/test_util.hpp"

namespace {

template <class Space>
std::string train_bytes(std::map<std::string, std::string> const& kv, kboost::HostDMatrix const& d,
                        kboost::HostDMatrix const& eval) {
  kboost::BasicBooster<Space> b;
  b.train(kboost::parse_params(kv), d, {{"eval", eval}});
  return kboost::model_to_json_bytes(b.model());
}

void check_bits(std::map<std::string, std::string> const& kv, kboost::HostDMatrix const& d,
                kboost::HostDMatrix const& eval) {
  std::string const a = train_bytes<TEST_EXECSPACE>(kv, d, eval);
  std::string const b = train_bytes<TEST_EXECSPACE>(kv, d, eval);
  REQUIRE(a.size() > 1000);
  CHECK(a == b);
#if defined(KOKKOS_ENABLE_SERIAL)
  std::string const s = train_bytes<Kokkos::Serial>(kv, d, eval);
  CHECK(a == s);
#endif
}

}  // namespace

TEST_CASE("train " TEST_BACKEND ": model bytes identical across runs and backends", "[train][bits]") {
  using kboost::test::shared_path;
  kboost::ReadOptions lib;
  lib.format = "libsvm";
  auto const agaricus = kboost::read_dataset(shared_path("data/agaricus/agaricus.txt.train"), lib);
  auto const agaricus_test = kboost::read_dataset(shared_path("data/agaricus/agaricus.txt.test"), lib);
  SECTION("binary:logistic depthwise, sparse (missing) input") {
    check_bits({{"objective", "binary:logistic"}, {"num_round", "5"}, {"max_depth", "6"}}, agaricus, agaricus_test);
  }
  SECTION("lossguide with max_leaves, gamma, alpha, max_delta_step") {
    check_bits({{"objective", "binary:logistic"}, {"num_round", "4"}, {"grow_policy", "lossguide"},
                {"max_leaves", "12"}, {"max_depth", "0"}, {"gamma", "0.1"}, {"alpha", "0.5"},
                {"max_delta_step", "1"}},
               agaricus, agaricus_test);
  }
  SECTION("regression with subsample and column sampling, missing values") {
    kboost::ReadOptions csv;
    csv.label_column = "median_house_value";
    auto const housing = kboost::read_dataset(shared_path("data/california_housing/housing.csv"), csv);
    check_bits({{"objective", "reg:squarederror"}, {"num_round", "4"}, {"subsample", "0.7"},
                {"colsample_bytree", "0.8"}, {"colsample_bylevel", "0.9"}, {"colsample_bynode", "0.8"},
                {"seed", "7"}},
               housing, housing);
  }
  SECTION("multi:softprob") {
    kboost::ReadOptions tsv;
    tsv.label_column = "0";
    auto const mc = kboost::read_dataset(shared_path("data/lightgbm_multiclass/multiclass.test"), tsv);
    check_bits({{"objective", "multi:softprob"}, {"num_class", "5"}, {"num_round", "2"}, {"max_depth", "4"}}, mc, mc);
  }
}
