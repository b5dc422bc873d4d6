#pragma once
/// \file cox.hpp
/// survival:cox, as upstream XGBoost 3.2's CoxRegression (src/objective/regression_obj.cu). The
/// gradients run on the host, as upstream's CoxRegression::GetGradient: Breslow's method over rows in stable order of |label| (a
/// negative label is a right-censored time), double accumulations in that one order. The risk set
/// sums run over every row in sequence, so they are taken on the host whatever the backend; exp is
/// kboost's portable expf (upstream takes std::exp of the double margin: the two agree to a float
/// rounding, 6e-8 relative).
#include <kboost/core/compat.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace kboost::detail {

/// Rows in stable ascending order of |label| (upstream MetaInfo::LabelAbsSort).
inline std::vector<std::size_t> label_abs_order(float const* label, std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return std::fabs(label[a]) < std::fabs(label[b]); });
  return order;
}

/// (grad, hess) of row i into grad[i], hess[i] (float, weight applied) at margins `margin` (n),
/// labels (n; > 0 event time, < 0 censored time), weights (n or nullptr = 1).
inline void cox_gradients(float const* margin, float const* label, float const* weight, std::size_t n, float* grad,
                          float* hess) {
  auto const order = label_abs_order(label, n);
  double exp_p_sum = 0;
  for (std::size_t i = 0; i < n; ++i) exp_p_sum += static_cast<double>(pmath::expf(margin[order[i]]));
  double r_k = 0, s_k = 0, last_exp_p = 0, last_abs_y = 0, accumulated_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t const ind = order[i];
    double const exp_p = static_cast<double>(pmath::expf(margin[ind]));
    double const w = weight == nullptr ? 1.0 : static_cast<double>(weight[ind]);
    double const y = label[ind];
    double const abs_y = std::fabs(y);
    accumulated_sum += last_exp_p;  // the denominator moves only when time moves (ties: Breslow)
    if (last_abs_y < abs_y) {
      exp_p_sum -= accumulated_sum;
      accumulated_sum = 0;
    }
    if (y > 0) {
      r_k += 1.0 / exp_p_sum;
      s_k += 1.0 / (exp_p_sum * exp_p_sum);
    }
    double const g = exp_p * r_k - static_cast<float>(y > 0);
    double const h = exp_p * r_k - exp_p * exp_p * s_k;
    grad[ind] = static_cast<float>(g * w);
    hess[ind] = static_cast<float>(h * w);
    last_abs_y = abs_y;
    last_exp_p = exp_p;
  }
}

}  // namespace kboost::detail

namespace kboost {

/// The survival:cox family: labels are times (> 0 an event, < 0 censored), one output (host facts
/// in cox.cpp).
struct CoxObjective {
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kCox; }

  /// Margins, labels and weights to the host, the risk-set sums there, the pairs back.
  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const&, ObjectiveParams const&, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    check_gradient_shapes(in.margin, in.label, in.weight, gpair, 1);
    if (in.margin.extent(1) != 1)
      throw std::runtime_error("survival:cox has one output, not " + std::to_string(in.margin.extent(1)));
    auto const hm = counted_to_host(in.margin);
    auto const hl = counted_to_host(in.label);
    auto const hw = counted_to_host(in.weight);
    std::size_t const n = hm.extent(0);
    std::vector<float> g(n), h(n);
    detail::cox_gradients(hm.data(), hl.data(), hw.extent(0) == 0 ? nullptr : hw.data(), n, g.data(), h.data());
    upload_single_output(g, h, gpair);
  }

  static Objective const& host();
};

}  // namespace kboost
