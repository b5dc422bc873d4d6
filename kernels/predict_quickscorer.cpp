/// \file predict_quickscorer.cpp
/// QuickScorer's tables (kernels/predict_quickscorer.hpp; Lucchese et al., SIGIR 2015): leaves numbered
/// left to right by an in-order walk of each flattened tree, the masks of its split nodes, and every
/// feature's nodes sorted by threshold; the bitvectors of a group of rows, scalar or in AVX2 (a function
/// compiled for avx2 by target attribute and chosen at run time, as kernels/host_walk.cpp does). Plain
/// host code, also compiled (never run) in CUDA/HIP builds, which get the scalar body only.
#include <kboost/kernels/predict_quickscorer.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define KBOOST_QUICKSCORER_X86 1
#include <immintrin.h>
#else
#define KBOOST_QUICKSCORER_X86 0
#endif

namespace kboost {

namespace {

/// One split node on its way into the tables.
struct QuickScorerNode {
  std::int32_t feature, tree, list = 0;  ///< list: the (chunk, feature) list the node goes to
  float threshold;
  std::uint64_t mask;
  bool default_left;
};

/// The order of thresholds along a feature's scan: a present value v goes left iff v < threshold,
/// which is monotone in the threshold for numbers (±0 equal, ±inf at the ends); a NaN threshold sends
/// every present value right, so it sorts with -inf, first.
float scan_key(float threshold) { return std::isnan(threshold) ? -std::numeric_limits<float>::infinity() : threshold; }

/// In-order walk of one flattened tree (HostForest layout: dense children 2p+1, 2p+2, compact
/// `child`, `child + 1`, both positions within the tree as traverse_tree reads them): numbers its leaves left to right into leaf values, records each split node
/// with its mask. False when the tree has more than kQuickScorerMaxLeaves leaves or a categorical split.
struct TreeNumbering {
  HostForest const& h;
  int tree;
  std::vector<float>& leaves;
  std::vector<QuickScorerNode>& nodes;
  int n_leaves = 0;
  std::string why;

  bool walk(std::int32_t pos, int depth) {
    std::int32_t const base = h.tree_begin[static_cast<std::size_t>(tree)];
    PredictNode const& n = h.nodes[static_cast<std::size_t>(base + pos)];
    if (n.flags & PredictNode::kLeaf) {
      if (n_leaves == kQuickScorerMaxLeaves) return refuse("more than " + std::to_string(kQuickScorerMaxLeaves) + " leaves");
      leaves.push_back(n.value);
      ++n_leaves;
      return true;
    }
    if (n.is_categorical()) return refuse("a categorical split");
    if (depth >= kQuickScorerMaxLeaves - 1) return refuse("more than " + std::to_string(kQuickScorerMaxLeaves) + " leaves");
    bool const dense = h.tree_dense[static_cast<std::size_t>(tree)] != 0;
    std::int32_t const left = dense ? 2 * pos + 1 : n.child;
    int const first = n_leaves;
    if (!walk(left, depth + 1)) return false;
    int const count = n_leaves - first;
    std::uint64_t const ones = count == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << count) - 1);
    nodes.push_back(QuickScorerNode{n.feature, tree, 0, n.value, ~(ones << first), n.default_left()});
    return walk(left + 1, depth + 1);
  }

  bool refuse(std::string const& reason) {
    why = "tree " + std::to_string(tree) + " has " + reason;
    return false;
  }
};

/// The offsets of `nodes` (sorted by list) for `n_lists` lists.
std::vector<std::int32_t> list_offsets(std::vector<QuickScorerNode> const& nodes, int n_lists) {
  std::vector<std::int32_t> begin(static_cast<std::size_t>(n_lists) + 1, 0);
  for (auto const& n : nodes) ++begin[static_cast<std::size_t>(n.list) + 1];
  for (std::size_t j = 1; j < begin.size(); ++j) begin[j] += begin[j - 1];
  return begin;
}

/// The tables' leaves and split nodes of every tree of `h` (refusal in `why`, else empty).
std::vector<QuickScorerNode> number_trees(HostForest const& h, QuickScorerForest& qs, std::string& why) {
  std::vector<QuickScorerNode> nodes;
  qs.n_trees = static_cast<int>(h.tree_group.size());
  for (int t = 0; t < qs.n_trees; ++t) {
    qs.leaf_begin.push_back(static_cast<std::int32_t>(qs.leaf_value.size()));
    TreeNumbering numbering{h, t, qs.leaf_value, nodes, 0, ""};
    if (!numbering.walk(0, 0)) {
      why = numbering.why;
      return {};
    }
  }
  return nodes;
}

/// Why the forest `h` as a whole is not QuickScorer's, or "".
std::string forest_refusal(HostForest const& h, int n_outputs) {
  if (h.vector_leaf) return "vector leaves";
  if (n_outputs > kHostBlockAccFloats)
    return std::to_string(n_outputs) + " outputs (at most " + std::to_string(kHostBlockAccFloats) + ")";
  return "";
}

/// Row g's false nodes on a missing feature j in the chunk whose lists start at `list`: its
/// default-right nodes.
void and_missing(QuickScorerForest const& qs, int list, int j, int g, std::uint64_t* bits) {
  std::int32_t const* begin = qs.missing_begin.data() + list;
  for (std::int32_t i = begin[j]; i < begin[j + 1]; ++i)
    bits[qs.missing_tree[i] * kQuickScorerGroup + g] &= qs.missing_mask[i];
}

/// quickscorer_exit_bits row by row: per feature, the missing pass or the scan while the row goes right.
void exit_bits_scalar(QuickScorerForest const& qs, int list, float const* x, std::ptrdiff_t row_stride,
                      std::ptrdiff_t feature_stride, float missing, int n, std::uint64_t* bits) {
  std::int32_t const* begin = qs.feature_begin.data() + list;
  float const* threshold = qs.threshold.data();
  std::int32_t const* tree = qs.tree.data();
  std::uint64_t const* mask = qs.mask.data();
  for (int g = 0; g < n; ++g) {
    float const* row = x + g * row_stride;
    for (int j = 0; j < qs.n_features; ++j) {
      float const v = row[j * feature_stride];
      if (is_missing(v, missing)) {
        and_missing(qs, list, j, g, bits);
        continue;
      }
      std::int32_t const end = begin[j + 1];
      for (std::int32_t i = begin[j]; i < end && !(v < threshold[i]); ++i)
        bits[tree[i] * kQuickScorerGroup + g] &= mask[i];
    }
  }
}

#if KBOOST_QUICKSCORER_X86
/// quickscorer_exit_bits for up to 8 rows in AVX2: per feature, the rows' values in one vector
/// (missing rows and unused lanes stop at once and take the missing pass), then the feature's nodes
/// in threshold order while any row goes right; at each node every tree word of the group is ANDed
/// with (stops | mask), so the rows that go left keep their bits.
__attribute__((target("avx2"))) void exit_bits_avx2(QuickScorerForest const& qs, int list, float const* x,
                                                    std::ptrdiff_t row_stride, std::ptrdiff_t feature_stride,
                                                    float missing, int n, std::uint64_t* bits) {
  std::int32_t const* begin = qs.feature_begin.data() + list;
  float const* threshold = qs.threshold.data();
  std::int32_t const* tree = qs.tree.data();
  std::uint64_t const* mask = qs.mask.data();
  __m256 const missing_v = _mm256_set1_ps(missing);
  alignas(32) float v[kQuickScorerGroup];
  for (int j = 0; j < qs.n_features; ++j) {
    for (int g = 0; g < kQuickScorerGroup; ++g)
      v[g] = g < n ? x[g * row_stride + j * feature_stride] : std::numeric_limits<float>::quiet_NaN();
    __m256 const values = _mm256_load_ps(v);
    __m256 const miss = _mm256_or_ps(_mm256_cmp_ps(values, values, _CMP_UNORD_Q), _mm256_cmp_ps(values, missing_v, _CMP_EQ_OQ));
    for (int m = _mm256_movemask_ps(miss) & ((1 << n) - 1); m != 0; m &= m - 1) and_missing(qs, list, j, __builtin_ctz(m), bits);
    std::int32_t const end = begin[j + 1];
    for (std::int32_t i = begin[j]; i < end; ++i) {
      __m256 const stop = _mm256_or_ps(_mm256_cmp_ps(values, _mm256_set1_ps(threshold[i]), _CMP_LT_OQ), miss);
      if (_mm256_movemask_ps(stop) == 0xff) break;
      __m256i const stop32 = _mm256_castps_si256(stop);
      __m256i const m64 = _mm256_set1_epi64x(static_cast<long long>(mask[i]));
      __m256i const keep_low = _mm256_or_si256(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(stop32)), m64);
      __m256i const keep_high = _mm256_or_si256(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(stop32, 1)), m64);
      __m256i* w = reinterpret_cast<__m256i*>(bits + tree[i] * kQuickScorerGroup);
      _mm256_storeu_si256(w, _mm256_and_si256(_mm256_loadu_si256(w), keep_low));
      _mm256_storeu_si256(w + 1, _mm256_and_si256(_mm256_loadu_si256(w + 1), keep_high));
    }
  }
}
#endif

}  // namespace

std::string quickscorer_refusal(HostForest const& h, int n_outputs) {
  std::string why = forest_refusal(h, n_outputs);
  if (!why.empty()) return why;
  QuickScorerForest qs;
  number_trees(h, qs, why);
  return why;
}

QuickScorerForest build_quickscorer(HostForest const& h, int n_outputs) {
  std::string why = forest_refusal(h, n_outputs);
  QuickScorerForest qs;
  std::vector<QuickScorerNode> nodes;
  if (why.empty()) nodes = number_trees(h, qs, why);
  if (!why.empty()) throw std::invalid_argument("QuickScorer cannot serve this model: " + why);
  for (auto const& n : nodes) qs.n_features = std::max(qs.n_features, n.feature + 1);
  qs.n_chunks = (qs.n_trees + kQuickScorerChunkTrees - 1) / kQuickScorerChunkTrees;
  for (auto& n : nodes) n.list = n.tree / kQuickScorerChunkTrees * qs.n_features + n.feature;
  std::stable_sort(nodes.begin(), nodes.end(), [](QuickScorerNode const& a, QuickScorerNode const& b) {
    return a.list != b.list ? a.list < b.list : scan_key(a.threshold) < scan_key(b.threshold);
  });
  int const n_lists = qs.n_chunks * qs.n_features;
  qs.feature_begin = list_offsets(nodes, n_lists);
  std::vector<QuickScorerNode> default_right;
  for (auto const& n : nodes) {
    qs.threshold.push_back(n.threshold);
    qs.tree.push_back(n.tree % kQuickScorerChunkTrees);
    qs.mask.push_back(n.mask);
    if (!n.default_left) default_right.push_back(n);
  }
  qs.missing_begin = list_offsets(default_right, n_lists);
  for (auto const& n : default_right) {
    qs.missing_tree.push_back(n.tree % kQuickScorerChunkTrees);
    qs.missing_mask.push_back(n.mask);
  }
  return qs;
}

void quickscorer_exit_bits(QuickScorerForest const& qs, int chunk, HostIsa isa, float const* x, std::ptrdiff_t row_stride,
                           std::ptrdiff_t feature_stride, float missing, int n, std::uint64_t* bits) {
  int const trees = std::min(kQuickScorerChunkTrees, qs.n_trees - chunk * kQuickScorerChunkTrees);
  std::fill(bits, bits + static_cast<std::size_t>(trees) * kQuickScorerGroup, ~std::uint64_t{0});
  int const list = chunk * qs.n_features;
#if KBOOST_QUICKSCORER_X86
  if (n > 1 && (isa == HostIsa::kAvx2 || isa == HostIsa::kAvx512)) {
    exit_bits_avx2(qs, list, x, row_stride, feature_stride, missing, n, bits);
    return;
  }
#else
  (void)isa;
#endif
  exit_bits_scalar(qs, list, x, row_stride, feature_stride, missing, n, bits);
}

}  // namespace kboost
