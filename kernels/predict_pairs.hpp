#pragma once
/// \file predict_pairs.hpp
/// Batches on GPUs as (tree, row) pairs spread over the whole device, one thread per pair, then the
/// leaves summed per row in tree order by a second kernel (the Predictor takes it for the batch
/// sizes kernels/predict_kernel.hpp default_blocking names). Every multiprocessor walks trees even
/// when the batch has few rows, and the sum stays the ordered float32 sum of
/// kernels/predict_kernel.hpp (base margin, then tree 0, 1, 2, ... as upstream's
/// src/predictor/cpu_predictor.cc PredValueByOneTree; DART's (0 + leaf) · weight_drop as
/// src/gbm/gbtree.cc Dart::PredictBatchImpl), so its bits are the other predictors' on every backend.
///
/// Pass 1, "kboost::predict::pair_leaves": one thread per (tree, row), ordered by blocks of
/// kPairRowBlock rows, then tree, then row (rows fastest, so a warp walks one tree for 32 rows and
/// shares its node loads; the warps of a row block walk every tree for the same rows) and
/// stores the leaf word (detail::leaf_word: the DART-weighted leaf value's bits, or the leaf's pool
/// slot for vector-leaf trees) at words(tree × rows + row): trees × rows, coalesced.
/// Pass 2, "kboost::predict::ordered_sum": a team per block of rows; one thread per (row, output)
/// adds its trees' words in tree order from the base margin, reading them from the buffer (one
/// thread per row adds K values per tree for vector leaves), then one thread per row applies the
/// output transform into `out`. Batches of at most detail::kTiledSumMaxRows rows (scalar leaves, on
/// devices) take detail::TiledLeafSum instead: one team copies the words into scratch tile by tile,
/// all loads in flight together, and adds them from there in the same order (docs/inference.md says
/// why larger batches read the buffer directly).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/kernels/device_forest.hpp>
#include <kboost/kernels/split_rule.hpp>

namespace kboost {

/// Words predict_pairs needs in its `words` buffer for `n_rows` rows and `n_trees` trees.
inline std::size_t pair_words(std::size_t n_rows, int n_trees) {
  return n_rows * static_cast<std::size_t>(std::max(n_trees, 0));
}

namespace detail {
/// Words of a row that pass 2 loads before adding them.
constexpr int kSumPrefetch = 32;

/// Batches of at most this many rows take pass 2 as TiledLeafSum: one team, every word of the batch
/// loaded into scratch by the whole team before a thread per (row, output) adds them, so the loads
/// are all in flight at once instead of kSumPrefetch per thread.
constexpr int kTiledSumMaxRows = 16;

/// Words of one TiledLeafSum tile (trees × rows), 32 KiB of team scratch.
constexpr int kTiledSumWords = 8192;

/// Rows of one block of pass 1: the pairs run row block by row block, and within a block tree by
/// tree, so a multiprocessor's warps walk many trees for the same rows and find them in its cache.
constexpr int kPairRowBlock = 64;

/// Pass 2's team body: rows [row0, row0 + R) of the batch, accumulators in team scratch.
template <class ExecutionSpace, class MemorySpace, class OutView>
struct OrderedLeafSum {
  using member_t = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = Kokkos::View<float*, typename ExecutionSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  DeviceForest<MemorySpace> f;
  Kokkos::View<const std::int32_t*, MemorySpace> words;
  Kokkos::View<const float**, Kokkos::LayoutRight, MemorySpace> base_margin;  ///< extent 0: f.base_margin
  OutView out;
  int n_rows, R, K;

  KOKKOS_INLINE_FUNCTION void operator()(member_t const& m) const {
    int const row0 = m.league_rank() * R;
    int const nr = (n_rows - row0) < R ? (n_rows - row0) : R;
    scratch_view acc(m.team_scratch(0), R * K);
    if (f.vector_leaf) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nr), [&](int r) { add_vector_leaves(row0 + r, &acc(r * K)); });
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nr * K),
                           [&](int k) { acc(k) = scalar_sum(row0 + k / K, k % K); });
    }
    m.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nr), [&](int r) {
      float* a = &acc(r * K);
      auto in = [&](int j) -> float& { return a[j]; };
      auto o = [&](int j) -> float& { return out(row0 + r, j); };
      apply_transform(f.transform, K, in, o);
    });
  }

  KOKKOS_INLINE_FUNCTION float start(int row, int g) const {
    return base_margin.extent(0) > 0 ? base_margin(row, g) : f.base_margin(g);
  }

  /// Output g of `row`: its base margin plus the leaves of the trees of group g, in tree order.
  /// The words are loaded kSumPrefetch at a time before they are added, so that one thread keeps
  /// that many loads in flight (a batch has few rows, hence few threads, for this latency-bound
  /// pass); the additions stay one after the other in tree order.
  KOKKOS_INLINE_FUNCTION float scalar_sum(int row, int g) const {
    std::size_t const stride = static_cast<std::size_t>(n_rows);
    std::int32_t const* w = words.data() + row;
    int const n_trees = f.last_tree - f.first_tree;
    float s = start(row, g);
    int t = 0;
    if (K == 1) {
      for (; t + kSumPrefetch <= n_trees; t += kSumPrefetch) {
        float v[kSumPrefetch];
KBOOST_UNROLL
        for (int j = 0; j < kSumPrefetch; ++j) v[j] = pmath::detail::bit_cast<float>(w[(t + j) * stride]);
KBOOST_UNROLL
        for (int j = 0; j < kSumPrefetch; ++j) s += v[j];
      }
    } else {
      for (; t + kSumPrefetch <= n_trees; t += kSumPrefetch) {
        float v[kSumPrefetch];
KBOOST_UNROLL
        for (int j = 0; j < kSumPrefetch; ++j)
          v[j] = f.tree_group(f.first_tree + t + j) == g ? pmath::detail::bit_cast<float>(w[(t + j) * stride]) : -0.0f;
KBOOST_UNROLL
        for (int j = 0; j < kSumPrefetch; ++j) s += v[j];
      }
    }
    for (; t < n_trees; ++t)
      if (K == 1 || f.tree_group(f.first_tree + t) == g) s += pmath::detail::bit_cast<float>(w[t * stride]);
    return s;
  }

  /// Vector leaves: every tree adds its K leaf values to the row's K accumulators, tree by tree.
  KOKKOS_INLINE_FUNCTION void add_vector_leaves(int row, float* a) const {
    for (int j = 0; j < K; ++j) a[j] = start(row, j);
    int const n_trees = f.last_tree - f.first_tree;
    for (int t = 0; t < n_trees; ++t) {
      std::int32_t const off = f.nodes(words(static_cast<std::size_t>(t) * n_rows + row)).child;
      for (int j = 0; j < K; ++j) a[j] += f.leaf_values(off + j);
    }
  }
};

/// Pass 2 for batches of at most kTiledSumMaxRows rows of scalar leaves: one team; tile by tile of
/// trees, the team copies the tile's words (trees × rows, contiguous in the buffer) into scratch,
/// then one thread per (row, output) adds them to its accumulator in tree order: the same additions
/// in the same order as OrderedLeafSum::scalar_sum.
template <class ExecutionSpace, class MemorySpace, class OutView>
struct TiledLeafSum {
  using member_t = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  template <class T>
  using scratch_view = Kokkos::View<T*, typename ExecutionSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  DeviceForest<MemorySpace> f;
  Kokkos::View<const std::int32_t*, MemorySpace> words;
  Kokkos::View<const float**, Kokkos::LayoutRight, MemorySpace> base_margin;  ///< extent 0: f.base_margin
  OutView out;
  int n_rows, K, T;  ///< T: trees per tile, T × n_rows <= kTiledSumWords

  /// Team scratch bytes: the accumulators (rows × K) and one tile's words (T × rows).
  static std::size_t scratch_bytes(int n_rows, int K, int T) {
    return scratch_view<float>::shmem_size(static_cast<std::size_t>(n_rows) * K) +
           scratch_view<std::int32_t>::shmem_size(static_cast<std::size_t>(T) * n_rows);
  }

  KOKKOS_INLINE_FUNCTION void operator()(member_t const& m) const {
    scratch_view<float> acc(m.team_scratch(0), n_rows * K);
    scratch_view<std::int32_t> tile(m.team_scratch(0), T * n_rows);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n_rows * K), [&](int k) {
      acc(k) = base_margin.extent(0) > 0 ? base_margin(k / K, k % K) : f.base_margin(k % K);
    });
    m.team_barrier();  // the transform below may read other threads' accumulators (no trees: no tile barrier)
    int const n_trees = f.last_tree - f.first_tree;
    for (int t0 = 0; t0 < n_trees; t0 += T) {
      int const nt = (n_trees - t0) < T ? (n_trees - t0) : T;
      std::size_t const first = static_cast<std::size_t>(t0) * n_rows;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nt * n_rows), [&](int k) { tile(k) = words(first + k); });
      m.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n_rows * K),
                           [&](int k) { acc(k) = add_tile(tile, t0, nt, k / K, k % K, acc(k)); });
      m.team_barrier();
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n_rows), [&](int r) {
      float* a = &acc(r * K);
      auto in = [&](int j) -> float& { return a[j]; };
      auto o = [&](int j) -> float& { return out(r, j); };
      apply_transform(f.transform, K, in, o);
    });
  }

  /// s plus the leaves of row r's trees of group g among the tile's nt trees (from tree t0), in order.
  /// The words are read kSumPrefetch at a time before they are added, so the scratch loads overlap
  /// and only the additions wait on one another (several outputs: each tree of group g in turn).
  KOKKOS_INLINE_FUNCTION float add_tile(scratch_view<std::int32_t> const& tile, int t0, int nt, int r, int g,
                                        float s) const {
    std::int32_t const* const w = tile.data() + r;
    int const stride = n_rows;
    int t = 0;
    if (K == 1) {
      for (; t + kSumPrefetch <= nt; t += kSumPrefetch) {
        float v[kSumPrefetch];
KBOOST_UNROLL
        for (int j = 0; j < kSumPrefetch; ++j) v[j] = pmath::detail::bit_cast<float>(w[(t + j) * stride]);
KBOOST_UNROLL
        for (int j = 0; j < kSumPrefetch; ++j) s += v[j];
      }
      for (; t < nt; ++t) s += pmath::detail::bit_cast<float>(w[t * stride]);
      return s;
    }
    for (; t < nt; ++t)
      if (f.tree_group(f.first_tree + t0 + t) == g) s += pmath::detail::bit_cast<float>(w[t * stride]);
    return s;
  }
};
}  // namespace detail

/// Predict rows of X (rows × features, any layout; NaN and f.missing are missing) with the trees
/// [f.first_tree, f.last_tree) of `f` into `out` (rows × f.output_columns(), any layout), by the two
/// passes above. `base_margin`: rows × f.n_outputs initial margins, or extent 0 for f.base_margin.
/// `words`: a device buffer of at least pair_words(rows, trees) words, which the call overwrites
/// (a caller keeps one per stream and reuses it: kernels on one instance run in order). Runs on
/// `space`, asynchronously on device backends. Bit-identical to predict_forest and predict_rows.
/// \throws std::invalid_argument when `words` is too small.
template <class ExecutionSpace, class MemorySpace, class XView, class OutView>
void predict_pairs(ExecutionSpace const& space, DeviceForest<MemorySpace> const& f, XView const& X,
                   Kokkos::View<const float**, Kokkos::LayoutRight, typename DeviceForest<MemorySpace>::memory_space> const&
                       base_margin,
                   Kokkos::View<std::int32_t*, typename DeviceForest<MemorySpace>::memory_space> const& words,
                   OutView const& out) {
  static_assert(XView::rank == 2 && OutView::rank == 2, "X and out are rows x columns Views");
  compat::ScopedRegion region("kboost::predict::pairs");
  int const n_rows = static_cast<int>(X.extent(0));
  int const n_trees = f.last_tree - f.first_tree;
  if (n_rows == 0) return;
  std::size_t const n_pairs = pair_words(X.extent(0), n_trees);
  if (words.extent(0) < n_pairs)
    throw std::invalid_argument("predict_pairs: the words buffer holds " + std::to_string(words.extent(0)) +
                                " words, the batch needs " + std::to_string(n_pairs));
  auto const w = words;
  // k = (row block, tree, row within the block); the last block may be partial
  std::int64_t const block_pairs = static_cast<std::int64_t>(detail::kPairRowBlock) * n_trees;
  std::int64_t const n_blocks = (n_rows + detail::kPairRowBlock - 1) / detail::kPairRowBlock;
  Kokkos::parallel_for("kboost::predict::pair_leaves",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n_blocks * block_pairs),
                       KOKKOS_LAMBDA(std::int64_t k) {
                         std::int64_t const in_block = k % block_pairs;
                         int const row = static_cast<int>((k / block_pairs) * detail::kPairRowBlock +
                                                          in_block % detail::kPairRowBlock);
                         if (row >= n_rows) return;
                         int const t = static_cast<int>(in_block / detail::kPairRowBlock);
                         int const tree = f.first_tree + t;
                         w(static_cast<std::int64_t>(t) * n_rows + row) =
                             detail::leaf_word(f, tree, traverse_tree(f, tree, detail::ViewRow<XView>{X, row}, f.missing));
                       });
  int const K = f.n_outputs;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;
  if (!host && !f.vector_leaf && n_rows <= detail::kTiledSumMaxRows) {
    using tiled_t = detail::TiledLeafSum<ExecutionSpace, MemorySpace, OutView>;
    int const T = std::max(1, std::min(n_trees, detail::kTiledSumWords / n_rows));
    Kokkos::TeamPolicy<ExecutionSpace> policy(space, 1, 256);
    policy.set_scratch_size(0, Kokkos::PerTeam(tiled_t::scratch_bytes(n_rows, K, T)));
    Kokkos::parallel_for("kboost::predict::ordered_sum_tiled", policy, tiled_t{f, words, base_margin, out, n_rows, K, T});
    return;
  }
  int const R = host ? 64 : std::max(1, std::min(n_rows, 128 / std::max(K, 1)));
  int const team = host ? 1 : std::min(128, std::max(32, ((R * K + 31) / 32) * 32));
  using body_t = detail::OrderedLeafSum<ExecutionSpace, MemorySpace, OutView>;
  Kokkos::TeamPolicy<ExecutionSpace> policy(space, (n_rows + R - 1) / R, team);
  policy.set_scratch_size(0, Kokkos::PerTeam(body_t::scratch_view::shmem_size(static_cast<std::size_t>(R) * K)));
  Kokkos::parallel_for("kboost::predict::ordered_sum", policy, body_t{f, words, base_margin, out, n_rows, R, K});
}

/// Device buffers for predict_pairs' leaf words, one per execution-space instance (a stream, on
/// device backends; kernels on one instance run in order, so its buffer is never used by two batches
/// at once), grown to the largest batch seen. Thread-safe.
template <class MemorySpace>
class PairWordBuffers {
 public:
  using view_type = Kokkos::View<std::int32_t*, MemorySpace>;

  /// A buffer of at least `n` words for launches on `space`'s instance. Growing one frees the old
  /// buffer, which device backends do only after their queued kernels finish.
  template <class ExecutionSpace>
  view_type get(ExecutionSpace const& space, std::size_t n) {
    void const* const key = compat::instance_key(space);
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& kv : buffers_) {
      if (kv.first != key) continue;
      if (kv.second.extent(0) < n) {
        kv.second = view_type();  // the old buffer is freed before the larger one is allocated
        kv.second = view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::predict::pair_words"), n);
      }
      return kv.second;
    }
    buffers_.emplace_back(key, view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::predict::pair_words"), n));
    return buffers_.back().second;
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<void const*, view_type>> buffers_;
};

}  // namespace kboost
