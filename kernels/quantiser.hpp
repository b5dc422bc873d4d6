#pragma once
/// \file quantiser.hpp
/// Fixed-point gradients for exact, order-independent histogram sums, as upstream's GPU hist
/// (src/tree/gpu_hist/histogram.cu GradientQuantiser, src/common/deterministic.cuh
/// CreateRoundingFactor; v3.2: positive/negative sums in double).
#include <kboost/core/compat.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/gradients.hpp>

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

  /// Upstream ToFixedPoint: int64(float × double), truncation toward zero.
  KOKKOS_INLINE_FUNCTION GradientPairInt64 to_fixed_point(GradientPair const& g) const {
    return GradientPairInt64{static_cast<std::int64_t>(static_cast<double>(g.grad) * to_fixed[0]),
                             static_cast<std::int64_t>(static_cast<double>(g.hess) * to_fixed[1])};
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

/// Adds one pair's positive and negative parts to a lane's four sums (Σmax(g,0), Σmax(h,0),
/// Σ|min(g,0)|, Σ|min(h,0)|), in that order, each in double.
KOKKOS_INLINE_FUNCTION void add_sign_parts(GradientPair const& p, double& pg, double& ph, double& ng, double& nh) {
  pg += positive_part(p.grad);
  ph += positive_part(p.hess);
  ng += negative_magnitude(p.grad);
  nh += negative_magnitude(p.hess);
}

/// Lanes of the fixed-order sums in make_quantiser (independent of backend and threads).
constexpr std::size_t kQuantiserLanes = 4096, kQuantiserFold = 64;

/// Quantiser for one output group's gradients g (rows): sums Σmax(g,0), Σmax(h,0), Σ|min(g,0)|,
/// Σ|min(h,0)| in double in a fixed order: lane t (of 4096) adds rows t, t + 4096, ... in sequence
/// (consecutive lanes read consecutive rows: coalesced on GPUs), fold u (of 64) adds lanes u, u + 64,
/// ... in sequence, the host adds the 64 folds in index order; then upstream's rounding factor per
/// component (upstream GradientQuantiser, src/tree/gpu_hist/quantiser.cu, whose own reduction order
/// is thrust's).
template <class ExecutionSpace, class Mem>
GradientQuantiser make_quantiser(ExecutionSpace const& space, Kokkos::View<const GradientPair*, Mem> g) {
  compat::ScopedRegion region("kboost::quantiser::make_quantiser");
  std::size_t const n = g.extent(0);
  constexpr std::size_t L = kQuantiserLanes, F = kQuantiserFold;
  Kokkos::View<double* [4], Mem> lane(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::quantiser::lane"), L);
  Kokkos::View<double* [4], Mem> fold(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::quantiser::fold"), F);
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    // The same lane sums, 64 lanes at a time: a core reads its lanes' rows contiguously and the
    // lanes' independent chains vectorise; each lane still adds its rows in increasing order.
    constexpr std::size_t B = 64;
    Kokkos::parallel_for("kboost::quantiser::lane_block_sums", Kokkos::RangePolicy<ExecutionSpace>(space, 0, L / B),
                         KOKKOS_LAMBDA(std::size_t blk) {
                           double pg[B] = {}, ph[B] = {}, ng[B] = {}, nh[B] = {};
                           std::size_t const t0 = blk * B;
                           for (std::size_t base = t0; base < n; base += L) {
                             std::size_t const m = n - base < B ? n - base : B;
                             GradientPair const* row = &g(base);
                             for (std::size_t j = 0; j < m; ++j) add_sign_parts(row[j], pg[j], ph[j], ng[j], nh[j]);
                           }
                           for (std::size_t j = 0; j < B; ++j) {
                             lane(t0 + j, 0) = pg[j];
                             lane(t0 + j, 1) = ph[j];
                             lane(t0 + j, 2) = ng[j];
                             lane(t0 + j, 3) = nh[j];
                           }
                         });
  } else {
    Kokkos::parallel_for("kboost::quantiser::lane_sums", Kokkos::RangePolicy<ExecutionSpace>(space, 0, L),
                         KOKKOS_LAMBDA(std::size_t t) {
                           double pg = 0, ph = 0, ng = 0, nh = 0;
                           for (std::size_t i = t; i < n; i += L) add_sign_parts(g(i), pg, ph, ng, nh);
                           lane(t, 0) = pg;
                           lane(t, 1) = ph;
                           lane(t, 2) = ng;
                           lane(t, 3) = nh;
                         });
  }
  Kokkos::parallel_for("kboost::quantiser::fold_sums", Kokkos::RangePolicy<ExecutionSpace>(space, 0, F),
                       KOKKOS_LAMBDA(std::size_t u) {
                         double acc[4] = {0, 0, 0, 0};
                         for (std::size_t t = u; t < L; t += F)
                           for (int k = 0; k < 4; ++k) acc[k] += lane(t, k);
                         for (int k = 0; k < 4; ++k) fold(u, k) = acc[k];
                       });
  auto hp = counted_to_host(fold);
  double s[4] = {0, 0, 0, 0};
  for (std::size_t u = 0; u < F; ++u)
    for (int k = 0; k < 4; ++k) s[k] += hp(u, k);
  GradientQuantiser q;
  for (int k = 0; k < 2; ++k) {
    double const r = create_rounding_factor(std::max(s[k], s[k + 2]), static_cast<int>(n));
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
