/// \file booster.cpp
/// Non-template helpers of the Booster: evaluation-line formatting,
/// TrainParams -> GrowParams.
#include <kboost/engine/booster.hpp>

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace kboost {

std::string format_eval_line(int round, EvalRound const& r) {
  std::string out = "[" + std::to_string(round) + "]";
  char buf[64];
  for (auto const& [data, metric, value] : r) {
    std::snprintf(buf, sizeof buf, "%.5f", value);
    out += "\t" + data + "-" + metric + ":" + buf;
  }
  return out;
}

}  // namespace kboost

namespace kboost {

GrowParams grow_params(TrainParams const& p) {
  GrowParams g;
  g.split.lambda = p.lambda;
  g.split.alpha = p.alpha;
  g.split.max_delta_step = p.max_delta_step;
  g.split.min_child_weight = p.min_child_weight;
  g.split.gamma = p.gamma;
  g.split.max_cat_to_onehot = p.max_cat_to_onehot;
  g.split.max_cat_threshold = p.max_cat_threshold;
  g.eta = p.eta;
  g.max_depth = p.max_depth;
  g.max_leaves = p.max_leaves;
  g.lossguide = p.grow_policy == "lossguide";
  g.colsample_bylevel = p.colsample_bylevel;
  g.colsample_bynode = p.colsample_bynode;
  g.seed = p.seed;
  g.min_shared = p.min_shared;
  g.tile_rows = p.tile_rows;
  g.monotone = p.monotone_constraints;
  g.interaction = p.interaction_constraints;
  return g;
}

}  // namespace kboost
