#pragma once
/// \file gradients.hpp
/// The gradient kernel shared by every element-wise training objective: one thread per row, the
/// objective's loss (a device functor of its family unit, engine/objective/*) applied to each
/// (row, output), invalid labels counted; the x86-64 FMA build of the host loop; the caller's
/// custom objectives. The losses themselves follow upstream XGBoost 3.2's formulas, clamps and
/// evaluation order (src/objective/regression_loss.h, regression_obj.cu, multiclass_obj.cu), in
/// float with kboost::pmath::expf so every backend gives the bits of upstream's CPU build.
#include <kboost/core/compat.hpp>
#include <kboost/core/transfers.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kboost {

/// Gradient pair of one (row, output group), float as upstream's GradientPair.
struct GradientPair {
  float grad = 0;
  float hess = 0;
};

namespace detail {

/// Whether Loss has `prefetch(float margin)`.
template <class Loss, class = void>
struct has_prefetch : std::false_type {};
template <class Loss>
struct has_prefetch<Loss, std::void_t<decltype(std::declval<Loss const&>().prefetch(0.0f))>> : std::true_type {};

/// One loss's gradient kernel. `Loss` (a device functor of an objective family) is a template
/// parameter so that each kernel holds one objective's arithmetic only (no per-row switch; the host
/// compiler inlines pmath::expf). Loss::kPerTarget: labels are rows × n_groups, one output per
/// label column; Loss::kWholeRow: Loss::row fills every output of a row from its one label (classes,
/// quantiles), else Loss::operator() gives the pair of one (margin, label, weight).
template <class Loss, class Mem>
struct GradientFunctor {
  Loss loss;  // (no std::string members in a loss: the functor is copied to the device bitwise)
  int n_groups;
  Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin;
  Kokkos::View<const float*, Mem> label;
  Kokkos::View<const float*, Mem> weight;
  Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair;
  Kokkos::View<int, Mem> bad_rows;  ///< labels invalid for the objective
  static constexpr bool kPerTarget = Loss::kPerTarget;  ///< labels rows × n_groups

  /// Fills row i's pairs: one per target for the element-wise objectives (labels rows × targets,
  /// one output group per target, the row's weight on each as upstream's `weights[idx / n_targets]`),
  /// every class or quantile from the one label otherwise. Invalid labels are counted with an
  /// integer atomic (rare, and a count is order-free) rather than a Kokkos reduction:
  /// kernels/integer_sum.hpp says why kboost avoids parallel_reduce.
  KOKKOS_FORCEINLINE_FUNCTION void operator()(std::size_t i) const {
    if constexpr (kPerTarget) {
      for (int t = 0; t < n_groups; ++t)
        if (!row(i, t)) Kokkos::atomic_add(&bad_rows(), 1);
    } else {
      if (!row(i, 0)) Kokkos::atomic_add(&bad_rows(), 1);
    }
  }

  /// Asks for the table entries row i's loss will read (losses with `prefetch(margin)`: those of
  /// CUDA's special functions); nothing for the others.
  KOKKOS_FORCEINLINE_FUNCTION void prefetch(std::size_t i) const {
    if constexpr (!Loss::kWholeRow && has_prefetch<Loss>::value)
      for (int t = 0; t < n_groups; ++t) loss.prefetch(margin(i, t));
  }

  /// Row i's pairs of target t (0 for the objectives with one label per row); false when its
  /// label is invalid for the objective.
  KOKKOS_FORCEINLINE_FUNCTION bool row(std::size_t i, int t) const {
    float const w = weight.extent(0) == 0 ? 1.0f : weight(i);
    float const y = kPerTarget ? label(i * static_cast<std::size_t>(n_groups) + static_cast<std::size_t>(t)) : label(i);
    if constexpr (Loss::kWholeRow)
      return loss.row(margin, gpair, i, n_groups, y, w);
    else
      return loss(margin(i, t), y, w, gpair(t, i));
  }
};

#ifdef KBOOST_HOST_FMA
/// Rows [begin, end) of f compiled for x86-64 cores with FMA (compat.hpp's KBOOST_HOST_FMA).
/// Called only when the running core has FMA (launch_gradients). The loss's tables are asked for
/// kAhead rows ahead (GradientFunctor::prefetch).
template <class Functor>
__attribute__((target("fma"))) void gradient_rows_fma(Functor const& f, std::size_t begin, std::size_t end) {
  constexpr std::size_t kAhead = 16;
  for (std::size_t i = begin; i < end && i < begin + kAhead; ++i) f.prefetch(i);
  for (std::size_t i = begin; i < end; ++i) {
    if (i + kAhead < end) f.prefetch(i + kAhead);
    f(i);
  }
}
#endif

/// Runs functor f over rows [0, n).
template <class ExecutionSpace, class Functor>
void launch_gradients(ExecutionSpace const& space, std::size_t n, Functor const& f) {
#ifdef KBOOST_HOST_FMA
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    if (compat::host_has_fma()) {
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

/// Checks the shapes of one gradient computation: margin rows × groups, `labels_per_row` labels
/// per row (1, or groups for the multi-target objectives), weights rows or none, gpair groups ×
/// rows. \throws std::runtime_error("compute_gradients: shape mismatch ...").
template <class Mem>
void check_gradient_shapes(Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin,
                           Kokkos::View<const float*, Mem> label, Kokkos::View<const float*, Mem> weight,
                           Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair, std::size_t labels_per_row) {
  std::size_t const n = margin.extent(0);
  int const groups = static_cast<int>(margin.extent(1));
  if (label.extent(0) != n * labels_per_row || gpair.extent(1) != n || static_cast<int>(gpair.extent(0)) != groups ||
      (weight.extent(0) != 0 && weight.extent(0) != n)) {
    throw std::runtime_error("compute_gradients: shape mismatch (margin " + std::to_string(n) + "x" +
                             std::to_string(groups) + ", labels " + std::to_string(label.extent(0)) +
                             ", weights " + std::to_string(weight.extent(0)) + ")");
  }
}

/// `loss`'s gradients at `margin` (rows × groups) for labels (rows, or rows × groups for a
/// Loss::kPerTarget loss) and weights (rows or extent 0 = all 1) into `gpair` (groups × rows), on
/// `space`; shapes checked first. \throws std::runtime_error("<objective>: <Loss::kInvalidLabel>
/// (<count> labels)") when labels are outside the loss's domain (upstream's CheckLabel message).
template <class ExecutionSpace, class Mem, class Loss>
void loss_gradients(ExecutionSpace const& space, std::string const& objective, Loss const& loss,
                    Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin,
                    Kokkos::View<const float*, Mem> label, Kokkos::View<const float*, Mem> weight,
                    Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair) {
  std::size_t const n = margin.extent(0);
  int const groups = static_cast<int>(margin.extent(1));
  Kokkos::View<int, Mem> bad_rows("kboost::objective::bad_rows");
  detail::launch_gradients(space, n, detail::GradientFunctor<Loss, Mem>{loss, groups, margin, label, weight, gpair, bad_rows});
  int const bad = counted_to_host(bad_rows)();
  if (bad > 0)
    throw std::runtime_error(objective + ": " + Loss::kInvalidLabel + " (" + std::to_string(bad) + " labels)");
}

/// Copies gradient arrays (rows each) computed on the host into gpair's group 0.
template <class Mem>
void upload_single_output(std::vector<float> const& g, std::vector<float> const& h,
                          Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair) {
  auto hg = Kokkos::create_mirror_view(gpair);
  for (std::size_t i = 0; i < g.size(); ++i) hg(0, i) = GradientPair{g[i], h[i]};
  counted_deep_copy(gpair, hg);
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

}  // namespace kboost
