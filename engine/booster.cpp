/// \file booster.cpp
/// Non-template helpers of the Booster: evaluation-line formatting, early-stopping direction.
#include <kboost/engine/booster.hpp>

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace kboost {

bool metric_maximize(std::string const& name) {
  // upstream python-package/xgboost/callback.py EarlyStopping._update_rounds maximize_metrics
  static char const* const kMax[] = {"auc", "aucpr", "pre", "pre@", "map", "ndcg", "auc@", "aucpr@", "map@", "ndcg@"};
  for (char const* m : kMax) {
    std::string const p(m);
    if (p.back() == '@' ? name.rfind(p, 0) == 0 : name == p) return true;
  }
  return false;
}

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
