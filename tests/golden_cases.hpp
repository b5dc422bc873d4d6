#pragma once
/// The prediction goldens (tests/golden/predict, made by tests/golden/make_predict_goldens.py with
/// upstream XGBoost 3.2.0's CPU predict): loading the manifest's cases and comparing float32 bits.
#include <catch2/catch_test_macros.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <kboost/engine/predictor.hpp>
#include "tests/test_util.hpp"

namespace kboost::test {

/// A rows × cols float32 golden array.
struct GoldenArray {
  std::vector<float> values;
  std::size_t rows = 0, cols = 0;
};

/// One manifest case: model, input X, expected margin/pred (and leaf, bm when present), options.
struct GoldenCase {
  std::string name, model_path;
  kboost::PredictOptions options;  ///< iteration range and missing marker of the case
  std::map<std::string, GoldenArray> files;  ///< "X", "margin", "pred", optional "leaf", "bm"
};

inline std::vector<float> read_f32_file(std::string const& path, std::size_t count) {
  std::ifstream in(path, std::ios::binary);
  INFO("golden file " << path);
  REQUIRE(in.good());
  std::vector<float> v(count);
  in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(count * sizeof(float)));
  REQUIRE(static_cast<std::size_t>(in.gcount()) == count * sizeof(float));
  return v;
}

/// Calls f(GoldenCase) for every case whose model is (or is not) one of ../shared/models ("shared:"
/// in the manifest); returns how many.
template <class F>
int for_each_golden_case(bool shared_models, F&& f) {
  std::ifstream mf(golden_path("predict/manifest.json"));
  REQUIRE(mf.good());
  auto manifest = nlohmann::json::parse(mf);
  REQUIRE(manifest.at("cases").size() >= 30);
  int n = 0;
  for (auto const& c : manifest.at("cases")) {
    std::string const ref = c.at("model");
    bool const from_shared = ref.rfind("shared:", 0) == 0;
    if (from_shared != shared_models) continue;
    GoldenCase g;
    g.name = c.at("name");
    std::string const rel = ref.substr(ref.find(':') + 1);
    g.model_path = from_shared ? shared_path(rel) : golden_path(rel);
    g.options.iteration_begin = c.at("iteration_range")[0];
    g.options.iteration_end = c.at("iteration_range")[1];
    if (!c.at("missing").is_null()) g.options.missing = c.at("missing").get<float>();
    for (auto const& [key, f] : c.at("files").items()) {
      GoldenArray a;
      a.rows = f[1];
      a.cols = f[2];
      a.values = read_f32_file(golden_path("predict/" + f[0].template get<std::string>()), a.rows * a.cols);
      g.files[key] = std::move(a);
    }
    INFO("case " << g.name << " model " << ref);
    f(g);
    ++n;
  }
  return n;
}

/// Number of cells of `got` (host, rows × cols, any layout) whose bits differ from `want`; the
/// first few go to `log`.
template <class HostView>
std::size_t count_bit_mismatches(HostView const& got, GoldenArray const& want, std::string const& what,
                                 std::ostringstream& log) {
  REQUIRE(got.extent(0) == want.rows);
  REQUIRE(got.extent(1) == want.cols);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.rows; ++i)
    for (std::size_t j = 0; j < want.cols; ++j) {
      float const g = got(i, j), w = want.values[i * want.cols + j];
      std::uint32_t a, b;
      std::memcpy(&a, &g, 4);
      std::memcpy(&b, &w, 4);
      if (a != b && ++bad <= 3)
        log << what << "[" << i << "," << j << "]: kboost " << g << " (0x" << std::hex << a << ") upstream " << w
            << " (0x" << b << std::dec << ")\n";
    }
  return bad;
}

/// A golden array as a rows × cols View of `Layout` in `MemorySpace`.
template <class Layout, class MemorySpace>
Kokkos::View<float**, Layout, MemorySpace> golden_view(GoldenArray const& a, std::string const& label) {
  Kokkos::View<float**, Layout, MemorySpace> d(label, a.rows, a.cols);
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) h(i, j) = a.values[i * a.cols + j];
  Kokkos::deep_copy(d, h);
  return d;
}

/// A case's rows × features input and its rows × outputs base margins (extent 0 when it has none)
/// as LayoutRight Views in `MemorySpace`.
template <class MemorySpace>
std::pair<Kokkos::View<float**, Kokkos::LayoutRight, MemorySpace>, Kokkos::View<float**, Kokkos::LayoutRight, MemorySpace>>
golden_case_inputs(GoldenCase const& c) {
  auto X = golden_view<Kokkos::LayoutRight, MemorySpace>(c.files.at("X"), "golden_X");
  Kokkos::View<float**, Kokkos::LayoutRight, MemorySpace> bm;
  if (c.files.count("bm")) bm = golden_view<Kokkos::LayoutRight, MemorySpace>(c.files.at("bm"), "golden_bm");
  return {X, bm};
}

/// `a`'s rows repeated cyclically to `rows` rows (row i is a's row i mod a.rows): a batch of any
/// size whose expected results are the golden ones repeated the same way, prediction being per row.
inline GoldenArray cycle_rows(GoldenArray const& a, std::size_t rows) {
  GoldenArray c;
  c.rows = rows;
  c.cols = a.cols;
  c.values.resize(rows * a.cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) c.values[i * a.cols + j] = a.values[(i % a.rows) * a.cols + j];
  return c;
}

}  // namespace kboost::test
