#pragma once
/// \file multiclass.hpp
/// multi:softprob and multi:softmax, as upstream XGBoost 3.2's SoftmaxMultiClassObj
/// (src/objective/multiclass_obj.cu): one output per class, the softmax gradients of a row's
/// margins, the intercepts from the class frequencies.
#include <kboost/core/objective.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <Kokkos_Core.hpp>

namespace kboost {

/// SoftmaxMultiClassObj::GetGradient. Not core/output_transform.hpp's softmax (common::Softmax):
/// upstream's gradient computes its own, seeding the maximum with FLT_MIN instead of the first
/// margin and recomputing expf per class. Sharing the prediction softmax would change the
/// gradients whenever every margin of a row is below FLT_MIN, so this variant stays.
struct SoftmaxLoss {
  static constexpr bool kPerTarget = false;
  static constexpr bool kWholeRow = true;
  static constexpr char const* kInvalidLabel = "SoftmaxMultiClassObj: label must be in [0, num_class)";
  template <class Margin, class Pairs>
  KOKKOS_INLINE_FUNCTION bool row(Margin const& margin, Pairs const& gpair, std::size_t i, int n_groups, float y,
                                  float w) const {
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
};

/// The multi:softprob / multi:softmax family.
class MulticlassObjective final : public Objective {
 public:
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kSoftprob || k == ObjectiveKind::kSoftmax; }

  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const& space, ObjectiveParams const& p, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    check_gradient_shapes(in.margin, in.label, in.weight, gpair, 1);
    loss_gradients(space, p.objective, SoftmaxLoss{}, in.margin, in.label, in.weight, gpair);
  }

  ObjectiveCapabilities capabilities() const override;
  void check_labels(ObjectiveParams const& p, float const* labels, std::size_t n,
                    LabelFailure const& fail) const override;
  std::vector<float> intercept(ObjectiveParams const& p, std::vector<float> const& labels,
                               std::vector<float> const& weights, int n_groups,
                               std::vector<std::uint32_t> const& group_ptr) const override;
  std::string default_metric(ObjectiveParams const& p) const override;
  ObjectiveConfig model_config(ObjectiveParams const& p) const override;
};

}  // namespace kboost
