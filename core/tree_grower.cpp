/// \file tree_grower.cpp
/// Non-template parts of the tree grower (phase-time summary).
#include "core/tree_grower.hpp"

#include <cstdio>

namespace kboost {

std::string PhaseTimes::summary() const {
  struct Row {
    char const* name;
    double s;
  };
  Row const rows[] = {{"cuts", cuts},           {"binning", binning}, {"gradients", gradients},
                      {"histograms", histograms}, {"splits", splits},   {"partition", partition},
                      {"leaves", leaves},         {"eval", eval},
                      {"tune", tune}};
  double total = 0;
  for (auto const& r : rows) total += r.s;
  std::string out = "phase times (s):\n";
  char buf[96];
  for (auto const& r : rows) {
    std::snprintf(buf, sizeof buf, "  %-11s %9.4f  %5.1f %%\n", r.name, r.s, total > 0 ? 100.0 * r.s / total : 0.0);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "  %-11s %9.4f\n", "total", total);
  out += buf;
  return out;
}

}  // namespace kboost
