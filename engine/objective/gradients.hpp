#pragma once
/// \file gradients.hpp
/// Training gradients of any registered objective (engine/objective/families.hpp) on an execution
/// space: the family of the objective's kind computes them (a device loss through
/// kernels/gradients.hpp, or host sums for survival:cox, survival:aft and rank:*).
#include <kboost/core/compat.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/engine/objective/families.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>

#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>

namespace kboost {
namespace detail {

template <class ExecutionSpace, class Mem, class... Families>
void family_gradients(FamilyList<Families...>, ObjectiveKind kind, ExecutionSpace const& space,
                      ObjectiveParams const& params, GradientInputs<Mem> const& in, GradientPairs<Mem> gpair) {
  bool const found = ((Families::handles(kind) ? (Families::gradients(space, params, in, gpair), true) : false) || ...);
  if (!found) throw std::runtime_error("objective " + params.objective + ": no training gradients in kboost");
}

}  // namespace detail

/// One round's gradients of objective params.objective into `gpair` (groups × rows) from `in`
/// (engine/objective/gradient_inputs.hpp), by the objective's family.
/// \throws std::runtime_error for a name that is not a training objective, mismatched shapes,
/// labels outside the objective's domain (upstream's CheckLabel message), or inputs the objective
/// needs and `in` lacks (survival:aft's bounds, rank:*'s query groups).
template <class ExecutionSpace, class Mem>
void objective_gradients(ExecutionSpace const& space, ObjectiveParams const& params, GradientInputs<Mem> const& in,
                         GradientPairs<Mem> gpair) {
  compat::ScopedRegion region("kboost::objective::compute_gradients");
  detail::family_gradients(ObjectiveFamilies{}, objective_kind(params.objective), space, params, in, gpair);
}

/// Gradients of `objective` at `margin` (rows × groups, raw scores) for labels (rows; rows ×
/// groups, row-major, for the multi-target objectives, one group per target) and weights (rows, or
/// extent 0 = all 1) into `gpair` (groups × rows). Sample weights and scale_pos_weight (rows with
/// label == 1, reg:squarederror/reg:logistic/binary:*/reg:gamma) scale both components as upstream.
/// Throws std::runtime_error when a label is outside the objective's domain (upstream's CheckLabel
/// message) or when the objective has no training gradients in kboost (hinge), needs query groups
/// (rank:*: lambdarank_gradients) or label bounds (survival:aft: aft_gradients). survival:cox's
/// risk-set sums run on the host. reg:quantileerror needs one quantile_alpha per group.
template <class ExecutionSpace, class Mem>
void compute_gradients(ExecutionSpace const& space, ObjectiveParams const& params,
                       Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin,
                       Kokkos::View<const float*, Mem> label, Kokkos::View<const float*, Mem> weight,
                       Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair) {
  GradientInputs<Mem> in;
  in.margin = margin;
  in.label = label;
  in.weight = weight;
  objective_gradients(space, params, in, gpair);
}

}  // namespace kboost
