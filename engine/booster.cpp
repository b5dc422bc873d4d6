/// \file booster.cpp
/// Non-template helpers of the Booster: evaluation-line formatting, early-stopping direction,
/// Python-style float text, TrainParams -> GrowParams.
#include <kboost/engine/booster.hpp>

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace kboost {

std::string python_float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  // Shortest round-trip digits, then Python's repr layout: fixed for 1e-4 <= |v| < 1e16, else d.ddde±XX.
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string s(buf, res.ptr);
  bool const neg = s[0] == '-';
  if (neg) s.erase(0, 1);
  auto const epos = s.find('e');
  std::string mant = s.substr(0, epos);
  int const exp = std::atoi(s.c_str() + epos + 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  std::string out;
  if (exp >= -5 && exp < 16) {  // Python repr: scientific when exp < -4 or exp >= 16
    if (exp < -4) {
      // falls through to scientific below
    } else if (exp < 0) {
      out = "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
    } else if (static_cast<int>(digits.size()) <= exp + 1) {
      out = digits + std::string(static_cast<std::size_t>(exp + 1 - static_cast<int>(digits.size())), '0') + ".0";
    } else {
      out = digits.substr(0, exp + 1) + "." + digits.substr(exp + 1);
    }
  }
  if (out.empty()) {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    out += e;
  }
  return neg ? "-" + out : out;
}

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
