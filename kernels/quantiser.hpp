#pragma once
/// \file quantiser.hpp
/// Fixed-point gradients for exact, order-independent histogram sums, as upstream's GPU hist
/// (src/tree/gpu_hist/histogram.cu GradientQuantiser, src/common/deterministic.cuh
/// CreateRoundingFactor; v3.2: positive/negative sums in double; kboost's sums are exact fixed
/// point, so the factor is the same on any number of ranks).
#include <kboost/core/collective.hpp>
#include <kboost/core/compat.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/gradients.hpp>
#include <kboost/kernels/integer_sum.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

namespace kboost {

/// Quantised gradient pair (upstream GradientPairInt64).
struct GradientPairInt64 {
  std::int64_t grad = 0;
  std::int64_t hess = 0;
  KOKKOS_INLINE_FUNCTION GradientPairInt64& operator+=(GradientPairInt64 const& o) {
    grad += o.grad;
    hess += o.hess;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION GradientPairInt64& operator-=(GradientPairInt64 const& o) {
    grad -= o.grad;
    hess -= o.hess;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION friend GradientPairInt64 operator+(GradientPairInt64 a, GradientPairInt64 const& b) { return a += b; }
  KOKKOS_INLINE_FUNCTION friend GradientPairInt64 operator-(GradientPairInt64 a, GradientPairInt64 const& b) { return a -= b; }
  KOKKOS_INLINE_FUNCTION friend bool operator==(GradientPairInt64 const& a, GradientPairInt64 const& b) {
    return a.grad == b.grad && a.hess == b.hess;
  }
};

/// Scale factors between float gradients and int64 fixed point; [0] = grad, [1] = hess.
/// to_fixed = 2^62 / R, to_floating = R / 2^62, R a power of two >= the larger of the positive and
/// negative sums (so any partial sum fits in 63 bits).
struct GradientQuantiser {
  double to_fixed[2] = {1, 1};
  double to_floating[2] = {1, 1};

  /// Upstream 3.4.1 ToFixedPointImpl: int64(float × double), truncation toward zero; a positive
  /// hessian that truncates to 0 keeps one unit (its curvature survives).
  KOKKOS_INLINE_FUNCTION GradientPairInt64 to_fixed_point(GradientPair const& g) const {
    std::int64_t hess = static_cast<std::int64_t>(static_cast<double>(g.hess) * to_fixed[1]);
    if (g.hess > 0.0f && hess == 0) hess = 1;
    return GradientPairInt64{static_cast<std::int64_t>(static_cast<double>(g.grad) * to_fixed[0]), hess};
  }
  /// Upstream ToFloatingPoint: double(q) × to_floating.
  KOKKOS_INLINE_FUNCTION double grad_to_double(std::int64_t q) const { return static_cast<double>(q) * to_floating[0]; }
  KOKKOS_INLINE_FUNCTION double hess_to_double(std::int64_t q) const { return static_cast<double>(q) * to_floating[1]; }
};

/// Upstream common::CreateRoundingFactor<double>(max_abs, n): 2^ceil(log2(max_abs / (1 - 2 n eps))).
inline double create_rounding_factor(double max_abs, int n) {
  double const delta = max_abs / (1.0 - 2.0 * n * DBL_EPSILON);
  int exp = 0;
  std::frexp(delta, &exp);
  return std::ldexp(1.0, exp);
}

/// x > 0 ? x : 0 and x < 0 ? −x : 0 (NaN, ±0 → 0) with integer compares on the bits: the host
/// compiler vectorises a loop of these, while a float compare under -ftrapping-math (the default,
/// kept because kboost never relaxes IEEE semantics) is control flow to it.
KOKKOS_INLINE_FUNCTION float positive_part(float x) {
  std::uint32_t const u = pmath::detail::bit_cast<std::uint32_t>(x);
  std::uint32_t const keep = 0u - static_cast<std::uint32_t>(u - 1u < 0x7f800000u);  // (0, +inf]
  return pmath::detail::bit_cast<float>(u & keep);
}
KOKKOS_INLINE_FUNCTION float negative_magnitude(float x) {
  std::uint32_t const u = pmath::detail::bit_cast<std::uint32_t>(x);
  std::uint32_t const a = u & 0x7fffffffu;
  std::uint32_t const keep = 0u - ((u >> 31) & static_cast<std::uint32_t>(a - 1u < 0x7f800000u));  // [-inf, 0)
  return pmath::detail::bit_cast<float>(a & keep);
}

/// One pair's four sign parts max(g,0), max(h,0), |min(g,0)|, |min(h,0)|, in that order.
KOKKOS_INLINE_FUNCTION void sign_parts(GradientPair const& p, float (&part)[4]) {
  part[0] = positive_part(p.grad);
  part[1] = positive_part(p.hess);
  part[2] = negative_magnitude(p.grad);
  part[3] = negative_magnitude(p.hess);
}

/// Quantiser for one output group's gradients g (this process's rows of a job on `comm`): the
/// rounding factor of upstream's GradientQuantiser (src/tree/gpu_hist/quantiser.cu: a power of two
/// at or above the larger of Σmax(g,0) and Σ|min(g,0)|, and likewise for h, widened by the rounding
/// error of n additions) from sums that do not depend on the order of the rows, the backend, the
/// thread count or how the rows are spread over ranks. Upstream sums in double in thrust's order;
/// kboost sums exactly in fixed point instead: first the exact maxima M of the four parts over all
/// rows of all ranks (float bits compared as integers), then every part truncated to int64 units of
/// 2^e / 2^62, where 2^e > M × (rows of the job), so the job's total fits in 63 bits; the int64
/// totals are reduced exactly over ranks. A sum is then total × unit, short of the true sum by less
/// than (rows) units, a relative error below rows / 2^62 of the largest part.
template <class ExecutionSpace, class Mem>
GradientQuantiser make_quantiser(ExecutionSpace const& space, Kokkos::View<const GradientPair*, Mem> g,
                                 Collective& comm = local_collective()) {
  compat::ScopedRegion region("kboost::quantiser::make_quantiser");
  std::size_t const n = g.extent(0);
  std::int64_t const rows = comm.sum(static_cast<std::int64_t>(n));
  IntegerReduce<4, IntegerMaxOp, ExecutionSpace, Mem> maxima;
  auto const m = maxima(space, "kboost::quantiser::max_parts", n, KOKKOS_LAMBDA(std::size_t i, std::int64_t(&acc)[4]) {
    float part[4];
    sign_parts(g(i), part);
    for (int k = 0; k < 4; ++k) {
      std::int64_t const bits = pmath::detail::bit_cast<std::uint32_t>(part[k]);  // >= 0: bit order = value order
      acc[k] = bits > acc[k] ? bits : acc[k];
    }
  });
  std::uint64_t max_bits[4];
  for (int k = 0; k < 4; ++k) max_bits[k] = m[k] < 0 ? 0 : static_cast<std::uint64_t>(m[k]);
  comm.allreduce_max(max_bits, 4);
  double scale[4], unit[4];  // scale = 2^(62 - e) turns a part into units; unit = 2^(e - 62)
  for (int k = 0; k < 4; ++k) {
    float const mk = pmath::detail::bit_cast<float>(static_cast<std::uint32_t>(max_bits[k]));
    int e = 0;
    std::frexp(static_cast<double>(mk) * static_cast<double>(rows), &e);  // M × rows < 2^e
    scale[k] = mk > 0 ? std::ldexp(1.0, 62 - e) : 0.0;
    unit[k] = mk > 0 ? std::ldexp(1.0, e - 62) : 0.0;
  }
  double const s0 = scale[0], s1 = scale[1], s2 = scale[2], s3 = scale[3];
  IntegerSums<4, ExecutionSpace, Mem> sums;
  auto t = sums(space, "kboost::quantiser::sum_parts", n, KOKKOS_LAMBDA(std::size_t i, std::int64_t(&acc)[4]) {
    float part[4];
    sign_parts(g(i), part);
    acc[0] += static_cast<std::int64_t>(static_cast<double>(part[0]) * s0);
    acc[1] += static_cast<std::int64_t>(static_cast<double>(part[1]) * s1);
    acc[2] += static_cast<std::int64_t>(static_cast<double>(part[2]) * s2);
    acc[3] += static_cast<std::int64_t>(static_cast<double>(part[3]) * s3);
  });
  comm.allreduce_sum(t.data(), 4);
  double s[4];
  for (int k = 0; k < 4; ++k) s[k] = static_cast<double>(t[k]) * unit[k];
  GradientQuantiser q;
  for (int k = 0; k < 2; ++k) {
    double const r = create_rounding_factor(std::max(s[k], s[k + 2]), static_cast<int>(rows));
    q.to_floating[k] = r / static_cast<double>(std::int64_t(1) << 62);
    q.to_fixed[k] = 1.0 / q.to_floating[k];
  }
  return q;
}

/// out(i) = q.to_fixed_point(g(i)) for every row.
template <class ExecutionSpace, class Mem>
void quantise(ExecutionSpace const& space, GradientQuantiser const& q, Kokkos::View<const GradientPair*, Mem> g,
              Kokkos::View<GradientPairInt64*, Mem> out) {
  Kokkos::parallel_for("kboost::quantiser::quantise", Kokkos::RangePolicy<ExecutionSpace>(space, 0, g.extent(0)),
                       KOKKOS_LAMBDA(std::size_t i) { out(i) = q.to_fixed_point(g(i)); });
}

}  // namespace kboost
