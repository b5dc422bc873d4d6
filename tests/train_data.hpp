#pragma once
/// What the training test bodies share: row ranges of a read dataset, golden floats, and a synthetic
/// matrix with categorical features whose label depends on a set of categories.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kboost/core/dmatrix.hpp>

namespace kboost::test {

/// Rows [begin, end) of a dense labelled matrix (features, info and labels; no weights).
inline HostDMatrix rows_of(HostDMatrix const& d, std::size_t begin, std::size_t end) {
  HostDMatrix out;
  out.n_rows = end - begin;
  out.n_features = d.n_features;
  out.dense = HostDMatrix::dense_type("test::rows_X", out.n_rows, d.n_features);
  out.label = Kokkos::View<float*, Kokkos::HostSpace>("test::rows_y", out.n_rows);
  for (std::size_t i = 0; i < out.n_rows; ++i) {
    for (std::size_t f = 0; f < d.n_features; ++f) out.dense(i, f) = d.dense(begin + i, f);
    out.label(i) = d.label(begin + i);
  }
  out.info = d.info;
  return out;
}

/// Floats a golden file stores as the hex text of their float32 ("0x1.8p+1").
inline std::vector<float> hex_floats(nlohmann::json const& a) {
  std::vector<float> out;
  for (auto const& v : a) out.push_back(std::strtof(v.get<std::string>().c_str(), nullptr));
  return out;
}

/// The categories of feature 0 in synthetic_categorical() that raise the label by 2.
inline std::vector<int> synthetic_high_categories() { return {1, 4, 5, 11, 17, 18, 23, 29}; }

/// `rows` × 3 features: feature 0 categorical with 30 categories (every 13th row missing), feature
/// 1 numerical in [0, 1), feature 2 categorical with 3 categories; label = 2·[category of feature 0
/// in synthetic_high_categories()] + feature 1 + [feature 2 == 1]. Values from a splitmix64 stream
/// of the row index, so the matrix is the same everywhere.
inline HostDMatrix synthetic_categorical(std::size_t rows) {
  auto mix = [](std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  std::vector<int> const high = synthetic_high_categories();
  HostDMatrix d;
  d.n_rows = rows;
  d.n_features = 3;
  d.dense = HostDMatrix::dense_type("test::cat_X", rows, 3);
  d.label = Kokkos::View<float*, Kokkos::HostSpace>("test::cat_y", rows);
  d.info.feature_types = {FeatureType::kCategorical, FeatureType::kNumerical, FeatureType::kCategorical};
  for (std::size_t i = 0; i < rows; ++i) {
    std::uint64_t const r = mix(i);
    int const c0 = static_cast<int>(r % 30), c2 = static_cast<int>((r >> 20) % 3);
    float const x1 = static_cast<float>((r >> 40) & 0xffffff) / 16777216.0f;
    bool const missing = i % 13 == 0;
    bool in_high = false;
    for (int h : high) in_high = in_high || h == c0;
    d.dense(i, 0) = missing ? NAN : static_cast<float>(c0);
    d.dense(i, 1) = x1;
    d.dense(i, 2) = static_cast<float>(c2);
    d.label(i) = (in_high && !missing ? 2.0f : 0.0f) + x1 + (c2 == 1 ? 1.0f : 0.0f);
  }
  return d;
}

}  // namespace kboost::test
