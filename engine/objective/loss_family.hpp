#pragma once
/// \file loss_family.hpp
/// What the objective families whose gradients are one device loss share (upstream XGBoost 3.2's
/// element-wise objectives: src/objective/regression_obj.cu, multiclass_obj.cu): the traits the
/// gradient kernel (kernels/gradients.hpp) reads from a loss, and the family's `handles` and
/// `gradients`, so that such a family's unit holds its loss's arithmetic and its host facts only.
#include <kboost/core/cuda_math.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <utility>

namespace kboost {

/// The special functions (CUDA's or glibc's) a loss computes with, from kboost_math_functions;
/// LossFamily::gradients points `ex2_table` at the copy its execution space reads.
inline pmath::SpecialFunctions special_functions(ObjectiveParams const& p) {
  return pmath::SpecialFunctions{p.math_functions == "upstream_gpu", nullptr};
}

namespace detail {
template <class Loss, class = void>
struct HasSpecialFunctions : std::false_type {};
template <class Loss>
struct HasSpecialFunctions<Loss, std::void_t<decltype(std::declval<Loss&>().fn)>> : std::true_type {};
}  // namespace detail

/// Loss(p), its special functions' table in the memory `space` reads.
template <class Loss, class ExecutionSpace>
Loss make_loss(ExecutionSpace const& space, ObjectiveParams const& p) {
  Loss loss(p);
  if constexpr (detail::HasSpecialFunctions<Loss>::value)
    if (loss.fn.cuda_build) loss.fn.ex2_table = pmath::cuda::ex2_table(space);
  return loss;
}

/// The traits of a device loss of objective kind K. WholeRow false: one output per label column
/// (labels rows × targets), the loss's operator()(margin, label, weight, pair) gives one element's
/// pair; true: one label per row, the loss's row(margin, gpair, i, n_groups, label, weight) fills
/// every output of the row (classes, quantiles). Either returns false on a label it refuses, which
/// kInvalidLabel then names (upstream's CheckLabel text; a loss that refuses labels names its own).
template <ObjectiveKind K, bool WholeRow = false>
struct DeviceLoss {
  static constexpr ObjectiveKind kKind = K;
  static constexpr bool kPerTarget = !WholeRow;
  static constexpr bool kWholeRow = WholeRow;
  static constexpr char const* kInvalidLabel = "invalid label";
};

/// The device half of a family whose gradients are one Loss (a DeviceLoss constructed from the
/// ObjectiveParams): it handles the loss's kind and computes the loss's gradients with
/// kernels/gradients.hpp. The family adds `host()`, its host facts.
template <class Loss>
struct LossFamily {
  static bool handles(ObjectiveKind k) { return k == Loss::kKind; }

  /// \throws std::runtime_error on mismatched shapes or labels outside the loss's domain.
  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const& space, ObjectiveParams const& p, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    check_gradient_shapes(in.margin, in.label, in.weight, gpair, Loss::kPerTarget ? in.margin.extent(1) : 1);
    loss_gradients(space, p.objective, make_loss<Loss>(space, p), in.margin, in.label, in.weight, gpair);
  }
};

}  // namespace kboost
