/// \file host_walk.cpp
/// The host walk's bodies (kernels/host_walk.hpp): scalar, AVX2 and AVX-512F, chosen at run time.
/// The SIMD bodies are compiled with per-function target attributes (GCC and Clang on x86-64), so
/// this file needs no ISA flags and runs on any x86-64; CUDA/HIP compilers, which also see this file
/// in GPU builds, get the scalar body only.
#include <kboost/kernels/host_walk.hpp>
#include <kboost/kernels/predict_layout.hpp>
#include <kboost/kernels/split_rule.hpp>

#include <stdexcept>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define KBOOST_HOST_WALK_X86 1
#include <immintrin.h>
#else
#define KBOOST_HOST_WALK_X86 0
#endif

namespace kboost {

namespace {

constexpr std::int32_t kFeatureMask = 0x7fffffff;

/// One lane at a time: the split rule as written (numeric_goes_left on the packed key).
void walk_scalar(HostSplits const& s, float const* x, std::int32_t feature_stride, float missing, HostWalkLanes& L) {
  for (int l = 0; l < L.n; ++l) L.pos[l] = 0;
  for (int level = 0; level < L.max_depth; ++level) {
    for (int l = 0; l < L.n; ++l) {
      std::int32_t const p = L.pos[l];
      std::int32_t const slot = L.base[l] + p;
      std::int32_t const key = s.key[slot];
      float const v = x[L.row_offset[l] + (key & kFeatureMask) * feature_stride];
      bool const left = is_missing(v, missing) ? key < 0 : v < s.threshold[slot];
      if (level < L.depth[l]) L.pos[l] = 2 * p + (left ? 1 : 2);
    }
  }
}

#if KBOOST_HOST_WALK_X86
/// Lanes n .. up to a multiple of `width` in lane 0's tree, taking no step (their reads stay valid).
void pad_lanes(HostWalkLanes& lanes, int width) {
  for (int l = lanes.n; l % width != 0; ++l) {
    lanes.base[l] = lanes.base[0];
    lanes.depth[l] = 0;
  }
}

/// Entries at[i] (0 ≤ at[i] < 16) of the 16 int32 from `first`, by two permutes and a blend on bit 3:
/// a level of at most 16 nodes of one tree without a gather.
__attribute__((target("avx2"))) inline __m256i pick16_avx2(std::int32_t const* first, __m256i at) {
  __m256i const low = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(first)), at);
  __m256i const high = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(first + 8)), at);
  return _mm256_castps_si256(
      _mm256_blendv_ps(_mm256_castsi256_ps(low), _mm256_castsi256_ps(high), _mm256_castsi256_ps(_mm256_slli_epi32(at, 28))));
}

/// 8 lanes of a HostWalkLanes array (aligned).
__attribute__((target("avx2"))) inline __m256i load8(std::int32_t const* a) {
  return _mm256_load_si256(reinterpret_cast<__m256i const*>(a));
}

/// The nodes at positions `pos` of level `level` of the trees at pool slots `base`: gathered, or
/// where the vector's lanes share one tree (`one_tree`, rooted at `root`) and the level has at most
/// 16 nodes, picked from loads of the level by permutes.
__attribute__((target("avx2"))) inline void level_nodes_avx2(HostSplits const& s, __m256i base, __m256i pos, int level,
                                                             bool one_tree, std::int32_t root, __m256& threshold,
                                                             __m256i& key) {
  if (level < 5 && one_tree) {
    std::int32_t const first = root + (1 << level) - 1;
    __m256i const at = _mm256_sub_epi32(pos, _mm256_set1_epi32((1 << level) - 1));
    threshold = _mm256_castsi256_ps(pick16_avx2(reinterpret_cast<std::int32_t const*>(s.threshold + first), at));
    key = pick16_avx2(s.key + first, at);
    return;
  }
  __m256i const slot = _mm256_add_epi32(base, pos);
  threshold = _mm256_i32gather_ps(s.threshold, slot, 4);
  key = _mm256_i32gather_epi32(s.key, slot, 4);
}

/// The child positions 2·pos + 2 − left for values `v` at nodes (threshold, key): left = missing
/// (NaN, or equal to `missing`) ? key's bit 31 : v < threshold (ordered compare: NaN is never less).
__attribute__((target("avx2"))) inline __m256i children_avx2(__m256 v, __m256 threshold, __m256i key, __m256 missing,
                                                             __m256i pos) {
  __m256 const less = _mm256_cmp_ps(v, threshold, _CMP_LT_OQ);
  __m256 const miss = _mm256_or_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q), _mm256_cmp_ps(v, missing, _CMP_EQ_OQ));
  // Sign bit: left. From the compare (all ones / zeros), or from the key's default bit if missing.
  __m256i const left = _mm256_srai_epi32(_mm256_castps_si256(_mm256_blendv_ps(less, _mm256_castsi256_ps(key), miss)), 31);
  return _mm256_add_epi32(_mm256_add_epi32(_mm256_add_epi32(pos, pos), _mm256_set1_epi32(2)), left);
}

/// 8 lanes per vector, level by level: the lanes' nodes (level_nodes_avx2), a gather of their rows'
/// values at row_offset + feature · stride, the children (children_avx2), kept in lanes whose depth
/// is not reached.
template <bool kUnitStride>
__attribute__((target("avx2"))) void walk_avx2(HostSplits const& s, float const* x, std::int32_t feature_stride,
                                               float missing, HostWalkLanes& L) {
  pad_lanes(L, 8);
  bool one_tree[kHostWalkLanes / 8];
  for (int l = 0; l < L.n; l += 8) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(L.pos + l), _mm256_setzero_si256());
    one_tree[l / 8] = _mm256_movemask_epi8(_mm256_cmpeq_epi32(load8(L.base + l), _mm256_set1_epi32(L.base[l]))) == -1;
  }
  __m256 const missing_v = _mm256_set1_ps(missing);
  for (int level = 0; level < L.max_depth; ++level) {
    for (int l = 0; l < L.n; l += 8) {
      __m256i const pos = load8(L.pos + l);
      __m256 threshold;
      __m256i key;
      level_nodes_avx2(s, load8(L.base + l), pos, level, one_tree[l / 8], L.base[l], threshold, key);
      __m256i feature = _mm256_and_si256(key, _mm256_set1_epi32(kFeatureMask));
      if (!kUnitStride) feature = _mm256_mullo_epi32(feature, _mm256_set1_epi32(feature_stride));
      __m256 const v = _mm256_i32gather_ps(x, _mm256_add_epi32(load8(L.row_offset + l), feature), 4);
      __m256i const active = _mm256_cmpgt_epi32(load8(L.depth + l), _mm256_set1_epi32(level));
      __m256i const next = children_avx2(v, threshold, key, missing_v, pos);
      _mm256_store_si256(reinterpret_cast<__m256i*>(L.pos + l), _mm256_blendv_epi8(pos, next, active));
    }
  }
}

/// walk_avx2's steps on 16 lanes per vector, with mask registers; levels of up to 32 nodes of one
/// tree by two-source permutes. Gathers and permutes are the masked forms (all lanes): GCC warns of
/// the plain ones' undefined source operand.
template <bool kUnitStride>
__attribute__((target("avx512f"))) void walk_avx512(HostSplits const& s, float const* x, std::int32_t feature_stride,
                                                    float missing, HostWalkLanes& L) {
  pad_lanes(L, 16);
  __mmask16 const all = 0xffff;
  __m512i const zero = _mm512_setzero_si512();
  __m512 const zero_f = _mm512_setzero_ps(), missing_v = _mm512_set1_ps(missing);
  bool one_tree[kHostWalkLanes / 16];
  for (int l = 0; l < L.n; l += 16) {
    _mm512_store_si512(L.pos + l, zero);
    one_tree[l / 16] = _mm512_cmpeq_epi32_mask(_mm512_load_si512(L.base + l), _mm512_set1_epi32(L.base[l])) == all;
  }
  for (int level = 0; level < L.max_depth; ++level) {
    for (int l = 0; l < L.n; l += 16) {
      __m512i const pos = _mm512_load_si512(L.pos + l);
      __m512 threshold;
      __m512i key;
      if (level < 6 && one_tree[l / 16]) {
        std::int32_t const first = L.base[l] + (1 << level) - 1;
        __m512i const at = _mm512_sub_epi32(pos, _mm512_set1_epi32((1 << level) - 1));
        threshold = _mm512_permutex2var_ps(_mm512_loadu_ps(s.threshold + first), at, _mm512_loadu_ps(s.threshold + first + 16));
        key = _mm512_permutex2var_epi32(_mm512_loadu_si512(s.key + first), at, _mm512_loadu_si512(s.key + first + 16));
      } else {
        __m512i const slot = _mm512_add_epi32(_mm512_load_si512(L.base + l), pos);
        threshold = _mm512_mask_i32gather_ps(zero_f, all, slot, s.threshold, 4);
        key = _mm512_mask_i32gather_epi32(zero, all, slot, s.key, 4);
      }
      __m512i feature = _mm512_and_si512(key, _mm512_set1_epi32(kFeatureMask));
      if (!kUnitStride) feature = _mm512_mullo_epi32(feature, _mm512_set1_epi32(feature_stride));
      __m512 const v = _mm512_mask_i32gather_ps(zero_f, all, _mm512_add_epi32(_mm512_load_si512(L.row_offset + l), feature), x, 4);
      __mmask16 const less = _mm512_cmp_ps_mask(v, threshold, _CMP_LT_OQ);
      __mmask16 const miss = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q) | _mm512_cmp_ps_mask(v, missing_v, _CMP_EQ_OQ);
      __mmask16 const left = static_cast<__mmask16>((miss & _mm512_cmplt_epi32_mask(key, zero)) | (~miss & less));
      __m512i const right = _mm512_add_epi32(_mm512_add_epi32(pos, pos), _mm512_set1_epi32(2));
      __m512i const next = _mm512_mask_sub_epi32(right, left, right, _mm512_set1_epi32(1));
      __mmask16 const active = _mm512_cmpgt_epi32_mask(_mm512_load_si512(L.depth + l), _mm512_set1_epi32(level));
      _mm512_store_si512(L.pos + l, _mm512_mask_mov_epi32(pos, active, next));
    }
  }
}
#endif

}  // namespace

bool host_isa_supported(HostIsa isa) {
  switch (isa) {
    case HostIsa::kScalar:
      return true;
#if KBOOST_HOST_WALK_X86
    case HostIsa::kAvx2:
      return __builtin_cpu_supports("avx2");
    case HostIsa::kAvx512:
      return __builtin_cpu_supports("avx512f");
#endif
    default:
      return false;
  }
}

HostIsa best_host_isa() {
  for (HostIsa isa : {HostIsa::kAvx512, HostIsa::kAvx2})
    if (host_isa_supported(isa)) return isa;
  return HostIsa::kScalar;
}

std::string host_isa_name(HostIsa isa) {
  switch (isa) {
    case HostIsa::kAvx2:
      return "avx2";
    case HostIsa::kAvx512:
      return "avx512";
    default:
      return "scalar";
  }
}

HostSplitArrays pack_host_splits(HostForest const& h) {
  HostSplitArrays s;
  s.threshold.resize(h.nodes.size() + kHostSplitPadding, 0.0f);
  s.key.resize(h.nodes.size() + kHostSplitPadding, 0);
  for (std::size_t i = 0; i < h.nodes.size(); ++i) {
    PredictNode const& n = h.nodes[i];
    std::int32_t const feature = (n.flags & PredictNode::kLeaf) ? 0 : n.feature;
    if (feature < 0) throw std::runtime_error("pack_host_splits: negative split feature at pool slot " + std::to_string(i));
    s.threshold[i] = n.value;
    s.key[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(feature) | (n.default_left() ? kHostKeyDefaultLeft : 0u));
  }
  return s;
}

void walk_host_lanes(HostSplits const& splits, float const* x, std::int32_t feature_stride, float missing,
                     HostWalkLanes& lanes) {
#if KBOOST_HOST_WALK_X86
  bool const unit = feature_stride == 1;
  if (splits.isa == HostIsa::kAvx512) {
    unit ? walk_avx512<true>(splits, x, 1, missing, lanes) : walk_avx512<false>(splits, x, feature_stride, missing, lanes);
    return;
  }
  if (splits.isa == HostIsa::kAvx2) {
    unit ? walk_avx2<true>(splits, x, 1, missing, lanes) : walk_avx2<false>(splits, x, feature_stride, missing, lanes);
    return;
  }
#endif
  walk_scalar(splits, x, feature_stride, missing, lanes);
}

}  // namespace kboost
