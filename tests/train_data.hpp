#pragma once
/// What the training test bodies share: row ranges of a read dataset, golden floats, a synthetic
/// matrix with categorical features whose label depends on a set of categories, and the ranking
/// goldens' data (query groups).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <kboost/core/dmatrix.hpp>
#include <kboost/core/model.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/kernels/densify.hpp>
#include "tests/test_util.hpp"

namespace kboost::test {

/// Rows [begin, end) of a dense matrix (features, info, and the labels and label bounds it has; no
/// weights).
inline HostDMatrix rows_of(HostDMatrix const& d, std::size_t begin, std::size_t end) {
  auto const X = Kokkos::subview(d.dense, std::make_pair(begin, end), Kokkos::ALL);
  auto const labels = [&] {
    return Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace>(d.label.data() + begin * d.n_targets,
                                                                              end - begin, d.n_targets);
  };
  HostDMatrix out = d.label.extent(0) == 0 ? host_dmatrix(X) : host_dmatrix(X, labels());
  auto const cut = [&](Kokkos::View<float*, Kokkos::HostSpace> const& v) {
    Kokkos::View<float*, Kokkos::HostSpace> c;
    if (v.extent(0) == 0) return c;
    c = Kokkos::View<float*, Kokkos::HostSpace>("test::rows_of", end - begin);
    Kokkos::deep_copy(c, Kokkos::subview(v, std::make_pair(begin, end)));
    return c;
  };
  out.label_lower_bound = cut(d.label_lower_bound);
  out.label_upper_bound = cut(d.label_upper_bound);
  out.info = d.info;
  return out;
}

/// A golden's feature rows ("X": a list of rows; null = missing) in one row-major array.
inline std::vector<float> row_major(nlohmann::json const& X) {
  std::vector<float> out;
  for (auto const& row : X)
    for (auto const& v : row) out.push_back(v.is_null() ? std::numeric_limits<float>::quiet_NaN() : v.get<float>());
  return out;
}

/// Floats a golden file stores as the hex text of their float32 ("0x1.8p+1").
inline std::vector<float> hex_floats(nlohmann::json const& a) {
  std::vector<float> out;
  for (auto const& v : a) out.push_back(std::strtof(v.get<std::string>().c_str(), nullptr));
  return out;
}

/// Checks a trained tree against upstream's first tree in a golden (left_children, split_indices,
/// default_left, and split_conditions and base_weights as hex floats), field for field.
inline void check_tree_fields(TreeModel const& t, nlohmann::json const& want) {
  CHECK(t.left_children == want["left_children"].get<std::vector<std::int32_t>>());
  CHECK(t.split_indices == want["split_indices"].get<std::vector<std::int32_t>>());
  CHECK(std::vector<int>(t.default_left.begin(), t.default_left.end()) == want["default_left"].get<std::vector<int>>());
  CHECK(t.split_conditions == hex_floats(want["split_conditions"]));
  CHECK(t.base_weights == hex_floats(want["base_weights"]));
}

/// The categories of feature 0 in synthetic_categorical() that raise the label by 2.
inline std::vector<int> synthetic_high_categories() { return {1, 4, 5, 11, 17, 18, 23, 29}; }

/// `rows` × 3 features: feature 0 categorical with 30 categories (every 13th row missing), feature
/// 1 numerical in [0, 1), feature 2 categorical with 3 categories; label = 2·[category of feature 0
/// in synthetic_high_categories()] + feature 1 + [feature 2 == 1]. Values from a splitmix64 stream
/// of the row index, so the matrix is the same everywhere.
inline HostDMatrix synthetic_categorical(std::size_t rows) {
  std::vector<int> const high = synthetic_high_categories();
  std::vector<float> X(rows * 3), y(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    std::uint64_t const r = kboost::test::splitmix64(i);
    int const c0 = static_cast<int>(r % 30), c2 = static_cast<int>((r >> 20) % 3);
    float const x1 = static_cast<float>((r >> 40) & 0xffffff) / 16777216.0f;
    bool const missing = i % 13 == 0;
    bool in_high = false;
    for (int h : high) in_high = in_high || h == c0;
    X[i * 3 + 0] = missing ? NAN : static_cast<float>(c0);
    X[i * 3 + 1] = x1;
    X[i * 3 + 2] = static_cast<float>(c2);
    y[i] = (in_high && !missing ? 2.0f : 0.0f) + x1 + (c2 == 1 ? 1.0f : 0.0f);
  }
  HostDMatrix d = host_dmatrix(X.data(), rows, 3, y.data());
  d.info.feature_types = {FeatureType::kCategorical, FeatureType::kNumerical, FeatureType::kCategorical};
  return d;
}

/// Query-group offsets (n_groups + 1) of consecutive groups of the given sizes.
inline Kokkos::View<std::uint32_t*, Kokkos::HostSpace> group_offsets_of(std::vector<std::uint32_t> const& sizes) {
  Kokkos::View<std::uint32_t*, Kokkos::HostSpace> ptr("test::group_ptr", sizes.size() + 1);
  for (std::size_t g = 0; g < sizes.size(); ++g) ptr(g + 1) = ptr(g) + sizes[g];
  return ptr;
}

/// The ranking goldens' synthetic data (tests/golden/ranking_goldens.json "synthetic": rows × 6
/// features, relevance labels, query-group sizes); labels >= `binary_from` become 1 and the others
/// 0 when binary_from > 0 (rank:map's binary relevance).
inline HostDMatrix ranking_synthetic(nlohmann::json const& s, int binary_from = 0) {
  auto y = s["y"].get<std::vector<float>>();
  if (binary_from > 0)
    for (float& v : y) v = static_cast<float>(v >= static_cast<float>(binary_from));
  HostDMatrix d = host_dmatrix(row_major(s["X"]).data(), s["X"].size(), s["X"].at(0).size(), y.data());
  d.group_ptr = group_offsets_of(s["group_sizes"].get<std::vector<std::uint32_t>>());
  d.info.source = "ranking_goldens.json synthetic";
  return d;
}

/// LightGBM's LambdaRank example (shared data: rank.train or rank.test with its .query sizes) as
/// the ranking goldens' upstream saw it: dense, 301 features, absent entries 0 (not missing).
inline HostDMatrix lambdarank_example(std::string const& part, int binary_from = 0) {
  std::string const path = shared_path("data/lightgbm_lambdarank/rank." + part);
  ReadOptions ro;
  ro.group_file = path + ".query";
  ro.num_features = 301;
  auto d = read_dataset(path, ro);
  auto const dense = densify(Kokkos::DefaultHostExecutionSpace(), d);
  HostDMatrix out = d;
  out.csr = HostDMatrix::csr_type();
  out.dense = HostDMatrix::dense_type("test::lambdarank_X", d.n_rows, d.n_features);
  for (std::size_t i = 0; i < d.n_rows; ++i)
    for (std::size_t f = 0; f < d.n_features; ++f) out.dense(i, f) = std::isnan(dense(i, f)) ? 0.0f : dense(i, f);
  if (binary_from > 0)
    for (std::size_t i = 0; i < d.n_rows; ++i) out.label(i) = static_cast<float>(d.label(i) >= static_cast<float>(binary_from));
  return out;
}

/// The survival:aft goldens' synthetic data (tests/golden/aft_goldens.json "synthetic": rows × 4
/// features and each row's [lower, upper] time interval; "inf" = right-censored). No labels.
inline HostDMatrix aft_synthetic(nlohmann::json const& s) {
  HostDMatrix d = host_dmatrix(row_major(s["X"]).data(), s["X"].size(), s["X"].at(0).size());
  d.label_lower_bound = Kokkos::View<float*, Kokkos::HostSpace>("test::aft_lower", d.n_rows);
  d.label_upper_bound = Kokkos::View<float*, Kokkos::HostSpace>("test::aft_upper", d.n_rows);
  auto const bound = [](nlohmann::json const& v) {
    return v.is_string() ? std::numeric_limits<float>::infinity() : v.get<float>();
  };
  for (std::size_t i = 0; i < d.n_rows; ++i) {
    d.label_lower_bound(i) = bound(s["lower"][i]);
    d.label_upper_bound(i) = bound(s["upper"][i]);
  }
  d.info.source = "aft_goldens.json synthetic";
  return d;
}

/// Checks entry k (a metric of one eval set) of every round's results in `history` against
/// upstream's values per round, `test_metrics` (a golden's evals_result of that eval set, keyed by
/// metric name): as many rounds, the first round to 1e-12 (relative above 1), the last within 0.5 %.
template <class History>
void check_metric_history(History const& history, std::size_t k, nlohmann::json const& test_metrics) {
  REQUIRE(!history.empty());
  std::string const metric = std::get<1>(history.front().at(k));
  REQUIRE(test_metrics.contains(metric));
  auto const& up = test_metrics[metric];
  REQUIRE(history.size() == up.size());
  double const first = std::get<2>(history.front()[k]), last = std::get<2>(history.back()[k]);
  INFO(metric << ": kboost " << first << " .. " << last << ", upstream " << up.front() << " .. " << up.back());
  CHECK(std::fabs(first - up.front().get<double>()) <= 1e-12 * std::max(1.0, std::fabs(up.front().get<double>())));
  CHECK(std::fabs(last - up.back().get<double>()) <= 0.005 * std::fabs(up.back().get<double>()));
}

/// The synthetic multi-target set of tests/golden/multi_target_goldens.json: features (null =
/// missing), the label matrix `target` ("y": three real targets, "binary": two 0/1 targets) and,
/// when `weighted`, its row weights.
inline HostDMatrix multi_target_synthetic(nlohmann::json const& s, std::string const& target, bool weighted) {
  auto const& X = s["X"];
  auto const& y = s[target];
  std::vector<float> const w = weighted ? s["weight"].get<std::vector<float>>() : std::vector<float>();
  HostDMatrix d = host_dmatrix(row_major(X).data(), X.size(), X.at(0).size(), row_major(y).data(),
                               weighted ? w.data() : nullptr, y.at(0).size());
  d.info.source = "multi_target_goldens.json synthetic";
  return d;
}

/// The synthetic set of tests/golden/dart_goldens.json: features and the label `target` ("y",
/// "binary" or "classes").
inline HostDMatrix dart_synthetic(nlohmann::json const& s, std::string const& target) {
  auto const y = s[target].get<std::vector<float>>();
  HostDMatrix d = host_dmatrix(row_major(s["X"]).data(), s["X"].size(), s["X"].at(0).size(), y.data());
  d.info.source = "dart_goldens.json synthetic";
  return d;
}

}  // namespace kboost::test
