#pragma once
/// \file synthetic_counter.hpp
/// Counter-based random numbers for the benchmarks' synthetic data: every value comes from its own
/// counter, so the data do not depend on thread counts or on the order rows are made in.
#include <cmath>
#include <cstdint>

namespace kboost::perf {

inline std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Uniform in [0, 1) from a counter (53 bits).
inline double uniform(std::uint64_t counter) { return static_cast<double>(splitmix(counter) >> 11) / 9007199254740992.0; }

/// Standard normal from a counter (Box-Muller on two 53-bit uniforms).
inline double normal(std::uint64_t counter) {
  double const u1 = (static_cast<double>(splitmix(2 * counter) >> 11) + 1.0) / 9007199254740993.0;
  double const u2 = uniform(2 * counter + 1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace kboost::perf
