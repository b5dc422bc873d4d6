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

namespace {

using DevMatrix = Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE>;
using kboost::test::GoldenArray;

/// One SHAP golden case: the model, the first `rows` rows of a prediction golden's input (and base
/// margins), options, and upstream's arrays ("contribs", "approx", "inter", "inter_approx").
struct ShapCase {
  std::string name, model_path, error;
  int rows = 0, inter_rows = 0, features = 0, groups = 1;
  kboost::ShapOptions options;
  DevMatrix X, bm;
  std::map<std::string, GoldenArray> want;
};

/// The first `rows` rows of predict/<file> (rows_total × cols float32) as a device View.
DevMatrix leading_rows(nlohmann::json const& file, int rows, std::string const& label) {
  GoldenArray a;
  std::size_t const total = file[1], cols = file[2];
  auto all = kboost::test::read_f32_file(kboost::test::golden_path("predict/" + file[0].get<std::string>()), total * cols);
  a.rows = static_cast<std::size_t>(rows);
  a.cols = cols;
  a.values.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(a.rows * cols));
  return kboost::test::golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(a, label);
}

/// Calls f(ShapCase) for every SHAP case whose model is (or is not) in ../shared/models; returns how many.
template <class F>
int for_each_shap_case(bool shared_models, F&& f) {
  std::ifstream sf(kboost::test::golden_path("shap/manifest.json")), pf(kboost::test::golden_path("predict/manifest.json"));
  REQUIRE(sf.good());
  REQUIRE(pf.good());
  auto const shap = nlohmann::json::parse(sf);
  auto const predict = nlohmann::json::parse(pf);
  std::map<std::string, nlohmann::json> inputs;
  for (auto const& c : predict.at("cases")) inputs[c.at("name").get<std::string>()] = c;
  int n = 0;
  for (auto const& c : shap.at("cases")) {
    if (c.contains("skipped")) continue;
    std::string const ref = c.at("model");
    bool const from_shared = ref.rfind("shared:", 0) == 0;
    if (from_shared != shared_models) continue;
    ShapCase s;
    s.name = c.at("name");
    INFO("case " << s.name << " model " << ref);
    std::string const rel = ref.substr(ref.find(':') + 1);
    s.model_path = from_shared ? kboost::test::shared_path(rel) : kboost::test::golden_path(rel);
    if (c.contains("error")) {
      s.error = c.at("error");
    } else {
      s.rows = c.at("rows");
      s.inter_rows = c.at("inter_rows");
      s.features = c.at("features");
      s.groups = c.at("groups");
      s.options.iteration_end = c.at("iteration_end");
      if (!c.at("missing").is_null()) s.options.missing = c.at("missing").get<float>();
      auto const& in = inputs.at(c.at("predict_case").get<std::string>()).at("files");
      s.X = leading_rows(in.at("X"), s.rows, "shap_X");
      if (c.at("base_margin").get<bool>()) s.bm = leading_rows(in.at("bm"), s.rows, "shap_bm");
      for (auto const& [key, file] : c.at("files").items()) {
        GoldenArray a;
        a.rows = file[1];
        a.cols = file[2];
        a.values = kboost::test::read_f32_file(kboost::test::golden_path("shap/" + file[0].template get<std::string>()), a.rows * a.cols);
        s.want[key] = std::move(a);
      }
    }
    f(s);
    ++n;
  }
  return n;
}

/// A rows × G × C (or rows × G × C × C) device result as a host rows × (everything else) View.
template <class V>
Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace> flat_host(V const& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> flat("flat", v.extent(0), v.extent(0) ? v.size() / v.extent(0) : 0);
  for (std::size_t i = 0; i < flat.size(); ++i) flat.data()[i] = h.data()[i];
  return flat;
}

DevMatrix first_rows(DevMatrix m, int rows) {
  if (m.extent(0) == 0) return m;
  auto sub = Kokkos::subview(m, std::pair<std::size_t, std::size_t>(0, static_cast<std::size_t>(rows)), Kokkos::ALL());
  DevMatrix out("first_rows", sub.extent(0), sub.extent(1));
  Kokkos::deep_copy(out, sub);
  return out;
}

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
