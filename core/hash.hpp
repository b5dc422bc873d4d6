#pragma once
/// \file hash.hpp
/// The project's one FNV-1a (64-bit) and 64-bit mixer, for fingerprints (tune store keys, forest
/// and data digests), never for anything that decides a model's bits.
#include <cstddef>
#include <cstdint>

namespace kboost {

/// FNV-1a's 64-bit offset basis: the hash of no bytes.
constexpr std::uint64_t kFnv1aBasis = 14695981039346656037ull;

/// FNV-1a 64 over `n` bytes at `p`, continuing from `h` (kFnv1aBasis to start).
inline std::uint64_t fnv1a(void const* p, std::size_t n, std::uint64_t h = kFnv1aBasis) {
  auto const* b = static_cast<unsigned char const*>(p);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

/// splitmix64's finaliser: a cheap full-avalanche mix of 64 bits.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// splitmix64's output for counter x (Steele, Lea and Flood 2014): the golden-ratio increment, then
/// mix64. The tests' and benchmarks' synthetic values, the same on every machine and backend.
inline std::uint64_t splitmix64(std::uint64_t x) { return mix64(x + 0x9e3779b97f4a7c15ull); }

}  // namespace kboost
