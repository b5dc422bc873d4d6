/// \file lambdarank.cpp
/// LambdaRankObj's host facts (upstream src/objective/lambdarank_obj.cc: DefaultEvalMetric,
/// DefaultMetricConfig, SaveConfig; src/objective/init_estimation.cc FitIntercept).
#include <kboost/engine/objective/lambdarank.hpp>

#include <kboost/engine/objective/intercept.hpp>
#include <kboost/engine/params.hpp>

namespace kboost {
namespace {

/// Query groups without row weights, one output on one rank, a Newton step from 0 as intercept,
/// its metric truncated at its k, LambdaRankParam.
class LambdaRankFacts final : public Objective {
 public:
  ObjectiveCapabilities capabilities() const override {
    return ObjectiveCapabilities(ObjectiveCapabilities::Outputs::kOne, " (its pairs run over whole query groups)",
                                 ObjectiveCapabilities::Labels::kQueryGroups);
  }

  std::vector<float> intercept(ObjectiveParams const& p, std::vector<float> const& labels, std::vector<float> const& weights,
                               int, std::vector<std::uint32_t> const& group_ptr) const override {
    // FitIntercept: a Newton step from margin 0 (identity transform)
    if (!weights.empty()) throw std::runtime_error("base_score: " + p.objective + " takes no row weights");
    std::vector<float> const zero(labels.size(), 0.0f);
    std::vector<float> g(labels.size()), h(labels.size());
    detail::lambdarank_gradients(p, zero.data(), labels.data(), labels.size(), group_ptr, {}, 0, g.data(), h.data());
    return {static_cast<float>(detail::newton_step(g, h))};
  }

  std::string default_metric(ObjectiveParams const& p) const override {
    return p.objective == "rank:map" ? "map" : "ndcg";
  }

  std::string configured_metric(ObjectiveParams const& p) const override {
    // topk truncates the metric at the objective's k, as upstream's RankEvalMetric names it
    std::string const base = default_metric(p);
    if (p.lambdarank_pair_method == "mean") return base;
    return base + "@" + std::to_string(detail::lambdarank_num_pair(p));
  }

  std::size_t default_metric_k(ObjectiveParams const& p) const override {
    // mean hands ndcg its own parameters (every position counted); rank:map hands its metric none
    bool const untruncated = p.lambdarank_pair_method == "mean" && p.objective != "rank:map";
    return untruncated ? static_cast<std::size_t>(-1) : 32;
  }

  ObjectiveConfig model_config(ObjectiveParams const& p) const override;
};

ObjectiveConfig LambdaRankFacts::model_config(ObjectiveParams const& p) const {
  // ltr::LambdaRankParam; an unset pair count is upstream's NotSet (uint32 max)
  auto const flag = [](bool b) { return std::string(b ? "1" : "0"); };
  return {p.objective,
          "lambdarank_param",
          {{"lambdarank_bias_norm", param_float_string(p.lambdarank_bias_norm)},
           {"lambdarank_normalization", flag(p.lambdarank_normalization)},
           {"lambdarank_num_pair_per_sample", p.lambdarank_num_pair_per_sample > 0
                                                  ? std::to_string(p.lambdarank_num_pair_per_sample)
                                                  : std::string("4294967295")},
           {"lambdarank_pair_method", p.lambdarank_pair_method},
           {"lambdarank_score_normalization", flag(p.lambdarank_score_normalization)},
           {"lambdarank_unbiased", "0"},
           {"ndcg_exp_gain", flag(p.ndcg_exp_gain)}}};
}

}  // namespace

Objective const& LambdaRankObjective::host() { return host_facts<LambdaRankFacts>(); }

}  // namespace kboost
