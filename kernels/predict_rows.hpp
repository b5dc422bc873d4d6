#pragma once
/// \file predict_rows.hpp
/// Large batches on GPUs: one thread per row walks every tree in order, as FIL and upstream's GPU
/// predictor (src/predictor/gpu_predictor.cu PredictKernel) map them. A team stages its rows' features
/// in scratch transposed (feature-major, so the threads of a warp read different rows from different
/// banks whichever feature each is at), and each thread keeps its row's margins in scratch. Dense
/// numeric trees take exactly `depth` branch-free steps (no leaf test, no child pointer) and are
/// staged in team scratch a chunk at a time, packed to 8 bytes per node (threshold; feature and
/// default direction): the threads of a warp are at different nodes of one tree, and scratch serves
/// such scattered reads in fewer cycles than the L1 cache (FIL keeps its trees in shared memory too).
///
/// The arithmetic is DeviceForest::predict's: base margin, then each tree's leaf added in tree order
/// in float32 (DART: (0 + leaf) * weight_drop), then the transform. So the result is bit-identical to
/// predict_forest (kernels/predict_kernel.hpp) and to upstream's CPU predict.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

#include <kboost/core/compat.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/kernels/device_forest.hpp>
#include <kboost/kernels/split_rule.hpp>

namespace kboost {

namespace detail {
/// Row `r` of a team's feature-major scratch block: x(f) = xs[f * stride + r].
struct ScratchRow {
  float const* xs;
  int stride, r;
  KOKKOS_INLINE_FUNCTION float operator()(int f) const { return xs[f * stride + r]; }
};

/// A dense numeric node as staged in team scratch: threshold (or leaf value) and the split feature
/// with the default direction in bit 31.
struct alignas(8) StagedNode {
  float value;
  std::int32_t meta;
  static constexpr std::uint32_t kDefaultLeftBit = 0x80000000u;
};

/// The staged nodes of a chunk, read with the pool's accessor syntax nodes(i) by walk_dense_numeric.
template <class NodesView>
struct StagedTrees {
  NodesView staged;
  float missing;
  struct Node {
    float value;
    std::int32_t feature;
    bool left_by_default;
    KOKKOS_INLINE_FUNCTION bool default_left() const { return left_by_default; }
  };
  KOKKOS_INLINE_FUNCTION Node nodes(std::int32_t i) const {
    StagedNode const n = staged(i);
    std::uint32_t const meta = static_cast<std::uint32_t>(n.meta);
    return Node{n.value, static_cast<std::int32_t>(meta & ~StagedNode::kDefaultLeftBit),
                (meta & StagedNode::kDefaultLeftBit) != 0};
  }
};

/// Leaf slot of a dense numeric tree (tree_dense >= 2: complete array, slots below leaves filled
/// with the leaf): `depth` steps, each by numeric_goes_left (kernels/split_rule.hpp).
template <class Forest, class Row>
KOKKOS_INLINE_FUNCTION std::int32_t walk_dense_numeric(Forest const& f, std::int32_t base, int depth, Row const& x) {
  std::int32_t pos = 0;
  for (int l = 0; l < depth; ++l) {
    auto const n = f.nodes(base + pos);
    float const v = x(n.feature);
    bool const left = numeric_goes_left(n, v, f.missing);
    pos = 2 * pos + (left ? 1 : 2);
  }
  return base + pos;
}

/// Copies rows [row0, row0 + nr) of X (n_feat features) into the team's feature-major block xs:
/// xs(j * T + r) = X(row0 + r, j), T the team size, one element per team thread.
template <class Member, class XView, class Floats>
KOKKOS_INLINE_FUNCTION void stage_row_features(Member const& m, XView const& X, Floats const& xs, int row0, int nr,
                                               int n_feat) {
  int const T = m.team_size();
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nr * n_feat), [&](int k) {
    int const r = k / n_feat, j = k % n_feat;
    xs(j * T + r) = X(row0 + r, j);
  });
}

/// Row r's margins in a team's scratch block (margin-column-major over the team's T rows):
/// margin j is acc(j * T + r).
template <class Floats>
struct RowMargins {
  Floats acc;
  int T, r;
  KOKKOS_INLINE_FUNCTION float& operator()(int j) const { return acc(j * T + r); }

  /// Adds tree t's leaf (pool slot `leaf`, value `value`) as DeviceForest::predict_margin does: a
  /// vector leaf's n_outputs values, else the value into the tree's group (DART: (0 + value) *
  /// weight_drop).
  template <class Forest>
  KOKKOS_INLINE_FUNCTION void add_leaf(Forest const& f, int t, float value, std::int32_t leaf) const {
    if (f.vector_leaf) {
      std::int32_t const off = f.nodes(leaf).child;
      for (int j = 0; j < f.n_outputs; ++j) acc(j * T + r) += f.leaf_values(off + j);
    } else {
      if (f.tree_weight.data != nullptr) value = (0.0f + value) * f.tree_weight(t);
      acc(f.tree_group(t) * T + r) += value;
    }
  }
};

/// End of the chunk of trees staged together from tree t: the dense numeric trees (tree_dense >= 2)
/// from t on whose nodes fit `S` staged slots together; t itself when tree t is not staged.
template <class Forest>
KOKKOS_INLINE_FUNCTION int staged_chunk_end(Forest const& f, int t, int S) {
  std::int32_t const b0 = f.tree_begin(t);
  int c1 = t;
  while (c1 < f.last_tree && f.tree_dense(c1) >= 2 && f.tree_begin(c1 + 1) - b0 <= S) ++c1;
  return c1;
}

/// Packs the pool nodes [b0, b0 + len) into `staged` (StagedNode), one node per team thread.
template <class Member, class Forest, class Staged>
KOKKOS_INLINE_FUNCTION void stage_chunk(Member const& m, Forest const& f, Staged const& staged, std::int32_t b0,
                                        std::int32_t len) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, len), [&](int i) {
    PredictNode const n = f.nodes(b0 + i);
    std::uint32_t const meta = static_cast<std::uint32_t>(n.feature) | (n.default_left() ? StagedNode::kDefaultLeftBit : 0u);
    staged(i) = StagedNode{n.value, static_cast<std::int32_t>(meta)};
  });
}

/// Adds the leaf of tree t walked in the pool (dense numeric trees by walk_dense_numeric, the
/// others by DeviceForest::leaf) for row x to `margins`.
template <class Forest, class Row, class Margins>
KOKKOS_INLINE_FUNCTION void add_pool_tree(Forest const& f, int t, Row const& x, Margins const& margins) {
  int const dense = f.tree_dense(t);
  std::int32_t const leaf = dense >= 2 ? walk_dense_numeric(f, f.tree_begin(t), dense - 2, x) : f.leaf(t, x);
  margins.add_leaf(f, t, f.nodes(leaf).value, leaf);
}

/// Adds the leaves of the staged trees [t0, t1) (pool nodes from tree_begin(t0) in `staged`) for
/// row x to `margins`, in tree order.
template <class Forest, class Staged, class Row, class Margins>
KOKKOS_INLINE_FUNCTION void add_staged_trees(Forest const& f, Staged const& staged, int t0, int t1, Row const& x,
                                             Margins const& margins) {
  std::int32_t const b0 = f.tree_begin(t0);
  StagedTrees<Staged> const chunk{staged, f.missing};
  for (int tt = t0; tt < t1; ++tt) {
    std::int32_t const slot = walk_dense_numeric(chunk, f.tree_begin(tt) - b0, f.tree_dense(tt) - 2, x);
    margins.add_leaf(f, tt, staged(slot).value, b0 + slot);
  }
}
}  // namespace detail

/// Predictions of rows × features X (any layout) into `out` (rows × f.output_columns(), any
/// layout) with one thread per row over teams of up to `team_size` rows (fewer where the backend
/// allows fewer threads per team); `base_margin` rows × n_outputs or extent 0 for f.base_margin.
/// Runs on `space` (asynchronous on device backends). Label "kboost::predict::rows".
template <class ExecutionSpace, class MemorySpace, class XView, class OutView>
void predict_rows(ExecutionSpace const& space, DeviceForest<MemorySpace> const& f, XView const& X,
                  Kokkos::View<const float**, Kokkos::LayoutRight, typename DeviceForest<MemorySpace>::memory_space> const&
                      base_margin,
                  int team_size, OutView const& out) {
  static_assert(XView::rank == 2 && OutView::rank == 2, "X and out are rows x columns Views");
  compat::ScopedRegion region("kboost::predict::rows");
  using policy_t = Kokkos::TeamPolicy<ExecutionSpace>;
  using member_t = typename policy_t::member_type;
  using scratch_t = typename ExecutionSpace::scratch_memory_space;
  using floats_t = Kokkos::View<float*, scratch_t, Kokkos::MemoryUnmanaged>;
  using staged_t = Kokkos::View<detail::StagedNode*, scratch_t, Kokkos::MemoryUnmanaged>;
  int const n_rows = static_cast<int>(X.extent(0));
  int const n_feat = static_cast<int>(X.extent(1));
  if (n_rows == 0) return;
  int const K = f.n_outputs;
  // Features are staged while a team's block stays within 32 KiB; wider rows are read in place.
  bool const stage = static_cast<long>(team_size) * n_feat * 4 <= 32768;
  auto row_bytes = [&](int T) { return floats_t::shmem_size(stage ? T * n_feat : 0) + floats_t::shmem_size(T * K); };
  // Tree chunks take what scratch is left, up to 4,096 nodes (32 KiB); too little leaves them in place.
  std::size_t const room = static_cast<std::size_t>(policy_t::scratch_size_max(0));
  std::size_t const left = room > row_bytes(team_size) + 64 ? room - row_bytes(team_size) - 64 : 0;
  int S = static_cast<int>(std::min<std::size_t>(4096, left / sizeof(detail::StagedNode)));
  if (S < 256 || f.vector_leaf) S = 0;
  bool const has_bm = base_margin.extent(0) > 0;

  auto const body = KOKKOS_LAMBDA(member_t const& m) {
    int const T = m.team_size();
    int const row0 = m.league_rank() * T;
    int const nr = (n_rows - row0) < T ? (n_rows - row0) : T;
    floats_t xs(m.team_scratch(0), stage ? T * n_feat : 0);
    floats_t acc(m.team_scratch(0), T * K);
    staged_t staged(m.team_scratch(0), S);
    if (stage) detail::stage_row_features(m, X, xs, row0, nr, n_feat);
    int const r = m.team_rank();
    bool const active = r < nr;
    detail::RowMargins<floats_t> const margins{acc, T, r};
    if (active)
      for (int k = 0; k < K; ++k) margins(k) = has_bm ? base_margin(row0 + r, k) : f.base_margin(k);
    m.team_barrier();
    detail::ScratchRow const from_scratch{stage ? xs.data() : nullptr, T, r};
    detail::ViewRow<XView> const in_place{X, row0 + r};
    int t = f.first_tree;
    while (t < f.last_tree) {
      int const c1 = detail::staged_chunk_end(f, t, S);
      if (c1 == t) {  // a tree that is not staged: walked in the pool
        if (active) {
          if (stage) detail::add_pool_tree(f, t, from_scratch, margins);
          else detail::add_pool_tree(f, t, in_place, margins);
        }
        ++t;
        continue;
      }
      m.team_barrier();  // the previous chunk's walks are done
      detail::stage_chunk(m, f, staged, f.tree_begin(t), f.tree_begin(c1) - f.tree_begin(t));
      m.team_barrier();
      if (active) {
        if (stage) detail::add_staged_trees(f, staged, t, c1, from_scratch, margins);
        else detail::add_staged_trees(f, staged, t, c1, in_place, margins);
      }
      t = c1;
    }
    if (active) {
      auto o = [&](int j) -> float& { return out(row0 + r, j); };
      apply_transform(f.transform, K, margins, o);
    }
  };
  // Host backends cap the team size (Serial: 1); the body reads its team size from the member.
  auto bytes = [&](int T) { return row_bytes(T) + staged_t::shmem_size(S); };
  policy_t probe(space, 1, 1);
  probe.set_scratch_size(0, Kokkos::PerTeam(bytes(team_size)));
  int const T = std::max(1, std::min(team_size, probe.team_size_max(body, Kokkos::ParallelForTag())));
  policy_t policy(space, (n_rows + T - 1) / T, T);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes(T)));
  Kokkos::parallel_for("kboost::predict::rows", policy, body);
}

}  // namespace kboost
