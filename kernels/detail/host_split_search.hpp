#pragma once
/// \file host_split_search.hpp
/// The host backends' split search of one numerical feature by one thread (a host team is one
/// core), giving the bytes of the team search every backend shares (kernels/evaluate_splits.hpp
/// best_numerical_split, after upstream's GPU evaluator src/tree/gpu_hist/evaluate_splits.cu
/// EvaluateSplitAgent::Numerical) with less work per candidate.
#include <Kokkos_Core.hpp>

#include <cfloat>
#include <cstdint>

#include <kboost/core/compat.hpp>
#include <kboost/kernels/split_gain.hpp>

#ifdef KBOOST_HOST_FMA
#include <immintrin.h>
#endif

namespace kboost {
namespace detail {

/// Up to kBatch candidates of one feature, in bin order: candidate i sends the bins below bin[i]
/// left (their sum scan(i)); its gains with the missing rows right (g_mr) and left (g_ml). The
/// arrays are left uninitialised (a batch is filled before it is read).
struct CandidateBatch {
  static constexpr int kBatch = 256;
  int n = 0;
  std::uint32_t bin[kBatch];
  std::int64_t scan_grad[kBatch], scan_hess[kBatch];
  float g_mr[kBatch], g_ml[kBatch];
  KOKKOS_FORCEINLINE_FUNCTION GradientPairInt64 scan(int i) const { return GradientPairInt64{scan_grad[i], scan_hess[i]}; }
};

#ifdef KBOOST_HOST_FMA
/// child_gain (kernels/split_gain.hpp) of four children (sums G, H > 0) in AVX lanes: the same IEEE
/// operations in the same order, each branch taken as a select, hence the same bits.
__attribute__((target("avx2,fma"))) inline __m128 child_gain_x4(SplitParams const& p, __m256d G, __m256d H) {
  __m256d const zero = _mm256_setzero_pd(), sign = _mm256_set1_pd(-0.0);
  __m256d const alpha = _mm256_set1_pd(static_cast<double>(p.alpha));
  __m256d const lambda = _mm256_set1_pd(static_cast<double>(p.lambda));
  __m256d const above = _mm256_sub_pd(G, alpha), below = _mm256_add_pd(G, alpha);
  __m256d l1 = _mm256_blendv_pd(zero, below, _mm256_cmp_pd(G, _mm256_xor_pd(alpha, sign), _CMP_LT_OQ));
  l1 = _mm256_blendv_pd(l1, above, _mm256_cmp_pd(G, alpha, _CMP_GT_OQ));  // threshold_l1
  __m256d const h_lambda = _mm256_add_pd(H, lambda);
  __m256d dw = _mm256_div_pd(_mm256_xor_pd(l1, sign), h_lambda);
  if (p.max_delta_step != 0.0f) {
    __m256d const mds = _mm256_set1_pd(static_cast<double>(p.max_delta_step));
    __m256d const negative = _mm256_cmp_pd(dw, zero, _CMP_LT_OQ);
    __m256d const magnitude = _mm256_blendv_pd(dw, _mm256_xor_pd(dw, sign), negative);
    __m256d const clip = _mm256_blendv_pd(mds, _mm256_xor_pd(mds, sign), negative);
    dw = _mm256_blendv_pd(dw, clip, _mm256_cmp_pd(magnitude, mds, _CMP_GT_OQ));
  }
  __m128 const w = _mm256_cvtpd_ps(dw);
  __m256d const s = _mm256_fmadd_pd(_mm256_add_pd(G, G), _mm256_cvtps_pd(w),
                                    _mm256_mul_pd(h_lambda, _mm256_cvtps_pd(_mm_mul_ps(w, w))));
  __m128 const w_abs = _mm_blendv_ps(w, _mm_xor_ps(w, _mm_set1_ps(-0.0f)), _mm_cmplt_ps(w, _mm_setzero_ps()));
  __m256d const two_alpha = _mm256_add_pd(alpha, alpha);
  return _mm_xor_ps(_mm256_cvtpd_ps(_mm256_fmadd_pd(two_alpha, _mm256_cvtps_pd(w_abs), s)), _mm_set1_ps(-0.0f));
}

/// static_cast<double>(v) of four int64 lanes, rounded as the scalar conversion: the high 32 bits
/// (signed) and the low 32 bits (unsigned) are each exact in double, so hi·2^32 + lo = v is
/// rounded once, by the last addition.
__attribute__((target("avx2,fma"))) inline __m256d int64_to_double_x4(__m256i v) {
  __m128i const hi = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(1, 3, 5, 7, 0, 2, 4, 6)));
  __m256d const high = _mm256_mul_pd(_mm256_cvtepi32_pd(hi), _mm256_set1_pd(4294967296.0));
  __m256i const two52 = _mm256_set1_epi64x(0x4330000000000000LL);  // the bits of 2^52
  __m256i const lo = _mm256_and_si256(v, _mm256_set1_epi64x(0xFFFFFFFFLL));
  __m256d const low = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(lo, two52)), _mm256_castsi256_pd(two52));
  return _mm256_add_pd(high, low);
}

/// out[i] = split_gain(p, q, left, sum − left) with left = c.scan(i) + shift for i < c.n, four
/// at a time in AVX2 lanes (int64 sums, then to_double_grad/hess, then split_gain_of: the same
/// operations, hence the same bits), the rest one at a time.
__attribute__((target("avx2,fma"))) inline void batch_gains_x4(SplitParams const& p, GradientQuantiser const& q,
                                                               GradientPairInt64 const& sum, GradientPairInt64 const& shift,
                                                               CandidateBatch const& c, float* out) {
  __m256d const zero = _mm256_setzero_pd();
  __m256d const mcw = _mm256_set1_pd(static_cast<double>(p.min_child_weight));
  __m256d const to_grad = _mm256_set1_pd(q.to_floating[0]), to_hess = _mm256_set1_pd(q.to_floating[1]);
  __m256i const sum_grad = _mm256_set1_epi64x(sum.grad), sum_hess = _mm256_set1_epi64x(sum.hess);
  __m256i const shift_grad = _mm256_set1_epi64x(shift.grad), shift_hess = _mm256_set1_epi64x(shift.hess);
  int i = 0;
  for (; i + 4 <= c.n; i += 4) {
    __m256i const lg = _mm256_add_epi64(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(c.scan_grad + i)), shift_grad);
    __m256i const lh = _mm256_add_epi64(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(c.scan_hess + i)), shift_hess);
    __m256d const GL = _mm256_mul_pd(int64_to_double_x4(lg), to_grad), HL = _mm256_mul_pd(int64_to_double_x4(lh), to_hess);
    __m256d const GR = _mm256_mul_pd(int64_to_double_x4(_mm256_sub_epi64(sum_grad, lg)), to_grad);
    __m256d const HR = _mm256_mul_pd(int64_to_double_x4(_mm256_sub_epi64(sum_hess, lh)), to_hess);
    __m256d const valid = _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(HL, zero, _CMP_GT_OQ), _mm256_cmp_pd(HR, zero, _CMP_GT_OQ)),
                                        _mm256_and_pd(_mm256_cmp_pd(HL, mcw, _CMP_NLT_UQ), _mm256_cmp_pd(HR, mcw, _CMP_NLT_UQ)));
    __m128 const gain = _mm_add_ps(child_gain_x4(p, GL, HL), child_gain_x4(p, GR, HR));
    __m128 const keep = _mm_castsi128_ps(_mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(_mm256_castpd_si256(valid), _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6))));
    _mm_storeu_ps(out + i, _mm_blendv_ps(_mm_set1_ps(-FLT_MAX), gain, keep));
  }
  for (; i < c.n; ++i) {
    GradientPairInt64 const l = c.scan(i) + shift;
    out[i] = split_gain(p, q, l, sum - l);
  }
}
#endif

/// The batch's gains with the missing rows right (left sum scan(i)) or, when `missing_left`,
/// left (scan(i) + missing) into `out`, unconstrained (split_gain's bits): four at a time where
/// `fma` (the core has FMA and AVX2), else the sums in double first, then the gains.
KOKKOS_FORCEINLINE_FUNCTION void plain_batch_gains(bool fma, SplitParams const& p, GradientQuantiser const& q,
                                                   GradientPairInt64 const& sum, GradientPairInt64 const& missing,
                                                   bool missing_left, CandidateBatch const& c, float* out) {
  GradientPairInt64 const shift = missing_left ? missing : GradientPairInt64{};
#ifdef KBOOST_HOST_FMA
  if (fma) return batch_gains_x4(p, q, sum, shift, c, out);
#else
  (void)fma;
#endif
  double gl[CandidateBatch::kBatch], hl[CandidateBatch::kBatch], gr[CandidateBatch::kBatch], hr[CandidateBatch::kBatch];
  for (int i = 0; i < c.n; ++i) {
    GradientPairInt64 const l = c.scan(i) + shift, r = sum - l;
    gl[i] = to_double_grad(q, l.grad);
    hl[i] = to_double_hess(q, l.hess);
    gr[i] = to_double_grad(q, r.grad);
    hr[i] = to_double_hess(q, r.hess);
  }
  for (int i = 0; i < c.n; ++i) out[i] = split_gain_of(p, gl[i], hl[i], gr[i], hr[i]);
}

/// best_numerical_split over all of feature f's bins [b0, b1) by one thread (the host backends'
/// team of one), candidates taken kBatch at a time: `batch_gains(c, missing, has_missing)` fills
/// c.g_mr and, when has_missing, c.g_ml (`missing`: the node's rows missing f), then the batch is
/// kept in bin order (keep_if_better). Two shortcuts that cannot change the answer: a candidate whose bin below holds a zero sum has the previous
/// candidate's sums, hence its gain, and never wins the strict '>' (not evaluated); without missing
/// rows both default directions give the same gain (taken once; right, as on ties).
template <class Hist, class Values, class BatchGains>
KOKKOS_FORCEINLINE_FUNCTION SplitCandidate whole_feature_split(Hist const& hist, EvalNode const& node, int f, std::uint32_t b0,
                                                               std::uint32_t b1, Values const& values, Values const& min_vals,
                                                               BatchGains const& batch_gains) {
  GradientPairInt64 const zero{};
  // A feature of at most kBatch bins is read once: its missing sum is known once its batch is.
  bool const one_batch = b1 - b0 <= static_cast<std::uint32_t>(CandidateBatch::kBatch);
  GradientPairInt64 missing = node.sum;
  if (!one_batch)
    for (std::uint32_t b = b0; b < b1; ++b) missing = missing - hist(node.slot, b);
  SplitCandidate best;
  GradientPairInt64 scan{};
  CandidateBatch c;
  for (std::uint32_t b = b0; b < b1;) {
    c.n = 0;
    for (; b < b1 && c.n < CandidateBatch::kBatch; ++b) {
      c.bin[c.n] = b;
      c.scan_grad[c.n] = scan.grad;
      c.scan_hess[c.n] = scan.hess;
      c.n += (b == b0 || !(hist(node.slot, b - 1) == zero)) ? 1 : 0;
      scan = scan + hist(node.slot, b);
    }
    if (one_batch) missing = node.sum - scan;
    bool const has_missing = !(missing == zero);
    batch_gains(c, missing, has_missing);
    for (int i = 0; i < c.n; ++i)
      keep_if_better(best, node, f, b0, c.bin[i], c.scan(i), missing, has_missing ? c.g_ml[i] : c.g_mr[i], c.g_mr[i],
                     values, min_vals);
  }
  return best;
}

/// whole_feature_split's gains: from gain_of(left, right), one candidate at a time (monotone
/// constraints), or, with no gain_of (nullptr), from plain_batch_gains. A functor rather than a
/// lambda, so that it is inlined into the FMA build of the search.
template <class GainOf>
struct BatchGains {
  bool fma;
  SplitParams const& p;
  GradientQuantiser const& q;
  EvalNode const& node;
  GainOf const* gain_of;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(CandidateBatch& c, GradientPairInt64 const& missing, bool has_missing) const {
    if (gain_of == nullptr) {
      plain_batch_gains(fma, p, q, node.sum, missing, false, c, c.g_mr);
      if (has_missing) plain_batch_gains(fma, p, q, node.sum, missing, true, c, c.g_ml);
      return;
    }
    for (int i = 0; i < c.n; ++i) {
      GradientPairInt64 const left_m = c.scan(i) + missing;
      c.g_mr[i] = (*gain_of)(c.scan(i), node.sum - c.scan(i));
      if (has_missing) c.g_ml[i] = (*gain_of)(left_m, node.sum - left_m);
    }
  }
};

/// whole_feature_split with BatchGains.
template <class Hist, class Values, class GainOf>
KOKKOS_FORCEINLINE_FUNCTION SplitCandidate feature_split_with(bool fma, SplitParams const& p, GradientQuantiser const& q,
                                                              Hist const& hist, EvalNode const& node, int f, std::uint32_t b0,
                                                              std::uint32_t b1, Values const& values, Values const& min_vals,
                                                              GainOf const* gain_of) {
  return whole_feature_split(hist, node, f, b0, b1, values, min_vals, BatchGains<GainOf>{fma, p, q, node, gain_of});
}

#ifdef KBOOST_HOST_FMA
/// feature_split_with compiled for x86-64 cores with FMA and AVX2 (compat.hpp's KBOOST_HOST_FMA), where the
/// plain gains' loop becomes vector instructions. Called only when the running core has FMA.
template <class Hist, class Values, class GainOf>
__attribute__((target("avx2,fma"))) SplitCandidate feature_split_with_fma(SplitParams const& p, GradientQuantiser const& q,
                                                                      Hist const& hist, EvalNode const& node, int f,
                                                                      std::uint32_t b0, std::uint32_t b1, Values const& values,
                                                                      Values const& min_vals, GainOf const* gain_of) {
  return feature_split_with(true, p, q, hist, node, f, b0, b1, values, min_vals, gain_of);
}
#endif

/// The best numerical split of `node` on feature f (bins [b0, b1)) by one thread: the bytes of
/// best_numerical_split over all of f's bins with gain_of's gains (`gain_of` nullptr: split_gain's,
/// unconstrained), through the FMA build when `fma` (compat::host_has_avx2_fma()).
template <class Hist, class Values, class GainOf>
KOKKOS_INLINE_FUNCTION SplitCandidate host_feature_split(bool fma, SplitParams const& p, GradientQuantiser const& q,
                                                         Hist const& hist, EvalNode const& node, int f, std::uint32_t b0,
                                                         std::uint32_t b1, Values const& values, Values const& min_vals,
                                                         GainOf const* gain_of) {
#ifdef KBOOST_HOST_FMA
  if (fma) return feature_split_with_fma(p, q, hist, node, f, b0, b1, values, min_vals, gain_of);
#endif
  return feature_split_with(fma, p, q, hist, node, f, b0, b1, values, min_vals, gain_of);
}

}  // namespace detail
}  // namespace kboost
