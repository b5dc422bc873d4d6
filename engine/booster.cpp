/// \file booster.cpp
/// Non-template helpers of the Booster: evaluation-line formatting.
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
