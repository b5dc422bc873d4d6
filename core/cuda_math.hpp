#pragma once
/// \file cuda_math.hpp
/// Portable float special functions that give the SAME BITS as CUDA's device `expf`/`logf`
/// (CUDA 13, default flags: no fast math, FMA contraction on) on an sm_90 GPU (H100, H200), on
/// every Kokkos backend, plus upstream XGBoost's Sigmoid as nvcc compiles it. The GPU build of
/// upstream XGBoost computes its gradients and intercepts with these; `portable_math.hpp` holds the
/// glibc ones (its CPU build).
///
/// CUDA's expf (libdevice `__nv_expf`, read from nvcc's PTX): `j = sat(fma(x, log2e/252, 0.5))`,
/// `k = fma.rm(j, 252, 0x1.800002p+23)` (its low bits hold the integer part `n + 127`),
/// `t = k - 0x1.8000fep+23`, `f = fma(x, log2e_lo, fma(x, log2e_hi, -t))`, then the special-function
/// unit's `ex2.approx.ftz(f)` times `2^t` (the bits of `k` shifted left by 23). The unit is not
/// correctly rounded (docs/fidelity.md); `detail::ex2_approx` reproduces it from a table captured
/// on the GPU (core/cuda_ex2_table.hpp) for the arguments expf gives it, f in (-2^-15, 2), i.e. for
/// every x whose expf is at least 2^-126;
/// below (x < -87.3) kboost rounds 2^f correctly instead, which may differ in the last bit of a
/// subnormal result. CUDA's logf is an `fma.rn` polynomial (no special-function unit) and is
/// replicated as is. Every `fma` below is an explicit, correctly rounded call: unaffected by
/// -ffp-contract=off or --fmad=false, the same on host and device.
#include <kboost/core/compat.hpp>
#include <kboost/core/cuda_ex2_table.hpp>
#include <kboost/core/portable_math.hpp>

#include <cstdint>

namespace kboost::pmath::cuda {
namespace detail {

using pmath::detail::bit_cast;
using pmath::detail::fma;

/// The NaN NVIDIA GPUs produce (any NaN operand or invalid operation).
KOKKOS_INLINE_FUNCTION float canonical_nan() { return bit_cast<float>(std::uint32_t(0x7fffffffu)); }

/// 2^f in double for |f| < 1022 (|error| ~1 ulp of double): 2^n times a degree-13 polynomial in
/// r = f − n, n the nearest integer (explicit fma: the same bits everywhere).
KOKKOS_INLINE_FUNCTION double exp2_double(double fd) {
  constexpr double kShift = 0x1.8p52;  // adding and removing it rounds to the nearest integer
  double const shifted = fd + kShift;
  double const n = shifted - kShift;
  double const r = fd - n;  // exact, |r| <= 0.5
  // 2^r = sum (ln 2)^k / k! r^k, k = 0..13 (Horner, one rounding per step).
  constexpr double c[14] = {0x1p+0,
                            0x1.62e42fefa39efp-1,
                            0x1.ebfbdff82c58fp-3,
                            0x1.c6b08d704a0c0p-5,
                            0x1.3b2ab6fba4e77p-7,
                            0x1.5d87fe78a6731p-10,
                            0x1.430912f86c787p-13,
                            0x1.ffcbfc588b0c7p-17,
                            0x1.62c0223a5c824p-20,
                            0x1.b5253d395e7c4p-24,
                            0x1.e4cf5158b8ecap-28,
                            0x1.e8cac7351bb25p-32,
                            0x1.c3bd650fc2986p-36,
                            0x1.816193166d0f9p-40};
  double p = c[13];
  for (int k = 12; k >= 0; --k) p = fma(p, r, c[k]);
  auto const biased = static_cast<std::uint64_t>(static_cast<std::int64_t>(n) + 1023);
  return p * bit_cast<double>(biased << 52);
}

/// 2^f for a float f, evaluated in double (exp2_double) and rounded to float, with a result below
/// 2^-126 flushed to +0: equal to 2^f correctly rounded on every float in [-200, 200] (checked
/// exhaustively against glibc's double exp2).
KOKKOS_INLINE_FUNCTION float exp2_rounded(float f) {
  if (!(f == f)) return f;
  if (f >= 128.0f) return bit_cast<float>(0x7f800000u);
  if (f < -127.0f) return 0.0f;
  float const out = static_cast<float>(exp2_double(static_cast<double>(f)));
  return out < 0x1p-126f ? 0.0f : out;
}

/// 2^(a / 2^8), 2^(b / 2^16) and 2^(c / 2^23) in double (exp2_double) for a, b < 256, c < 128:
/// 2^(k / 2^23) is the product of the three entries of k's bit fields.
struct Exp2GridTables {
  double high[256], mid[256], low[128];
  Exp2GridTables() {
    for (int i = 0; i < 256; ++i) high[i] = exp2_double(static_cast<double>(i) * 0x1p-8);
    for (int i = 0; i < 256; ++i) mid[i] = exp2_double(static_cast<double>(i) * 0x1p-16);
    for (int i = 0; i < 128; ++i) low[i] = exp2_double(static_cast<double>(i) * 0x1p-23);
  }
};

#ifdef KBOOST_HOST_PASS
/// The host's tables, made on first use (thread-safe).
inline Exp2GridTables const& exp2_grid_tables() {
  static Exp2GridTables const tables;
  return tables;
}
#endif

/// 2^(k / 2^23) correctly rounded to float for k < 2^23: exp2_rounded(k · 2^-23). Host code
/// multiplies three table entries in double instead of evaluating the polynomial, which rounds to
/// the same float for every k (tests/host: all 2^23 of them); device code evaluates it.
KOKKOS_INLINE_FUNCTION float exp2_grid(std::uint32_t k) {
#ifdef KBOOST_HOST_PASS
  Exp2GridTables const& t = exp2_grid_tables();
  return static_cast<float>((t.high[k >> 15] * t.mid[(k >> 7) & 255u]) * t.low[k & 127u]);
#else
  return exp2_rounded(static_cast<float>(k) * 0x1p-23f);
#endif
}

/// The sm_90 unit's ex2.approx.ftz(f) from the packed table `table` (core/cuda_ex2_table.hpp) for
/// f in (-2^-15, 2); 2^f correctly rounded elsewhere.
KOKKOS_INLINE_FUNCTION float ex2_approx(float f, std::uint8_t const* table) {
  if (f >= 0.0f && f < 2.0f) {
    bool const high = f >= 1.0f;
    float const g = high ? f - 1.0f : f;                        // exact
    auto const k = static_cast<std::uint32_t>(g * 0x1p23f);   // floor(g 2^23), the product exact
    std::uint32_t const code = (table[k >> 2] >> (2 * (k & 3u))) & 3u;
    std::uint32_t const grid = bit_cast<std::uint32_t>(exp2_grid(k));
    float const y = bit_cast<float>(grid + code - 1u);
    return high ? 2.0f * y : y;
  }
  if (f < 0.0f && f > -0x1p-15f) {
    // entries 0..255 of the unit's table of -k / 2^23: bit k set where it gives one less than
    // 2^(-k / 2^23) correctly rounded, else equal (perf/upstream_gpu/pack_ex2_table.py)
    constexpr std::uint32_t negative[8] = {0xBFFDFFEEu, 0xDEFEF7F7u, 0x6F7F7BFFu, 0xB7BFFDEFu,
                                           0xDFDFFEF7u, 0xEF6F7F7Bu, 0xF7B7BDFDu, 0x5BDFDEFEu};
    auto const k = static_cast<std::uint32_t>(-f * 0x1p23f);  // < 256
    std::uint32_t const below = (negative[k >> 5] >> (k & 31u)) & 1u;
    std::uint32_t const grid = bit_cast<std::uint32_t>(exp2_rounded(-static_cast<float>(k) * 0x1p-23f));
    return bit_cast<float>(grid - below);
  }
  return exp2_rounded(f);
}

/// The two factors of CUDA's expf(x): `mantissa` = ex2.approx.ftz of the reduced argument,
/// `scale` = 2^t with t in [-126, 126]. expf(x) is their product, rounded once; nvcc fuses that
/// product into a following addition where the source adds to expf's result (the same bits: the
/// product by a power of two is exact unless subnormal).
struct ExpParts {
  float mantissa;
  float scale;
};

/// CUDA expf's reduction of x: the argument `f` of ex2.approx and `k`, whose bits shifted left by
/// 23 are the scale 2^t.
struct ExpReduction {
  float f;
  float k;
};

KOKKOS_INLINE_FUNCTION ExpReduction reduce_exp(float x) {
  float j = fma(x, bit_cast<float>(0x3BBB989Du), 0.5f);  // log2(e) / 252
  j = j > 0.0f ? (j < 1.0f ? j : 1.0f) : 0.0f;           // cvt.sat: NaN -> 0
  // fma.rm(j, 252, 0x1.800002p+23): every float in [2^23, 2^24) is an integer, so rounding down
  // keeps the integer part of j * 252 (exact in double).
  double const whole = static_cast<double>(static_cast<std::int64_t>(static_cast<double>(j) * 252.0));
  float const k = static_cast<float>(12582913.0 + whole);
  float const t = k - 12583039.0f;
  float f = fma(x, bit_cast<float>(0x3FB8AA3Bu), -t);  // log2(e), high part
  f = fma(x, bit_cast<float>(0x32A57060u), f);         // log2(e), low part
  return {f, k};
}

KOKKOS_INLINE_FUNCTION ExpParts exp_parts(float x, std::uint8_t const* table) {
  ExpReduction const r = reduce_exp(x);
  return {ex2_approx(r.f, table), bit_cast<float>(bit_cast<std::uint32_t>(r.k) << 23)};
}

/// The byte of `table` that expf(x) reads (ex2_approx's packed entry), null where it reads none.
KOKKOS_INLINE_FUNCTION std::uint8_t const* ex2_table_byte(float x, std::uint8_t const* table) {
  float const f = reduce_exp(x).f;
  if (!(f >= 0.0f && f < 2.0f)) return nullptr;
  float const g = f >= 1.0f ? f - 1.0f : f;
  return table + (static_cast<std::uint32_t>(g * 0x1p23f) >> 2);
}

}  // namespace detail

/// CUDA's device expf(x) on sm_90; `table`: cuda::ex2_table(space) of the space it runs on.
/// NaN gives the GPU's canonical NaN.
KOKKOS_INLINE_FUNCTION float expf(float x, std::uint8_t const* table) {
  if (!(x == x)) return detail::canonical_nan();
  detail::ExpParts const e = detail::exp_parts(x, table);
  return e.mantissa * e.scale;
}

/// CUDA's device logf(x) (libdevice `__nv_logf`): exponent and mantissa in [2/3, 4/3) split by
/// integer arithmetic, a degree-9 `fma` polynomial in m - 1, plus exponent * ln 2. Device-safe.
KOKKOS_INLINE_FUNCTION float logf(float x) {
  using detail::bit_cast;
  using pmath::detail::fma;
  bool const subnormal = x < 0x1p-126f;
  float const xs = subnormal ? x * 0x1p23f : x;
  float const e0 = subnormal ? -23.0f : 0.0f;
  std::uint32_t const bits = bit_cast<std::uint32_t>(xs);
  std::uint32_t const expo_bits = (bits - 0x3F2AAAABu) & 0xFF800000u;
  float const m = bit_cast<float>(bits - expo_bits);
  float const expo = fma(static_cast<float>(static_cast<std::int32_t>(expo_bits)), 0x1p-23f, e0);
  float const r = m - 1.0f;
  constexpr std::uint32_t kPoly[9] = {0xBE055027u, 0x3E1039F6u, 0xBDF8CDCCu, 0x3E0F2955u, 0xBE2AD8B9u,
                                      0x3E4CED0Bu, 0xBE7FFF22u, 0x3EAAAA78u, 0xBF000000u};
  float p = bit_cast<float>(kPoly[0]);
  for (int i = 1; i < 9; ++i) p = fma(p, r, bit_cast<float>(kPoly[i]));
  float const rp = r * p;
  float out = fma(expo, bit_cast<float>(0x3F317218u), fma(rp, r, r));
  if (bits >= 0x7F800000u) out = bits == 0x7F800000u ? xs : detail::canonical_nan();  // +inf; NaN or < 0
  return xs == 0.0f ? bit_cast<float>(0xFF800000u) : out;
}

/// Upstream common::Sigmoid(float) (src/common/math.h, v3.x) as nvcc compiles it for sm_90:
/// expf's last product fused with the `+ 1`, then `+ 1e-16f` and a correctly rounded reciprocal.
KOKKOS_INLINE_FUNCTION float sigmoid(float x, std::uint8_t const* table) {
  if (!(x == x)) return detail::canonical_nan();
  float const nx = 88.7f < -x ? 88.7f : -x;  // std::min(-x, 88.7f): NaN stays NaN
  detail::ExpParts const e = detail::exp_parts(nx, table);
  float const denom = detail::fma(e.mantissa, e.scale, 1.0f) + 1e-16f;
  return 1.0f / denom;
}

}  // namespace kboost::pmath::cuda

namespace kboost::pmath {

/// Which build of upstream XGBoost a kernel's float special functions reproduce: its CUDA build
/// on sm_90 (`cuda_build`: CUDA's expf/logf, nvcc's fused sigmoid; `ex2_table` must then be
/// cuda::ex2_table(space) of the space the kernel runs on) or its CPU build (glibc's). Trivially
/// copyable, for device functors.
struct SpecialFunctions {
  bool cuda_build = true;
  std::uint8_t const* ex2_table = nullptr;  ///< on the host, null means the embedded table
  KOKKOS_INLINE_FUNCTION float exp(float x) const { return cuda_build ? cuda::expf(x, table()) : pmath::expf(x); }
  KOKKOS_INLINE_FUNCTION float log(float x) const { return cuda_build ? cuda::logf(x) : pmath::logf(x); }
  KOKKOS_INLINE_FUNCTION float sigmoid(float x) const {
    return cuda_build ? cuda::sigmoid(x, table()) : pmath::sigmoid(x);
  }
  /// Asks the host core to load the table entry that exp(x) (sigmoid(x)) will read: the CUDA
  /// build's ex2 table is larger than a core's cache and its entries are read at random, so a
  /// loop over rows calls this some rows ahead. Nothing on devices or for the CPU build.
  KOKKOS_INLINE_FUNCTION void prefetch_exp(float x) const {
    if (!cuda_build) return;
    if (std::uint8_t const* p = cuda::detail::ex2_table_byte(x, table())) compat::prefetch(p);
  }
  KOKKOS_INLINE_FUNCTION void prefetch_sigmoid(float x) const { prefetch_exp(88.7f < -x ? 88.7f : -x); }
  KOKKOS_INLINE_FUNCTION std::uint8_t const* table() const {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return ex2_table;
#else
    return ex2_table != nullptr ? ex2_table : cuda::ex2_table_host();
#endif
  }
};

}  // namespace kboost::pmath
