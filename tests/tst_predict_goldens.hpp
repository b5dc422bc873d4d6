// Predictions of every model in ../shared/models and tests/golden/models must be BIT-identical to
// upstream XGBoost 3.2.0's CPU predict (margins, transformed outputs and leaf ids). Goldens are made
// by tests/golden/make_predict_goldens.py; see its docstring for the file layout.
#include <catch2/catch_test_macros.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include <kboost/engine/predictor.hpp>
#include "tests/test_util.hpp"

namespace {

std::vector<float> read_f32_file(std::string const& path, std::size_t count) {
  std::ifstream in(path, std::ios::binary);
  INFO("golden file " << path);
  REQUIRE(in.good());
  std::vector<float> v(count);
  in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(count * sizeof(float)));
  REQUIRE(static_cast<std::size_t>(in.gcount()) == count * sizeof(float));
  return v;
}

std::string golden_model_path(std::string const& ref) {
  auto colon = ref.find(':');
  auto where = ref.substr(0, colon), rel = ref.substr(colon + 1);
  return where == "shared" ? kboost::test::shared_path(rel) : kboost::test::golden_path(rel);
}

using DevMatrix = Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE>;

DevMatrix to_device(std::vector<float> const& v, std::size_t rows, std::size_t cols) {
  DevMatrix d("golden", rows, cols);
  auto h = Kokkos::create_mirror_view(d);
  std::memcpy(h.data(), v.data(), v.size() * sizeof(float));
  Kokkos::deep_copy(d, h);
  return d;
}

/// Number of cells whose bits differ; the first few go to `log`.
std::size_t count_bit_mismatches(DevMatrix got, std::vector<float> const& want, std::string const& what,
                                 std::ostringstream& log) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), got);
  REQUIRE(h.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    std::uint32_t a, b;
    std::memcpy(&a, h.data() + i, 4);
    std::memcpy(&b, want.data() + i, 4);
    if (a != b && ++bad <= 3)
      log << what << "[" << i / h.extent(1) << "," << i % h.extent(1) << "]: kboost " << h.data()[i]
          << " (0x" << std::hex << a << ") upstream " << want[i] << " (0x" << b << std::dec << ")\n";
  }
  return bad;
}

/// Every golden case whose model is (or is not) one of ../shared/models ("shared:" in the manifest).
void check_golden_cases(bool shared_models) {
  std::ifstream mf(kboost::test::golden_path("predict/manifest.json"));
  REQUIRE(mf.good());
  auto manifest = nlohmann::json::parse(mf);
  REQUIRE(manifest.at("cases").size() >= 30);
  int checked = 0;
  for (auto const& c : manifest.at("cases")) {
    if ((c.at("model").get<std::string>().rfind("shared:", 0) == 0) != shared_models) continue;
    ++checked;
    std::string name = c.at("name");
    INFO("case " << name << " model " << c.at("model").get<std::string>());
    kboost::Predictor<TEST_EXECSPACE> predictor(golden_model_path(c.at("model")));
    std::size_t rows = c.at("rows"), feats = c.at("features");
    auto const& files = c.at("files");
    auto file = [&](char const* key) {
      auto const& f = files.at(key);
      std::size_t r = f[1], k = f[2];
      return std::make_pair(read_f32_file(kboost::test::golden_path("predict/" + f[0].get<std::string>()), r * k),
                            std::make_pair(r, k));
    };
    auto X = to_device(file("X").first, rows, feats);
    DevMatrix bm;
    if (files.contains("bm")) {
      auto [v, shape] = file("bm");
      bm = to_device(v, shape.first, shape.second);
    }
    kboost::PredictOptions opt;
    opt.iteration_begin = c.at("iteration_range")[0];
    opt.iteration_end = c.at("iteration_range")[1];
    if (!c.at("missing").is_null()) opt.missing = c.at("missing").get<float>();

    std::ostringstream log;
    opt.output_margin = true;
    auto margin = predictor.predict(X, opt, bm);
    auto want_margin = file("margin");
    REQUIRE(margin.extent(1) == want_margin.second.second);
    std::size_t bad_margin = count_bit_mismatches(margin, want_margin.first, "margin", log);
    opt.output_margin = false;
    auto pred = predictor.predict(X, opt, bm);
    auto want_pred = file("pred");
    REQUIRE(pred.extent(1) == want_pred.second.second);
    std::size_t bad_pred = count_bit_mismatches(pred, want_pred.first, "pred", log);
    std::size_t bad_leaf = 0;
    if (files.contains("leaf")) {
      auto want_leaf = file("leaf");
      opt.pred_leaf = true;
      auto sub = Kokkos::subview(X, std::pair<std::size_t, std::size_t>(0, want_leaf.second.first), Kokkos::ALL());
      DevMatrix Xs("leaf_rows", sub.extent(0), sub.extent(1));
      Kokkos::deep_copy(Xs, sub);
      auto leaf = predictor.predict(Xs, opt);
      REQUIRE(leaf.extent(1) == want_leaf.second.second);
      bad_leaf = count_bit_mismatches(leaf, want_leaf.first, "leaf", log);
    }
    INFO(log.str());
    CHECK(bad_margin == 0);
    CHECK(bad_pred == 0);
    CHECK(bad_leaf == 0);
  }
  CHECK(checked >= 10);
}

}  // namespace

TEST_CASE("predict " TEST_BACKEND ": bit-identical to XGBoost 3.2 CPU predict on the repository's golden models",
          "[predict][golden]") {
  check_golden_cases(false);
}

TEST_CASE("predict " TEST_BACKEND ": bit-identical to XGBoost 3.2 CPU predict on every shared model",
          "[predict][golden][shared]") {
  check_golden_cases(true);
}
