/// \file phase_times.cpp
/// The phase-time summary printed at the end of a training log.
#include <kboost/engine/phase_times.hpp>

#include <cstdio>

namespace kboost {

std::string PhaseTimes::summary() const {
  struct Row {
    char const* name;
    double s;
  };
  Row const rows[] = {{"upload", upload},       {"cuts", cuts},           {"binning", binning}, {"gradients", gradients},
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
  // Host-device copies (0 on host backends, where nothing crosses a bus).
  double const per_level = levels > 0 ? 1.0 / static_cast<double>(levels) : 0.0;
  char line[256];
  std::snprintf(line, sizeof line,
                "host-device copies: tree growth %lld uploads + %lld downloads over %lld levels of %lld trees "
                "(%.1f + %.1f per level); whole fit %lld + %lld\n",
                static_cast<long long>(grow_copies.uploads), static_cast<long long>(grow_copies.downloads),
                static_cast<long long>(levels), static_cast<long long>(trees), grow_copies.uploads * per_level,
                grow_copies.downloads * per_level, static_cast<long long>(fit_copies.uploads),
                static_cast<long long>(fit_copies.downloads));
  out += line;
  auto const mib = [](std::int64_t b) { return static_cast<double>(b) / (1024.0 * 1024.0); };
  if (ranks > 1) {
    std::snprintf(line, sizeof line,
                  "communication: %d ranks; histogram allreduce %.4f s (of the histogram time) in %lld calls, "
                  "%.1f MiB per rank (%.3f MiB per level)\n",
                  ranks, comm, static_cast<long long>(comm_calls), mib(comm_bytes), mib(comm_bytes) * per_level);
    out += line;
  }
  std::snprintf(line, sizeof line,
                "peak memory: %.1f MiB device + %.1f MiB host in the fit's Kokkos allocations; process peak "
                "resident set %.1f MiB\n",
                mib(memory.device), mib(memory.host), mib(memory.process_rss));
  out += line;
  return out;
}

}  // namespace kboost
