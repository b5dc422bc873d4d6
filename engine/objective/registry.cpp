/// \file registry.cpp
/// objective_family: the registry's host side, the host facts (one stateless instance) of each
/// family of ObjectiveFamilies; the Objective defaults.
#include <kboost/engine/objective/families.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <stdexcept>
#include <string>

namespace kboost {
namespace {

template <class... Families>
Objective const* find_family(FamilyList<Families...>, ObjectiveKind kind) {
  Objective const* found = nullptr;
  (void)((Families::handles(kind) ? (found = &Families::host(), true) : false) || ...);
  return found;
}

}  // namespace

Objective const& objective_family(ObjectiveKind kind) {
  Objective const* f = find_family(ObjectiveFamilies{}, kind);
  if (f == nullptr)
    throw std::logic_error("objective registry: no family for kind " + std::to_string(static_cast<int>(kind)));
  return *f;
}

Objective const& objective_family(std::string const& name) { return objective_family(objective_kind(name)); }

int objective_outputs(ObjectiveParams const& p, std::size_t n_targets) {
  switch (objective_family(p.objective).capabilities().outputs) {
    case ObjectiveCapabilities::Outputs::kClasses: return p.num_class;
    case ObjectiveCapabilities::Outputs::kQuantiles: return static_cast<int>(p.quantile_alpha.size());
    case ObjectiveCapabilities::Outputs::kTargets: return static_cast<int>(n_targets);
    case ObjectiveCapabilities::Outputs::kOne: break;
  }
  return 1;
}

void Objective::check_labels(ObjectiveParams const&, float const*, std::size_t, LabelFailure const&) const {}

double Objective::leaf_quantile(ObjectiveParams const&, int) const { return 0.5; }

std::size_t Objective::default_metric_k(ObjectiveParams const&) const { return 32; }

ObjectiveConfig Objective::model_config(ObjectiveParams const& p) const { return {p.objective, "", {}}; }

}  // namespace kboost
