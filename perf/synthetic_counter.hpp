#pragma once
/// \file synthetic_counter.hpp
/// Counter-based random numbers for the benchmarks' synthetic data: every value comes from its own
/// counter, so the data do not depend on thread counts or on the order rows are made in.
#include <cmath>
#include <cstdint>

#include <kboost/core/hash.hpp>

namespace kboost::perf {

/// Uniform in [0, 1) from a counter (53 bits).
inline double uniform(std::uint64_t counter) { return static_cast<double>(kboost::splitmix64(counter) >> 11) / 9007199254740992.0; }

/// Standard normal from a counter (Box-Muller on two 53-bit uniforms).
inline double normal(std::uint64_t counter) {
  double const u1 = (static_cast<double>(kboost::splitmix64(2 * counter) >> 11) + 1.0) / 9007199254740993.0;
  double const u2 = uniform(2 * counter + 1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace kboost::perf
