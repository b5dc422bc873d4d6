#pragma once
/// \file aft.hpp
/// survival:aft, its gradients on the host, as upstream XGBoost 3.2 (src/common/survival_util.h AFTLoss,
/// src/common/probability_distribution.h, src/objective/aft_obj.cu): the accelerated failure time
/// model's negative log-likelihood of the interval [lower, upper] (lower == upper: an observed time;
/// upper = inf: right-censored; lower <= 0: left-censored) for log-time predictions, its gradient
/// and hessian in double, clipped as upstream. The special functions (exp, log, erf) are double ones
/// of the host's C library, so the work runs on the host for every backend: every backend gives
/// the same bits.
#include <kboost/core/compat.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace kboost::detail {

/// aft_loss_distribution: the noise term's distribution.
enum class AftDistribution { kNormal, kLogistic, kExtreme };

/// The distribution named `name` ("normal", "logistic", "extreme"); throws std::runtime_error otherwise.
inline AftDistribution aft_distribution(std::string const& name) {
  if (name == "normal") return AftDistribution::kNormal;
  if (name == "logistic") return AftDistribution::kLogistic;
  if (name == "extreme") return AftDistribution::kExtreme;
  throw std::runtime_error("aft_loss_distribution '" + name + "': must be normal, logistic or extreme");
}

namespace aft {

constexpr double kMinGradient = -15.0, kMaxGradient = 15.0;
constexpr double kMinHessian = 1e-16, kMaxHessian = 15.0;
constexpr double kEps = 1e-12;
constexpr double kPi = 3.14159265358979323846;

/// PDF, CDF and the PDF's first and second derivatives of the standard distribution at z.
struct Density {
  double pdf, cdf, grad_pdf, hess_pdf;
};

inline Density density(AftDistribution d, double z) {
  switch (d) {
    case AftDistribution::kNormal: {
      double const pdf = std::exp(-z * z / 2.0) / std::sqrt(2.0 * kPi);
      return {pdf, 0.5 * (1 + std::erf(z / std::sqrt(2.0))), -z * pdf, (z * z - 1.0) * pdf};
    }
    case AftDistribution::kLogistic: {
      double const w = std::exp(z);
      double const s = 1 + w;
      double const pdf = std::isinf(w) || std::isinf(w * w) ? 0.0 : w / (s * s);
      double const cdf = std::isinf(w) ? 1.0 : w / (1 + w);
      double const grad = std::isinf(w) ? 0.0 : pdf * (1 - w) / (1 + w);
      double const hess = std::isinf(w) || std::isinf(w * w) ? 0.0 : pdf * (w * w - 4 * w + 1) / ((1 + w) * (1 + w));
      return {pdf, cdf, grad, hess};
    }
    case AftDistribution::kExtreme: {
      double const w = std::exp(z);
      double const pdf = std::isinf(w) ? 0.0 : w * std::exp(-w);
      double const grad = std::isinf(w) ? 0.0 : (1 - w) * pdf;
      double const hess = std::isinf(w) || std::isinf(w * w) ? 0.0 : (w * w - 3 * w + 1) * pdf;
      return {pdf, 1 - std::exp(-w), grad, hess};
    }
  }
  return {};
}

enum class Censoring { kUncensored, kRight, kLeft, kInterval };

inline double clip(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/// GetLimitGradAtInfPred: the gradient's limit where its denominator vanishes.
inline double limit_grad(AftDistribution d, Censoring c, bool sign, double sigma) {
  double const inv = 1.0 / sigma;
  double const low = d == AftDistribution::kLogistic ? -inv : kMinGradient;
  double const high = d == AftDistribution::kNormal ? kMaxGradient : inv;
  switch (c) {
    case Censoring::kUncensored:
    case Censoring::kInterval: return sign ? low : high;
    case Censoring::kRight: return sign ? low : 0.0;
    case Censoring::kLeft: return sign ? 0.0 : high;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

/// GetLimitHessAtInfPred: the hessian's limit where its denominator vanishes.
inline double limit_hess(AftDistribution d, Censoring c, bool sign, double sigma) {
  if (d == AftDistribution::kLogistic) return kMinHessian;
  if (d == AftDistribution::kNormal) {
    double const h = 1.0 / (sigma * sigma);
    if (c == Censoring::kRight) return sign ? h : kMinHessian;
    if (c == Censoring::kLeft) return sign ? kMinHessian : h;
    return h;
  }
  if (c == Censoring::kLeft) return kMinHessian;  // extreme
  return sign ? kMaxHessian : kMinHessian;
}

}  // namespace aft

/// AFTLoss::Loss: −log of the likelihood of [lower, upper] at log-time prediction `pred`, scale sigma.
inline double aft_loss(AftDistribution d, double lower, double upper, double pred, double sigma) {
  if (lower == upper) {
    double const pdf = aft::density(d, (std::log(lower) - pred) / sigma).pdf;
    return -std::log(std::fmax(pdf / (sigma * lower), aft::kEps));
  }
  double const cdf_u = std::isinf(upper) ? 1.0 : aft::density(d, (std::log(upper) - pred) / sigma).cdf;
  double const cdf_l = lower <= 0.0 ? 0.0 : aft::density(d, (std::log(lower) - pred) / sigma).cdf;
  return -std::log(std::fmax(cdf_u - cdf_l, aft::kEps));
}

/// AFTLoss::Gradient and ::Hessian of aft_loss with respect to pred, clipped to upstream's bounds.
inline void aft_gradient(AftDistribution d, double lower, double upper, double pred, double sigma, double* grad,
                         double* hess) {
  double g_num, g_den, h_num, h_den;
  aft::Censoring censoring;
  bool sign;
  if (lower == upper) {
    double const z = (std::log(lower) - pred) / sigma;
    auto const f = aft::density(d, z);
    censoring = aft::Censoring::kUncensored;
    g_num = f.grad_pdf;
    g_den = sigma * f.pdf;
    h_num = -(f.pdf * f.hess_pdf - f.grad_pdf * f.grad_pdf);
    h_den = sigma * sigma * f.pdf * f.pdf;
    sign = z > 0;
  } else {
    double z_u = 0.0, z_l = 0.0;
    aft::Density u{0, 1, 0, 0}, l{0, 0, 0, 0};
    censoring = aft::Censoring::kInterval;
    if (std::isinf(upper)) {
      censoring = aft::Censoring::kRight;
    } else {
      z_u = (std::log(upper) - pred) / sigma;
      u = aft::density(d, z_u);
    }
    if (lower <= 0.0) {
      censoring = aft::Censoring::kLeft;
    } else {
      z_l = (std::log(lower) - pred) / sigma;
      l = aft::density(d, z_l);
    }
    sign = z_u > 0 || z_l > 0;
    double const cdf_diff = u.cdf - l.cdf, pdf_diff = u.pdf - l.pdf, grad_diff = u.grad_pdf - l.grad_pdf;
    g_num = pdf_diff;
    g_den = sigma * cdf_diff;
    h_num = -(cdf_diff * grad_diff - pdf_diff * pdf_diff);
    h_den = g_den * g_den;
  }
  double g = g_num / g_den;
  if (g_den < aft::kEps && (std::isnan(g) || std::isinf(g))) g = aft::limit_grad(d, censoring, sign, sigma);
  double h = h_num / h_den;
  if (h_den < aft::kEps && (std::isnan(h) || std::isinf(h))) h = aft::limit_hess(d, censoring, sign, sigma);
  *grad = aft::clip(g, aft::kMinGradient, aft::kMaxGradient);
  *hess = aft::clip(h, aft::kMinHessian, aft::kMaxHessian);
}

/// survival:aft's (grad, hess) of n rows as upstream's AFTObj::GetGradient: margins (log time,
/// float), interval bounds (float), weights (n or nullptr = 1); float results, the weight applied in
/// float after the double gradient is rounded.
inline void aft_gradients(AftDistribution d, float sigma, float const* margin, float const* lower, float const* upper,
                          float const* weight, std::size_t n, float* grad, float* hess) {
  for (std::size_t i = 0; i < n; ++i) {
    double g, h;
    aft_gradient(d, lower[i], upper[i], margin[i], sigma, &g, &h);
    float const w = weight == nullptr ? 1.0f : weight[i];
    grad[i] = static_cast<float>(g) * w;
    hess[i] = static_cast<float>(h) * w;
  }
}

}  // namespace kboost::detail

namespace kboost {

/// survival:aft's gradients as upstream 3.2's AFTObj at `margin` (rows × 1, log time) for interval
/// labels `lower`/`upper` and weights (rows each, host memory; weights may be empty = 1) into
/// `gpair` (1 × rows), with params.aft_loss_distribution and its scale. The margins go to the host
/// (the likelihood's exp, log and erf are the host's double functions, so every backend gives the
/// same bits) and the pairs come back. Throws std::runtime_error on mismatched sizes or an unknown
/// distribution.
template <class Mem>
void aft_gradients(ObjectiveParams const& params, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin,
                   Kokkos::View<const float*, Kokkos::HostSpace> lower, Kokkos::View<const float*, Kokkos::HostSpace> upper,
                   Kokkos::View<const float*, Kokkos::HostSpace> weight,
                   Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair) {
  compat::ScopedRegion region("kboost::objective::aft_gradients");
  if (margin.extent(1) != 1) throw std::runtime_error("survival:aft has one output, not " + std::to_string(margin.extent(1)));
  auto const hm = counted_to_host(margin);
  std::size_t const n = hm.extent(0);
  if (lower.extent(0) != n || upper.extent(0) != n || (weight.extent(0) != 0 && weight.extent(0) != n))
    throw std::runtime_error("aft_gradients: " + std::to_string(n) + " margins, " + std::to_string(lower.extent(0)) +
                             " lower and " + std::to_string(upper.extent(0)) + " upper bounds, " +
                             std::to_string(weight.extent(0)) + " weights");
  std::vector<float> g(n), h(n);
  detail::aft_gradients(detail::aft_distribution(params.aft_loss_distribution), params.aft_loss_distribution_scale,
                        hm.data(), lower.data(), upper.data(), weight.extent(0) == 0 ? nullptr : weight.data(), n,
                        g.data(), h.data());
  upload_single_output(g, h, gpair);
}

/// The survival:aft family: interval labels, one output, upstream's fixed intercept 0.5 (host facts
/// in aft.cpp).
struct AftObjective {
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kAft; }

  /// aft_gradients on in's label bounds. \throws std::runtime_error when they are not given.
  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const&, ObjectiveParams const& p, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    if (!in.has_bounds) {
      check_gradient_shapes(in.margin, in.label, in.weight, gpair, 1);
      throw std::runtime_error("compute_gradients: survival:aft needs label bounds: use aft_gradients");
    }
    aft_gradients(p, in.margin, in.lower, in.upper, in.host_weight, gpair);
  }

  static Objective const& host();
};

}  // namespace kboost
