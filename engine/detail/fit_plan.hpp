#pragma once
/// \file fit_plan.hpp
/// The host stages of BasicBooster::train that need no execution space: validating a fit against
/// the objective's capabilities (upstream's Learner::Configure / ValidateDMatrix /
/// ObjFunction::Validate refusals, plus kboost's distributed ones), the job's intercept
/// (upstream's LearnerImpl::InitBaseScore / ObjFunction::InitEstimation) and the model header
/// (upstream's LearnerModelParam).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <kboost/core/collective.hpp>
#include <kboost/core/dmatrix.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/engine/objective/objective.hpp>
#include <kboost/engine/params.hpp>

namespace kboost::detail {

/// Named evaluation sets of a fit, scored after every round.
using EvalSetList = std::vector<std::pair<std::string, HostDMatrix>>;

/// What a validated fit is: its objective, what the objective can do, and the fit's shape.
struct FitPlan {
  ObjectiveParams obj;
  ObjectiveKind kind{};
  ObjectiveCapabilities caps;
  int n_groups = 1;                      ///< outputs, i.e. trees per round
  std::vector<std::uint8_t> categorical; ///< per feature: 1 categorical (engine/categories.hpp)
  bool continuing = false;               ///< the fit continues a model (BasicBooster::continue_from)
  bool custom_gradients = false;         ///< the caller's objective supplies the gradients

  bool classes() const { return caps.outputs == ObjectiveCapabilities::Outputs::kClasses; }
};

/// The query groups of `d` as row offsets (n_groups + 1; empty when it has none).
std::vector<std::uint32_t> group_offsets(HostDMatrix const& d);

/// Checks a fit before anything is uploaded: labels (or interval labels) on every set, widths and
/// label columns of the eval sets, the objective's capabilities (outputs, row weights, query
/// groups, several ranks), sketch method and categorical features, and whether `start` (the model
/// a fit continues from; nullptr: none) can be continued. Every check runs on every rank
/// (core/collective.hpp run_on_all_ranks), so on several ranks any refusal is one AgreedError
/// raised on all of them; on one rank the refusal itself.
/// \throws std::runtime_error (one rank) or AgreedError (several) naming the parameter, set or tree.
FitPlan validate_fit(TrainParams const& p, HostDMatrix const& dtrain, EvalSetList const& evals, Collective& comm,
                     Model const* start, bool custom_gradients);

/// Whether `m` can be continued by a fit with these objective parameters, outputs and width.
/// \throws std::runtime_error "train: cannot continue the model: <why>".
void check_continuable(Model const& m, ObjectiveParams const& obj, int n_groups, std::size_t n_features);

/// Refuses to continue model `m` on data whose feature names differ from the model's (both named):
/// upstream's Booster._validate_features check, so old trees never read reordered columns.
/// \throws std::runtime_error naming the first differing feature.
void check_continued_feature_names(Model const& m, std::vector<std::string> const& names);

/// The fit's intercepts in output space (one per output, or one for all): the continued model's,
/// the given base_score, upstream's default 0.5, or the objective's estimate over the job's labels
/// (every rank's shard gathered in rank order, estimated on rank 0, broadcast).
std::vector<float> fit_base_score(TrainParams const& p, FitPlan const& plan, HostDMatrix const& dtrain,
                                  Model const& start, Collective& comm);

/// The intercepts as margins (one per output): upstream's ObjFunction::ProbToMargin.
std::vector<float> base_margins(FitPlan const& plan, std::vector<float> const& base_score);

/// A new model's header (everything but its trees) for a fit of `plan` on `dtrain`; when
/// continuing, `start`'s trees, tree info, attributes and (when dtrain has none) feature names and
/// types are moved in.
Model model_header(TrainParams const& p, FitPlan const& plan, HostDMatrix const& dtrain,
                   std::vector<float> const& base_score, Model&& start);

}  // namespace kboost::detail
