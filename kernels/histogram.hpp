#pragma once
/// \file histogram.hpp
/// Integer gradient histograms per node × bin (bins are global: feature f owns [ptrs[f], ptrs[f+1])),
/// as upstream's GPU hist (src/tree/gpu_hist/histogram.cu SharedMemHistKernel, BuildGradientHistogram,
/// SubtractHist). Sums are int64 fixed point (kernels/quantiser.hpp), so the atomic order cannot change
/// a bit: results are identical on every backend, thread count and kernel choice.
/// Two kernels: a team-scratch tile (a team-local histogram of one feature group, flushed to global
/// memory with integer atomics) for nodes with at least `min_shared` rows, and a global-atomic kernel
/// for the rest.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/quantiser.hpp>

namespace kboost {

/// A node whose histogram is built: its slot in the histogram storage and its rows, positions
/// [begin, end) of the row partitioner's index array.
struct HistNode {
  std::int32_t slot = 0, begin = 0, end = 0;
};

/// One team's work in the tile kernel: rows ridx[begin, end) of a node, one feature group.
struct HistTile {
  std::int32_t slot, begin, end, group;
};

/// hist(sibling) = hist(parent) − hist(built).
struct HistSubtraction {
  std::int32_t parent = 0, built = 0, sibling = 0;
};

/// Builds node histograms. Construction precomputes feature groups of at most kTileBins bins
/// (contiguous features); a feature wider than that disables the tile kernel.
template <class ExecutionSpace, class Mem>
class HistogramBuilder {
 public:
  /// Bins of one tile's team-local histogram: 32 KiB of shared memory per team on GPUs; 128 KiB on
  /// host backends, where a team is one core and its L2 holds the tile, so that 30 features × 256
  /// bins fit one group and each row is read once per tile instead of once per group.
  static constexpr std::uint32_t kTileBins =
      Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible ? 8192 : 2048;
  using hist_view = Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, Mem>;
  using bins_view = Kokkos::View<const std::int32_t**, Kokkos::LayoutRight, Mem>;

  /// ptrs: host copy of the cut pointers (features + 1). min_shared: smallest node (rows) that uses
  /// the tile kernel (≤ 0: all nodes). tile_rows: rows per tile.
  HistogramBuilder(std::vector<std::uint32_t> const& ptrs, std::int64_t min_shared, std::int32_t tile_rows)
      : min_shared_(min_shared), tile_rows_(tile_rows > 0 ? tile_rows : 4096) {
    std::vector<std::int32_t> gf{0};
    std::vector<std::uint32_t> gb{ptrs.empty() ? 0u : ptrs[0]};
    int const nf = static_cast<int>(ptrs.size()) - 1;
    for (int f = 0; f < nf; ++f) {
      std::uint32_t const w = ptrs[f + 1] - ptrs[f];
      if (w > kTileBins) tile_ok_ = false;
      if (ptrs[f + 1] - gb.back() > kTileBins && f > gf.back()) {
        gf.push_back(f);
        gb.push_back(ptrs[f]);
      }
    }
    gf.push_back(nf);
    gb.push_back(ptrs.empty() ? 0u : ptrs.back());
    n_groups_ = static_cast<int>(gf.size()) - 1;
    group_feature_ = Kokkos::View<std::int32_t*, Mem>("kboost::hist::group_feature", gf.size());
    group_bin_ = Kokkos::View<std::uint32_t*, Mem>("kboost::hist::group_bin", gb.size());
    auto hf = Kokkos::create_mirror_view(group_feature_);
    auto hb = Kokkos::create_mirror_view(group_bin_);
    for (std::size_t i = 0; i < gf.size(); ++i) {
      hf(i) = gf[i];
      hb(i) = gb[i];
    }
    counted_deep_copy(group_feature_, hf);
    counted_deep_copy(group_bin_, hb);
  }

  bool tile_enabled() const { return tile_ok_; }
  int n_groups() const { return n_groups_; }

  /// Zero and build hist(slot, ·) for every node in `nodes` from the quantised gradients of the rows
  /// ridx[begin, end). bins: rows × features global bin (−1 missing); gpair: rows.
  void build(ExecutionSpace const& space, bins_view bins, Kokkos::View<const std::int32_t*, Mem> ridx,
             Kokkos::View<const GradientPairInt64*, Mem> gpair, std::vector<HistNode> const& nodes,
             hist_view hist) {
    compat::ScopedRegion region("kboost::hist::build");
    std::vector<HistNode> tile_nodes, global_nodes;
    for (auto const& n : nodes) {
      bool const tile = tile_ok_ && (n.end - n.begin) >= min_shared_;
      (tile ? tile_nodes : global_nodes).push_back(n);
    }
    zero(space, nodes, hist);
    if (!global_nodes.empty()) build_global(space, bins, ridx, gpair, global_nodes, hist);
    if (!tile_nodes.empty()) build_tile(space, bins, ridx, gpair, tile_nodes, hist);
  }

  /// hist(sibling) = hist(parent) − hist(built) for each triple (exact, integer).
  void subtract(ExecutionSpace const& space, std::vector<HistSubtraction> const& subs, hist_view hist) {
    if (subs.empty()) return;
    auto d = upload(subs_, subs);
    std::size_t const nb = hist.extent(1);
    Kokkos::parallel_for(
        "kboost::hist::subtract", Kokkos::RangePolicy<ExecutionSpace>(space, 0, subs.size() * nb),
        KOKKOS_LAMBDA(std::size_t i) {
          HistSubtraction const s = d(i / nb);
          std::size_t const b = i % nb;
          hist(s.sibling, b) = hist(s.parent, b) - hist(s.built, b);
        });
  }

  // The kernels below are public only because CUDA extended lambdas may not live in private members.
  template <class T>
  static Kokkos::View<T*, Mem> upload(Kokkos::View<T*, Mem>& buf, std::vector<T> const& v) {
    if (buf.extent(0) < v.size()) buf = Kokkos::View<T*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::hist::desc"), 2 * v.size());
    auto h = Kokkos::create_mirror_view(buf);
    for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
    counted_deep_copy(buf, h);
    return buf;
  }

  void zero(ExecutionSpace const& space, std::vector<HistNode> const& nodes, hist_view hist) {
    auto d = upload(zero_, nodes);
    std::size_t const nb = hist.extent(1);
    Kokkos::parallel_for(
        "kboost::hist::zero", Kokkos::RangePolicy<ExecutionSpace>(space, 0, nodes.size() * nb),
        KOKKOS_LAMBDA(std::size_t i) { hist(d(i / nb).slot, i % nb) = GradientPairInt64{}; });
  }

  void build_global(ExecutionSpace const& space, bins_view bins, Kokkos::View<const std::int32_t*, Mem> ridx,
                    Kokkos::View<const GradientPairInt64*, Mem> gpair, std::vector<HistNode> const& nodes,
                    hist_view hist) {
    // Concatenate the nodes' rows: offsets[k] = rows before node k.
    std::vector<HistNode> cat(nodes);
    std::int64_t total = 0;
    for (auto& n : cat) {
      std::int32_t const rows = n.end - n.begin;
      n.end = static_cast<std::int32_t>(total);  // reused as the node's offset in the concatenation
      total += rows;
    }
    if (total == 0) return;
    auto d = upload(global_, cat);
    int const nn = static_cast<int>(cat.size());
    int const nf = static_cast<int>(bins.extent(1));
    Kokkos::parallel_for(
        "kboost::hist::build_global", Kokkos::RangePolicy<ExecutionSpace>(space, 0, total),
        KOKKOS_LAMBDA(std::int64_t i) {
          int lo = 0, hi = nn - 1;  // last node with offset <= i
          while (lo < hi) {
            int const mid = (lo + hi + 1) / 2;
            if (d(mid).end <= i) lo = mid; else hi = mid - 1;
          }
          HistNode const n = d(lo);
          std::int32_t const row = ridx(n.begin + (i - n.end));
          GradientPairInt64 const g = gpair(row);
          if (g.grad == 0 && g.hess == 0) return;
          for (int f = 0; f < nf; ++f) {
            std::int32_t const b = bins(row, f);
            if (b < 0) continue;
            Kokkos::atomic_add(&hist(n.slot, b).grad, g.grad);
            Kokkos::atomic_add(&hist(n.slot, b).hess, g.hess);
          }
        });
  }

  void build_tile(ExecutionSpace const& space, bins_view bins, Kokkos::View<const std::int32_t*, Mem> ridx,
                  Kokkos::View<const GradientPairInt64*, Mem> gpair, std::vector<HistNode> const& nodes,
                  hist_view hist) {
    std::int32_t tile_rows = tile_rows_;
    if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
      // Host teams are cores: a level with one small node (the smaller child near the root) would
      // otherwise be a single tile on a single core. Shrink tiles so every core gets one (the tile
      // layout never changes a sum).
      std::int64_t rows = 0;
      for (auto const& n : nodes) rows += n.end - n.begin;
      std::int64_t const cores = compat::concurrency(space);
      std::int64_t const even = std::max<std::int64_t>(1024, (rows + cores - 1) / cores);
      tile_rows = static_cast<std::int32_t>(std::min<std::int64_t>(tile_rows, even));
    }
    std::vector<HistTile> tiles;
    for (auto const& n : nodes)
      for (std::int32_t b = n.begin; b < n.end; b += tile_rows)
        for (int g = 0; g < n_groups_; ++g)
          tiles.push_back(HistTile{n.slot, b, b + tile_rows < n.end ? b + tile_rows : n.end, g});
    if (tiles.empty()) return;
    auto d = upload(tiles_, tiles);
    auto gfeat = group_feature_;
    auto gbin = group_bin_;
    using policy = Kokkos::TeamPolicy<ExecutionSpace>;
    using scratch = Kokkos::View<GradientPairInt64*, typename ExecutionSpace::scratch_memory_space,
                                 Kokkos::MemoryUnmanaged>;
    std::uint32_t const cap = kTileBins;
    std::size_t const bytes = scratch::shmem_size(cap);
    Kokkos::parallel_for(
        "kboost::hist::build_tile",
        policy(space, static_cast<int>(tiles.size()), Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(bytes)),
        KOKKOS_LAMBDA(typename policy::member_type const& m) {
          HistTile const t = d(m.league_rank());
          std::int32_t const f0 = gfeat(t.group), f1 = gfeat(t.group + 1);
          std::uint32_t const b0 = gbin(t.group), nb = gbin(t.group + 1) - b0;
          scratch local(m.team_scratch(0), cap);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nb),
                               [&](std::uint32_t j) { local(j) = GradientPairInt64{}; });
          m.team_barrier();
          bool const alone = m.team_size() == 1;  // host backends: a team of one needs no atomics
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, t.end - t.begin), [&](std::int32_t j) {
            std::int32_t const row = ridx(t.begin + j);
            GradientPairInt64 const g = gpair(row);
            if (g.grad == 0 && g.hess == 0) return;
            for (std::int32_t f = f0; f < f1; ++f) {
              std::int32_t const b = bins(row, f);
              if (b < 0) continue;
              if (alone) {
                local(b - b0).grad += g.grad;
                local(b - b0).hess += g.hess;
              } else {
                Kokkos::atomic_add(&local(b - b0).grad, g.grad);
                Kokkos::atomic_add(&local(b - b0).hess, g.hess);
              }
            }
          });
          m.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nb), [&](std::uint32_t j) {
            GradientPairInt64 const v = local(j);
            if (v.grad != 0) Kokkos::atomic_add(&hist(t.slot, b0 + j).grad, v.grad);
            if (v.hess != 0) Kokkos::atomic_add(&hist(t.slot, b0 + j).hess, v.hess);
          });
        });
  }

 private:
  std::int64_t min_shared_;
  std::int32_t tile_rows_;
  bool tile_ok_ = true;
  int n_groups_ = 0;
  Kokkos::View<std::int32_t*, Mem> group_feature_;   ///< n_groups + 1 feature offsets
  Kokkos::View<std::uint32_t*, Mem> group_bin_;      ///< n_groups + 1 global bin offsets
  Kokkos::View<HistNode*, Mem> zero_, global_;
  Kokkos::View<HistTile*, Mem> tiles_;
  Kokkos::View<HistSubtraction*, Mem> subs_;
};

}  // namespace kboost
