#pragma once
/// \file predict_quickscorer.hpp
/// Host-only batch prediction (Serial, OpenMP) by QuickScorer bitvectors (Lucchese et al., "QuickScorer:
/// a Fast Algorithm to Rank Documents with Additive Ensembles of Regression Trees", SIGIR 2015), for
/// forests of small numeric trees: each tree's leaves are numbered left to right (at most 64, one bit
/// each); every split node has a mask with zeros on the leaves of its left subtree. For a row, every
/// tree's bitvector starts all ones and is ANDed with the mask of every node the row does NOT take
/// left ("false" nodes); the exit leaf is then the lowest set bit. The false nodes are found feature by
/// feature: a feature's nodes sorted by threshold ascending are scanned while the row goes right (not
/// x < threshold) and the scan stops at the first node where it goes left, since every higher threshold
/// sends it left too. A missing value (NaN, or equal to `missing`) takes each node's default child, so
/// the feature's default-right nodes are the false ones. The decision is the split rule's
/// numeric_goes_left (kernels/split_rule.hpp), so each row reaches the leaf traverse_tree reaches.
///
/// The leaves are then added per row as predict_host_block adds them (kernels/predict_host_block.hpp):
/// base margin, then trees first_tree, first_tree + 1, ... in float32, each to its output column, DART
/// leaves as (0 + leaf) · weight_drop: the order of upstream XGBoost 3.2's CPU predictor
/// (src/predictor/cpu_predictor.cc PredValueByOneTree; src/gbm/gbtree.cc Dart::PredictBatchImpl), so
/// the bits equal the block walk's, the team kernel's and upstream's. Rows go in blocks
/// (plan_host_block); a batch of one block runs on the calling thread.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <kboost/kernels/predict_host_block.hpp>

namespace kboost {

/// Most leaves of a tree QuickScorer serves (one bit each of a 64-bit word).
constexpr int kQuickScorerMaxLeaves = 64;

/// Trees per chunk of the tables: a group's bitvectors of one chunk (16 KiB) stay in L1.
constexpr int kQuickScorerChunkTrees = 256;

/// A forest's QuickScorer tables (built once per model by build_quickscorer). The trees go in chunks
/// of kQuickScorerChunkTrees; per chunk c and feature j (list l = c · n_features + j), the chunk's
/// split nodes on j in [feature_begin[l], feature_begin[l + 1]) sorted by threshold ascending (a NaN
/// threshold, which sends every present value right, first): threshold, tree (index within the
/// chunk) and mask (zeros on the leaves of the node's left subtree); the default-right ones among
/// them again in [missing_begin[l], missing_begin[l + 1]) as missing_tree / missing_mask.
/// leaf_value[leaf_begin[t] + k] is tree t's k-th leaf from the left (the leaf node's value, before
/// any DART weight).
struct QuickScorerForest {
  int n_trees = 0, n_features = 0, n_chunks = 0;
  std::vector<std::int32_t> feature_begin, missing_begin, leaf_begin;
  std::vector<float> threshold, leaf_value;
  std::vector<std::int32_t> tree, missing_tree;
  std::vector<std::uint64_t> mask, missing_mask;
};

/// Why QuickScorer cannot serve the flattened forest `h` of `n_outputs` margin columns (a tree with
/// more than kQuickScorerMaxLeaves leaves, a categorical split, vector leaves, more outputs than a
/// block's accumulators hold), or "" when it can.
std::string quickscorer_refusal(HostForest const& h, int n_outputs);

/// The QuickScorer tables of `h`: its split nodes and leaves re-indexed, values unchanged.
/// \throws std::invalid_argument with quickscorer_refusal's reason when QuickScorer cannot serve `h`.
QuickScorerForest build_quickscorer(HostForest const& h, int n_outputs);

/// The exit leaf of a bitvector: the index of its lowest set bit (`bits` is never 0: the tree's
/// rightmost leaf's bit survives every mask of a row that reaches it, and every row reaches a leaf).
inline int lowest_set_bit(std::uint64_t bits) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(bits);
#else
  int k = 0;
  while ((bits & 1u) == 0) bits >>= 1, ++k;
  return k;
#endif
}

/// Rows whose bitvectors quickscorer_exit_bits computes together (one AVX2 vector of floats).
constexpr int kQuickScorerGroup = 8;

/// The bitvectors of `n` (1 ≤ n ≤ kQuickScorerGroup) rows, row g's feature j at x[g · row_stride + j ·
/// feature_stride], into bits[t · kQuickScorerGroup + g] for every tree t of chunk `chunk` of `qs` (t
/// within the chunk): all ones ANDed with
/// the masks of the row's false nodes (numeric_goes_left; `missing` also missing besides NaN). With
/// `isa` kAvx2 or kAvx512 and n > 1 the rows scan each feature's nodes together in AVX2 (until every
/// row goes left); one row, kScalar, and builds without x86 SIMD, row by row (a lone row stops at its
/// own first left node). Every ISA gives the same words.
void quickscorer_exit_bits(QuickScorerForest const& qs, int chunk, HostIsa isa, float const* x, std::ptrdiff_t row_stride,
                           std::ptrdiff_t feature_stride, float missing, int n, std::uint64_t* bits);

namespace detail {
/// predict_quickscorer's work for one block: per group of kQuickScorerGroup rows and per chunk of
/// trees that meets [first_tree, last_tree), the chunk's bitvectors (quickscorer_exit_bits), then the
/// exit leaves of its trees in the range added in tree order as HostBlockPredict::add_lanes adds
/// them; start and finish are the block walk's.
template <class MemorySpace, class XView, class OutView>
struct QuickScorerPredict {
  HostBlockPredict<MemorySpace, XView, OutView> block;
  QuickScorerForest const* qs;

  void operator()(std::size_t b) const {
    int const row0 = static_cast<int>(b) * block.rows_per_block;
    int const nr = std::min(block.rows_per_block, block.n_rows - row0);
    float acc[kHostBlockAccFloats];
    block.start(row0, nr, acc);
    alignas(64) std::uint64_t bits[kQuickScorerChunkTrees * kQuickScorerGroup];
    float const* x = block.X.data() + row0 * block.row_stride;
    int const first = block.f.first_tree, last = block.f.last_tree;
    for (int r = 0; r < nr; r += kQuickScorerGroup) {
      int const n = std::min(kQuickScorerGroup, nr - r);
      for (int c = first / kQuickScorerChunkTrees; c * kQuickScorerChunkTrees < last; ++c) {
        quickscorer_exit_bits(*qs, c, block.splits.isa, x + r * block.row_stride, block.row_stride,
                              block.feature_stride, block.f.missing, n, bits);
        int const t0 = c * kQuickScorerChunkTrees;
        add_leaves(r, n, std::max(first, t0), std::min(last, t0 + kQuickScorerChunkTrees), t0, bits, acc);
      }
    }
    block.finish(row0, nr, acc);
  }

  /// The exit leaves of trees [t0, t1) (tree t's words at bits + (t - chunk_first) · kQuickScorerGroup)
  /// added in tree order to the accumulators of the block's rows r .. r + n - 1.
  void add_leaves(int r, int n, int t0, int t1, int chunk_first, std::uint64_t const* bits, float* acc) const {
    auto const& f = block.f;
    float const* leaf = qs->leaf_value.data();
    std::int32_t const* leaf_begin = qs->leaf_begin.data();
    bool const dart = f.tree_weight.data != nullptr;
    for (int t = t0; t < t1; ++t) {
      float* a = acc + f.tree_group(t) * block.rows_per_block + r;
      float const* tree_leaf = leaf + leaf_begin[t];
      std::uint64_t const* w = bits + (t - chunk_first) * kQuickScorerGroup;
      if (dart) {
        float const weight = f.tree_weight(t);
        for (int g = 0; g < n; ++g) a[g] += (0.0f + tree_leaf[lowest_set_bit(w[g])]) * weight;
      } else {
        for (int g = 0; g < n; ++g) a[g] += tree_leaf[lowest_set_bit(w[g])];
      }
    }
  }
};
}  // namespace detail

/// Predict the rows of X (host memory, rows × features ≥ qs.n_features; LayoutRight, LayoutLeft or
/// LayoutStride) with the scalar-leaf forest `f` through its QuickScorer tables `qs` (build_quickscorer
/// of the same pool) into `out` (rows × f.output_columns(), any layout), as predict_host_block: same
/// arguments, same plan, same launch on `space` (label "kboost::predict::quickscorer"), same bits.
/// \throws std::invalid_argument as predict_host_block, and for tables of fewer trees than f's range
/// or an X of fewer features than the tables read.
template <class ExecutionSpace, class MemorySpace, class XView, class OutView>
void predict_quickscorer(ExecutionSpace const& space, HostBlockPlan const& plan, DeviceForest<MemorySpace> const& f,
                         HostSplits const& splits, QuickScorerForest const& qs, XView const& X,
                         Kokkos::View<const float**, Kokkos::LayoutRight, MemorySpace> base_margin, OutView const& out,
                         bool may_launch) {
  static_assert(XView::rank == 2 && OutView::rank == 2, "X and out are rows x columns Views");
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible,
                "predict_quickscorer reads the forest and X on the host");
  if (X.extent(0) == 0) return;
  detail::check_host_block_args(plan, f.n_outputs, splits, X.extent(0));
  if (qs.n_trees < f.last_tree || static_cast<std::size_t>(qs.n_features) > X.extent(1))
    throw std::invalid_argument("predict_quickscorer: tables of " + std::to_string(qs.n_trees) + " trees and " +
                                std::to_string(qs.n_features) + " features cannot serve trees up to " +
                                std::to_string(f.last_tree) + " of rows of " + std::to_string(X.extent(1)) + " features");
  std::size_t strides[3];
  X.stride(strides);
  detail::QuickScorerPredict<MemorySpace, XView, OutView> body{
      {f, splits, X, base_margin, out, static_cast<std::ptrdiff_t>(strides[0]), static_cast<std::ptrdiff_t>(strides[1]),
       static_cast<int>(X.extent(0)), plan.rows_per_block, false},
      &qs};
  detail::run_host_blocks(space, plan, body, may_launch, "kboost::predict::quickscorer");
}

}  // namespace kboost
