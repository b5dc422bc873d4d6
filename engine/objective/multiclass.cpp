/// \file multiclass.cpp
/// SoftmaxMultiClassObj's host facts (upstream src/objective/multiclass_obj.cu: the label check,
/// MulticlassInitEstimation, DefaultEvalMetric, SaveConfig).
#include <kboost/engine/objective/multiclass.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace kboost {
namespace {

/// One output per class, labels that are classes, the intercepts from the class frequencies, its
/// metric and SoftmaxMultiClassParam.
class MulticlassFacts final : public Objective {
 public:
  ObjectiveCapabilities capabilities() const override {
    return ObjectiveCapabilities(ObjectiveCapabilities::Outputs::kClasses);
  }

  void check_labels(ObjectiveParams const& p, float const* labels, std::size_t n, LabelFailure const& fail) const override {
    if (p.num_class < 2) return;  // num_class is refused on its own
    for (std::size_t i = 0; i < n; ++i) {
      float const y = labels[i];
      if (!(y >= 0.0f && y < static_cast<float>(p.num_class) && std::floor(y) == y))
        fail(i, "is not a class in [0, num_class = " + std::to_string(p.num_class) + ")");
    }
  }

  std::vector<float> intercept(ObjectiveParams const&, std::vector<float> const& labels, std::vector<float> const& weights,
                               int n_groups, std::vector<std::uint32_t> const&) const override;

  std::string default_metric(ObjectiveParams const&) const override { return "mlogloss"; }

  ObjectiveConfig model_config(ObjectiveParams const& p) const override {
    return {p.objective, "softmax_multiclass_param", {{"num_class", std::to_string(p.num_class)}}};
  }
};

std::vector<float> MulticlassFacts::intercept(ObjectiveParams const&, std::vector<float> const& labels,
                                              std::vector<float> const& weights, int n_groups,
                                              std::vector<std::uint32_t> const&) const {
  // MulticlassInitEstimation: float histogram of (weighted) labels, divided by the double weight
  // sum, log(freq + kRtEps) in float, minus the mean (accumulated in double) in float.
  std::vector<float> hist(static_cast<std::size_t>(n_groups), 0.0f);
  double total = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    float const w = weights.empty() ? 1.0f : weights[i];
    int const c = static_cast<int>(labels[i]);
    if (c < 0 || c >= n_groups || static_cast<float>(c) != labels[i])
      throw std::runtime_error("base_score: label " + std::to_string(labels[i]) + " of row " + std::to_string(i + 1) +
                               " (1-based) is not a class in [0, num_class)");
    hist[static_cast<std::size_t>(c)] += w;
    total += w;
  }
  double mean = 0;
  for (auto& h : hist) {
    float const freq = static_cast<float>(h / total);
    h = pmath::logf(freq + 1e-6f);
    mean += h;
  }
  float const m = static_cast<float>(mean / n_groups);
  std::vector<float> out;
  for (float h : hist) out.push_back(h - m);
  return out;
}

}  // namespace

Objective const& MulticlassObjective::host() { return host_facts<MulticlassFacts>(); }

}  // namespace kboost
