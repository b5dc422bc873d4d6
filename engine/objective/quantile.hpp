#pragma once
/// \file quantile.hpp
/// reg:quantileerror, as upstream XGBoost 3.2's QuantileRegression (src/objective/quantile_obj.cu):
/// the pinball loss of each quantile_alpha, one output per alpha, each output's intercept the
/// labels' quantile at its alpha, and every new tree's leaves refit to that quantile of their rows'
/// residuals (src/objective/adaptive.cc; kernels/leaf_refit.hpp; quantile.cpp).
#include <kboost/core/transfers.hpp>
#include <kboost/engine/objective/loss_family.hpp>

#include <stdexcept>
#include <string>

namespace kboost {

/// QuantileRegression::GetGradient: every output k of a row from its one label, at alpha(k).
template <class Mem>
struct QuantileLoss : DeviceLoss<ObjectiveKind::kQuantile, true> {
  Kokkos::View<const float*, Mem> alpha;  ///< one quantile per output group
  template <class Margin, class Pairs>
  KOKKOS_INLINE_FUNCTION bool row(Margin const& margin, Pairs const& gpair, std::size_t i, int n_groups, float y,
                                  float w) const {
    for (int k = 0; k < n_groups; ++k) {
      float const d = margin(i, k) - y;
      gpair(k, i) = d >= 0 ? GradientPair{(1.0f - alpha(k)) * w, w} : GradientPair{-alpha(k) * w, w};
    }
    return true;
  }
};

/// The reg:quantileerror family: its loss holds the alphas, uploaded for each round's gradients.
struct QuantileObjective {
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kQuantile; }

  /// \throws std::runtime_error unless there is one quantile_alpha per output group.
  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const& space, ObjectiveParams const& p, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    check_gradient_shapes(in.margin, in.label, in.weight, gpair, 1);
    int const groups = static_cast<int>(in.margin.extent(1));
    if (static_cast<int>(p.quantile_alpha.size()) != groups)
      throw std::runtime_error("compute_gradients: reg:quantileerror has " + std::to_string(p.quantile_alpha.size()) +
                               " quantile_alpha values for " + std::to_string(groups) + " output groups");
    QuantileLoss<Mem> loss;
    loss.alpha = counted_copy_to<Mem>(Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
        p.quantile_alpha.data(), p.quantile_alpha.size()));
    loss_gradients(space, p.objective, loss, in.margin, in.label, in.weight, gpair);
  }

  static Objective const& host();
};

}  // namespace kboost
