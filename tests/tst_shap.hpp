// SHAP values (engine/explainer.hpp) against upstream XGBoost 3.2.0's CPU pred_contribs,
// approx_contribs and pred_interactions on every model of ../shared/models and tests/golden/models:
// BIT-identical, on every backend. Goldens are made by tests/golden/make_shap_goldens.py (inputs
// are the prediction goldens' X and base margins, tests/golden/predict); see its docstring.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <kboost/engine/explainer.hpp>
#include <kboost/engine/predictor.hpp>
#include "tests/golden_cases.hpp"
#include "tests/shap_cases.hpp"

namespace {

using kboost::test::DevMatrix;
using kboost::test::ShapCase;
using kboost::test::first_rows;
using kboost::test::flat_host;
using kboost::test::for_each_shap_case;

/// Every SHAP array of every case equals upstream's bits; vector-leaf models are refused as upstream.
void check_shap_goldens(bool shared_models) {
  using kboost::test::count_bit_mismatches;
  int refused = 0;
  int const checked = for_each_shap_case(shared_models, [&](ShapCase const& c) {
    if (!c.error.empty()) {
      CHECK_THROWS_WITH(kboost::Explainer<TEST_EXECSPACE>(c.model_path),
                        Catch::Matchers::ContainsSubstring("vector leaves"));
      ++refused;
      return;
    }
    kboost::Explainer<TEST_EXECSPACE> explainer(c.model_path);
    std::ostringstream log;
    kboost::ShapOptions opt = c.options;
    std::map<std::string, std::size_t> bad;
    for (bool approx : {false, true}) {
      opt.approx_contribs = approx;
      std::string const suffix = approx ? "approx" : "";
      bad[approx ? "approx" : "contribs"] =
          count_bit_mismatches(flat_host(explainer.contributions(c.X, opt, c.bm)), c.want.at(approx ? "approx" : "contribs"),
                               approx ? "approx" : "contribs", log);
      auto const Xi = first_rows(c.X, c.inter_rows);
      auto const bmi = first_rows(c.bm, c.inter_rows);
      std::string const key = approx ? "inter_approx" : "inter";
      bad[key] = count_bit_mismatches(flat_host(explainer.interactions(Xi, opt, bmi)), c.want.at(key), key, log);
    }
    INFO(log.str());
    for (auto const& [key, n] : bad) {
      INFO(key);
      CHECK(n == 0);
    }
  });
  CHECK(checked >= (shared_models ? 9 : 20));
  CHECK(refused >= (shared_models ? 0 : 1));
}

/// Contributions sum to the margin (up to float rounding), interaction rows to their contribution,
/// and neither depends on how many rows one launch takes.
void check_shap_properties() {
  int const checked = for_each_shap_case(false, [](ShapCase const& c) {
    if (!c.error.empty()) return;
    kboost::Explainer<TEST_EXECSPACE> explainer(c.model_path);
    kboost::Predictor<TEST_EXECSPACE> predictor(c.model_path);
    kboost::PredictOptions popt;
    popt.output_margin = true;
    popt.iteration_end = c.options.iteration_end;
    popt.missing = c.options.missing;
    auto const margin = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), predictor.predict(c.X, popt, c.bm));
    auto const contribs = explainer.contributions(c.X, c.options, c.bm);
    auto const phi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), contribs);
    int const C = c.features + 1;
    for (int r = 0; r < c.rows; ++r)
      for (int g = 0; g < c.groups; ++g) {
        double sum = 0, total = 0;
        for (int k = 0; k < C; ++k) {
          sum += phi(r, g, k);
          total += std::fabs(phi(r, g, k));
        }
        INFO("row " << r << " group " << g << ": sum of contributions " << sum << ", margin " << margin(r, g));
        CHECK(std::fabs(sum - margin(r, g)) <= 1e-5 * (1.0 + total));
      }
    auto const Xi = first_rows(c.X, c.inter_rows);
    auto const inter = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), explainer.interactions(Xi, c.options, first_rows(c.bm, c.inter_rows)));
    for (int r = 0; r < c.inter_rows; ++r)
      for (int g = 0; g < c.groups; ++g)
        for (int i = 0; i < C; ++i) {
          double sum = 0, total = 0;
          for (int k = 0; k < C; ++k) {
            sum += inter(r, g, i, k);
            total += std::fabs(inter(r, g, i, k));
          }
          CHECK(std::fabs(sum - phi(r, g, i)) <= 1e-5 * (1.0 + total));
        }
    // One row per launch: the same bytes as one launch for all rows.
    explainer.set_scratch_limit(1);
    auto const chunked = flat_host(explainer.contributions(c.X, c.options, c.bm));
    auto const whole = flat_host(contribs);
    CHECK(std::memcmp(chunked.data(), whole.data(), whole.size() * sizeof(float)) == 0);
  });
  CHECK(checked >= 20);
}

}  // namespace

TEST_CASE("shap " TEST_BACKEND ": bit-identical to XGBoost 3.2 CPU SHAP values on the repository's golden models",
          "[shap][golden]") {
  check_shap_goldens(false);
}

TEST_CASE("shap " TEST_BACKEND ": bit-identical to XGBoost 3.2 CPU SHAP values on every shared model",
          "[shap][golden][shared]") {
  check_shap_goldens(true);
}

TEST_CASE("shap " TEST_BACKEND ": contributions sum to the margin, interactions to the contributions, in any row chunks",
          "[shap]") {
  check_shap_properties();
}

TEST_CASE("shap " TEST_BACKEND ": bad calls are refused naming the problem", "[shap]") {
  kboost::Explainer<TEST_EXECSPACE> explainer(kboost::test::golden_path("models/binary_logistic.json"));
  int const F = explainer.model().num_feature;
  DevMatrix X("X", 3, static_cast<std::size_t>(F));
  kboost::ShapOptions opt;
  opt.iteration_begin = 1;
  opt.iteration_end = 2;
  CHECK_THROWS_WITH(explainer.contributions(X, opt), Catch::Matchers::ContainsSubstring("must start at 0"));
  DevMatrix narrow("narrow", 3, static_cast<std::size_t>(F - 1));
  CHECK_THROWS_WITH(explainer.contributions(narrow), Catch::Matchers::ContainsSubstring("features, the model expects"));
  DevMatrix bm("bm", 2, 1);
  CHECK_THROWS_WITH(explainer.interactions(X, {}, bm), Catch::Matchers::ContainsSubstring("base_margin must be rows x 1"));
}

TEST_CASE("shap " TEST_BACKEND ": kboost predict --pred-contribs / --pred-interactions write the library's values",
          "[shap][cli]") {
  auto const dir = kboost::test::temp_dir("shap_cli_" TEST_BACKEND);
  std::string const model = kboost::test::golden_path("models/multi_softprob.json");
  kboost::Explainer<Kokkos::DefaultHostExecutionSpace> explainer(model);
  int const F = explainer.model().num_feature;
  std::ostringstream csv;
  for (int r = 0; r < 4; ++r) {
    for (int f = 0; f < F; ++f) csv << (f ? "," : "") << ((r + f) % 3 == 0 ? std::string() : std::to_string(0.25 * (r - f)));
    csv << "\n";
  }
  std::string const data = kboost::test::write_file(dir, "x.csv", csv.str());
  std::string out;
  for (std::string const flags : {"--pred-contribs", "--pred-interactions --approx-contribs"}) {
    INFO(flags);
    std::string const path = (dir / "shap.csv").string();
    REQUIRE(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --out " + path + " " + flags, out) == 0);
    std::istringstream lines(kboost::test::read_file(path));
    std::string header, line;
    std::getline(lines, header);
    CHECK(header.rfind(flags == std::string("--pred-contribs") ? "g0:f0," : "g0:f0|f0,", 0) == 0);
    std::vector<float> got;
    while (std::getline(lines, line)) {
      std::istringstream cells(line);
      std::string cell;
      while (std::getline(cells, cell, ',')) got.push_back(std::stof(cell));
    }
    // The same rows through the library: CSV blanks are missing values.
    Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> X("X", 4, static_cast<std::size_t>(F));
    for (int r = 0; r < 4; ++r)
      for (int f = 0; f < F; ++f) X(r, f) = (r + f) % 3 == 0 ? std::nanf("") : static_cast<float>(0.25 * (r - f));
    kboost::ShapOptions opt;
    opt.approx_contribs = flags != std::string("--pred-contribs");
    auto const want = opt.approx_contribs ? flat_host(explainer.interactions(X, opt)) : flat_host(explainer.contributions(X, opt));
    REQUIRE(got.size() == want.size());
    CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
  }
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --out o.csv --approx-contribs", out) != 0);
  CHECK(out.find("--approx-contribs: give --pred-contribs or --pred-interactions too") != std::string::npos);
  CHECK(kboost::test::run_cli(dir, "predict --model " + model + " --data " + data + " --out o.csv --pred-contribs --pred-leaf", out) != 0);
  CHECK(out.find("excludes") != std::string::npos);
}
