/// \file params.cpp
/// TrainParams from key/value strings (the table in detail/param_table.cpp), cross-parameter checks,
/// and the objective's part of the model file.
#include <kboost/engine/params.hpp>

#include <kboost/engine/detail/nearest_name.hpp>
#include <kboost/engine/detail/param_table.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <sstream>
#include <stdexcept>
#include <utility>

namespace kboost {

std::vector<ParamDoc> train_param_docs() {
  TrainParams defaults;
  std::vector<ParamDoc> docs;
  for (auto& entry : detail::param_table(defaults)) docs.push_back(std::move(entry.doc));
  return docs;
}

TrainParams parse_params(std::map<std::string, std::string> const& kv) {
  TrainParams p;
  auto const table = detail::param_table(p);
  std::map<std::string, detail::ParamSetter const*> setters;
  for (auto const& entry : table) {
    setters[entry.doc.name] = &entry.set;
    for (auto const& alias : entry.doc.aliases) setters[alias] = &entry.set;
  }
  for (auto const& [key, value] : kv) {
    auto it = setters.find(key);
    if (it == setters.end()) {
      std::vector<std::string> known;
      for (auto const& [name, set] : setters) known.push_back(name);
      throw std::runtime_error("unknown parameter '" + key + "'" + detail::did_you_mean(key, known));
    }
    (*it->second)(key, detail::trim_blanks(value));
  }
  // cross-parameter checks
  if (p.booster != "dart")
    for (auto const& [key, value] : kv)
      for (char const* dart_key : {"rate_drop", "skip_drop", "one_drop", "sample_type", "normalize_type"})
        if (key == dart_key)
          throw std::runtime_error("parameter " + key + " = " + detail::trim_blanks(value) + " applies to booster = dart only (booster = " +
                                   p.booster + ")");
  ObjectiveKind const kind = objective_kind(p.objective);
  auto const outputs = objective_family(kind).capabilities().outputs;
  if (outputs == ObjectiveCapabilities::Outputs::kClasses && p.num_class < 2)
    throw std::runtime_error("parameter num_class = " + std::to_string(p.num_class) + ": " + p.objective +
                             " needs num_class >= 2");
  if (outputs == ObjectiveCapabilities::Outputs::kQuantiles && p.quantile_alpha.empty())
    throw std::runtime_error("parameter objective = reg:quantileerror needs quantile_alpha (e.g. 0.5 or [0.1,0.5,0.9])");
  if (p.grow_policy == "depthwise" && p.max_depth == 0 && p.max_leaves == 0)
    throw std::runtime_error("parameter max_depth = 0: depthwise growth needs max_depth > 0 or max_leaves > 0");
  if (kind == ObjectiveKind::kPoisson && !p.max_delta_step_set) p.max_delta_step = 0.7f;
  return p;
}

ObjectiveParams objective_params(TrainParams const& p) {
  ObjectiveParams o = p;
  o.poisson_max_delta_step = p.max_delta_step_set ? p.max_delta_step : 0.7f;
  return o;
}

std::string quantile_alpha_string(std::vector<float> const& alpha) {
  std::string s = "[";
  for (std::size_t i = 0; i < alpha.size(); ++i) s += (i ? "," : "") + upstream_float_string(alpha[i]);
  return s + "]";
}

ObjectiveConfig objective_config(TrainParams const& p, ObjectiveParams const& obj) {
  (void)p;
  return objective_family(obj.objective).model_config(obj);
}

}  // namespace kboost
