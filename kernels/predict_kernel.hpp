#pragma once
/// \file predict_kernel.hpp
/// One kernel that predicts a block of rows with the whole ensemble: traversal, the sum over trees
/// and the output transform all happen on the device; only rows × outputs leave it.
///
/// Work mapping (TeamPolicy): a team owns a block of R rows (staged in scratch when small enough)
/// and walks the trees in chunks of C: the team's threads compute the leaf of every (tree, row) pair
/// of the chunk into scratch, then one thread per row adds the chunk's leaf values to the row's
/// accumulators IN TREE ORDER. So a batch of one row still spreads the trees over the team, and the
/// float32 sum order is fixed: base margin, then tree 0, 1, 2, ... exactly like upstream's CPU
/// predictor (src/predictor/cpu_predictor.cc PredValueByOneTree: out(row, group) += leaf, per tree in
/// turn; DART, src/gbm/gbtree.cc Dart::PredictBatchImpl: out += (0 + leaf) * weight_drop[tree]).
/// The result is independent of R, C, team size and backend.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

#include <kboost/core/compat.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/kernels/device_forest.hpp>
#include <kboost/kernels/predict_staged.hpp>
#include <kboost/kernels/split_rule.hpp>

namespace kboost {

/// Largest row block of the host's level-synchronous walk (its per-row positions live on the stack).
constexpr int kHostWideBlock = 64;

/// Largest batch for which device backends use the small-batch blocking (default_blocking) when
/// the pairs below do not apply (pred_leaf); beyond it one thread per row (predict_rows).
constexpr std::size_t kDeviceSmallBatch = 12288;

/// Device batches of up to kDevicePairMaxBatch rows and kDevicePairMaxWords (rows × trees leaf words
/// in the Predictor's buffer) spread (tree, row) pairs over the device (kernels/predict_pairs.hpp),
/// those of several outputs only above kDevicePairMinBatch rows (device_pairs_apply); the others
/// use the blocking below, larger ones predict_rows (docs/inference.md has the measurements).
constexpr std::size_t kDevicePairMinBatch = 1024;
constexpr std::size_t kDevicePairMaxBatch = 32768;
constexpr std::size_t kDevicePairMaxWords = std::size_t{1} << 25;

/// What to compute and how to block it.
struct PredictKernelParams {
  int tree_begin = 0, tree_end = 0;  ///< trees [tree_begin, tree_end) in pool order
  int n_outputs = 1;                 ///< margin columns (classes / targets)
  bool pred_leaf = false;            ///< write leaf node ids (rows × trees) instead of predictions
  bool output_margin = false;        ///< skip the transform
  OutputTransform transform = OutputTransform::kIdentity;
  float missing = std::numeric_limits<float>::quiet_NaN();  ///< NaN is always missing too
  int rows_per_team = 64;            ///< R
  int trees_per_chunk = 64;          ///< C
  int team_size = 1;
  /// Whether the traversal step keeps scalar leaf VALUES in team scratch (detail::leaf_word), so the
  /// ordered sum reads only scratch (device small batches), or leaf slots that the sum looks up.
  bool leaf_values_in_scratch = false;
  /// Device batches beyond kDeviceSmallBatch: one thread per row (kernels/predict_rows.hpp) in teams
  /// of team_size rows, instead of this file's (tree, row) blocking.
  bool one_row_per_thread = false;
  /// Device batches that device_pairs_apply: (tree, row) pairs over the whole device, then the
  /// ordered sum (kernels/predict_pairs.hpp).
  bool spread_pairs = false;
  /// Levels K of every tree of a chunk that the team stages in team scratch first
  /// (kernels/predict_staged.hpp), so each walk's first K decisions read scratch; clamped to what
  /// fits level-0 scratch (staged_fit, which may shorten the chunks), 0: none. The blocking only.
  int staged_levels = 0;
};

/// Whether a device batch takes predict_pairs: values (not pred_leaf), at most kDevicePairMaxBatch
/// rows and kDevicePairMaxWords pairs, and for several outputs more than kDevicePairMinBatch rows
/// (one output: any batch; the ordered sum of several outputs reads every tree's word once per
/// output, which the blocking avoids for small batches).
inline bool device_pairs_apply(std::size_t n_rows, int n_trees, PredictKernelParams const& p) {
  return !p.pred_leaf && n_rows <= kDevicePairMaxBatch &&
         n_rows * static_cast<std::size_t>(std::max(n_trees, 1)) <= kDevicePairMaxWords &&
         (p.n_outputs == 1 || n_rows > kDevicePairMinBatch);
}

/// Blocking defaults per backend: host spaces follow upstream's 64-row blocks with one thread per
/// block (more threads per block only when there are fewer blocks than threads); GPUs use, up to
/// kDevicePairMinBatch rows when the pairs do not apply, 1–8 rows per team over 512 threads and
/// chunks of 6,144 / R trees; where device_pairs_apply (tree, row) pairs over the device
/// (spread_pairs); beyond kDevicePairMaxBatch rows one thread per row in teams of 256
/// (predict_rows); pred_leaf takes the blocking up to kDeviceSmallBatch rows, then 32-row blocks
/// and 128 threads over (tree, row) pairs. None of these changes a bit.
template <class ExecutionSpace>
void default_blocking(ExecutionSpace const& space, std::size_t n_rows, int n_trees, PredictKernelParams& p) {
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecutionSpace::memory_space>::accessible;
  int const conc = compat::concurrency(space);
  if (host) {
    p.rows_per_team = 64;  // 256-row blocks were measured too: no faster at 1M rows (the walk, not the forest's cache misses, dominates)
    std::size_t blocks = (n_rows + 63) / 64;
    p.team_size = blocks >= static_cast<std::size_t>(conc) ? 1 : std::max(1, conc / static_cast<int>(std::max<std::size_t>(blocks, 1)));
    int rows = static_cast<int>(std::min<std::size_t>(n_rows, 64));
    p.trees_per_chunk = p.team_size > 1 ? std::max(64, std::min(1024, 8192 / std::max(rows, 1))) : 64;
  } else if (device_pairs_apply(n_rows, n_trees, p)) {
    p.spread_pairs = true;
  } else if (n_rows <= kDeviceSmallBatch) {
    // Small batches: few rows per team, so that there are about two teams per SM, and a large team
    // walking a chunk of up to 6,144 / R trees side by side; then one thread per (row, output) adds
    // the chunk's leaf words in tree order from team scratch (R · C words ≤ 24 KiB).
    int const sms = std::max(1, conc / 2048);
    std::size_t const per_team = (n_rows + 2 * static_cast<std::size_t>(sms) - 1) / (2 * static_cast<std::size_t>(sms));
    p.rows_per_team = static_cast<int>(std::min<std::size_t>(std::max<std::size_t>(per_team, 1), 8));
    p.team_size = 512;
    p.trees_per_chunk = 6144 / p.rows_per_team;
    p.leaf_values_in_scratch = true;
  } else {
    p.rows_per_team = 32;
    p.team_size = 128;
    p.trees_per_chunk = 128;
    p.one_row_per_thread = !p.pred_leaf;
    if (p.one_row_per_thread) p.team_size = 256;
  }
  if (p.trees_per_chunk > n_trees) p.trees_per_chunk = std::max(n_trees, 1);
}

namespace detail {
/// Level-synchronous walk of a dense numeric tree (tree_dense >= 2) at pool slot `base` for the rows
/// [0, nr) of a block, value(r, feature) reading row r: slots below leaves are filled with the leaf
/// (flatten_forest), so each row takes exactly `depth` branch-free steps, no leaf test. pos[r] ends
/// at the row's leaf position within the tree.
template <class Forest, class Value>
KOKKOS_INLINE_FUNCTION void walk_block_dense_numeric(Forest const& f, std::int32_t base, int depth, int nr,
                                                      Value const& value, float missing, std::int32_t* pos) {
  for (int r = 0; r < nr; ++r) pos[r] = 0;
  for (int l = 0; l < depth; ++l) {
    for (int r = 0; r < nr; ++r) {
      PredictNode const n = f.nodes(base + pos[r]);
      float const v = value(r, n.feature);
      bool const left = numeric_goes_left(n, v, missing);
      pos[r] = 2 * pos[r] + (left ? 1 : 2);
    }
  }
}

/// Level-synchronous walk of a dense tree with categorical splits: as walk_block_dense_numeric, but
/// a row stops at its first leaf and each split follows split_goes_left.
template <class Forest, class Value>
KOKKOS_INLINE_FUNCTION void walk_block_dense(Forest const& f, std::int32_t base, int nr, Value const& value,
                                             float missing, std::int32_t* pos) {
  for (int r = 0; r < nr; ++r) pos[r] = 0;
  bool moved = true;
  while (moved) {
    moved = false;
    for (int r = 0; r < nr; ++r) {
      PredictNode const n = f.nodes(base + pos[r]);
      if (n.flags & PredictNode::kLeaf) continue;
      moved = true;
      float const v = value(r, n.feature);
      bool const left = split_goes_left(f, base + pos[r], n, v, missing);
      pos[r] = 2 * pos[r] + 1 + (left ? 0 : 1);
    }
  }
}

/// predict_forest's team body: a team owns a block of R rows; per chunk of C trees it computes the
/// leaf of every (tree, row) pair into scratch (walk_by_tree or walk_by_pair), then adds the chunk's
/// leaves to the rows' accumulators in tree order (add_chunk); last the transform (write_outputs).
template <class ExecutionSpace, class MemorySpace, class XView, class OutView>
struct ForestTeamKernel {
  using member_t = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_t = typename ExecutionSpace::scratch_memory_space;
  template <class T>
  using scratch_view = Kokkos::View<T*, scratch_t, Kokkos::MemoryUnmanaged>;

  /// A team's rows [row0, row0 + nr) and its scratch: leaf words (R × C), the chunk's output
  /// columns (C), accumulators (R × K), the staged rows (R × n_feat, or none) and the chunk's staged
  /// top levels (C × S heap entries and their positions, or none).
  struct Block {
    int row0, nr;
    scratch_view<std::int32_t> leaf, group;
    scratch_view<float> acc, xs;
    scratch_view<PredictNode> top;
    scratch_view<std::int32_t> top_pos;
  };

  DeviceForest<MemorySpace> f;
  XView X;
  Kokkos::View<const float**, Kokkos::LayoutRight, MemorySpace> base_margin;  ///< extent 0: f.base_margin
  OutView out;
  PredictKernelParams prm;
  int n_rows, n_feat, R, C, K, xs_len, level;
  int staged, S;    ///< levels staged per tree (0: none) and their heap entries per tree
  bool stage;       ///< rows copied into scratch first
  bool has_bm;      ///< base_margin given per row
  bool words;       ///< the walk keeps leaf words (leaf_values_in_scratch), not slots
  bool level_sync;  ///< one thread walks a tree for the whole block (walk_by_tree)

  KOKKOS_INLINE_FUNCTION void operator()(member_t const& m) const {
    Block const b = block(m);
    start_block(m, b);
    int const tb = prm.tree_begin, te = prm.tree_end;
    for (int c0 = tb; c0 < te; c0 += C) {
      int const nc = (te - c0) < C ? (te - c0) : C;
      if (!prm.pred_leaf && K > 1 && !f.vector_leaf)  // the chunk's output columns, for the sum below
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nc), [&](int t) { b.group(t) = f.tree_group(c0 + t); });
      if (staged > 0) stage_top_levels(m, b, c0, nc);
      if (level_sync) walk_by_tree(m, b, c0, nc);
      else walk_by_pair(m, b, c0, nc);
      m.team_barrier();
      if (!prm.pred_leaf) {
        add_chunk(m, b, c0, nc);
        m.team_barrier();
      }
    }
    if (!prm.pred_leaf) write_outputs(m, b);
  }

  /// Team `m`'s rows and its scratch views, carved in this order from one allocation.
  KOKKOS_INLINE_FUNCTION Block block(member_t const& m) const {
    int const row0 = m.league_rank() * R;
    int const nr = (n_rows - row0) < R ? (n_rows - row0) : R;
    scratch_view<std::int32_t> leaf(m.team_scratch(level), R * C);
    scratch_view<std::int32_t> group(m.team_scratch(level), C);
    scratch_view<float> acc(m.team_scratch(level), R * K);
    scratch_view<float> xs(m.team_scratch(level), xs_len);
    scratch_view<PredictNode> top(m.team_scratch(level), C * S);
    scratch_view<std::int32_t> top_pos(m.team_scratch(level), C * S);
    return Block{row0, nr, leaf, group, acc, xs, top, top_pos};
  }

  /// The top `staged` levels of the chunk's trees into the block's heaps, level by level (an entry
  /// reads its parent's), then a barrier: every walk of the chunk reads them.
  KOKKOS_INLINE_FUNCTION void stage_top_levels(member_t const& m, Block const& b, int c0, int nc) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nc), [&](int t) {
      b.top(t * S) = f.nodes(f.tree_begin(c0 + t));
      b.top_pos(t * S) = 0;
    });
    m.team_barrier();
    for (int l = 1; l < staged; ++l) {
      int const width = 1 << l;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nc * width), [&](int k) {
        int const t = k / width;
        stage_heap_entry(f, c0 + t, width - 1 + k % width, &b.top(t * S), &b.top_pos(t * S));
      });
      m.team_barrier();
    }
  }

  /// Leaf slot of (tree c0 + t, row r) of the block: through the staged levels when there are some.
  template <class Row>
  KOKKOS_INLINE_FUNCTION std::int32_t leaf_slot(Block const& b, int c0, int t, Row const& x) const {
    if (staged > 0) return traverse_staged(f, c0 + t, x, prm.missing, &b.top(t * S), &b.top_pos(t * S), staged);
    return traverse_tree(f, c0 + t, x, prm.missing);
  }

  /// Stages the block's rows (when `stage`) and starts its accumulators at the base margins.
  KOKKOS_INLINE_FUNCTION void start_block(member_t const& m, Block const& b) const {
    if (stage) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, b.nr * n_feat),
                           [&](int k) { b.xs(k) = X(b.row0 + k / n_feat, k % n_feat); });
    }
    if (!prm.pred_leaf) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, b.nr * K), [&](int k) {
        b.acc(k) = has_bm ? base_margin(b.row0 + k / K, k % K) : f.base_margin(k % K);
      });
    }
    m.team_barrier();
  }

  /// What the scratch keeps of a (tree, row) pair: the leaf word, or the slot (pred_leaf writes node
  /// ids from it).
  KOKKOS_INLINE_FUNCTION std::int32_t keep(int tree, std::int32_t slot) const {
    return words ? detail::leaf_word(f, tree, slot) : slot;
  }

  /// Host: a thread walks one tree for all rows of the block, dense trees level by level, so the
  /// block's independent node loads overlap (upstream's array_tree_layout.h does the same).
  KOKKOS_INLINE_FUNCTION void walk_by_tree(member_t const& m, Block const& b, int c0, int nc) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nc), [&](int t) {
      int const tree = c0 + t;
      auto const value = [&](int r, int feature) -> float {
        return stage ? b.xs(r * n_feat + feature) : X(b.row0 + r, feature);
      };
      int const dense = f.tree_dense(tree);
      if (dense) {
        std::int32_t pos[kHostWideBlock];
        std::int32_t const base = f.tree_begin(tree);
        if (dense >= 2) walk_block_dense_numeric(f, base, dense - 2, b.nr, value, prm.missing, pos);
        else walk_block_dense(f, base, b.nr, value, prm.missing, pos);
        for (int r = 0; r < b.nr; ++r) b.leaf(r * C + t) = keep(tree, base + pos[r]);
      } else {
        for (int r = 0; r < b.nr; ++r)
          b.leaf(r * C + t) = keep(tree, stage ? traverse_tree(f, tree, &b.xs(r * n_feat), prm.missing)
                                               : traverse_tree(f, tree, ViewRow<XView>{X, b.row0 + r}, prm.missing));
      }
      if (prm.pred_leaf)
        for (int r = 0; r < b.nr; ++r) out(b.row0 + r, tree - prm.tree_begin) = static_cast<float>(f.node_ids(b.leaf(r * C + t)));
    });
  }

  /// Leaves of (tree, row) pairs; rows fastest so neighbouring threads share a tree.
  KOKKOS_INLINE_FUNCTION void walk_by_pair(member_t const& m, Block const& b, int c0, int nc) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nc * b.nr), [&](int k) {
      int const t = k / b.nr, r = k % b.nr;
      std::int32_t const l = stage ? leaf_slot(b, c0, t, &b.xs(r * n_feat)) : leaf_slot(b, c0, t, ViewRow<XView>{X, b.row0 + r});
      if (prm.pred_leaf) out(b.row0 + r, c0 - prm.tree_begin + t) = static_cast<float>(f.node_ids(l));
      else b.leaf(r * C + t) = keep(c0 + t, l);
    });
  }

  /// Fixed order: each (row, output) adds its trees' leaves tree by tree in a register, as upstream
  /// adds them to out(row, group); vector leaves add K values per tree.
  KOKKOS_INLINE_FUNCTION void add_chunk(member_t const& m, Block const& b, int c0, int nc) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, f.vector_leaf ? b.nr : b.nr * K), [&](int k) {
      if (f.vector_leaf) {
        float* a = &b.acc(k * K);
        for (int t = 0; t < nc; ++t) {
          std::int32_t const off = f.nodes(b.leaf(k * C + t)).child;
          for (int j = 0; j < K; ++j) a[j] += f.leaf_values(off + j);
        }
        return;
      }
      int const r = k / K, g = k % K;
      float s = b.acc(k);
      if (words && K == 1) {
        for (int t = 0; t < nc; ++t) s += pmath::detail::bit_cast<float>(b.leaf(r * C + t));
      } else if (words) {
        for (int t = 0; t < nc; ++t)
          if (b.group(t) == g) s += pmath::detail::bit_cast<float>(b.leaf(r * C + t));
      } else {
        for (int t = 0; t < nc; ++t)
          if (K == 1 || b.group(t) == g) s += detail::scalar_leaf(f, c0 + t, b.leaf(r * C + t));
      }
      b.acc(k) = s;
    });
  }

  /// The block's accumulators through the output transform (none for output_margin) into `out`.
  KOKKOS_INLINE_FUNCTION void write_outputs(member_t const& m, Block const& b) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, b.nr), [&](int r) {
      float* a = &b.acc(r * K);
      auto in = [&](int j) -> float& { return a[j]; };
      auto o = [&](int j) -> float& { return out(b.row0 + r, j); };
      apply_transform(prm.output_margin ? OutputTransform::kIdentity : prm.transform, K, in, o);
    });
  }
};
}  // namespace detail

/// Predict rows of X (rows × features, features ≥ the model's; any layout: LayoutRight, LayoutLeft,
/// LayoutStride) into `out` (any layout):
///  - values: rows × n_outputs margins (output_margin) or transformed outputs (rows × 1 for argmax);
///  - pred_leaf: rows × (tree_end - tree_begin) original node ids as float.
/// `base_margin`: rows × n_outputs initial margins, or extent 0 to start from f.base_margin (margin
/// space, n_outputs). `f` is the compact pointer handle (a small kernel argument: Kokkos' CUDA
/// backend launches larger ones through constant memory, which waits for the previous launch); its
/// tree range and transform are p's. Runs on `space` (asynchronous on device backends). Label
/// "kboost::predict::forest".
template <class ExecutionSpace, class MemorySpace, class XView, class OutView>
void predict_forest(ExecutionSpace const& space, DeviceForest<MemorySpace> const& f, XView const& X,
                    Kokkos::View<const float**, Kokkos::LayoutRight, MemorySpace> base_margin,
                    PredictKernelParams const& p, OutView const& out) {
  static_assert(XView::rank == 2 && OutView::rank == 2, "X and out are rows x columns Views");
  compat::ScopedRegion region("kboost::predict::forest");
  using policy_t = Kokkos::TeamPolicy<ExecutionSpace>;
  using kernel_t = detail::ForestTeamKernel<ExecutionSpace, MemorySpace, XView, OutView>;
  using scratch_t = typename kernel_t::scratch_t;
  int const n_rows = static_cast<int>(X.extent(0));
  int const n_feat = static_cast<int>(X.extent(1));
  if (n_rows == 0) return;
  int const R = p.rows_per_team, K = p.n_outputs;
  bool const stage = static_cast<long>(R) * n_feat <= 4096;
  int const xs_len = stage ? R * n_feat : 0;
  auto const scratch_bytes = [&](int trees, int slots) -> std::size_t {
    return Kokkos::View<std::int32_t*, scratch_t>::shmem_size(R * trees) + Kokkos::View<std::int32_t*, scratch_t>::shmem_size(trees) +
           Kokkos::View<float*, scratch_t>::shmem_size(R * K) + Kokkos::View<float*, scratch_t>::shmem_size(xs_len) +
           Kokkos::View<PredictNode*, scratch_t>::shmem_size(trees * slots) +
           Kokkos::View<std::int32_t*, scratch_t>::shmem_size(trees * slots);
  };
  std::size_t const level0 = static_cast<std::size_t>(policy_t::scratch_size_max(0));
  StagedFit const top = p.staged_levels > 0 ? staged_fit(p.staged_levels, p.trees_per_chunk, scratch_bytes, level0)
                                            : StagedFit{0, p.trees_per_chunk};
  int const C = top.trees, S = staged_slots(top.levels);
  std::size_t const bytes = scratch_bytes(C, S);
  int const league = (n_rows + R - 1) / R;
  int const level = bytes <= level0 ? 0 : 1;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;
  kernel_t body{f, X, base_margin, out, p, n_rows, n_feat, R, C, K, xs_len, level, top.levels, S, stage,
                /*has_bm=*/base_margin.extent(0) > 0,
                /*words=*/p.leaf_values_in_scratch && !p.pred_leaf,
                // level-synchronous walk when a thread has the whole block
                /*level_sync=*/host && p.team_size == 1 && R <= kHostWideBlock && top.levels == 0};
  // The team size the kernel's registers allow (a large small-batch team may not fit).
  policy_t probe(space, league, 1);
  probe.set_scratch_size(level, Kokkos::PerTeam(bytes));
  int const team_size = std::max(1, std::min(p.team_size, probe.team_size_max(body, Kokkos::ParallelForTag())));
  policy_t policy(space, league, team_size);
  policy.set_scratch_size(level, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for("kboost::predict::forest", policy, body);
}

}  // namespace kboost
