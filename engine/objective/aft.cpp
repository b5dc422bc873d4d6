/// \file aft.cpp
/// AFTObj's host facts (upstream src/objective/aft_obj.cu: DefaultEvalMetric, SaveConfig; the
/// intercept is ObjFunction's default).
#include <kboost/engine/objective/aft.hpp>

#include <kboost/engine/params.hpp>

namespace kboost {

ObjectiveCapabilities AftObjective::capabilities() const {
  ObjectiveCapabilities c;
  c.label_bounds = true;
  c.estimates_intercept = false;
  c.single_rank_reason = "";
  return c;
}

std::vector<float> AftObjective::intercept(ObjectiveParams const&, std::vector<float> const&,
                                           std::vector<float> const&, int, std::vector<std::uint32_t> const&) const {
  return {0.5f};
}

std::string AftObjective::default_metric(ObjectiveParams const&) const { return "aft-nloglik"; }

ObjectiveConfig AftObjective::model_config(ObjectiveParams const& p) const {
  return {p.objective, "aft_loss_param",
          {{"aft_loss_distribution", p.aft_loss_distribution},
           {"aft_loss_distribution_scale", param_float_string(p.aft_loss_distribution_scale)}}};
}

}  // namespace kboost
