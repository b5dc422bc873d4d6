// core/cuda_math.hpp: the host's table product for 2^(k / 2^23) (detail::exp2_grid, the grid of
// CUDA's ex2.approx model) rounds to the float of the polynomial the device evaluates
// (detail::exp2_rounded) for every k < 2^23, so both give CUDA's expf the same bits.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>

#include <kboost/core/cuda_math.hpp>

TEST_CASE("cuda math " TEST_BACKEND ": the host's exp2 grid equals the polynomial on every k", "[pmath]") {
  using kboost::pmath::detail::bit_cast;
  namespace cd = kboost::pmath::cuda::detail;
  std::uint32_t bad = 0, first = 0;
  for (std::uint32_t k = 0; k < (1u << 23); ++k) {
    std::uint32_t const table = bit_cast<std::uint32_t>(cd::exp2_grid(k));
    std::uint32_t const poly = bit_cast<std::uint32_t>(cd::exp2_rounded(static_cast<float>(k) * 0x1p-23f));
    if (table != poly && bad++ == 0) first = k;
  }
  INFO(bad << " of 2^23 differ, the first at k = " << first);
  CHECK(bad == 0);
  CHECK(bit_cast<std::uint32_t>(cd::exp2_grid(0)) == 0x3f800000u);  // 2^0
  CHECK(bit_cast<std::uint32_t>(cd::exp2_grid(1u << 22)) == bit_cast<std::uint32_t>(1.41421356f));  // 2^(1/2)
}
