#pragma once
// Rows on a model's split edges, shared by the host predictors' tests (tst_predict_host_block.hpp,
// tst_predict_quickscorer.hpp).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <kboost/core/model.hpp>

namespace kboost::test {

/// Inputs on the splits' edges for `m` (rows × m.num_feature, row-major): each value one of a split
/// threshold of the model on that feature, its float neighbours, -0.0, +0.0, ±inf, NaN or `missing`.
inline std::vector<float> edge_inputs(kboost::Model const& m, float missing, std::size_t rows) {
  std::vector<std::vector<float>> thresholds(static_cast<std::size_t>(m.num_feature));
  for (auto const& t : m.trees)
    for (std::size_t i = 0; i < t.left_children.size(); ++i)
      if (t.left_children[i] != -1) thresholds[static_cast<std::size_t>(t.split_indices[i])].push_back(t.split_conditions[i]);
  float const inf = std::numeric_limits<float>::infinity();
  std::vector<float> X(rows * static_cast<std::size_t>(m.num_feature));
  std::uint64_t state = 12345;
  for (std::size_t i = 0; i < X.size(); ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    auto const pick = static_cast<std::size_t>(state >> 33);
    auto const& th = thresholds[i % thresholds.size()];
    float const thr = th.empty() ? 0.0f : th[pick / 16 % th.size()];
    float const fixed[] = {thr, std::nextafter(thr, -inf), std::nextafter(thr, inf), -0.0f, 0.0f, inf, -inf,
                           std::numeric_limits<float>::quiet_NaN(), missing};
    X[i] = fixed[pick % 16 < 9 ? pick % 16 : 0];
  }
  return X;
}

}  // namespace kboost::test
