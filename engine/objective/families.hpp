#pragma once
/// \file families.hpp
/// The objective registry: every objective family kboost trains (or, for binary:hinge, knows),
/// each a unit of this folder. Adding an objective: its name, output transform and margin link in
/// core/objective.cpp (what prediction needs), its unit here (the family: a device loss with
/// LossFamily, loss_family.hpp, or `handles` and host `gradients`; its host facts, an Objective,
/// and `host()` in the unit's .cpp), and one line in ObjectiveFamilies.
#include <kboost/engine/objective/absolute_error.hpp>
#include <kboost/engine/objective/aft.hpp>
#include <kboost/engine/objective/cox.hpp>
#include <kboost/engine/objective/hinge.hpp>
#include <kboost/engine/objective/lambdarank.hpp>
#include <kboost/engine/objective/multiclass.hpp>
#include <kboost/engine/objective/poisson.hpp>
#include <kboost/engine/objective/pseudo_huber.hpp>
#include <kboost/engine/objective/quantile.hpp>
#include <kboost/engine/objective/regression_loss.hpp>
#include <kboost/engine/objective/tweedie.hpp>

namespace kboost {

/// A list of objective families (types), searched in order for the one that handles a kind.
template <class... Families>
struct FamilyList {};

/// The registry (upstream's XGBOOST_REGISTER_OBJECTIVE entries of src/objective/*).
using ObjectiveFamilies =
    FamilyList<RegLossObjective<SquaredErrorLoss>, RegLossObjective<SquaredLogErrorLoss>,
               RegLossObjective<LogisticLoss>, RegLossObjective<LogitRawLoss>, RegLossObjective<GammaLoss>,
               PseudoHuberObjective, PoissonObjective, TweedieObjective, AbsoluteErrorObjective, QuantileObjective,
               MulticlassObjective, CoxObjective, AftObjective, LambdaRankObjective, HingeObjective>;

}  // namespace kboost
