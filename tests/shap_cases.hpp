#pragma once
// The SHAP golden cases (tests/golden/make_shap_goldens.py) as device inputs and upstream's arrays,
// for the SHAP test bodies (tests/tst_shap.hpp, tests/tst_shap_paths.hpp). Needs TEST_MEMSPACE.
#include <catch2/catch_test_macros.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>
#include <utility>

#include <kboost/engine/explainer.hpp>
#include "tests/golden_cases.hpp"

namespace kboost::test {

using DevMatrix = Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE>;

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
inline DevMatrix leading_rows(nlohmann::json const& file, int rows, std::string const& label) {
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

inline DevMatrix first_rows(DevMatrix m, int rows) {
  if (m.extent(0) == 0) return m;
  auto sub = Kokkos::subview(m, std::pair<std::size_t, std::size_t>(0, static_cast<std::size_t>(rows)), Kokkos::ALL());
  DevMatrix out("first_rows", sub.extent(0), sub.extent(1));
  Kokkos::deep_copy(out, sub);
  return out;
}

}  // namespace kboost::test
