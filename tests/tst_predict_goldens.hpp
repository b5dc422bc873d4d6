// Predictions of every model in ../shared/models and tests/golden/models must be BIT-identical to
// upstream XGBoost 3.2.0's CPU predict (margins, transformed outputs and leaf ids). Goldens are made
// by tests/golden/make_predict_goldens.py; see its docstring for the file layout.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "tests/golden_cases.hpp"

namespace {

using DevMatrix = Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE>;

/// A case's input and base margins in TEST_MEMSPACE.
std::pair<DevMatrix, DevMatrix> case_inputs(kboost::test::GoldenCase const& c) {
  return kboost::test::golden_case_inputs<TEST_MEMSPACE>(c);
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

/// A kernel the Predictor picks by batch size, called directly on every golden case as
/// kernel(forest, X, base_margin, out): margins and transformed outputs equal upstream's bits too.
template <class Kernel>
void check_golden_cases_direct(bool shared_models, Kernel const& kernel) {
  using kboost::test::count_bit_mismatches;
  int const checked = kboost::test::for_each_golden_case(shared_models, [&](kboost::test::GoldenCase const& c) {
    kboost::Predictor<TEST_EXECSPACE> predictor(c.model_path);
    auto const [X, bm] = case_inputs(c);
    std::ostringstream log;
    std::size_t bad[2] = {0, 0};
    for (bool margin : {true, false}) {
      kboost::PredictOptions opt = c.options;
      opt.output_margin = margin;
      DevMatrix out("rows_out", X.extent(0), static_cast<std::size_t>(predictor.output_columns(opt)));
      kernel(predictor.device_forest(opt), X, bm, out);
      auto const host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      bad[margin ? 0 : 1] = count_bit_mismatches(host, c.files.at(margin ? "margin" : "pred"), margin ? "margin" : "pred", log);
    }
    INFO(log.str());
    CHECK(bad[0] == 0);
    CHECK(bad[1] == 0);
  });
  CHECK(checked >= 10);
}

/// The large-batch mapping: one thread per row (kernels/predict_rows.hpp).
void one_row_per_thread(kboost::DeviceForest<TEST_MEMSPACE> const& f, DevMatrix X, DevMatrix bm, DevMatrix out) {
  kboost::predict_rows(TEST_EXECSPACE(), f, X, bm, 128, out);
}

/// The small-batch mapping: (tree, row) pairs, then the ordered sum (kernels/predict_pairs.hpp); the
/// words buffer one word longer than the batch needs, filled with NaN bits (no stale word is read).
void spread_pairs(kboost::DeviceForest<TEST_MEMSPACE> const& f, DevMatrix X, DevMatrix bm, DevMatrix out) {
  Kokkos::View<std::int32_t*, TEST_MEMSPACE> words("pair_words", kboost::pair_words(X.extent(0), f.last_tree - f.first_tree) + 1);
  Kokkos::deep_copy(words, 0x7fc00001);
  kboost::predict_pairs(TEST_EXECSPACE(), f, X, bm, words, out);
}

}  // namespace

TEST_CASE("predict " TEST_BACKEND ": one thread per row is bit-identical to XGBoost 3.2 CPU predict on the golden models",
          "[predict][golden]") {
  check_golden_cases_direct(false, one_row_per_thread);
}

TEST_CASE("predict " TEST_BACKEND ": one thread per row is bit-identical to XGBoost 3.2 CPU predict on every shared model",
          "[predict][golden][shared]") {
  check_golden_cases_direct(true, one_row_per_thread);
}

TEST_CASE("predict " TEST_BACKEND ": (tree, row) pairs are bit-identical to XGBoost 3.2 CPU predict on the golden models",
          "[predict][golden]") {
  check_golden_cases_direct(false, spread_pairs);
}

TEST_CASE("predict " TEST_BACKEND ": (tree, row) pairs are bit-identical to XGBoost 3.2 CPU predict on every shared model",
          "[predict][golden][shared]") {
  check_golden_cases_direct(true, spread_pairs);
}

TEST_CASE("predict " TEST_BACKEND ": (tree, row) pairs refuse a words buffer shorter than the batch needs", "[predict]") {
  bool done = false;
  kboost::test::for_each_golden_case(false, [&](kboost::test::GoldenCase const& c) {
    if (done) return;
    done = true;
    kboost::Predictor<TEST_EXECSPACE> predictor(c.model_path);
    auto const [X, bm] = case_inputs(c);
    auto const f = predictor.device_forest(c.options);
    DevMatrix out("out", X.extent(0), static_cast<std::size_t>(f.output_columns()));
    Kokkos::View<std::int32_t*, TEST_MEMSPACE> words("short", kboost::pair_words(X.extent(0), f.last_tree - f.first_tree) - 1);
    CHECK_THROWS_WITH(kboost::predict_pairs(TEST_EXECSPACE(), f, X, bm, words, out),
                      Catch::Matchers::ContainsSubstring("the batch needs"));
  });
  CHECK(done);
}

TEST_CASE("predict " TEST_BACKEND ": bit-identical to XGBoost 3.2 CPU predict on the repository's golden models",
          "[predict][golden]") {
  check_golden_cases(false);
}

TEST_CASE("predict " TEST_BACKEND ": bit-identical to XGBoost 3.2 CPU predict on every shared model",
          "[predict][golden][shared]") {
  check_golden_cases(true);
}
