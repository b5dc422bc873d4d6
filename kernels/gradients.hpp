#pragma once
/// \file gradients.hpp
/// First/second-order gradients of the training objectives, element-wise on the device, with
/// upstream XGBoost 3.2's formulas, clamps and evaluation order (src/objective/regression_loss.h,
/// regression_obj.cu RegLossObj/PoissonRegression/GammaRegression/TweedieRegression/
/// PseudoHuberRegression/MeanAbsoluteError, multiclass_obj.cu SoftmaxMultiClassObj), in float with
/// kboost::pmath::expf so every backend gives the bits of upstream's CPU build.
#include <kboost/core/compat.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/detail/aft.hpp>
#include <kboost/kernels/detail/cox.hpp>
#include <kboost/kernels/detail/lambdarank.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kboost {

/// Gradient pair of one (row, output group), float as upstream's GradientPair.
struct GradientPair {
  float grad = 0;
  float hess = 0;
};

namespace detail {

/// One objective's gradient kernel: K is a template parameter so that each kernel holds one
/// objective's arithmetic only (no per-row switch; the host compiler inlines pmath::expf).
template <ObjectiveKind K, class Mem>
struct GradientFunctor {
  int n_groups;  // (no std::string members: the functor is copied to the device bitwise)
  Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin;
  Kokkos::View<const float*, Mem> label;
  Kokkos::View<const float*, Mem> weight;
  Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair;
  Kokkos::View<int, Mem> bad_rows;  ///< labels invalid for the objective
  float scale_pos_weight, rho, slope, poisson_mds;
  Kokkos::View<const float*, Mem> alpha;  ///< reg:quantileerror: one quantile per output group
  static constexpr bool kPerTarget = is_multi_target(K);  ///< labels rows × n_groups

  /// Fills row i's pairs: one per target for the element-wise objectives (labels rows × targets,
  /// one output group per target, the row's weight on each as upstream's `weights[idx / n_targets]`),
  /// every class or quantile from the one label otherwise. Invalid labels are counted with an
  /// integer atomic (rare, and a count is order-free) rather than a Kokkos reduction:
  /// kernels/detail/integer_sum.hpp says why kboost avoids parallel_reduce.
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const {
    if constexpr (kPerTarget) {
      for (int t = 0; t < n_groups; ++t)
        if (!row(i, t)) Kokkos::atomic_add(&bad_rows(), 1);
    } else {
      if (!row(i, 0)) Kokkos::atomic_add(&bad_rows(), 1);
    }
  }

  /// Row i's pairs of target t (0 for the objectives with one label per row); false when its
  /// label is invalid for the objective.
  KOKKOS_INLINE_FUNCTION bool row(std::size_t i, int t) const {
    float w = weight.extent(0) == 0 ? 1.0f : weight(i);
    float const y = kPerTarget ? label(i * static_cast<std::size_t>(n_groups) + static_cast<std::size_t>(t)) : label(i);
    if constexpr (K == ObjectiveKind::kSquaredError) {  // RegLossObj<LinearSquareLoss>
      if (y == 1.0f) w *= scale_pos_weight;
      float const pr = margin(i, t);
      gpair(t, i) = GradientPair{(pr - y) * w, 1.0f * w};
      return true;
    } else if constexpr (K == ObjectiveKind::kLogistic || K == ObjectiveKind::kLogitRaw) {
      // RegLossObj<LogisticClassification / LogisticRaw>
      if (y == 1.0f) w *= scale_pos_weight;
      float const pr = pmath::sigmoid(margin(i, t));
      float const h = pr * (1.0f - pr);
      gpair(t, i) = GradientPair{(pr - y) * w, (h > 1e-16f ? h : 1e-16f) * w};
      return y >= 0.0f && y <= 1.0f;
    } else if constexpr (K == ObjectiveKind::kPoisson) {
      float const pr = margin(i, t);
      gpair(t, i) = GradientPair{(pmath::expf(pr) - y) * w, pmath::expf(pr + poisson_mds) * w};
      return !(y < 0.0f);
    } else if constexpr (K == ObjectiveKind::kGamma) {  // 3.x: RegLossObj<GammaDeviance> (scale_pos_weight applies)
      if (y == 1.0f) w *= scale_pos_weight;
      float const pr = pmath::expf(margin(i, t));
      gpair(t, i) = GradientPair{(1.0f - y / pr) * w, (y / pr) * w};
      return y > 0.0f;
    } else if constexpr (K == ObjectiveKind::kTweedie) {
      float const pr = margin(i, t);
      float const g = -y * pmath::expf((1 - rho) * pr) + pmath::expf((2 - rho) * pr);
      float const h = -y * (1 - rho) * pmath::expf((1 - rho) * pr) + (2 - rho) * pmath::expf((2 - rho) * pr);
      gpair(t, i) = GradientPair{g * w, h * w};
      return !(y < 0.0f);
    } else if constexpr (K == ObjectiveKind::kPseudoHuber) {
      float const z = margin(i, t) - y;
      float const scale_sqrt = compat::math::sqrt(1 + (z * z) / (slope * slope));
      float const g = z / scale_sqrt;
      float const scale = slope * slope + z * z;
      float const h = slope * slope / (scale * scale_sqrt);
      gpair(t, i) = GradientPair{g * w, h * w};
      return true;
    } else if constexpr (K == ObjectiveKind::kSquaredLogError) {
      // RegLossObj<SquaredLogError> (src/objective/regression_loss.h): the prediction floored at
      // -1 + 1e-6, the hessian's (p + 1)^2 in double (std::pow promotes) and floored at 1e-6;
      // log1p is kboost's portable one
      float const floor = static_cast<float>(-1 + 1e-6);
      float const pr = margin(i, t) > floor ? margin(i, t) : floor;  // fmaxf: NaN takes the floor too
      float const lp = pmath::log1pf(pr), ly = pmath::log1pf(y);
      float const g = (lp - ly) / (pr + 1);
      double const p1 = static_cast<double>(pr + 1);
      float const h = static_cast<float>(static_cast<double>(-lp + ly + 1) / (p1 * p1));
      gpair(t, i) = GradientPair{g * w, (h > 1e-6f ? h : 1e-6f) * w};
      return y > -1.0f;
    } else if constexpr (K == ObjectiveKind::kAbsoluteError) {
      float const d = margin(i, t) - y;
      float const sign = static_cast<float>((d > 0) - (d < 0));
      gpair(t, i) = GradientPair{sign * w, w};
      return true;
    } else if constexpr (K == ObjectiveKind::kQuantile) {  // QuantileRegression::GetGradient (pinball loss)
      for (int k = 0; k < n_groups; ++k) {
        float const d = margin(i, k) - y;
        gpair(k, i) = d >= 0 ? GradientPair{(1.0f - alpha(k)) * w, w} : GradientPair{-alpha(k) * w, w};
      }
      return true;
    } else {
      static_assert(K == ObjectiveKind::kSoftprob || K == ObjectiveKind::kSoftmax, "objective without gradients");
      // SoftmaxMultiClassObj::GetGradient. Not core/output_transform.hpp's softmax (common::Softmax):
      // upstream's gradient computes its own, seeding the maximum with FLT_MIN instead of the first
      // margin and recomputing expf per class (src/objective/multiclass_obj.cu). Sharing the
      // prediction softmax would change the gradients whenever every margin of a row is below
      // FLT_MIN, so this variant stays.
      float wmax = 1.17549435e-38f;  // std::numeric_limits<float>::min()
      for (int k = 0; k < n_groups; ++k) wmax = margin(i, k) > wmax ? margin(i, k) : wmax;
      double wsum = 0.0;
      for (int k = 0; k < n_groups; ++k) wsum += pmath::expf(margin(i, k) - wmax);
      float lab = y;
      bool const valid = !(lab < 0 || lab >= n_groups);
      if (!valid) lab = 0;
      for (int k = 0; k < n_groups; ++k) {
        float pk = pmath::expf(margin(i, k) - wmax) / static_cast<float>(wsum);
        float const hh = 2.0f * pk * (1.0f - pk) * w;
        float const h = hh > 1e-16f ? hh : 1e-16f;
        pk = lab == static_cast<float>(k) ? pk - 1.0f : pk;
        gpair(k, i) = GradientPair{pk * w, h};
      }
      return valid;
    }
  }
};

/// Copies gradient arrays (rows each) from the host into gpair's group 0.
template <class Mem>
void upload_single_output(std::vector<float> const& g, std::vector<float> const& h,
                          Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair) {
  auto hg = Kokkos::create_mirror_view(gpair);
  for (std::size_t i = 0; i < g.size(); ++i) hg(0, i) = GradientPair{g[i], h[i]};
  counted_deep_copy(gpair, hg);
}

/// survival:cox's gradients (groups = 1): margins, labels and weights to the host, the risk-set
/// sums there (kernels/detail/cox.hpp), the pairs back.
template <class Mem>
void cox_gradients_on_host(Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin,
                           Kokkos::View<const float*, Mem> label, Kokkos::View<const float*, Mem> weight,
                           Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair) {
  if (margin.extent(1) != 1) throw std::runtime_error("survival:cox has one output, not " + std::to_string(margin.extent(1)));
  auto const hm = counted_to_host(margin);
  auto const hl = counted_to_host(label);
  auto const hw = counted_to_host(weight);
  std::size_t const n = hm.extent(0);
  std::vector<float> g(n), h(n);
  cox_gradients(hm.data(), hl.data(), hw.extent(0) == 0 ? nullptr : hw.data(), n, g.data(), h.data());
  upload_single_output(g, h, gpair);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define KBOOST_HOST_FMA_DISPATCH 1
/// Rows [begin, end) of f compiled for x86-64 cores with FMA, where pmath's std::fma calls become
/// single instructions instead of calls into libm (the same correctly rounded results, so the same
/// bits). Called only when the running core has FMA (launch_gradients).
template <class Functor>
__attribute__((target("fma"))) void gradient_rows_fma(Functor const& f, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) f(i);
}
#endif

/// Runs objective K's kernel over rows [0, n).
template <ObjectiveKind K, class ExecutionSpace, class Mem, class... Args>
void launch_gradients(ExecutionSpace const& space, std::size_t n, Args const&... args) {
  GradientFunctor<K, Mem> const f{args...};
#ifdef KBOOST_HOST_FMA_DISPATCH
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    if (__builtin_cpu_supports("fma")) {
      constexpr std::size_t kChunk = 4096;
      Kokkos::parallel_for("kboost::objective::gradients_fma",
                           Kokkos::RangePolicy<ExecutionSpace>(space, 0, (n + kChunk - 1) / kChunk),
                           KOKKOS_LAMBDA(std::size_t c) {
                             gradient_rows_fma(f, c * kChunk, (c + 1) * kChunk < n ? (c + 1) * kChunk : n);
                           });
      return;
    }
  }
#endif
  Kokkos::parallel_for("kboost::objective::gradients",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, n), f);
}

}  // namespace detail

/// Gradients of `objective` at `margin` (rows × groups, raw scores) for labels (rows; rows ×
/// groups, row-major, for the multi-target objectives of core/objective.hpp is_multi_target, one
/// group per target) and weights (rows, or extent 0 = all 1) into `gpair` (groups × rows). Sample weights and scale_pos_weight
/// (rows with label == 1, reg:squarederror/reg:logistic/binary:*) scale both components as upstream.
/// Throws std::runtime_error when a label is outside the objective's domain (upstream's CheckLabel
/// message) or when the objective has no training gradients in kboost (hinge), needs query groups
/// (rank:*: lambdarank_gradients) or label bounds (survival:aft: aft_gradients). survival:cox's risk-set sums run on the host.
/// reg:quantileerror needs one quantile_alpha per group.
template <class ExecutionSpace, class Mem>
void compute_gradients(ExecutionSpace const& space, ObjectiveParams const& params,
                       Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin,
                       Kokkos::View<const float*, Mem> label, Kokkos::View<const float*, Mem> weight,
                       Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair) {
  compat::ScopedRegion region("kboost::objective::compute_gradients");
  ObjectiveKind const kind = objective_kind(params.name);
  switch (kind) {
    case ObjectiveKind::kHinge:
      throw std::runtime_error("objective " + params.name + ": training is not supported by kboost");
    default: break;
  }
  std::size_t const n = margin.extent(0);
  int const groups = static_cast<int>(margin.extent(1));
  std::size_t const labels_per_row = is_multi_target(kind) ? static_cast<std::size_t>(groups) : 1;
  if (label.extent(0) != n * labels_per_row || gpair.extent(1) != n || static_cast<int>(gpair.extent(0)) != groups ||
      (weight.extent(0) != 0 && weight.extent(0) != n)) {
    throw std::runtime_error("compute_gradients: shape mismatch (margin " + std::to_string(n) + "x" +
                             std::to_string(groups) + ", labels " + std::to_string(label.extent(0)) +
                             ", weights " + std::to_string(weight.extent(0)) + ")");
  }
  if (kind == ObjectiveKind::kQuantile && static_cast<int>(params.quantile_alpha.size()) != groups)
    throw std::runtime_error("compute_gradients: reg:quantileerror has " + std::to_string(params.quantile_alpha.size()) +
                             " quantile_alpha values for " + std::to_string(groups) + " output groups");
  if (kind == ObjectiveKind::kCox) {
    detail::cox_gradients_on_host(margin, label, weight, gpair);
    return;
  }
  if (kind == ObjectiveKind::kRank)
    throw std::runtime_error("compute_gradients: " + params.name + " needs query groups: use lambdarank_gradients");
  if (kind == ObjectiveKind::kAft)
    throw std::runtime_error("compute_gradients: survival:aft needs label bounds: use aft_gradients");
  Kokkos::View<int, Mem> bad_rows("kboost::objective::bad_rows");
  Kokkos::View<const float*, Mem> alpha;
  if (kind == ObjectiveKind::kQuantile)
    alpha = counted_copy_to<Mem>(Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
        params.quantile_alpha.data(), params.quantile_alpha.size()));
  auto const launch = [&](auto kind_constant) {
    constexpr ObjectiveKind K = decltype(kind_constant)::value;
    detail::launch_gradients<K, ExecutionSpace, Mem>(space, n, groups, margin, label, weight, gpair, bad_rows,
                                                     params.scale_pos_weight, params.tweedie_variance_power,
                                                     params.huber_slope, params.poisson_max_delta_step, alpha);
  };
  using K = ObjectiveKind;
  switch (kind) {
    case K::kSquaredError: launch(std::integral_constant<K, K::kSquaredError>{}); break;
    case K::kLogistic: launch(std::integral_constant<K, K::kLogistic>{}); break;
    case K::kLogitRaw: launch(std::integral_constant<K, K::kLogitRaw>{}); break;
    case K::kPoisson: launch(std::integral_constant<K, K::kPoisson>{}); break;
    case K::kGamma: launch(std::integral_constant<K, K::kGamma>{}); break;
    case K::kTweedie: launch(std::integral_constant<K, K::kTweedie>{}); break;
    case K::kPseudoHuber: launch(std::integral_constant<K, K::kPseudoHuber>{}); break;
    case K::kSquaredLogError: launch(std::integral_constant<K, K::kSquaredLogError>{}); break;
    case K::kAbsoluteError: launch(std::integral_constant<K, K::kAbsoluteError>{}); break;
    case K::kQuantile: launch(std::integral_constant<K, K::kQuantile>{}); break;
    case K::kSoftprob: launch(std::integral_constant<K, K::kSoftprob>{}); break;
    case K::kSoftmax: launch(std::integral_constant<K, K::kSoftmax>{}); break;
    default: throw std::runtime_error("objective " + params.name + ": no training gradients in kboost");
  }
  int const bad = counted_to_host(bad_rows)();
  if (bad > 0) {
    std::string what;
    switch (kind) {
      case ObjectiveKind::kLogistic: case ObjectiveKind::kLogitRaw: what = "label must be in [0,1] for logistic regression"; break;
      case ObjectiveKind::kPoisson: what = "PoissonRegression: label must be nonnegative"; break;
      case ObjectiveKind::kGamma: what = "GammaRegression: label must be positive"; break;
      case ObjectiveKind::kTweedie: what = "TweedieRegression: label must be nonnegative"; break;
      case ObjectiveKind::kSquaredLogError:
        what = "label must be greater than -1 for rmsle so that log(label + 1) can be valid.";
        break;
      case ObjectiveKind::kSoftprob: case ObjectiveKind::kSoftmax: what = "SoftmaxMultiClassObj: label must be in [0, num_class)"; break;
      default: what = "invalid label"; break;
    }
    throw std::runtime_error(params.name + ": " + what + " (" + std::to_string(bad) + " labels)");
  }
}

/// A training objective written by the caller (upstream's custom objective, `xgboost.train(obj=…)`):
/// `f(row, output, margin, label, weight)` returns the row's GradientPair for that output on any
/// execution space — `f` is copied to the device, its operator() must be KOKKOS_FUNCTION and const.
/// margin: the raw score (no transform, as upstream passes custom objectives); label: the row's
/// label (its output's column for multi-target labels); weight: the row's weight (1 without
/// weights), which `f` applies itself as upstream's custom objectives do. Make one with
/// custom_objective().
template <class F>
struct CustomObjective {
  F f;
};

/// Wraps a functor as a CustomObjective (see there).
template <class F>
CustomObjective<F> custom_objective(F f) {
  return CustomObjective<F>{f};
}

/// The caller's gradients into `gpair` (groups × rows) at `margin` (rows × groups) for labels
/// (rows, or rows × groups row-major) and weights (rows or extent 0), one thread per row.
/// \throws std::runtime_error on mismatched shapes.
template <class ExecutionSpace, class Mem, class F>
void custom_gradients(ExecutionSpace const& space, CustomObjective<F> const& objective,
                      Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin, Kokkos::View<const float*, Mem> label,
                      Kokkos::View<const float*, Mem> weight, Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair) {
  compat::ScopedRegion region("kboost::objective::custom_gradients");
  std::size_t const n = margin.extent(0), groups = margin.extent(1);
  std::size_t const per_row = n == 0 ? 1 : label.extent(0) / n;
  if ((per_row != 1 && per_row != groups) || label.extent(0) != n * per_row || gpair.extent(0) != groups ||
      gpair.extent(1) != n || (weight.extent(0) != 0 && weight.extent(0) != n))
    throw std::runtime_error("custom_gradients: shape mismatch (margin " + std::to_string(n) + "x" +
                             std::to_string(groups) + ", labels " + std::to_string(label.extent(0)) + ", weights " +
                             std::to_string(weight.extent(0)) + ")");
  F const f = objective.f;
  Kokkos::parallel_for(
      "kboost::objective::custom_gradients", Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::size_t>>(space, 0, n),
      KOKKOS_LAMBDA(std::size_t i) {
        float const w = weight.extent(0) == 0 ? 1.0f : weight(i);
        for (std::size_t g = 0; g < groups; ++g)
          gpair(g, i) = f(i, static_cast<int>(g), margin(i, g), label(i * per_row + (per_row == 1 ? 0 : g)), w);
      });
}

/// LambdaMART gradients of rank:ndcg / rank:pairwise / rank:map (upstream 3.2's CPU objective,
/// kernels/detail/lambdarank.hpp) at `margin` (rows × 1) for relevance labels (rows) and query
/// groups (`group_ptr`: n_groups + 1 row offsets on the host; empty = one group), into `gpair`
/// (1 × rows). Margins and labels go to the host, the pairs come back. `iteration` (the boosting
/// round) seeds the draws of lambdarank_pair_method = mean as upstream 3.2's. Throws std::runtime_error on labels the objective does
/// not take, or offsets that do not cover the rows.
template <class Mem>
void lambdarank_gradients(ObjectiveParams const& params, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin,
                          Kokkos::View<const float*, Mem> label, std::vector<std::uint32_t> const& group_ptr,
                          std::uint32_t iteration, Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair) {
  compat::ScopedRegion region("kboost::objective::lambdarank_gradients");
  if (margin.extent(1) != 1) throw std::runtime_error(params.name + " has one output, not " + std::to_string(margin.extent(1)));
  auto const hm = counted_to_host(margin);
  auto const hl = counted_to_host(label);
  std::size_t const n = hm.extent(0);
  if (hl.extent(0) != n || gpair.extent(1) != n)
    throw std::runtime_error("lambdarank_gradients: " + std::to_string(n) + " margins, " + std::to_string(hl.extent(0)) +
                             " labels");
  std::vector<float> g(n), h(n);
  detail::lambdarank_gradients(params, hm.data(), hl.data(), n, group_ptr, {}, iteration, g.data(), h.data());
  detail::upload_single_output(g, h, gpair);
}

/// survival:aft's gradients as upstream 3.2's AFTObj (kernels/detail/aft.hpp) at `margin` (rows ×
/// 1, log time) for interval labels `lower`/`upper` and weights (rows each, host memory; weights
/// may be empty = 1) into `gpair` (1 × rows), with params.aft_loss_distribution and its scale. The
/// margins go to the host (the likelihood's exp, log and erf are the host's double functions, so
/// every backend gives the same bits) and the pairs come back.
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
  detail::upload_single_output(g, h, gpair);
}

}  // namespace kboost

