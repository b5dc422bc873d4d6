#pragma once
/// \file portable_math.hpp
/// Portable float transcendental functions that give the SAME BITS as glibc's expf/logf on x86-64
/// on every Kokkos backend (host, CUDA, HIP), plus upstream XGBoost's Sigmoid built on them.
///
/// Upstream (CPU) computes gradients and transforms with glibc's expf/logf. On x86-64 glibc >= 2.27
/// dispatches (ifunc) to the FMA build of sysdeps/ieee754/flt-32/e_expf.c / e_logf.c (ARM
/// optimized-routines algorithm) when the CPU has FMA+AVX2, i.e. on every machine kboost targets.
/// GCC contracts that build's a*b+c into FMAs; the exact contraction pattern was read from the
/// disassembly of Debian 12's libm (glibc 2.36) and is replicated here with explicit `fma` calls,
/// which are correctly rounded everywhere and unaffected by -ffp-contract=off / --fmad=false.
/// `detail::expf_nofma`/`logf_nofma` are the plain-C (pre-Haswell) variants, kept for the test.
/// errno is not set; results of the overflow/underflow paths equal glibc's return values.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace kboost::pmath {
namespace detail {

template <class To, class From>
KOKKOS_INLINE_FUNCTION To bit_cast(From const& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

/// Fused multiply-add a*b+c, one rounding (IEEE fma), on host and device.
KOKKOS_INLINE_FUNCTION double fma(double a, double b, double c) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return ::fma(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

/// The same in float (IEEE fmaf): the FMA nvcc contracts a float a*b+c into.
KOKKOS_INLINE_FUNCTION float fma(float a, float b, float c) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return ::fmaf(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

/// 2^(i/32) table of glibc's e_exp2f_data.c: tab[i] = asuint64(2^(i/32)) - (i << 47).
KOKKOS_INLINE_FUNCTION std::uint64_t exp2f_tab(unsigned i) {
  constexpr std::uint64_t tab[32] = {
      0x3ff0000000000000ull, 0x3fefd9b0d3158574ull, 0x3fefb5586cf9890full, 0x3fef9301d0125b51ull,
      0x3fef72b83c7d517bull, 0x3fef54873168b9aaull, 0x3fef387a6e756238ull, 0x3fef1e9df51fdee1ull,
      0x3fef06fe0a31b715ull, 0x3feef1a7373aa9cbull, 0x3feedea64c123422ull, 0x3feece086061892dull,
      0x3feebfdad5362a27ull, 0x3feeb42b569d4f82ull, 0x3feeab07dd485429ull, 0x3feea47eb03a5585ull,
      0x3feea09e667f3bcdull, 0x3fee9f75e8ec5f74ull, 0x3feea11473eb0187ull, 0x3feea589994cce13ull,
      0x3feeace5422aa0dbull, 0x3feeb737b0cdc5e5ull, 0x3feec49182a3f090ull, 0x3feed503b23e255dull,
      0x3feee89f995ad3adull, 0x3feeff76f2fb5e47ull, 0x3fef199bdd85529cull, 0x3fef3720dcef9069ull,
      0x3fef5818dcfba487ull, 0x3fef7c97337b9b5full, 0x3fefa4afa2a490daull, 0x3fefd0765b6e4540ull};
  return tab[i & 31u];
}

/// glibc e_logf_data.c: invc (near 1/c) and logc for the 16 subintervals of [OFF, 2*OFF].
KOKKOS_INLINE_FUNCTION void logf_tab(unsigned i, double& invc, double& logc) {
  constexpr double inv[16] = {0x1.661ec79f8f3bep+0, 0x1.571ed4aaf883dp+0, 0x1.49539f0f010bp+0,
                              0x1.3c995b0b80385p+0, 0x1.30d190c8864a5p+0, 0x1.25e227b0b8eap+0,
                              0x1.1bb4a4a1a343fp+0, 0x1.12358f08ae5bap+0, 0x1.0953f419900a7p+0,
                              0x1p+0,               0x1.e608cfd9a47acp-1, 0x1.ca4b31f026aap-1,
                              0x1.b2036576afce6p-1, 0x1.9c2d163a1aa2dp-1, 0x1.886e6037841edp-1,
                              0x1.767dcf5534862p-1};
  constexpr double lc[16] = {-0x1.57bf7808caadep-2, -0x1.2bef0a7c06ddbp-2, -0x1.01eae7f513a67p-2,
                             -0x1.b31d8a68224e9p-3, -0x1.6574f0ac07758p-3, -0x1.1aa2bc79c81p-3,
                             -0x1.a4e76ce8c0e5ep-4, -0x1.1973c5a611cccp-4, -0x1.252f438e10c1ep-5,
                             0x0p+0,                0x1.aa5aa5df25984p-5,  0x1.c5e53aa362eb4p-4,
                             0x1.526e57720db08p-3,  0x1.bc2860d22477p-3,   0x1.1058bc8a07ee1p-2,
                             0x1.4043057b6ee09p-2};
  invc = inv[i & 15u];
  logc = lc[i & 15u];
}

/// Special cases of expf shared by both variants; returns true (and sets `out`) when x is one.
KOKKOS_INLINE_FUNCTION bool expf_special(float x, float& out) {
  std::uint32_t const ux = bit_cast<std::uint32_t>(x);
  std::uint32_t const abstop = (ux >> 20) & 0x7ffu;
  if (abstop < 0x42au) return false;  // |x| < 88
  if (ux == 0xff800000u) { out = 0.0f; return true; }                       // -inf
  if (abstop >= 0x7f8u) { out = x + x; return true; }                        // +inf or nan
  if (x > 0x1.62e42ep6f) { out = bit_cast<float>(0x7f800000u); return true; }  // overflow: +inf
  if (x < -0x1.9fe368p6f) { out = 0.0f; return true; }                       // underflow: 0
  if (x < -0x1.9d1d9ep6f) {  // __math_may_uflowf(0): 0x1.4p-75f * 0x1.4p-75f rounded to float
    out = bit_cast<float>(0x00000001u);
    return true;
  }
  return false;
}

constexpr double kInvLn2N = 0x1.71547652b82fep+0 * 32;
constexpr double kShift = 0x1.8p+52;
constexpr double kExpC0 = 0x1.c6af84b912394p-5 / 32 / 32 / 32;
constexpr double kExpC1 = 0x1.ebfce50fac4f3p-3 / 32 / 32;
constexpr double kExpC2 = 0x1.62e42ff0c52d6p-1 / 32;
constexpr double kLn2 = 0x1.62e42fefa39efp-1;
constexpr double kLogA0 = -0x1.00ea348b88334p-2;
constexpr double kLogA1 = 0x1.5575b0be00b6ap-2;
constexpr double kLogA2 = -0x1.ffffef20a4123p-2;

/// glibc expf compiled without FMA (generic x86-64 build).
KOKKOS_INLINE_FUNCTION float expf_nofma(float x) {
  float special;
  if (expf_special(x, special)) return special;
  double const xd = static_cast<double>(x);
  double z = kInvLn2N * xd;
  double kd = z + kShift;
  std::uint64_t const ki = bit_cast<std::uint64_t>(kd);
  kd -= kShift;
  double const r = z - kd;
  std::uint64_t t = exp2f_tab(static_cast<unsigned>(ki % 32));
  t += ki << 47;
  double const s = bit_cast<double>(t);
  z = kExpC0 * r + kExpC1;
  double const r2 = r * r;
  double y = kExpC2 * r + 1;
  y = z * r2 + y;
  y = y * s;
  return static_cast<float>(y);
}

/// Shared argument reduction of logf; returns false (with `out`) for special inputs.
KOKKOS_INLINE_FUNCTION bool logf_reduce(float x, double& z, double& invc, double& logc, int& k, float& out) {
  std::uint32_t ix = bit_cast<std::uint32_t>(x);
  if (ix == 0x3f800000u) { out = 0.0f; return false; }
  if (ix - 0x00800000u >= 0x7f800000u - 0x00800000u) {
    if (ix * 2 == 0) { out = bit_cast<float>(0xff800000u); return false; }   // log(0) = -inf
    if (ix == 0x7f800000u) { out = x; return false; }                         // log(inf) = inf
    if ((ix & 0x80000000u) || ix * 2 >= 0xff000000u) {                       // x < 0 or nan
      out = (ix * 2 > 0xff000000u) ? x + x : bit_cast<float>(0x7fc00000u);
      return false;
    }
    ix = bit_cast<std::uint32_t>(x * 0x1p23f);  // subnormal: normalise
    ix -= 23u << 23;
  }
  constexpr std::uint32_t kOff = 0x3f330000u;
  std::uint32_t const tmp = ix - kOff;
  unsigned const i = (tmp >> (23 - 4)) % 16;
  k = static_cast<std::int32_t>(tmp) >> 23;
  std::uint32_t const iz = ix - (tmp & (0x1ffu << 23));
  logf_tab(i, invc, logc);
  z = static_cast<double>(bit_cast<float>(iz));
  return true;
}

/// glibc logf compiled without FMA.
KOKKOS_INLINE_FUNCTION float logf_nofma(float x) {
  double z, invc, logc;
  int k;
  float out;
  if (!logf_reduce(x, z, invc, logc, k, out)) return out;
  double const r = z * invc - 1;
  double const y0 = logc + static_cast<double>(k) * kLn2;
  double const r2 = r * r;
  double y = kLogA1 * r + kLogA2;
  y = kLogA0 * r2 + y;
  y = y * r2 + (y0 + r);
  return static_cast<float>(y);
}

}  // namespace detail

/// expf with the bits of glibc's x86-64 FMA build (libm __expf_fma). Device-safe.
KOKKOS_INLINE_FUNCTION float expf(float x) {
  float special;
  if (detail::expf_special(x, special)) return special;
  using detail::fma;
  double const xd = static_cast<double>(x);
  double const kd_shifted = fma(detail::kInvLn2N, xd, detail::kShift);
  std::uint64_t const ki = detail::bit_cast<std::uint64_t>(kd_shifted);
  double const kd = kd_shifted - detail::kShift;
  double const r = fma(detail::kInvLn2N, xd, -kd);
  std::uint64_t t = detail::exp2f_tab(static_cast<unsigned>(ki % 32));
  t += ki << 47;
  double const s = detail::bit_cast<double>(t);
  double const z = fma(detail::kExpC0, r, detail::kExpC1);
  double const r2 = r * r;
  double y = fma(detail::kExpC2, r, 1.0);
  y = fma(z, r2, y);
  y = y * s;
  return static_cast<float>(y);
}

/// logf with the bits of glibc's x86-64 FMA build (libm __logf_fma). Device-safe.
KOKKOS_INLINE_FUNCTION float logf(float x) {
  double z, invc, logc;
  int k;
  float out;
  if (!detail::logf_reduce(x, z, invc, logc, k, out)) return out;
  using detail::fma;
  double const y0 = fma(static_cast<double>(k), detail::kLn2, logc);
  double const r = fma(z, invc, -1.0);
  double y = fma(detail::kLogA1, r, detail::kLogA2);
  double const r2 = r * r;
  double const t = r + y0;
  y = fma(detail::kLogA0, r2, y);
  y = fma(y, r2, t);
  return static_cast<float>(y);
}

/// log(1 + x) in float from logf with Goldberg's correction (D. Goldberg, "What every computer
/// scientist should know about floating-point arithmetic", 1991, Theorem 4): x itself where 1 + x
/// rounds to 1, else logf(u) · x / (u − 1) with u = 1 + x, within 3 ulp of log1p. The same bits
/// on every backend (not glibc's log1pf bits). −inf at −1, NaN below −1 or for NaN, inf at inf.
KOKKOS_INLINE_FUNCTION float log1pf(float x) {
  float const u = 1.0f + x;
  if (u == 1.0f) return x;
  if (!(u > 0.0f) || u - u != 0.0f) return logf(u);  // u <= 0, NaN or inf
  return logf(u) * (x / (u - 1.0f));
}

/// Upstream common::Sigmoid(float) (src/common/math.h, v3.x): 1 / (expf(min(-x, 88.7)) + 1 + 1e-16f).
KOKKOS_INLINE_FUNCTION float sigmoid(float x) {
  float constexpr kEps = 1e-16f;
  float const nx = 88.7f < -x ? 88.7f : -x;  // std::min(-x, 88.7f): NaN stays NaN
  float const denom = pmath::expf(nx) + 1.0f + kEps;
  return 1.0f / denom;
}

}  // namespace kboost::pmath
