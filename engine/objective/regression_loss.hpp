#pragma once
/// \file regression_loss.hpp
/// reg:squarederror (reg:linear), reg:squaredlogerror, reg:logistic, binary:logistic,
/// binary:logitraw and reg:gamma: upstream XGBoost 3.2's RegLossObj<Loss> (src/objective/
/// regression_obj.cu) over the losses of src/objective/regression_loss.h (LinearSquareLoss,
/// SquaredLogError, LogisticClassification, LogisticRaw, GammaDeviance). The device losses are
/// here; the host facts (labels, intercept, metric, model-file parameters) in regression_loss.cpp.
#include <kboost/core/compat.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <Kokkos_Core.hpp>

#include <string>

namespace kboost {

/// What the RegLossObj losses share: one output per label column, one pair per element.
struct ElementWiseLoss {
  static constexpr bool kPerTarget = true;
  static constexpr bool kWholeRow = false;
};

/// LinearSquareLoss, rows with label 1 weighted by scale_pos_weight.
struct SquaredErrorLoss : ElementWiseLoss {
  static constexpr ObjectiveKind kKind = ObjectiveKind::kSquaredError;
  static constexpr char const* kInvalidLabel = "invalid label";
  float scale_pos_weight;
  explicit SquaredErrorLoss(ObjectiveParams const& p) : scale_pos_weight(p.scale_pos_weight) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float pr, float y, float w, GradientPair& out) const {
    if (y == 1.0f) w *= scale_pos_weight;
    out = GradientPair{(pr - y) * w, 1.0f * w};
    return true;
  }
};

/// LogisticClassification (reg:logistic, binary:logistic): the sigmoid of the margin against a label in [0, 1].
struct LogisticLoss : ElementWiseLoss {
  static constexpr ObjectiveKind kKind = ObjectiveKind::kLogistic;
  static constexpr char const* kInvalidLabel = "label must be in [0,1] for logistic regression";
  float scale_pos_weight;
  explicit LogisticLoss(ObjectiveParams const& p) : scale_pos_weight(p.scale_pos_weight) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float margin, float y, float w, GradientPair& out) const {
    if (y == 1.0f) w *= scale_pos_weight;
    float const pr = pmath::sigmoid(margin);
    float const h = pr * (1.0f - pr);
    out = GradientPair{(pr - y) * w, (h > 1e-16f ? h : 1e-16f) * w};
    return y >= 0.0f && y <= 1.0f;
  }
};

/// LogisticRaw (binary:logitraw): LogisticClassification's gradients, raw margins as outputs.
struct LogitRawLoss : LogisticLoss {
  static constexpr ObjectiveKind kKind = ObjectiveKind::kLogitRaw;
  using LogisticLoss::LogisticLoss;
};

/// GammaDeviance (3.x: RegLossObj<GammaDeviance>, so scale_pos_weight applies).
struct GammaLoss : ElementWiseLoss {
  static constexpr ObjectiveKind kKind = ObjectiveKind::kGamma;
  static constexpr char const* kInvalidLabel = "GammaRegression: label must be positive";
  float scale_pos_weight;
  explicit GammaLoss(ObjectiveParams const& p) : scale_pos_weight(p.scale_pos_weight) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float margin, float y, float w, GradientPair& out) const {
    if (y == 1.0f) w *= scale_pos_weight;
    float const pr = pmath::expf(margin);
    out = GradientPair{(1.0f - y / pr) * w, (y / pr) * w};
    return y > 0.0f;
  }
};

/// SquaredLogError: the prediction floored at -1 + 1e-6, the hessian's (p + 1)^2 in double
/// (std::pow promotes) and floored at 1e-6; log1p is kboost's portable one.
struct SquaredLogErrorLoss : ElementWiseLoss {
  static constexpr ObjectiveKind kKind = ObjectiveKind::kSquaredLogError;
  static constexpr char const* kInvalidLabel =
      "label must be greater than -1 for rmsle so that log(label + 1) can be valid.";
  explicit SquaredLogErrorLoss(ObjectiveParams const&) {}
  KOKKOS_INLINE_FUNCTION bool operator()(float margin, float y, float w, GradientPair& out) const {
    float const floor = static_cast<float>(-1 + 1e-6);
    float const pr = margin > floor ? margin : floor;  // fmaxf: NaN takes the floor too
    float const lp = pmath::log1pf(pr), ly = pmath::log1pf(y);
    float const g = (lp - ly) / (pr + 1);
    double const p1 = static_cast<double>(pr + 1);
    float const h = static_cast<float>(static_cast<double>(-lp + ly + 1) / (p1 * p1));
    out = GradientPair{g * w, (h > 1e-6f ? h : 1e-6f) * w};
    return y > -1.0f;
  }
};

/// RegLossObj<Loss>: the family of one loss above.
template <class Loss>
class RegLossObjective final : public Objective {
 public:
  static bool handles(ObjectiveKind k) { return k == Loss::kKind; }

  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const& space, ObjectiveParams const& p, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    check_gradient_shapes(in.margin, in.label, in.weight, gpair, in.margin.extent(1));
    loss_gradients(space, p.objective, Loss(p), in.margin, in.label, in.weight, gpair);
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
