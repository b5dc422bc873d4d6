// Cuts and trees against upstream XGBoost 3.4.1 built with CUDA, trained with device=cuda,
// tree_method=hist. Goldens: tests/golden/upstream_gpu/<case>.json from
// tests/golden/upstream_gpu/make_goldens.py (run on the GPU machine by perf/upstream_gpu/run.sh
// goldens). Each case checks that kboost reads the same float32 matrix (sha256), that
// sketch_method = upstream_gpu gives upstream's cuts bit for bit, and how many of upstream's trees
// kboost grows with its default parameters (upstream's otherwise) node for node (split feature, threshold bits, default direction, leaf value,
// loss_change and sum_hessian bits), and node for node but for loss_change: at least the counts
// tests/golden/upstream_gpu/expected.json records (docs/fidelity.md's table).
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kboost/engine/booster.hpp>
#include <kboost/engine/detail/gpu_sketch.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/io/dataset_reader.hpp>
#include "tests/sha256.hpp"
#include "tests/test_util.hpp"

namespace {

using nlohmann::json;

/// make_goldens.py's synthetic_rows: integer hashes, exact in float32 (see there).
kboost::HostDMatrix synthetic_rows(std::size_t rows, std::size_t features) {
  std::vector<float> x(rows * features), y(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    std::int64_t code[3] = {0, 0, 0};
    for (std::size_t j = 0; j < features; ++j) {
      std::uint64_t const h = kboost::test::splitmix64(i * 64 + j);
      bool const every5 = j % 5 == 0;
      std::int64_t const fine = static_cast<std::int64_t>(h >> 44), coarse = static_cast<std::int64_t>(h >> 58) - 32;
      bool const missing = static_cast<std::int64_t>((h >> 8) & 255) < 20 * static_cast<std::int64_t>(j % 3) ||
                           (j == 3 && i >= rows / 4 && i < rows / 4 + rows / 16);
      float const v = every5 ? static_cast<float>(coarse) : static_cast<float>(fine) * 0x1p-16f - 8.0f;
      x[i * features + j] = missing ? std::numeric_limits<float>::quiet_NaN() : v;
      if (j < 3) code[j] = missing ? 0 : (every5 ? coarse : fine);
    }
    std::int64_t const noise = static_cast<std::int64_t>(kboost::test::splitmix64(i * 64 + 63) >> 44) - (std::int64_t(1) << 19);
    y[i] = code[0] * (std::int64_t(1) << 14) - code[1] + (code[2] >> 2) + noise > 0 ? 1.0f : 0.0f;
  }
  return kboost::host_dmatrix(x.data(), rows, features, y.data());
}

/// A case's training matrix as kboost reads it (the golden script reads the same files).
kboost::HostDMatrix case_data(std::string const& dataset) {
  if (dataset == "synthetic_1m") return synthetic_rows(1000000, 16);
  kboost::ReadOptions ro;
  if (dataset.rfind("lightgbm_", 0) == 0) {
    std::string const part = dataset.substr(9);
    ro.label_column = "0";
    return kboost::read_dataset(kboost::test::shared_path("data/" + dataset + "/" + part + ".train"), ro);
  }
  ro.label_column = "median_house_value";
  auto d = kboost::read_dataset(kboost::test::shared_path("data/california_housing/housing.csv"), ro);
  if (dataset == "california_housing") d.info.feature_types.clear();  // ocean_proximity's codes as numbers
  return d;
}

/// sha256 of the float32 matrix, row-major, every NaN as 0x7fc00000 (numpy's np.nan).
std::string matrix_sha256(kboost::HostDMatrix const& d) {
  std::string bytes(d.n_rows * d.n_features * 4, '\0');
  for (std::size_t i = 0; i < d.n_rows; ++i)
    for (std::size_t j = 0; j < d.n_features; ++j) {
      float const v = d.dense(i, j);
      std::uint32_t b = 0x7fc00000u;
      if (v == v) std::memcpy(&b, &v, 4);
      std::memcpy(&bytes[(i * d.n_features + j) * 4], &b, 4);
    }
  return kboost::test::sha256_hex(bytes);
}

std::vector<std::uint32_t> float_bits(std::vector<float> const& v) {
  std::vector<std::uint32_t> out(v.size());
  if (!v.empty()) std::memcpy(out.data(), v.data(), v.size() * 4);
  return out;
}

/// "" when kboost's tree equals upstream's node for node, else where they first differ; with
/// `with_gains` false, loss_change is not compared.
std::string first_difference(kboost::TreeModel const& t, json const& want, bool with_gains) {
  auto const n = want["left_children"].size();
  if (t.left_children.size() != n)
    return std::to_string(t.left_children.size()) + " nodes, upstream " + std::to_string(n);
  std::vector<std::uint32_t> const cond = float_bits(t.split_conditions), weight = float_bits(t.base_weights),
                                   loss = float_bits(t.loss_changes), hess = float_bits(t.sum_hessian);
  for (std::size_t k = 0; k < n; ++k) {
    std::ostringstream at;
    at << "node " << k << ": ";
    if (t.left_children[k] != want["left_children"][k] || t.right_children[k] != want["right_children"][k])
      return at.str() + "children";
    if (t.split_indices[k] != want["split_indices"][k]) return at.str() + "split feature";
    if (int(t.default_left[k]) != want["default_left"][k]) return at.str() + "default direction";
    if (cond[k] != want["split_conditions"][k]) return at.str() + "split condition / leaf value";
    if (weight[k] != want["base_weights"][k]) return at.str() + "base weight";
    if (with_gains && loss[k] != want["loss_changes"][k]) return at.str() + "loss_change";
    if (hess[k] != want["sum_hessian"][k]) return at.str() + "sum_hessian";
    int const type = t.split_type.empty() ? 0 : t.split_type[k];
    if (type != want["split_type"][k]) return at.str() + "split type";
  }
  if (t.categories != want["categories"].get<std::vector<std::int32_t>>() ||
      t.categories_nodes != want["categories_nodes"].get<std::vector<std::int32_t>>())
    return "categories";
  return "";
}

std::vector<std::string> case_names() {
  auto const manifest = json::parse(std::ifstream(kboost::test::golden_path("upstream_gpu/manifest.json")));
  return manifest["cases"].get<std::vector<std::string>>();
}

json load_case(std::string const& name) {
  return json::parse(std::ifstream(kboost::test::golden_path("upstream_gpu/" + name + ".json")));
}

/// kboost's parameters for a case: upstream's (numbers as their JSON text), kboost's defaults
/// otherwise (its default sketch is upstream_gpu).
std::map<std::string, std::string> case_params(json const& c) {
  std::map<std::string, std::string> kv;
  for (auto const& [k, v] : c["params"].items()) kv[k] = v.is_string() ? v.get<std::string>() : v.dump();
  kv["num_round"] = std::to_string(c["rounds"].get<int>());
  return kv;
}

/// The case's matrix with its label scaled as the golden script's.
kboost::HostDMatrix scaled_case_data(json const& c) {
  auto d = case_data(c["dataset"].get<std::string>());
  if (c["label_scale"].get<double>() != 1.0)
    for (std::size_t i = 0; i < d.label.extent(0); ++i) d.label(i) = d.label(i) / 100000.0f;
  return d;
}

}  // namespace

TEST_CASE("upstream gpu " TEST_BACKEND ": upstream_gpu cuts equal upstream 3.4.1 device=cuda bit for bit",
          "[upstream_gpu][cuts][shared]") {
  std::string const name = GENERATE(from_range(case_names()));
  INFO("case " << name);
  json const c = load_case(name);
  auto const d = scaled_case_data(c);
  REQUIRE(matrix_sha256(d) == c["X_sha256"].get<std::string>());
  std::vector<std::uint8_t> categorical;
  for (auto t : d.info.feature_types) categorical.push_back(t == kboost::FeatureType::kCategorical);
  int const max_bin = c["params"].value("max_bin", 256);
  auto const cuts = kboost::gpu_sketch_cuts_from_host<Kokkos::HostSpace>(
      Kokkos::DefaultHostExecutionSpace(), Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace>(d.dense),
      Kokkos::View<const float*, Kokkos::HostSpace>(), max_bin, kboost::local_collective(), categorical);
  // upstream's layout (XGDMatrixGetQuantileCut): each numerical feature's bin lower bound -inf, then its cuts
  std::vector<std::uint64_t> ptrs{0};
  std::vector<float> values;
  for (std::size_t f = 0; f < d.n_features; ++f) {
    if (f >= categorical.size() || categorical[f] == 0) values.push_back(cuts.min_vals(f));
    values.insert(values.end(), cuts.values.data() + cuts.host_ptrs[f], cuts.values.data() + cuts.host_ptrs[f + 1]);
    ptrs.push_back(values.size());
  }
  std::vector<std::uint32_t> const want_bits = c["cuts"]["values_bits"];
  CHECK(ptrs == c["cuts"]["ptrs"].get<std::vector<std::uint64_t>>());
  std::vector<std::uint32_t> const got_bits = float_bits(values);
  std::size_t differ = 0, first = got_bits.size();
  for (std::size_t k = 0; k < std::min(got_bits.size(), want_bits.size()); ++k)
    if (got_bits[k] != want_bits[k]) first = std::min(first, k), ++differ;
  auto const as_float = [](std::uint32_t b) {
    float v;
    std::memcpy(&v, &b, 4);
    return v;
  };
  INFO(differ << " of " << want_bits.size() << " cut values differ, the first at " << first
              << (first < got_bits.size() ? ": kboost " + std::to_string(as_float(got_bits[first])) + ", upstream " +
                                                std::to_string(as_float(want_bits[first]))
                                          : std::string()));
  CHECK(got_bits == want_bits);
}

TEST_CASE("upstream gpu " TEST_BACKEND ": trees equal upstream 3.4.1 device=cuda's (at least the recorded count)",
          "[upstream_gpu][train][shared]") {
  std::string const name = GENERATE(from_range(case_names()));
  INFO("case " << name);
  json const c = load_case(name);
  auto const expected = json::parse(std::ifstream(kboost::test::golden_path("upstream_gpu/expected.json")));
  auto const d = scaled_case_data(c);
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params(case_params(c)), d, {});
  auto const& trees = b.model().trees;
  REQUIRE(trees.size() == c["trees"].size());
  int identical = 0, same_but_gains = 0;
  std::string first;
  for (std::size_t k = 0; k < trees.size(); ++k) {
    std::string const diff = first_difference(trees[k], c["trees"][k], true);
    if (diff.empty()) ++identical;
    else if (first.empty()) first = "tree " + std::to_string(k) + ", " + diff;
    same_but_gains += first_difference(trees[k], c["trees"][k], false).empty();
  }
  INFO(identical << " of " << trees.size() << " trees identical (" << same_but_gains
                 << " but for loss_change); first difference: " << first);
  CHECK(identical >= expected.at(name).at("identical_trees").get<int>());
  CHECK(same_but_gains >= expected.at(name).at("identical_but_gains").get<int>());
}
