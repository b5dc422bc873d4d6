#pragma once
/// \file multiclass.hpp
/// multi:softprob and multi:softmax, as upstream XGBoost 3.2's SoftmaxMultiClassObj
/// (src/objective/multiclass_obj.cu): one output per class, the softmax gradients of a row's
/// margins, the intercepts from the class frequencies (multiclass.cpp).
#include <kboost/engine/objective/loss_family.hpp>

namespace kboost {

/// SoftmaxMultiClassObj::GetGradient. Not core/output_transform.hpp's softmax (common::Softmax):
/// upstream's gradient computes its own, seeding the maximum with FLT_MIN instead of the first
/// margin and recomputing expf per class. Sharing the prediction softmax would change the
/// gradients whenever every margin of a row is below FLT_MIN, so this variant stays.
struct SoftmaxLoss : DeviceLoss<ObjectiveKind::kSoftprob, true> {
  static constexpr char const* kInvalidLabel = "SoftmaxMultiClassObj: label must be in [0, num_class)";
  pmath::SpecialFunctions fn;
  explicit SoftmaxLoss(ObjectiveParams const& p) : fn(special_functions(p)) {}
  template <class Margin, class Pairs>
  KOKKOS_INLINE_FUNCTION bool row(Margin const& margin, Pairs const& gpair, std::size_t i, int n_groups, float y,
                                  float w) const {
    float wmax = 1.17549435e-38f;  // std::numeric_limits<float>::min()
    for (int k = 0; k < n_groups; ++k) wmax = margin(i, k) > wmax ? margin(i, k) : wmax;
    double wsum = 0.0;
    for (int k = 0; k < n_groups; ++k) wsum += fn.exp(margin(i, k) - wmax);
    float lab = y;
    bool const valid = !(lab < 0 || lab >= n_groups);
    if (!valid) lab = 0;
    for (int k = 0; k < n_groups; ++k) {
      float pk = fn.exp(margin(i, k) - wmax) / static_cast<float>(wsum);
      float const hh = 2.0f * pk * (1.0f - pk) * w;
      float const h = hh > 1e-16f ? hh : 1e-16f;
      pk = lab == static_cast<float>(k) ? pk - 1.0f : pk;
      gpair(k, i) = GradientPair{pk * w, h};
    }
    return valid;
  }
};

/// The multi:softprob / multi:softmax family (both kinds: the same gradients).
struct MulticlassObjective : LossFamily<SoftmaxLoss> {
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kSoftprob || k == ObjectiveKind::kSoftmax; }
  static Objective const& host();
};

}  // namespace kboost
