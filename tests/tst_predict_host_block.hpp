// The host block predictor (kernels/predict_host_block.hpp), the Predictor's default for values on
// host spaces, against upstream XGBoost 3.2.0's goldens (tests/golden/predict, every repository and
// shared model: dense, compact, categorical, DART, several outputs, base_margin, a missing marker,
// iteration ranges) and byte for byte against the team kernel (HostPath::kTeam), at batches of one
// row, one block less one, one block, one block plus one and many blocks (the golden rows repeated);
// on device backends both paths are the device kernels and must equal the goldens all the same.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <sstream>
#include <vector>

#include <kboost/kernels/predict_host_block.hpp>
#include "tests/golden_cases.hpp"
#include "tests/predict_edge_inputs.hpp"

namespace {

using HostBlockMatrix = Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE>;
constexpr std::size_t kHostBlockBatches[] = {1, 63, 64, 65, 1000};

/// `m` (rows × cols, any memory space) in host memory.
template <class View>
auto host_copy(View const& m) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
}

/// Golden case `c` at a batch of `rows` rows: its input, base margins (extent 0 if none) and
/// expected margins and outputs, the golden rows repeated.
struct CycledCase {
  HostBlockMatrix X, bm;
  kboost::test::GoldenArray margin, pred;
};

CycledCase cycle_case(kboost::test::GoldenCase const& c, std::size_t rows) {
  using kboost::test::cycle_rows;
  using kboost::test::golden_view;
  CycledCase k;
  k.X = golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(cycle_rows(c.files.at("X"), rows), "X");
  if (c.files.count("bm")) k.bm = golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(cycle_rows(c.files.at("bm"), rows), "bm");
  k.margin = cycle_rows(c.files.at("margin"), rows);
  k.pred = cycle_rows(c.files.at("pred"), rows);
  return k;
}

/// Both host paths at every batch of kHostBlockBatches equal the goldens, and each other byte for byte.
void check_host_paths(bool shared_models) {
  using kboost::test::count_bit_mismatches;
  int const checked = kboost::test::for_each_golden_case(shared_models, [](kboost::test::GoldenCase const& c) {
    kboost::Predictor<TEST_EXECSPACE> predictor(c.model_path);
    for (std::size_t rows : kHostBlockBatches) {
      CycledCase const k = cycle_case(c, rows);
      for (bool margin : {true, false}) {
        kboost::PredictOptions opt = c.options;
        opt.output_margin = margin;
        std::ostringstream log;
        log << rows << " rows, " << (margin ? "margin" : "pred") << "\n";
        predictor.set_host_path(kboost::HostPath::kBlock);
        auto const block = host_copy(predictor.predict(k.X, opt, k.bm));
        predictor.set_host_path(kboost::HostPath::kTeam);
        auto const team = host_copy(predictor.predict(k.X, opt, k.bm));
        auto const& want = margin ? k.margin : k.pred;
        std::size_t const bad_block = count_bit_mismatches(block, want, "block", log);
        std::size_t const bad_team = count_bit_mismatches(team, want, "team", log);
        INFO(log.str());
        CHECK(bad_block == 0);
        CHECK(bad_team == 0);
        CHECK(std::memcmp(block.data(), team.data(), block.size() * sizeof(float)) == 0);
      }
    }
  });
  CHECK(checked >= 10);
}

/// predict_host_block called directly on host spaces: 8-row blocks, all on the calling thread or in
/// a parallel region, from a LayoutLeft input, give the goldens' bits (the blocking changes none).
template <class ExecutionSpace>
void check_blockings(bool shared_models) {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecutionSpace::memory_space>::accessible) {
    using kboost::test::count_bit_mismatches;
    int const checked = kboost::test::for_each_golden_case(shared_models, [](kboost::test::GoldenCase const& c) {
      kboost::Predictor<ExecutionSpace> predictor(c.model_path);
      auto const f = predictor.device_forest(c.options);
      if (!kboost::host_block_applies(f)) return;
      CycledCase const k = cycle_case(c, 65);
      Kokkos::View<float**, Kokkos::LayoutLeft, TEST_MEMSPACE> X_left("X_left", k.X.extent(0), k.X.extent(1));
      Kokkos::deep_copy(X_left, k.X);
      kboost::HostBlockPlan plan;
      plan.rows_per_block = 8;
      plan.blocks = (k.X.extent(0) + 7) / 8;
      plan.on_caller = false;
      for (bool launch : {true, false}) {
        HostBlockMatrix out("out", k.X.extent(0), static_cast<std::size_t>(f.output_columns()));
        Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> const bm = k.bm;
        kboost::predict_host_block(ExecutionSpace(), plan, f, predictor.host_splits(), X_left, bm, out, launch);
        Kokkos::fence();
        std::ostringstream log;
        log << (launch ? "parallel region" : "calling thread") << "\n";
        std::size_t const bad = count_bit_mismatches(host_copy(out), k.pred, "pred", log);
        INFO(log.str());
        CHECK(bad == 0);
      }
    });
    CHECK(checked >= 10);
  }
}

/// predict_host_block refuses plans it cannot honour: blocks over kHostBlockMaxRows rows, or too few
/// blocks for the batch.
template <class ExecutionSpace>
void check_refused_plans() {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecutionSpace::memory_space>::accessible) {
    kboost::Predictor<ExecutionSpace> predictor(kboost::test::golden_path("models/binary_logistic.json"));
    auto const f = predictor.device_forest();
    HostBlockMatrix X("X", 100, static_cast<std::size_t>(predictor.model().num_feature)), out("out", 100, 1);
    Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> const no_bm;
    kboost::HostBlockPlan wide = kboost::plan_host_block(100, 1, 1);
    wide.rows_per_block = kboost::kHostBlockMaxRows + 1;
    kboost::HostBlockPlan short_plan = kboost::plan_host_block(100, 1, 1);
    short_plan.blocks = 1;
    for (auto const& plan : {wide, short_plan})
      CHECK_THROWS_WITH(kboost::predict_host_block(ExecutionSpace(), plan, f, predictor.host_splits(), X, no_bm, out, true),
                        Catch::Matchers::ContainsSubstring("cannot serve 100 rows"));
  }
}

/// Every host ISA's walk (host_isa_supported) gives the goldens' bits and the team kernel's bytes,
/// on the golden rows and on rows of values at the splits' edges.
void check_host_isas(bool shared_models) {
  using kboost::test::count_bit_mismatches;
  int const checked = kboost::test::for_each_golden_case(shared_models, [](kboost::test::GoldenCase const& c) {
    kboost::Predictor<TEST_EXECSPACE> predictor(c.model_path);
    CycledCase const k = cycle_case(c, 200);
    kboost::test::GoldenArray edges;
    edges.rows = 200;
    edges.cols = static_cast<std::size_t>(predictor.model().num_feature);
    edges.values = kboost::test::edge_inputs(predictor.model(), c.options.missing, edges.rows);
    auto const X_edges = kboost::test::golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(edges, "X_edges");
    Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE> const no_bm;
    predictor.set_host_path(kboost::HostPath::kTeam);
    auto const team_edges = host_copy(predictor.predict(X_edges, c.options, no_bm));
    predictor.set_host_path(kboost::HostPath::kBlock);
    for (kboost::HostIsa isa : {kboost::HostIsa::kScalar, kboost::HostIsa::kAvx2, kboost::HostIsa::kAvx512}) {
      if (!kboost::host_isa_supported(isa)) {
        CHECK_THROWS_AS(predictor.set_host_isa(isa), std::invalid_argument);
        continue;
      }
      predictor.set_host_isa(isa);
      std::ostringstream log;
      log << kboost::host_isa_name(isa) << "\n";
      std::size_t const bad = count_bit_mismatches(host_copy(predictor.predict(k.X, c.options, k.bm)), k.pred, "pred", log);
      auto const block_edges = host_copy(predictor.predict(X_edges, c.options, no_bm));
      INFO(log.str());
      CHECK(bad == 0);
      CHECK(std::memcmp(block_edges.data(), team_edges.data(), team_edges.size() * sizeof(float)) == 0);
    }
  });
  CHECK(checked >= 10);
}

}  // namespace

TEST_CASE("predict_host_block " TEST_BACKEND ": refuses a plan of blocks too wide or too few for the batch",
          "[predict][host_block]") {
  check_refused_plans<TEST_EXECSPACE>();
}

TEST_CASE("predict_host_block " TEST_BACKEND ": block and team paths equal the goldens and each other, 1 to 1000 rows",
          "[predict][golden][host_block]") {
  check_host_paths(false);
}

TEST_CASE("predict_host_block " TEST_BACKEND ": the same on every shared model", "[predict][golden][host_block][shared]") {
  check_host_paths(true);
}

TEST_CASE("predict_host_block " TEST_BACKEND ": every host ISA's walk equals the goldens and the team kernel, also at the splits' edges",
          "[predict][golden][host_block]") {
  check_host_isas(false);
}

TEST_CASE("predict_host_block " TEST_BACKEND ": every host ISA on every shared model", "[predict][golden][host_block][shared]") {
  check_host_isas(true);
}

TEST_CASE("predict_host_block " TEST_BACKEND ": 8-row blocks, on the calling thread or not, LayoutLeft input, equal the goldens",
          "[predict][golden][host_block]") {
  check_blockings<TEST_EXECSPACE>(false);
  check_blockings<TEST_EXECSPACE>(true);
}

#if defined(_OPENMP)
TEST_CASE("predict_host_block " TEST_BACKEND ": threads of the caller's OpenMP region predict the goldens' bits",
          "[predict][golden][host_block][threads]") {
  using kboost::test::count_bit_mismatches;
  kboost::test::for_each_golden_case(false, [](kboost::test::GoldenCase const& c) {
    kboost::Predictor<TEST_EXECSPACE> const predictor(c.model_path);
    CycledCase const k = cycle_case(c, 1000);
    std::vector<std::size_t> bad(2, 0);
    std::vector<HostBlockMatrix> outs;
    kboost::PredictOptions opt = c.options;
    for (int t = 0; t < 2; ++t) outs.emplace_back("out", k.X.extent(0), static_cast<std::size_t>(predictor.output_columns(opt)));
#pragma omp parallel for num_threads(2)
    for (int t = 0; t < 2; ++t) predictor.predict_into(TEST_EXECSPACE(), k.X, outs[t], opt, k.bm);
    Kokkos::fence();
    std::ostringstream log;
    for (int t = 0; t < 2; ++t) bad[t] = count_bit_mismatches(host_copy(outs[t]), k.pred, "pred", log);
    INFO(log.str());
    CHECK(bad[0] == 0);
    CHECK(bad[1] == 0);
  });
}
#endif
