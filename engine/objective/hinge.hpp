#pragma once
/// \file hinge.hpp
/// binary:hinge, as upstream XGBoost 3.2's HingeObj (src/objective/hinge.cu): kboost reads and
/// predicts it (core/objective.cpp) but does not train it; objective_kind() refuses the name first.
#include <kboost/core/objective.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <stdexcept>

namespace kboost {

/// The binary:hinge family (prediction only; host facts in hinge.cpp).
struct HingeObjective {
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kHinge; }

  /// \throws std::runtime_error always: no training gradients in kboost.
  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const&, ObjectiveParams const& p, GradientInputs<Mem> const&, GradientPairs<Mem>) {
    throw std::runtime_error("objective " + p.objective + ": training is not supported by kboost");
  }

  static Objective const& host();
};

}  // namespace kboost
