#pragma once
namespace kboost {
/// kboost's version string (CMake project version).
char const* version();
}  // namespace kboost
