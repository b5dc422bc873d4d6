/// \file regression_loss.cpp
/// RegLossObj's host facts (upstream src/objective/regression_obj.cu RegLossObj: CheckLabel,
/// InitEstimation -> common::FitInterceptGlmLike or FitStump, DefaultEvalMetric, SaveConfig).
#include <kboost/engine/objective/regression_loss.hpp>

#include <kboost/core/output_transform.hpp>
#include <kboost/engine/objective/intercept.hpp>
#include <kboost/engine/objective/shared_facts.hpp>
#include <kboost/engine/params.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace kboost {
namespace {

/// Each loss's host facts beside its device functor.
template <class Loss>
struct HostFacts;

/// The pair at margin 0 of the losses that weight label-1 rows by scale_pos_weight.
template <>
struct HostFacts<SquaredErrorLoss> {
  static char const* label_problem(float) { return nullptr; }
  static void pair_at_zero(ObjectiveParams const& p, float label, float wi, float* g, float* h) {
    if (label == 1.0f) wi *= p.scale_pos_weight;
    *g = (0.0f - label) * wi;
    *h = 1.0f * wi;
  }
  static std::string metric(std::string const&) { return "rmse"; }
};

template <>
struct HostFacts<LogisticLoss> {
  static char const* label_problem(float y) { return y >= 0.0f && y <= 1.0f ? nullptr : "is outside [0, 1]"; }
  static void pair_at_zero(ObjectiveParams const& p, float label, float wi, float* g, float* h) {
    if (label == 1.0f) wi *= p.scale_pos_weight;
    float const pr = pmath::sigmoid(0.0f);
    float const hh = pr * (1.0f - pr);
    *g = (pr - label) * wi;
    *h = std::max(hh, 1e-16f) * wi;
  }
  static std::string metric(std::string const& name) { return name == "binary:logistic" ? "logloss" : "rmse"; }
};

template <>
struct HostFacts<LogitRawLoss> : HostFacts<LogisticLoss> {
  static std::string metric(std::string const&) { return "logloss"; }
};

template <>
struct HostFacts<GammaLoss> {
  static char const* label_problem(float y) { return y > 0.0f ? nullptr : "is not positive"; }
  static void pair_at_zero(ObjectiveParams const& p, float label, float wi, float* g, float* h) {
    if (label == 1.0f) wi *= p.scale_pos_weight;
    *g = (1.0f - label / 1.0f) * wi;
    *h = (label / 1.0f) * wi;
  }
  static std::string metric(std::string const&) { return "gamma-deviance"; }
};

/// SquaredLogError at margin 0 with the host's log1p (FitStump runs on the CPU upstream).
template <>
struct HostFacts<SquaredLogErrorLoss> {
  static char const* label_problem(float y) { return y > -1.0f ? nullptr : "is not greater than -1"; }
  static void pair_at_zero(ObjectiveParams const&, float label, float wi, float* g, float* h) {
    float const predt = 0.0f;
    float const gg = (std::log1p(predt) - std::log1p(label)) / (predt + 1);
    float const res = (-std::log1p(predt) + std::log1p(label) + 1) / ((predt + 1) * (predt + 1));
    *g = gg * wi;
    *h = std::max(res, 1e-6f) * wi;
  }
  static std::string metric(std::string const&) { return "rmsle"; }
};

/// RegLossObj<Loss>'s host facts: one output per label column, the loss's label check and
/// metric, the label mean or a Newton step as intercept, RegLossParam in the model file.
template <class Loss>
class RegLossFacts final : public detail::PerTargetFacts {
 public:
  void check_labels(ObjectiveParams const&, float const* labels, std::size_t n, LabelFailure const& fail) const override {
    for (std::size_t i = 0; i < n; ++i)
      if (char const* problem = HostFacts<Loss>::label_problem(labels[i])) fail(i, problem);
  }

  std::vector<float> intercept(ObjectiveParams const& p, std::vector<float> const& labels, std::vector<float> const& weights,
                               int, std::vector<std::uint32_t> const&) const override {
    auto const newton = [&] {
      return detail::newton_step_from_zero(labels, weights, [&p](float y, float w, float* g, float* h) {
        HostFacts<Loss>::pair_at_zero(p, y, w, g, h);
      });
    };
    // SquaredLogError has no GLM-like intercept: always the Newton step from 0 (FitStump)
    if constexpr (std::is_same_v<Loss, SquaredLogErrorLoss>) return {static_cast<float>(newton())};
    // FitInterceptGlmLike: the weighted label mean, unless scale_pos_weight reweighs the labels
    if (std::abs(p.scale_pos_weight - 1.0f) > 1e-6f) {
      float const leaf = static_cast<float>(newton());
      return {std::is_same_v<Loss, LogitRawLoss> ? leaf : pred_transform(Loss::kKind, leaf)};
    }
    return {static_cast<float>(detail::weighted_mean(labels, weights))};
  }

  std::string default_metric(ObjectiveParams const& p) const override { return HostFacts<Loss>::metric(p.objective); }

  ObjectiveConfig model_config(ObjectiveParams const& p) const override {
    if constexpr (std::is_same_v<Loss, SquaredLogErrorLoss>) return {p.objective, "", {}};
    return {p.objective, "reg_loss_param", {{"scale_pos_weight", param_float_string(p.scale_pos_weight)}}};
  }
};

}  // namespace

template <class Loss>
Objective const& RegLossObjective<Loss>::host() {
  return host_facts<RegLossFacts<Loss>>();
}

template struct RegLossObjective<SquaredErrorLoss>;
template struct RegLossObjective<LogisticLoss>;
template struct RegLossObjective<LogitRawLoss>;
template struct RegLossObjective<GammaLoss>;
template struct RegLossObjective<SquaredLogErrorLoss>;

}  // namespace kboost
