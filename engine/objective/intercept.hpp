#pragma once
/// \file intercept.hpp
/// What the objective families' intercept estimates share, as upstream XGBoost 3.2
/// (src/objective/init_estimation.cc FitIntercept, src/tree/fit_stump.cc FitStump,
/// src/common/stats.{h,cc} SampleMean / WeightedSampleMean / Quantile / WeightedQuantile).
#include <cstddef>
#include <vector>

namespace kboost::detail {

/// common::SampleMean / WeightedSampleMean: Σ y_i·w_i / Σ w in double, row order (weights empty = 1).
double weighted_mean(std::vector<float> const& y, std::vector<float> const& w);

/// tree::FitStump's leaf: CalcUnregularizedWeight, -G / max(H, kRtEps).
double unregularized_weight(double G, double H);

/// tree::FitStump from margin 0: -Σg / Σh over rows (double sums of float gradients), where
/// pair_at_zero(label, weight, &g, &h) gives a row's float pair at margin 0 (weights empty = 1).
template <class PairAtZero>
double newton_step_from_zero(std::vector<float> const& y, std::vector<float> const& w, PairAtZero const& pair_at_zero) {
  double G = 0, H = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    float g = 0, h = 0;
    pair_at_zero(y[i], w.empty() ? 1.0f : w[i], &g, &h);
    G += g;
    H += h;
  }
  return unregularized_weight(G, H);
}

/// FitStump over gradients already computed at margin 0: -Σg / Σh in double, row order.
double newton_step(std::vector<float> const& g, std::vector<float> const& h);

/// common::Quantile / WeightedQuantile at alpha of the labels (the stable sort keeps tied labels
/// in row order; weights empty = 1).
float label_quantile(double alpha, std::vector<float> const& y, std::vector<float> const& w);

}  // namespace kboost::detail
