#pragma once
/// \file predict_staged.hpp
/// The top levels of the trees a team walks, staged in team scratch (shared memory on GPUs), for
/// predict_forest's (tree, row) blocking (kernels/predict_kernel.hpp): per tree of a chunk, the
/// nodes of its first K levels as a complete binary heap (entry h's children at 2h + 1 and 2h + 2;
/// below a leaf the leaf repeats, as flatten_forest fills its dense trees), each with its position
/// in the tree. A walk takes its first K decisions from scratch and goes on in the forest's arrays
/// from the position of the K-th node's child. The staged entries are copies of the very node
/// records, and each decision is split_goes_left (kernels/split_rule.hpp) on the node's own pool
/// slot, so every (tree, row) reaches the leaf traverse_tree reaches, in any layout (the heap is
/// built by following child links, so dense, compact and layered trees are staged alike).
/// nvForest (RAPIDS cuML FIL) stages forests in shared memory for the same reason: the top levels
/// are read by every row.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#include <kboost/kernels/predict_layout.hpp>
#include <kboost/kernels/split_rule.hpp>

namespace kboost {

/// Most levels a team stages per tree (2^12 - 1 heap entries: far beyond any level-0 scratch).
constexpr int kMaxStagedLevels = 12;

/// Fewest trees per chunk for which staging is kept: a request whose K levels fit for fewer trees is
/// staged with fewer levels (predict_forest's staged_fit).
constexpr int kStagedMinTrees = 8;

/// Heap entries per tree for `levels` staged levels: 2^levels - 1.
KOKKOS_INLINE_FUNCTION int staged_slots(int levels) { return levels > 0 ? (1 << levels) - 1 : 0; }

/// Staged levels and trees per chunk that predict_forest uses.
struct StagedFit {
  int levels = 0;  ///< K, 0: nothing staged
  int trees = 0;   ///< trees per chunk (the request's, or fewer so that K levels fit)
};

/// The levels and chunk size for a request of `levels` levels (clamped to [0, kMaxStagedLevels])
/// over chunks of `trees` trees, where `bytes(trees, slots)` is the team scratch (in bytes) of a
/// chunk of `trees` trees with `slots` staged entries each and `limit` the level-0 scratch a team
/// may have: the most levels for which at least min(trees, kStagedMinTrees) trees fit, then the
/// most trees (up to `trees`) that fit with them; {0, trees} when not even one level fits.
template <class Bytes>
StagedFit staged_fit(int levels, int trees, Bytes const& bytes, std::size_t limit) {
  int const want_trees = trees < kStagedMinTrees ? trees : kStagedMinTrees;
  for (int k = levels < kMaxStagedLevels ? levels : kMaxStagedLevels; k > 0; --k) {
    int const slots = staged_slots(k);
    if (bytes(want_trees, slots) > limit) continue;
    int lo = want_trees, hi = trees;  // bytes grows with the trees: the last that fits
    while (lo < hi) {
      int const mid = lo + (hi - lo + 1) / 2;
      if (bytes(mid, slots) <= limit) lo = mid;
      else hi = mid - 1;
    }
    return StagedFit{k, lo};
  }
  return StagedFit{0, trees};
}

/// Pool position of the leaf that row `x` reaches in tree `t` of `f`, as traverse_tree, its first
/// `levels` (>= 1) decisions read from the tree's staged heap: `nodes[h]` the node at heap entry h
/// and `pos[h]` its position in the tree (pool slot f.tree_begin(t) + pos[h]).
template <class Forest, class Row>
KOKKOS_INLINE_FUNCTION std::int32_t traverse_staged(Forest const& f, int t, Row const& x, float missing,
                                                    PredictNode const* nodes, std::int32_t const* pos, int levels) {
  std::int32_t const base = f.tree_begin(t);
  int h = 0;
  for (int l = 1; l < levels; ++l) {
    PredictNode const n = nodes[h];
    if (n.flags & PredictNode::kLeaf) return base + pos[h];
    bool const left = split_goes_left(f, base + pos[h], n, detail::feature_at(x, n.feature), missing);
    h = 2 * h + (left ? 1 : 2);
  }
  // the deepest staged node: its decision, then the walk goes on in the pool
  bool const dense = f.tree_dense(t) != 0;
  PredictNode n = nodes[h];
  std::int32_t p = pos[h];
  while (!(n.flags & PredictNode::kLeaf)) {
    bool const left = split_goes_left(f, base + p, n, detail::feature_at(x, n.feature), missing);
    p = (dense ? 2 * p + 1 : n.child) + (left ? 0 : 1);
    n = f.nodes(base + p);
  }
  return base + p;
}

/// Heap entry `h` (level >= 1) of tree `t`'s staged heap, from its parent's entry (already staged):
/// below a leaf the leaf again, else the parent's left (odd h) or right child, read from the pool.
template <class Forest>
KOKKOS_INLINE_FUNCTION void stage_heap_entry(Forest const& f, int t, int h, PredictNode* nodes, std::int32_t* pos) {
  int const parent = (h - 1) / 2;
  PredictNode const pn = nodes[parent];
  std::int32_t const pp = pos[parent];
  if (pn.flags & PredictNode::kLeaf) {
    nodes[h] = pn;
    pos[h] = pp;
    return;
  }
  std::int32_t const p = (f.tree_dense(t) != 0 ? 2 * pp + 1 : pn.child) + ((h - 1) % 2);
  nodes[h] = f.nodes(f.tree_begin(t) + p);
  pos[h] = p;
}

}  // namespace kboost
