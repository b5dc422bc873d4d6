#pragma once
/// \file metric_terms.hpp
/// The per-row terms of the element-wise and multi-class evaluation metrics, as upstream 3.2
/// (src/metric/elementwise_metric.cu EvalRowRMSE, EvalRowMAE, EvalRowMAPE, PseudoErrorLoss,
/// EvalRowLogLoss, EvalError, EvalGammaNLogLik, EvalGammaDeviance, EvalTweedieNLogLik;
/// multiclass_metric.cu EvalMultiLogLoss, EvalMatchError): each a float loss of (label,
/// prediction) times the row's weight. The same functions serve the host metrics
/// (engine/metrics.cpp) and `metric_terms`, which computes a set's terms where its margins live, so
/// only the terms travel and the host adds them in row order (the sum's order is what fixes the
/// metric's bits; a parallel sum would change them).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

#include <kboost/core/compat.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/core/portable_math.hpp>

namespace kboost {

/// The loss of a metric computed by `metric_loss` / `class_metric_loss`.
enum class MetricLoss : int {
  kSquaredError,             ///< rmse
  kAbsoluteError,            ///< mae
  kAbsolutePercentageError,  ///< mape
  kPseudoHuberError,         ///< mphe (argument: the slope)
  kLogLoss,                  ///< logloss
  kClassificationError,      ///< error (argument: the threshold)
  kGammaNLogLik,             ///< gamma-nloglik
  kGammaDeviance,            ///< gamma-deviance
  kTweedieNLogLik,           ///< tweedie-nloglik (argument: rho)
  kMultiLogLoss,             ///< mlogloss (a row of class probabilities)
  kMultiError,               ///< merror (a row of class probabilities)
};

/// Whether `loss` takes a row of class probabilities (class_metric_loss) rather than one value.
KOKKOS_INLINE_FUNCTION bool is_class_loss(MetricLoss loss) {
  return loss == MetricLoss::kMultiLogLoss || loss == MetricLoss::kMultiError;
}

/// Upstream's EvalRow*::EvalRow of one value: label y, transformed prediction p, the metric's
/// argument (its @value or default; unused by most). Element-wise losses only.
KOKKOS_INLINE_FUNCTION float metric_loss(MetricLoss loss, float y, float p, float arg) {
  constexpr float kEps = 1e-16f, kRtEps = 1e-6f;
  switch (loss) {
    case MetricLoss::kSquaredError: {
      float const d = y - p;
      return d * d;
    }
    case MetricLoss::kAbsoluteError: return compat::math::fabs(y - p);
    case MetricLoss::kAbsolutePercentageError: return compat::math::fabs((y - p) / y);
    case MetricLoss::kPseudoHuberError: {
      float const r = (y - p) / arg;
      return arg * arg * (compat::math::sqrt(1 + r * r) - 1);
    }
    case MetricLoss::kLogLoss: {
      float const pneg = 1.0f - p;
      if (p < kEps) return -y * pmath::logf(kEps) - (1.0f - y) * pmath::logf(1.0f - kEps);
      if (pneg < kEps) return -y * pmath::logf(1.0f - kEps) - (1.0f - y) * pmath::logf(kEps);
      return -y * pmath::logf(p) - (1.0f - y) * pmath::logf(pneg);
    }
    case MetricLoss::kClassificationError: return p > arg ? 1.0f - y : y;
    case MetricLoss::kGammaNLogLik: {
      float const py = p < kRtEps ? kRtEps : p;  // std::max(p, 1e-6f)
      float const theta = static_cast<float>(-1. / py);
      float const b = -pmath::logf(-theta);
      return -((y * theta - b) / 1.0f + 0.0f);
    }
    case MetricLoss::kGammaDeviance: {
      float const predt = p + kRtEps, label = y + kRtEps;
      return pmath::logf(predt / label) + label / predt - 1;
    }
    case MetricLoss::kTweedieNLogLik: {
      float const a = y * pmath::expf((1 - arg) * pmath::logf(p)) / (1 - arg);
      float const b = pmath::expf((2 - arg) * pmath::logf(p)) / (2 - arg);
      return -a + b;
    }
    default: break;
  }
  return 0.0f;
}

/// Upstream's EvalMultiLogLoss / EvalMatchError of one row's class probabilities `prob(0..n)`
/// (an accessor: prob(j) is class j's probability) for class `label` (0 ≤ label < n).
template <class Prob>
KOKKOS_INLINE_FUNCTION float class_metric_loss(MetricLoss loss, Prob const& prob, int label, int n) {
  if (loss == MetricLoss::kMultiError) return argmax(n, prob) != label ? 1.0f : 0.0f;
  constexpr float kEps = 1e-16f;
  float const p = prob(label);
  return p > kEps ? -pmath::logf(p) : -pmath::logf(kEps);
}

namespace detail {
/// Row i of a margins View as an accessor: margin j (a pointer to the View, so no copy per row).
template <class Margins>
struct MarginRow {
  Margins const* margins;
  std::size_t i;
  KOKKOS_INLINE_FUNCTION float operator()(int j) const { return (*margins)(i, static_cast<std::size_t>(j)); }
};
/// A row's class probabilities as an accessor: softmax_at of the row's margins.
template <class Row>
struct SoftmaxRow {
  Row row;
  SoftmaxScale scale;
  KOKKOS_INLINE_FUNCTION float operator()(int j) const { return softmax_at(row, j, scale); }
};
}  // namespace detail

/// What `metric_terms` computes: the loss, its argument, and the margins' transform to outputs.
struct MetricTermSpec {
  MetricLoss loss;
  float argument = 0;
  OutputTransform transform = OutputTransform::kIdentity;
};

/// terms(i) = loss(label(i), output of row i) · weight(i) in float: the addends of upstream's
/// element-wise and multi-class metric sums. margins: rows × outputs (row-major; outputs 1 for the
/// element-wise losses, the classes for the class losses, whose outputs are softmax probabilities);
/// label, weight: rows (weight extent 0: all 1; class labels must be in [0, outputs): the caller
/// checks them). terms: at least rows. Runs on `space`; no error is raised.
template <class ExecutionSpace, class Mem>
void metric_terms(ExecutionSpace const& space, MetricTermSpec const& spec,
                  Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margins, Kokkos::View<const float*, Mem> label,
                  Kokkos::View<const float*, Mem> weight, Kokkos::View<float*, Mem> terms) {
  int const outputs = static_cast<int>(margins.extent(0) == 0 ? 1 : margins.extent(1));
  bool const weighted = weight.extent(0) != 0;
  Kokkos::parallel_for(
      "kboost::metrics::terms", Kokkos::RangePolicy<ExecutionSpace>(space, 0, margins.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) {
        float const w = weighted ? weight(i) : 1.0f;
        detail::MarginRow<decltype(margins)> const row{&margins, i};
        float loss;
        if (is_class_loss(spec.loss)) {
          detail::SoftmaxRow<decltype(row)> const prob{row, softmax_scale(outputs, row)};
          loss = class_metric_loss(spec.loss, prob, static_cast<int>(label(i)), outputs);
        } else {
          float p = margins(i, 0);
          apply_transform(spec.transform, 1, detail::FloatRow{&p}, detail::FloatRow{&p});
          loss = metric_loss(spec.loss, label(i), p, spec.argument);
        }
        terms(i) = loss * w;
      });
}

}  // namespace kboost
