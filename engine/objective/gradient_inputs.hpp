#pragma once
/// \file gradient_inputs.hpp
/// What one round's gradients of any objective read: the margins and labels on the execution
/// space, and what only some objectives take (survival:aft's interval labels, rank:*'s query groups
/// and round). Each family's `gradients` (engine/objective/<family>.hpp) takes these.
#include <kboost/kernels/gradients.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace kboost {

/// Gradient pairs, groups × rows.
template <class Mem>
using GradientPairs = Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem>;

/// Inputs of one round's gradients.
template <class Mem>
struct GradientInputs {
  Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin;  ///< rows × groups, raw scores
  Kokkos::View<const float*, Mem> label;   ///< rows, or rows × groups for multi-target objectives
  Kokkos::View<const float*, Mem> weight;  ///< rows, or extent 0 = all 1
  /// survival:aft: the interval labels and the weights, on the host; has_bounds false: not given.
  bool has_bounds = false;
  Kokkos::View<const float*, Kokkos::HostSpace> lower, upper, host_weight;
  /// rank:*: query groups (n_groups + 1 row offsets; empty = one group); nullptr: not given.
  std::vector<std::uint32_t> const* group_ptr = nullptr;
  std::uint32_t iteration = 0;  ///< the boosting round (rank:*'s pair draws)
};

}  // namespace kboost
