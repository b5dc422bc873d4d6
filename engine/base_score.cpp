/// \file base_score.cpp
/// The objective-independent part of the intercept and the label check: sizes, the split of a
/// multi-target label matrix into columns, the message naming file and row; the objective's own
/// part is its family's (engine/objective/).
#include <kboost/engine/base_score.hpp>

#include <kboost/engine/objective/objective.hpp>

#include <sstream>
#include <stdexcept>
#include <string>

namespace kboost {

void check_labels(ObjectiveParams const& params, float const* labels, std::size_t n, std::string const& source,
                  std::size_t first_row, std::size_t n_targets) {
  Objective const& objective = objective_family(params.objective);
  auto fail = [&](std::size_t i, std::string const& need) {
    std::ostringstream v;
    v << labels[i];
    std::string const target = n_targets > 1 ? " (target " + std::to_string(i % n_targets) + ")" : "";
    throw std::runtime_error((source.empty() ? std::string("training data") : source) + ": label " + v.str() + target +
                             " of row " + std::to_string(first_row + i / n_targets + 1) + " (1-based) " + need +
                             ", which " + params.objective + " requires");
  };
  objective.check_labels(params, labels, n, fail);
}

std::vector<float> estimate_base_score(ObjectiveParams const& params, std::vector<float> const& labels,
                                       std::vector<float> const& weights, int n_groups,
                                       std::vector<std::uint32_t> const& group_ptr) {
  if (labels.empty()) throw std::runtime_error("base_score: no labels to estimate the intercept from");
  Objective const& objective = objective_family(params.objective);
  bool const multi_target = objective.capabilities().outputs == ObjectiveCapabilities::Outputs::kTargets;
  if (multi_target && n_groups > 1) {  // one intercept per label column, as upstream's per-target loops
    std::size_t const targets = static_cast<std::size_t>(n_groups), rows = labels.size() / targets;
    if (rows * targets != labels.size())
      throw std::runtime_error("base_score: " + std::to_string(labels.size()) + " labels are not rows × " +
                               std::to_string(targets) + " targets");
    std::vector<float> out, column(rows);
    for (std::size_t t = 0; t < targets; ++t) {
      for (std::size_t i = 0; i < rows; ++i) column[i] = labels[i * targets + t];
      out.push_back(estimate_base_score(params, column, weights, 1).at(0));
    }
    return out;
  }
  if (!weights.empty() && weights.size() != labels.size())
    throw std::runtime_error("base_score: " + std::to_string(weights.size()) + " weights for " +
                             std::to_string(labels.size()) + " labels");
  return objective.intercept(params, labels, weights, n_groups, group_ptr);
}

}  // namespace kboost
