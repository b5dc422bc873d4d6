/// \file intercept.cpp
/// Upstream src/common/stats.{h,cc} and src/tree/fit_stump.cc, as the intercepts use them.
#include <kboost/engine/objective/intercept.hpp>

#include <kboost/kernels/leaf_refit.hpp>

#include <algorithm>
#include <numeric>

namespace kboost::detail {

double weighted_mean(std::vector<float> const& y, std::vector<float> const& w) {
  if (w.empty()) {
    double s = 0;
    double const n = static_cast<double>(y.size());
    for (float v : y) s += v / n;
    return s;
  }
  double wsum = 0;
  for (float v : w) wsum += v;
  double s = 0;
  for (std::size_t i = 0; i < y.size(); ++i) s += static_cast<double>(y[i]) * w[i] / wsum;
  return s;
}

double unregularized_weight(double G, double H) { return -G / std::max(H, static_cast<double>(1e-6f)); }

double newton_step(std::vector<float> const& g, std::vector<float> const& h) {
  double G = 0, H = 0;
  for (std::size_t i = 0; i < g.size(); ++i) G += g[i], H += h[i];
  return unregularized_weight(G, H);
}

float label_quantile(double alpha, std::vector<float> const& y, std::vector<float> const& w) {
  std::vector<std::size_t> idx(y.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return y[a] < y[b]; });
  return upstream_quantile(alpha, y.data(), w.empty() ? nullptr : w.data(), idx.data(), y.size());
}

}  // namespace kboost::detail
