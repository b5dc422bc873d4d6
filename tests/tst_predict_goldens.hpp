// Predictions of every model in ../shared/models and tests/golden/models must be BIT-identical to
// upstream XGBoost 3.2.0's CPU predict (margins, transformed outputs and leaf ids). Goldens are made
// by tests/golden/make_predict_goldens.py; see its docstring for the file layout.
#include <catch2/catch_test_macros.hpp>

#include "tests/golden_cases.hpp"

namespace {

using DevMatrix = Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE>;

/// A case's rows × features input and its rows × outputs base margins (extent 0 when it has none).
std::pair<DevMatrix, DevMatrix> case_inputs(kboost::test::GoldenCase const& c) {
  auto X = kboost::test::golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(c.files.at("X"), "golden_X");
  DevMatrix bm;
  if (c.files.count("bm")) bm = kboost::test::golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(c.files.at("bm"), "bm");
  return {X, bm};
}

/// Margins, transformed outputs and leaf ids of every golden case (of the repository's models or of
/// the shared ones) equal upstream's bits.
void check_golden_cases(bool shared_models) {
  using kboost::test::count_bit_mismatches;
  int const checked = kboost::test::for_each_golden_case(shared_models, [](kboost::test::GoldenCase const& c) {
    kboost::Predictor<TEST_EXECSPACE> predictor(c.model_path);
    auto const [X, bm] = case_inputs(c);
    kboost::PredictOptions opt = c.options;
    std::ostringstream log;
    auto host = [](DevMatrix m) { return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m); };
    opt.output_margin = true;
    std::size_t const bad_margin = count_bit_mismatches(host(predictor.predict(X, opt, bm)), c.files.at("margin"), "margin", log);
    opt.output_margin = false;
    std::size_t const bad_pred = count_bit_mismatches(host(predictor.predict(X, opt, bm)), c.files.at("pred"), "pred", log);
    std::size_t bad_leaf = 0;
    if (c.files.count("leaf")) {
      auto const& want = c.files.at("leaf");
      opt.pred_leaf = true;
      auto sub = Kokkos::subview(X, std::pair<std::size_t, std::size_t>(0, want.rows), Kokkos::ALL());
      DevMatrix Xs("leaf_rows", sub.extent(0), sub.extent(1));
      Kokkos::deep_copy(Xs, sub);
      bad_leaf = count_bit_mismatches(host(predictor.predict(Xs, opt)), want, "leaf", log);
    }
    INFO(log.str());
    CHECK(bad_margin == 0);
    CHECK(bad_pred == 0);
    CHECK(bad_leaf == 0);
  });
  CHECK(checked >= 10);
}

/// The large-batch mapping (one thread per row, kernels/predict_rows.hpp), called directly on every
/// golden case: margins and transformed outputs equal upstream's bits too.
void check_golden_cases_one_row_per_thread(bool shared_models) {
  using kboost::test::count_bit_mismatches;
  int const checked = kboost::test::for_each_golden_case(shared_models, [](kboost::test::GoldenCase const& c) {
    kboost::Predictor<TEST_EXECSPACE> predictor(c.model_path);
    auto const [X, bm] = case_inputs(c);
    std::ostringstream log;
    std::size_t bad[2] = {0, 0};
    for (bool margin : {true, false}) {
      kboost::PredictOptions opt = c.options;
      opt.output_margin = margin;
      DevMatrix out("rows_out", X.extent(0), static_cast<std::size_t>(predictor.output_columns(opt)));
      kboost::predict_rows(TEST_EXECSPACE(), predictor.device_forest(opt), X, bm, 128, out);
      auto const host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      bad[margin ? 0 : 1] = count_bit_mismatches(host, c.files.at(margin ? "margin" : "pred"), margin ? "margin" : "pred", log);
    }
    INFO(log.str());
    CHECK(bad[0] == 0);
    CHECK(bad[1] == 0);
  });
  CHECK(checked >= 10);
}

}  // namespace

TEST_CASE("predict " TEST_BACKEND ": one thread per row is bit-identical to XGBoost 3.2 CPU predict on the golden models",
          "[predict][golden]") {
  check_golden_cases_one_row_per_thread(false);
}

TEST_CASE("predict " TEST_BACKEND ": one thread per row is bit-identical to XGBoost 3.2 CPU predict on every shared model",
          "[predict][golden][shared]") {
  check_golden_cases_one_row_per_thread(true);
}

TEST_CASE("predict " TEST_BACKEND ": bit-identical to XGBoost 3.2 CPU predict on the repository's golden models",
          "[predict][golden]") {
  check_golden_cases(false);
}

TEST_CASE("predict " TEST_BACKEND ": bit-identical to XGBoost 3.2 CPU predict on every shared model",
          "[predict][golden][shared]") {
  check_golden_cases(true);
}
