#pragma once
/// \file histogram.hpp
/// Integer gradient histograms per node × global bin (feature f owns [ptrs[f], ptrs[f+1])) from
/// compressed bin codes,
/// as upstream's GPU hist (src/tree/gpu_hist/histogram.cu SharedMemHistKernel, BuildGradientHistogram,
/// SubtractHist). Sums are int64 fixed point (kernels/quantiser.hpp), so the atomic order cannot change
/// a bit: results are identical on every backend, thread count and kernel choice.
/// Two kernels: a team-scratch tile (a team-local histogram of one feature group, flushed to global
/// memory with integer atomics) for nodes with at least `min_shared` rows, and a global-atomic kernel
/// for the rest (on host backends, where a team is one core, one core per node with plain adds).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/core/upload_arena.hpp>
#include <kboost/kernels/binning.hpp>
#include <kboost/kernels/detail/present_codes.hpp>
#include <kboost/kernels/hist_subtraction.hpp>
#include <kboost/kernels/quantiser.hpp>

namespace kboost {

namespace detail {
/// *dst += v as two 32-bit atomics, the low word's carry added to the high word: exact in any order
/// (two's complement sums modulo 2^64), and faster than 64-bit atomics on team scratch (upstream's
/// AtomicAdd64As32, src/common/device_helpers.cuh). Little-endian words, as on every GPU kboost runs.
KOKKOS_INLINE_FUNCTION void atomic_add_as_32(std::int64_t* dst, std::int64_t v) {
  auto* const low = reinterpret_cast<std::uint32_t*>(dst);
  std::uint32_t const x_low = static_cast<std::uint32_t>(static_cast<std::uint64_t>(v));
  std::uint32_t const x_high = static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) >> 32);
  std::uint32_t const old = Kokkos::atomic_fetch_add(low, x_low);
  std::uint32_t const carry = old > 0xffffffffu - x_low ? 1u : 0u;
  Kokkos::atomic_add(low + 1, x_high + carry);
}
}  // namespace detail

/// A node whose histogram is built: its slot in the histogram storage and its rows, positions
/// [begin, end) of the row partitioner's index array. A child whose parent was partitioned by work
/// still queued on the device (the host has not seen the row counts: split ≥ 0) names its parent's
/// rows [begin, end) and its side instead; the kernels read where the parent's rows divide from the
/// partitioner's left counts, counts(split). `expected`: such a child's row count as the host
/// estimates it: the kernels plan threads and tiles for that many rows, and a thread or tile takes
/// every planned-th run of the actual rows, so any estimate covers them all.
struct HistNode {
  std::int32_t slot = 0, begin = 0, end = 0;
  std::int32_t split = -1, right = 0, expected = 0;

  /// Rows the host plans threads and tiles for (at least 1 for a child on the device).
  KOKKOS_INLINE_FUNCTION std::int32_t planned() const { return split < 0 ? end - begin : (expected > 0 ? expected : 1); }
  /// The node's rows [first, second) (on the device when split ≥ 0).
  template <class Counts>
  KOKKOS_INLINE_FUNCTION Kokkos::pair<std::int32_t, std::int32_t> rows(Counts const& counts) const {
    if (split < 0) return {begin, end};
    std::int32_t const mid = begin + counts(split);
    return right ? Kokkos::pair<std::int32_t, std::int32_t>{mid, end} : Kokkos::pair<std::int32_t, std::int32_t>{begin, mid};
  }
};

/// One team's work in the tile kernel, as planned on the host: the runs tile, tile + tiles,
/// tile + 2·tiles, … (runs of the tile height, counted from the node's first row) of node `node`'s
/// rows, one feature group. One tile per group holds all of the node's rows (exclusive).
struct HistTilePlan {
  HistNode node;
  std::int32_t tile, tiles, group;
};

/// A tile's rows ridx[begin, end) once the node's rows are known. `exclusive`: the tile holds all of
/// the node's rows, so its flush stores the group's bins instead of adding to them (no atomics, and
/// the node's histogram needs no zeroing first).
struct HistTile {
  std::int32_t slot, begin, end, group, exclusive;
};

namespace detail {
/// Adds the gradients of tile `t`'s rows into the team-local histogram `local` (feature f0 + k's
/// slots from off(k), nfg features) on a one-thread team: host backends, where a team is one core,
/// so no atomics, and the codes and gradients of the rows ahead are prefetched. Row by row, so that
/// each row's codes are read once per group rather than once per feature.
template <class Ridx, class Bins, class Gpair, class Local, class Offsets>
KOKKOS_INLINE_FUNCTION void add_tile_rows_one_thread(HistTile const& t, std::int32_t f0, std::int32_t nfg, Ridx const& ridx,
                                                     Bins const& bins, Gpair const& gpair, Local const& local,
                                                     Offsets const& off) {
  constexpr std::int32_t kAhead = 16;
  std::int32_t const rows = t.end - t.begin;
  for (std::int32_t j = 0; j < rows; ++j) {
    if (j + kAhead < rows) {
      std::int32_t const ahead = ridx(t.begin + j + kAhead);
      compat::prefetch(&bins(ahead, f0));
      compat::prefetch(&gpair(ahead));
    }
    std::int32_t const row = ridx(t.begin + j);
    GradientPairInt64 const g = gpair(row);
    if (g.grad == 0 && g.hess == 0) continue;
    auto const* codes = &bins(row, f0);
    GradientPairInt64* const loc = local.data();
    std::uint32_t const* const first = off.data();
    for (std::int32_t k = 0; k < nfg; ++k) {
      GradientPairInt64& h = loc[first[k] + codes[k]];
      h.grad += g.grad;
      h.hess += g.hess;
    }
  }
}

/// As add_tile_rows_one_thread with one team thread per (row, feature) element, as upstream's
/// HistKernelOneNodeTarget: a warp reads neighbouring codes of a few rows and its atomics spread
/// over several features' bins instead of piling 32 rows onto one feature's.
template <class Member, class Ridx, class Bins, class Gpair, class Local, class Offsets>
KOKKOS_INLINE_FUNCTION void add_tile_elements_team(Member const& m, HistTile const& t, std::int32_t f0, std::int32_t nfg,
                                                   Ridx const& ridx, Bins const& bins, Gpair const& gpair,
                                                   Local const& local, Offsets const& off) {
  std::int32_t const elements = (t.end - t.begin) * nfg;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, elements), [&](std::int32_t e) {
    std::int32_t const j = e / nfg, k = e - j * nfg;
    std::int32_t const row = ridx(t.begin + j);
    GradientPairInt64 const g = gpair(row);
    if (g.grad == 0 && g.hess == 0) return;
    std::uint32_t const s = off(k) + bins(row, f0 + k);
    atomic_add_as_32(&local(s).grad, g.grad);
    atomic_add_as_32(&local(s).hess, g.hess);
  });
}

/// Moves the team-local slots local(0 .. ns), slot space from s0, to hist(t.slot, global bin)
/// (slot_bin; a feature's missing slot is dropped): stored when the tile is exclusive, else added
/// with integer atomics (exact in any order).
template <class Member, class SlotBin, class Local, class Hist>
KOKKOS_INLINE_FUNCTION void flush_tile(Member const& m, HistTile const& t, std::uint32_t s0, std::uint32_t ns,
                                       SlotBin const& slot_bin, Local const& local, Hist const& hist) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(m, ns), [&](std::uint32_t j) {
    std::int32_t const b = slot_bin(s0 + j);
    if (b < 0) return;  // a feature's missing slot
    GradientPairInt64 const v = local(j);
    if (t.exclusive) {
      hist(t.slot, b) = v;
      return;
    }
    if (v.grad != 0) Kokkos::atomic_add(&hist(t.slot, b).grad, v.grad);
    if (v.hess != 0) Kokkos::atomic_add(&hist(t.slot, b).hess, v.hess);
  });
}
}  // namespace detail

/// Host histograms read only the present codes of a row (HistogramBuilder::use_present_codes)
/// when at least this share of the fit's values are missing (the grower's choice, and the tuner's).
inline constexpr double kPresentCodesMissingShare = 0.25;

/// Builds node histograms from compressed bin codes (kernels/binning.hpp bin_codes: feature f's
/// code is its local bin, n_f = ptrs[f+1] − ptrs[f] for missing). BinT: std::uint8_t or
/// std::uint16_t. The tile kernel's team-local histogram gives feature f the n_f + 1 slots
/// [ptrs[f] + f, ptrs[f+1] + f + 1) of "slot space", the last one collecting missing values, so the
/// row loop has no branch; the flush maps slots back to global bins (slot_bin_) and drops the
/// missing slot. Construction precomputes feature groups of at most kTileBins slots (contiguous
/// features); a feature wider than that disables the tile kernel.
template <class ExecutionSpace, class Mem, class BinT>
class HistogramBuilder {
 public:
  /// Slots of one tile's team-local histogram: 32 KiB of shared memory per team on GPUs; 512 KiB on
  /// host backends, where a team is one core and its L2 holds the tile, so that 100 features × 257
  /// slots fit one group and each row is read once per tile instead of once per group.
  static constexpr std::uint32_t kTileBins =
      Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible ? 32768 : 2048;
  using hist_view = Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, Mem>;
  using bins_view = Kokkos::View<const BinT**, Kokkos::LayoutRight, Mem>;
  using counts_view = Kokkos::View<const std::int32_t*, Mem>;

  /// ptrs: host copy of the cut pointers (features + 1). min_shared: smallest node (rows) that uses
  /// the tile kernel (≤ 0: all nodes). tile_rows: rows per tile.
  HistogramBuilder(std::vector<std::uint32_t> const& ptrs, std::int64_t min_shared, std::int32_t tile_rows)
      : min_shared_(min_shared), tile_rows_(tile_rows > 0 ? tile_rows : 4096) {
    int const nf = static_cast<int>(ptrs.size()) - 1;
    auto const slot = [&](int f) { return ptrs[f] + static_cast<std::uint32_t>(f); };  // first slot of f
    std::vector<std::int32_t> gf{0};
    for (int f = 0; f < nf; ++f) {
      if (slot(f + 1) - slot(f) > kTileBins) tile_ok_ = false;
      if (slot(f + 1) - slot(gf.back()) > kTileBins && f > gf.back()) gf.push_back(f);
      max_group_features_ = std::max(max_group_features_, f + 1 - gf.back());
    }
    gf.push_back(std::max(nf, 0));
    n_groups_ = static_cast<int>(gf.size()) - 1;
    std::vector<std::int32_t> sb(nf > 0 ? slot(nf) : 0, -1);
    for (int f = 0; f < nf; ++f)
      for (std::uint32_t c = 0; c < ptrs[f + 1] - ptrs[f]; ++c) sb[slot(f) + c] = static_cast<std::int32_t>(ptrs[f] + c);
    group_feature_ = to_device<std::int32_t>("kboost::hist::group_feature", gf);
    h_group_feature_ = gf;
    h_ptrs_ = ptrs;
    slot_bin_ = to_device<std::int32_t>("kboost::hist::slot_bin", sb);
    ptrs_ = to_device<std::uint32_t>("kboost::hist::ptrs", ptrs);
  }

  bool tile_enabled() const { return tile_ok_; }

  /// Host backends: the tile kernel reads the present codes of `bins` (the fit's row-major codes,
  /// fixed from now on; detail::make_present_codes) instead of every code when at least
  /// `min_missing_share` of the values are missing. Returns whether it does. Devices: false.
  bool use_present_codes(ExecutionSpace const& space, bins_view bins, double min_missing_share) {
    if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
      if (tile_ok_) present_ = detail::make_present_codes<ExecutionSpace, Mem>(space, bins, h_ptrs_, h_group_feature_, min_missing_share);
      return present_.built();
    }
    (void)space, (void)bins, (void)min_missing_share;
    return false;
  }
  /// Reads the present codes `other` made (use_present_codes) instead of making its own: builders
  /// of one fit's codes that differ only in their kernel choice (the tuner's candidates).
  void share_present_codes(HistogramBuilder const& other) {
    // Kokkos 3.4's View copy-assignment releases before it retains: a self-assignment would free
    if (&other != this) present_ = other.present_;
  }
  int n_groups() const { return n_groups_; }

  /// Zero and build hist(slot, ·) for every node in `nodes` from the quantised gradients of the rows
  /// ridx[begin, end). bins: the codes (row-major ones are read); gpair: rows. counts: the row
  /// partitioner's left counts, read for the nodes with split ≥ 0 (HistNode). The kernels' work
  /// lists go to the device through `uploads` (released by the caller after it next waits on space);
  /// nothing here waits for the device.
  void build(ExecutionSpace const& space, UploadArena<ExecutionSpace, Mem>& uploads, BinCodes<BinT, Mem> const& bins,
             Kokkos::View<const std::int32_t*, Mem> ridx,
             Kokkos::View<const GradientPairInt64*, Mem> gpair, std::vector<HistNode> const& nodes,
             hist_view hist, counts_view counts = {}) {
    compat::ScopedRegion region("kboost::hist::build");
    std::vector<HistNode> tile_nodes, global_nodes;
    for (auto const& n : nodes) {
      bool const tile = tile_ok_ && n.planned() >= min_shared_;
      (tile ? tile_nodes : global_nodes).push_back(n);
    }
    std::int32_t const tile_rows = tile_height(space, tile_nodes);
    std::vector<HistNode> to_zero(global_nodes);
    // A node of several tiles adds its tiles' sums; an empty node has no tile to store its zeros.
    for (auto const& n : tile_nodes)
      if (n.planned() > tile_rows || n.planned() == 0) to_zero.push_back(n);
    if (!to_zero.empty()) zero(space, uploads, to_zero, hist);
    if (!global_nodes.empty()) {
      // (a run-time test of a constant: nvcc's extended lambdas may not capture inside if constexpr)
      if (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible)
        build_nodes_one_thread(space, uploads, bins.by_row, ridx, gpair, global_nodes, hist, counts);
      else
        build_global(space, uploads, bins.by_row, ridx, gpair, global_nodes, hist, counts);
    }
    if (!tile_nodes.empty()) build_tile(space, uploads, bins.by_row, ridx, gpair, tile_nodes, tile_rows, hist, counts);
  }

  /// Rows per tile for `nodes`. Host teams are cores: a level with one small node (the smaller
  /// child near the root) would otherwise be a single tile on a single core, so tiles shrink until
  /// every core gets one (the tile layout never changes a sum).
  std::int32_t tile_height(ExecutionSpace const& space, std::vector<HistNode> const& nodes) const {
    std::int32_t tile_rows = tile_rows_;
    if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
      std::int64_t rows = 0;
      for (auto const& n : nodes) rows += n.planned();
      std::int64_t const cores = compat::concurrency(space);
      std::int64_t const even = std::max<std::int64_t>(1024, (rows + cores - 1) / cores);
      tile_rows = static_cast<std::int32_t>(std::min<std::int64_t>(tile_rows, even));
    }
    return tile_rows;
  }

  /// hist(sibling) = hist(parent) − hist(built) for each triple (exact, integer).
  void subtract(ExecutionSpace const& space, UploadArena<ExecutionSpace, Mem>& uploads,
                std::vector<HistSubtraction> const& subs, hist_view hist) {
    if (subs.empty()) return;
    auto d = uploads.put(space, subs);
    std::size_t const nb = hist.extent(1);
    Kokkos::parallel_for(
        "kboost::hist::subtract", Kokkos::RangePolicy<ExecutionSpace>(space, 0, subs.size() * nb),
        KOKKOS_LAMBDA(std::size_t i) {
          subtract_bin(hist, d(i / nb), i % nb);
        });
  }

  // The kernels below are public only because CUDA extended lambdas may not live in private members.
  template <class T>
  static Kokkos::View<T*, Mem> to_device(char const* label, std::vector<T> const& v) {
    Kokkos::View<T*, Mem> d(std::string(label), v.size());
    auto h = Kokkos::create_mirror_view(d);
    for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
    counted_deep_copy(d, h);
    return d;
  }

  void zero(ExecutionSpace const& space, UploadArena<ExecutionSpace, Mem>& uploads, std::vector<HistNode> const& nodes,
            hist_view hist) {
    auto d = uploads.put(space, nodes);
    std::size_t const nb = hist.extent(1);
    Kokkos::parallel_for(
        "kboost::hist::zero", Kokkos::RangePolicy<ExecutionSpace>(space, 0, nodes.size() * nb),
        KOKKOS_LAMBDA(std::size_t i) { hist(d(i / nb).slot, i % nb) = GradientPairInt64{}; });
  }

  void build_global(ExecutionSpace const& space, UploadArena<ExecutionSpace, Mem>& uploads, bins_view bins,
                    Kokkos::View<const std::int32_t*, Mem> ridx,
                    Kokkos::View<const GradientPairInt64*, Mem> gpair, std::vector<HistNode> const& nodes,
                    hist_view hist, counts_view counts) {
    // Concatenate the nodes' planned rows: offsets[k] = rows before node k.
    std::vector<std::int64_t> offsets;
    std::int64_t total = 0;
    for (auto const& n : nodes) {
      offsets.push_back(total);
      total += n.planned();
    }
    if (total == 0) return;
    auto d = uploads.put(space, nodes);
    auto off = uploads.put(space, offsets);
    int const nn = static_cast<int>(nodes.size());
    int const nf = static_cast<int>(bins.extent(1));
    auto ptrs = ptrs_;
    Kokkos::parallel_for(
        "kboost::hist::build_global", Kokkos::RangePolicy<ExecutionSpace>(space, 0, total),
        KOKKOS_LAMBDA(std::int64_t i) {
          int lo = 0, hi = nn - 1;  // last node with offset <= i
          while (lo < hi) {
            int const mid = (lo + hi + 1) / 2;
            if (off(mid) <= i) lo = mid; else hi = mid - 1;
          }
          HistNode const n = d(lo);
          auto const rows = n.rows(counts);
          for (std::int64_t p = rows.first + (i - off(lo)); p < rows.second; p += n.planned()) {
            std::int32_t const row = ridx(p);
            GradientPairInt64 const g = gpair(row);
            if (g.grad == 0 && g.hess == 0) continue;
            for (int f = 0; f < nf; ++f) {
              std::uint32_t const p0 = ptrs(f), code = bins(row, f);
              if (code == ptrs(f + 1) - p0) continue;  // missing
              Kokkos::atomic_add(&hist(n.slot, p0 + code).grad, g.grad);
              Kokkos::atomic_add(&hist(n.slot, p0 + code).hess, g.hess);
            }
          }
        });
  }

  /// The global kernel's nodes on host backends, where a team is one core: one task per node adds
  /// its rows into the node's (zeroed) histogram with plain adds, no atomics; a missing code's
  /// add goes to a per-feature sink in team scratch instead of a branch.
  void build_nodes_one_thread(ExecutionSpace const& space, UploadArena<ExecutionSpace, Mem>& uploads, bins_view bins,
                              Kokkos::View<const std::int32_t*, Mem> ridx, Kokkos::View<const GradientPairInt64*, Mem> gpair,
                              std::vector<HistNode> const& nodes, hist_view hist, counts_view counts) {
    auto d = uploads.put(space, nodes);
    int const nf = static_cast<int>(bins.extent(1));
    auto ptrs = ptrs_;
    using policy = Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
    using scratch = Kokkos::View<GradientPairInt64*, typename ExecutionSpace::scratch_memory_space,
                                 Kokkos::MemoryUnmanaged>;
    Kokkos::parallel_for(
        "kboost::hist::build_nodes_one_thread",
        policy(space, static_cast<int>(nodes.size()), 1).set_scratch_size(0, Kokkos::PerTeam(scratch::shmem_size(nf))),
        KOKKOS_LAMBDA(typename policy::member_type const& m) {
          HistNode const n = d(m.league_rank());
          auto const rows = n.rows(counts);
          scratch sink(m.team_scratch(0), nf);  // the missing codes' adds, never read
          for (int f = 0; f < nf; ++f) sink(f) = GradientPairInt64{};
          GradientPairInt64* const row_hist = &hist(n.slot, 0);
          constexpr std::int32_t kAhead = 16;
          for (std::int32_t p = rows.first; p < rows.second; ++p) {
            if (p + kAhead < rows.second) {
              std::int32_t const ahead = ridx(p + kAhead);
              compat::prefetch(&bins(ahead, 0));
              compat::prefetch(&gpair(ahead));
            }
            std::int32_t const row = ridx(p);
            GradientPairInt64 const g = gpair(row);
            if (g.grad == 0 && g.hess == 0) continue;
            BinT const* codes = &bins(row, 0);
            for (int f = 0; f < nf; ++f) {
              std::uint32_t const p0 = ptrs(f), code = codes[f];
              GradientPairInt64* const h = code == ptrs(f + 1) - p0 ? &sink(f) : row_hist + p0 + code;
              h->grad += g.grad;
              h->hess += g.hess;
            }
          }
        });
  }

  void build_tile(ExecutionSpace const& space, UploadArena<ExecutionSpace, Mem>& uploads, bins_view bins,
                  Kokkos::View<const std::int32_t*, Mem> ridx,
                  Kokkos::View<const GradientPairInt64*, Mem> gpair, std::vector<HistNode> const& nodes,
                  std::int32_t tile_rows, hist_view hist, counts_view counts) {
    std::vector<HistTilePlan> const tiles = tiles_of(nodes, tile_rows);
    if (tiles.empty()) return;
    auto d = uploads.put(space, tiles);
    auto gfeat = group_feature_;
    auto slot_bin = slot_bin_;
    auto ptrs = ptrs_;
    auto present = present_;
    using policy = Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
    using scratch = Kokkos::View<GradientPairInt64*, typename ExecutionSpace::scratch_memory_space,
                                 Kokkos::MemoryUnmanaged>;
    using offsets = Kokkos::View<std::uint32_t*, typename ExecutionSpace::scratch_memory_space,
                                 Kokkos::MemoryUnmanaged>;
    std::uint32_t const cap = kTileBins;
    int const max_features = max_group_features_;
    std::size_t const bytes = scratch::shmem_size(cap) + offsets::shmem_size(max_features);
    Kokkos::parallel_for(
        "kboost::hist::build_tile",
        policy(space, static_cast<int>(tiles.size()), Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(bytes)),
        KOKKOS_LAMBDA(typename policy::member_type const& m) {
          HistTilePlan const plan = d(m.league_rank());
          auto const rows = plan.node.rows(counts);
          std::int64_t const first = rows.first + std::int64_t(plan.tile) * tile_rows;
          std::int64_t const stride = std::int64_t(plan.tiles) * tile_rows;
          if (plan.tiles > 1 && first >= rows.second) return;  // no run of the actual rows: nothing to add
          HistTile t{plan.node.slot, 0, 0, plan.group, plan.tiles == 1};
          std::int32_t const f0 = gfeat(t.group), f1 = gfeat(t.group + 1), nfg = f1 - f0;
          std::uint32_t const s0 = ptrs(f0) + f0, ns = ptrs(f1) + f1 - s0;  // the group's slots
          scratch local(m.team_scratch(0), cap);
          offsets off(m.team_scratch(0), max_features);  // feature f0 + k's first slot in `local`
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, ns), [&](std::uint32_t j) { local(j) = GradientPairInt64{}; });
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, nfg), [&](std::int32_t k) { off(k) = ptrs(f0 + k) + f0 + k - s0; });
          m.team_barrier();
          for (std::int64_t b = first; b < rows.second; b += stride) {
            t.begin = static_cast<std::int32_t>(b);
            t.end = static_cast<std::int32_t>(b + tile_rows < rows.second ? b + tile_rows : rows.second);
            if (m.team_size() == 1 && present.built()) {
              detail::add_tile_present_one_thread(t.begin, t.end, t.group, ridx, gpair, local, present);
            } else if (m.team_size() == 1) {
              detail::add_tile_rows_one_thread(t, f0, nfg, ridx, bins, gpair, local, off);
            } else {
              detail::add_tile_elements_team(m, t, f0, nfg, ridx, bins, gpair, local, off);
            }
          }
          m.team_barrier();
          detail::flush_tile(m, t, s0, ns, slot_bin, local, hist);
        });
  }

 private:
  /// The tile kernel's work list: one tile per run of `tile_rows` of each node's planned rows, each
  /// once per feature group.
  std::vector<HistTilePlan> tiles_of(std::vector<HistNode> const& nodes, std::int32_t tile_rows) const {
    std::vector<HistTilePlan> tiles;
    for (auto const& n : nodes) {
      std::int32_t const count = static_cast<std::int32_t>((std::int64_t(n.planned()) + tile_rows - 1) / tile_rows);
      for (std::int32_t k = 0; k < count; ++k)
        for (int g = 0; g < n_groups_; ++g) tiles.push_back(HistTilePlan{n, k, count, g});
    }
    return tiles;
  }

  std::int64_t min_shared_;
  std::int32_t tile_rows_;
  bool tile_ok_ = true;
  int n_groups_ = 0;
  int max_group_features_ = 1;
  Kokkos::View<std::int32_t*, Mem> group_feature_;  ///< n_groups + 1 feature offsets
  Kokkos::View<std::int32_t*, Mem> slot_bin_;       ///< slot space → global bin, −1 for a missing slot
  Kokkos::View<std::uint32_t*, Mem> ptrs_;          ///< cut pointers (features + 1)
  std::vector<std::uint32_t> h_ptrs_;               ///< their host copy
  std::vector<std::int32_t> h_group_feature_;       ///< group_feature_'s host copy
  detail::PresentCodes<Mem> present_;               ///< host backends' sparse rows (use_present_codes)
};

}  // namespace kboost
