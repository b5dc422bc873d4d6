/// \file base_score.cpp
#include <kboost/engine/base_score.hpp>

#include <kboost/core/output_transform.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/kernels/detail/cox.hpp>
#include <kboost/kernels/detail/lambdarank.hpp>
#include <kboost/kernels/leaf_refit.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>

namespace kboost {
namespace {

/// common::SampleMean / WeightedSampleMean: Σ y_i·w_i / Σ w in double, row order.
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

/// tree::FitStump's leaf: CalcUnregularizedWeight, -G / max(H, kRtEps).
double unregularized_weight(double G, double H) { return -G / std::max(H, static_cast<double>(1e-6f)); }

/// tree::FitStump from margin 0: -Σg / Σh over rows (double sums of float gradients).
double newton_from_zero(ObjectiveParams const& p, ObjectiveKind k, std::vector<float> const& y,
                        std::vector<float> const& w) {
  double G = 0, H = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    float wi = w.empty() ? 1.0f : w[i];
    float g = 0, h = 0;
    float const label = y[i];
    switch (k) {
      case ObjectiveKind::kSquaredError:
        if (label == 1.0f) wi *= p.scale_pos_weight;
        g = (0.0f - label) * wi;
        h = 1.0f * wi;
        break;
      case ObjectiveKind::kLogistic:
      case ObjectiveKind::kLogitRaw: {
        if (label == 1.0f) wi *= p.scale_pos_weight;
        float const pr = pmath::sigmoid(0.0f);
        float const hh = pr * (1.0f - pr);
        g = (pr - label) * wi;
        h = std::max(hh, 1e-16f) * wi;
        break;
      }
      case ObjectiveKind::kGamma:
        if (label == 1.0f) wi *= p.scale_pos_weight;
        g = (1.0f - label / 1.0f) * wi;
        h = (label / 1.0f) * wi;
        break;
      case ObjectiveKind::kPseudoHuber: {
        float const z = 0.0f - label;
        float const slope = p.huber_slope;
        float const scale_sqrt = std::sqrt(1 + (z * z) / (slope * slope));
        float const scale = slope * slope + z * z;
        g = z / scale_sqrt * wi;
        h = slope * slope / (scale * scale_sqrt) * wi;
        break;
      }
      case ObjectiveKind::kSquaredLogError: {
        float const predt = 0.0f;
        float const gg = (std::log1p(predt) - std::log1p(label)) / (predt + 1);
        float const res = (-std::log1p(predt) + std::log1p(label) + 1) / ((predt + 1) * (predt + 1));
        g = gg * wi;
        h = std::max(res, 1e-6f) * wi;
        break;
      }
      default: {  // poisson / tweedie Newton steps (only reached with scale_pos_weight != 1)
        g = (1.0f - label) * wi;
        h = 1.0f * wi;
        break;
      }
    }
    G += g;
    H += h;
  }
  return unregularized_weight(G, H);
}

/// common::Quantile / WeightedQuantile at alpha of the labels (upstream src/common/stats.h; the
/// stable sort keeps tied labels in row order).
float quantile(double alpha, std::vector<float> const& y, std::vector<float> const& w) {
  std::vector<std::size_t> idx(y.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return y[a] < y[b]; });
  return upstream_quantile(alpha, y.data(), w.empty() ? nullptr : w.data(), idx.data(), y.size());
}

/// MeanAbsoluteError::InitEstimation: the weighted median, scaled by the weight sum and back
/// (VecScaMul then VecScaDiv on the float intercept, through double), which can move its last bit.
float absolute_error_intercept(std::vector<float> const& y, std::vector<float> const& w) {
  double sum_weight = static_cast<double>(y.size());
  if (!w.empty()) {
    sum_weight = 0;
    for (float v : w) sum_weight += v;
  }
  float const median = quantile(0.5, y, w);
  if (sum_weight == 0) return 0.0f;
  float const scaled = static_cast<float>(median * sum_weight);
  return static_cast<float>(scaled / sum_weight);
}

}  // namespace

void check_labels(ObjectiveParams const& params, float const* labels, std::size_t n, std::string const& source,
                  std::size_t first_row, std::size_t n_targets) {
  ObjectiveKind const k = objective_kind(params.name);
  auto fail = [&](std::size_t i, std::string const& need) {
    std::ostringstream v;
    v << labels[i];
    std::string const target = n_targets > 1 ? " (target " + std::to_string(i % n_targets) + ")" : "";
    throw std::runtime_error((source.empty() ? std::string("training data") : source) + ": label " + v.str() + target +
                             " of row " + std::to_string(first_row + i / n_targets + 1) + " (1-based) " + need +
                             ", which " + params.name + " requires");
  };
  for (std::size_t i = 0; i < n; ++i) {
    float const y = labels[i];
    switch (k) {
      case ObjectiveKind::kLogistic:
      case ObjectiveKind::kLogitRaw:
        if (!(y >= 0.0f && y <= 1.0f)) fail(i, "is outside [0, 1]");
        break;
      case ObjectiveKind::kSoftprob:
      case ObjectiveKind::kSoftmax:
        if (params.num_class >= 2 && !(y >= 0.0f && y < static_cast<float>(params.num_class) && std::floor(y) == y))
          fail(i, "is not a class in [0, num_class = " + std::to_string(params.num_class) + ")");
        break;
      case ObjectiveKind::kPoisson:
      case ObjectiveKind::kTweedie:
        if (!(y >= 0.0f)) fail(i, "is negative");
        break;
      case ObjectiveKind::kGamma:
        if (!(y > 0.0f)) fail(i, "is not positive");
        break;
      case ObjectiveKind::kSquaredLogError:
        if (!(y > -1.0f)) fail(i, "is not greater than -1");
        break;
      default: break;
    }
  }
}

std::vector<float> estimate_base_score(ObjectiveParams const& params, std::vector<float> const& labels,
                                       std::vector<float> const& weights, int n_groups,
                                       std::vector<std::uint32_t> const& group_ptr) {
  if (labels.empty()) throw std::runtime_error("base_score: no labels to estimate the intercept from");
  ObjectiveKind const k = objective_kind(params.name);
  if (is_multi_target(k) && n_groups > 1) {  // one intercept per label column, as upstream's per-target loops
    std::size_t const targets = static_cast<std::size_t>(n_groups), rows = labels.size() / targets;
    if (rows * targets != labels.size())
      throw std::runtime_error("base_score: " + std::to_string(labels.size()) + " labels are not rows × " +
                               std::to_string(targets) + " targets");
    std::vector<float> out, column(rows);
    for (std::size_t t = 0; t < targets; ++t) {
      for (std::size_t i = 0; i < rows; ++i) column[i] = labels[i * targets + t];
      out.push_back(estimate_base_score(params, column, weights, 1).at(0));
    }
    return out;
  }
  if (!weights.empty() && weights.size() != labels.size())
    throw std::runtime_error("base_score: " + std::to_string(weights.size()) + " weights for " +
                             std::to_string(labels.size()) + " labels");
  switch (k) {
    case ObjectiveKind::kSoftprob:
    case ObjectiveKind::kSoftmax: {
      // MulticlassInitEstimation: float histogram of (weighted) labels, divided by the double weight
      // sum, log(freq + kRtEps) in float, minus the mean (accumulated in double) in float.
      std::vector<float> hist(static_cast<std::size_t>(n_groups), 0.0f);
      double total = 0;
      for (std::size_t i = 0; i < labels.size(); ++i) {
        float const w = weights.empty() ? 1.0f : weights[i];
        int const c = static_cast<int>(labels[i]);
        if (c < 0 || c >= n_groups || static_cast<float>(c) != labels[i])
          throw std::runtime_error("base_score: label " + std::to_string(labels[i]) + " of row " + std::to_string(i + 1) +
                                   " (1-based) is not a class in [0, num_class)");
        hist[static_cast<std::size_t>(c)] += w;
        total += w;
      }
      double mean = 0;
      for (auto& h : hist) {
        float const freq = static_cast<float>(h / total);
        h = pmath::logf(freq + 1e-6f);
        mean += h;
      }
      float const m = static_cast<float>(mean / n_groups);
      std::vector<float> out;
      for (float h : hist) out.push_back(h - m);
      return out;
    }
    case ObjectiveKind::kAbsoluteError: return {absolute_error_intercept(labels, weights)};
    case ObjectiveKind::kQuantile: {  // QuantileRegression::InitEstimation: one quantile of the labels per alpha
      std::vector<float> out;
      for (float a : params.quantile_alpha) out.push_back(quantile(a, labels, weights));
      return out;
    }
    case ObjectiveKind::kPseudoHuber:
    case ObjectiveKind::kSquaredLogError: return {static_cast<float>(newton_from_zero(params, k, labels, weights))};
    case ObjectiveKind::kCox: {  // FitIntercept: a Newton step from margin 0, then PredTransform (exp)
      std::vector<float> const zero(labels.size(), 0.0f);
      std::vector<float> g(labels.size()), h(labels.size());
      detail::cox_gradients(zero.data(), labels.data(), weights.empty() ? nullptr : weights.data(), labels.size(),
                            g.data(), h.data());
      double G = 0, H = 0;
      for (std::size_t i = 0; i < g.size(); ++i) G += g[i], H += h[i];
      return {pmath::expf(static_cast<float>(unregularized_weight(G, H)))};
    }
    case ObjectiveKind::kRank: {  // FitIntercept: a Newton step from margin 0 (identity transform)
      if (!weights.empty()) throw std::runtime_error("base_score: " + params.name + " takes no row weights");
      std::vector<float> const zero(labels.size(), 0.0f);
      std::vector<float> g(labels.size()), h(labels.size());
      detail::lambdarank_gradients(params, zero.data(), labels.data(), labels.size(), group_ptr, {}, 0, g.data(),
                                   h.data());
      double G = 0, H = 0;
      for (std::size_t i = 0; i < g.size(); ++i) G += g[i], H += h[i];
      return {static_cast<float>(unregularized_weight(G, H))};
    }
    case ObjectiveKind::kSquaredError:
    case ObjectiveKind::kLogistic:
    case ObjectiveKind::kLogitRaw:
    case ObjectiveKind::kPoisson:
    case ObjectiveKind::kGamma:
    case ObjectiveKind::kTweedie:
      if (std::abs(params.scale_pos_weight - 1.0f) > 1e-6f &&
          (k == ObjectiveKind::kSquaredError || k == ObjectiveKind::kLogistic || k == ObjectiveKind::kLogitRaw ||
           k == ObjectiveKind::kGamma)) {
        float const leaf = static_cast<float>(newton_from_zero(params, k, labels, weights));
        return {k == ObjectiveKind::kLogitRaw ? leaf : pred_transform(k, leaf)};
      }
      return {static_cast<float>(weighted_mean(labels, weights))};
    default: return {0.5f};
  }
}

}  // namespace kboost
