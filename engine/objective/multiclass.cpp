/// \file multiclass.cpp
/// SoftmaxMultiClassObj's host facts (upstream src/objective/multiclass_obj.cu: the label check,
/// MulticlassInitEstimation, DefaultEvalMetric, SaveConfig).
#include <kboost/engine/objective/multiclass.hpp>

#include <kboost/core/cuda_math.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace kboost {
namespace {

/// cub::DeviceReduce::Sum of n floats in one tile (n <= 256: one value per thread): each warp's
/// shuffle tree (lane i adds lane i + d for d = 1, 2, 4, 8, 16 where that lane holds a value), then
/// the warps' sums in warp order. Above 256 values each thread first adds its strided values.
float cub_block_sum(std::vector<float> const& v) {
  constexpr std::size_t kThreads = 256, kWarp = 32;
  std::vector<float> lane(std::min(v.size(), kThreads));
  for (std::size_t i = 0; i < v.size(); ++i) lane[i % kThreads] = i < kThreads ? v[i] : lane[i % kThreads] + v[i];
  float total = 0;
  for (std::size_t w = 0; w < lane.size(); w += kWarp) {
    std::size_t const valid = std::min(kWarp, lane.size() - w);
    for (std::size_t d = 1; d < kWarp; d *= 2)
      for (std::size_t i = 0; i + d < valid; i += 2 * d) lane[w + i] += lane[w + i + d];
    total = w == 0 ? lane[w] : total + lane[w];
  }
  return total;
}

/// MulticlassInitEstimation as upstream 3.4.1's device=cuda build computes it from the class
/// weights `hist` and their sum: VecScaDiv (each times 1 / total, in double), LogE (CUDA's logf of
/// freq + kRtEps), common::Mean (cub's sum of v / n in float), each minus the mean.
std::vector<float> centred_log_frequencies_gpu(std::vector<float> hist, double total) {
  double const inv_total = 1.0 / total;
  float const n = static_cast<float>(hist.size());
  std::vector<float> scaled;
  for (auto& h : hist) {
    h = pmath::cuda::logf(static_cast<float>(h * inv_total) + 1e-6f);
    scaled.push_back(h / n);
  }
  float const mean = cub_block_sum(scaled);
  for (auto& h : hist) h -= mean;
  return hist;
}

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

std::vector<float> MulticlassFacts::intercept(ObjectiveParams const& p, std::vector<float> const& labels,
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
  if (p.math_functions == "upstream_gpu") return centred_log_frequencies_gpu(hist, total);
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
