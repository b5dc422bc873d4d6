#pragma once
/// \file row_partitioner.hpp
/// Rows of each tree node as a segment [begin, end) of one index array, split stably: count, scan,
/// place (upstream src/tree/gpu_hist/row_partitioner.cuh UpdatePositionBatch keeps the same
/// contract). Rows keep their parent's order inside each child on every backend, because the only
/// scan is Kokkos::parallel_scan over ints (exact); host backends use a blocked variant of the same
/// stable partition (split_blocks).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/core/upload_arena.hpp>

namespace kboost {

/// How to split one node: its rows ridx[begin, end); a row whose code of `feature`
/// (kernels/binning.hpp bin_codes) is missing_code (the feature's bin count) goes left iff
/// default_left. Otherwise, a numerical split (cat_begin < 0) sends it left iff the code is
/// ≤ split_bin (a LOCAL bin, −1 when no value goes left); a categorical split sends it right iff its
/// category (= its code) is in the set words[cat_begin, cat_begin + cat_words) of the category
/// words (bit c of word c/32), as upstream's Decision (src/common/categorical.h).
struct PartitionSplit {
  std::int32_t begin = 0, end = 0, feature = 0, split_bin = 0, default_left = 0, missing_code = 0;
  std::int32_t cat_begin = -1, cat_words = 0;

  template <class Words>
  KOKKOS_INLINE_FUNCTION bool goes_left(std::int32_t code, Words const& words) const {
    if (code == missing_code) return default_left != 0;
    if (cat_begin < 0) return code <= split_bin;
    std::int32_t const w = code >> 5;
    return w >= cat_words || ((words(cat_begin + w) >> (code & 31)) & 1u) == 0u;
  }
};

/// The row index array of one tree (extent rows), reset per tree.
template <class ExecutionSpace, class Mem>
class RowPartitioner {
 public:
  explicit RowPartitioner(std::size_t n_rows)
      : ridx_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::partition::ridx"), n_rows),
        tmp_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::partition::tmp"), n_rows),
        scan_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::partition::scan"), n_rows + 1),
        tmp_flag_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::partition::flag"), n_rows),
        n_left_("kboost::partition::n_left", 0), n_left_host_("kboost::partition::n_left_host", 0) {}

  /// All rows in the root, in order.
  void reset(ExecutionSpace const& space) {
    auto r = ridx_;
    Kokkos::parallel_for("kboost::partition::reset", Kokkos::RangePolicy<ExecutionSpace>(space, 0, r.extent(0)),
                         KOKKOS_LAMBDA(std::size_t i) { r(i) = static_cast<std::int32_t>(i); });
  }

  Kokkos::View<const std::int32_t*, Mem> ridx() const { return ridx_; }

  /// Split the disjoint, non-empty segments in `splits` (sorted by begin; an empty segment would
  /// share its begin with a neighbour, and the device path's search could pick it for that
  /// neighbour's rows). Returns the number of rows that went
  /// left in each. bins: rows × features codes (std::uint8_t or std::uint16_t) in any layout; the
  /// grower passes a column-major copy, so that the rows of one node read one feature's column in
  /// increasing order (few cache lines on host cores, coalesced on GPUs). The split descriptors go to
  /// the device through `uploads`; this call waits for the device (it returns the counts).
  /// cat_words: the category words the categorical splits index (empty when none is categorical).
  template <class BinsView>
  std::vector<std::int32_t> split(ExecutionSpace const& space, UploadArena<ExecutionSpace, Mem>& uploads,
                                  BinsView const& bins, std::vector<PartitionSplit> const& splits,
                                  std::vector<std::uint32_t> const& cat_words = {}) {
    std::vector<std::int32_t> result(splits.size(), 0);
    split_queued(space, uploads, bins, splits, cat_words);
    space.fence();
    for (std::size_t k = 0; k < splits.size(); ++k) result[k] = n_left_host_(k);
    return result;
  }

  /// As split, queued on `space` without waiting (device memory spaces): kernels that read
  /// left_counts() may follow at once, and left_counts_on_host() holds the counts once the host has
  /// next waited for `space`. Host memory spaces split at once, as split does.
  template <class BinsView>
  void split_queued(ExecutionSpace const& space, UploadArena<ExecutionSpace, Mem>& uploads, BinsView const& bins,
                    std::vector<PartitionSplit> const& splits, std::vector<std::uint32_t> const& cat_words = {}) {
    compat::ScopedRegion region("kboost::partition::split");
    if (n_left_.extent(0) < splits.size()) {
      n_left_ = Kokkos::View<std::int32_t*, Mem>("kboost::partition::n_left", 2 * splits.size());
      n_left_host_ = Kokkos::View<std::int32_t*, HostPinnedSpace>("kboost::partition::n_left_host", 2 * splits.size());
    }
    if (splits.empty()) return;
    std::vector<std::uint32_t> words = cat_words;
    if (words.empty()) words.push_back(0u);  // an upload needs an element
    if constexpr (kHostSpace) {
      auto const counts = split_blocks(space, bins, splits, words);
      for (std::size_t k = 0; k < counts.size(); ++k) n_left_(k) = n_left_host_(k) = counts[k];
      return;
    }
    split_device(space, uploads, bins, splits, words);
  }

  /// split_queued's device kernels: decide, count and place each position of the split segments.
  template <class BinsView>
  void split_device(ExecutionSpace const& space, UploadArena<ExecutionSpace, Mem>& uploads, BinsView const& bins,
                    std::vector<PartitionSplit> const& splits, std::vector<std::uint32_t> const& words) {
    auto d = uploads.put(space, splits);
    auto cw = uploads.put(space, words);
    auto ridx = ridx_;
    auto tmp = tmp_;
    auto scan = scan_;
    auto n_left = n_left_;
    auto n_left_host = n_left_host_;  // page-locked: the host reads it after its next wait, no copy
    int const ns = static_cast<int>(splits.size());
    std::int32_t const lo = splits.front().begin, hi = splits.back().end;
    // Segment of position p, or −1 (a position between split segments stays where it is).
    auto find = KOKKOS_LAMBDA(std::int32_t p)->int {
      int a = 0, b = ns - 1;
      while (a < b) {
        int const mid = (a + b + 1) / 2;
        if (d(mid).begin <= p) a = mid; else b = mid - 1;
      }
      return p < d(a).end ? a : -1;
    };
    // 1. decide once per position (the only random access into bins): flag = −1 outside the split
    //    segments, else 2·segment + go_left.
    auto flag = tmp_flag_;
    Kokkos::parallel_for(
        "kboost::partition::decide", Kokkos::RangePolicy<ExecutionSpace>(space, lo, hi), KOKKOS_LAMBDA(std::int64_t p64) {
          std::int32_t const p = static_cast<std::int32_t>(p64);
          int const k = find(p);
          std::int32_t f = -1;
          if (k >= 0) {
            PartitionSplit const s = d(k);
            f = 2 * k + (s.goes_left(bins(ridx(p), s.feature), cw) ? 1 : 0);
          }
          flag(p - lo) = f;
        });
    // 2. count: exclusive scan of go-left flags over [lo, hi); scan(p - lo) = lefts before p.
    Kokkos::parallel_scan(
        "kboost::partition::scan", Kokkos::RangePolicy<ExecutionSpace>(space, lo, hi),
        KOKKOS_LAMBDA(std::int64_t p64, std::int32_t & acc, bool final) {
          std::int32_t const p = static_cast<std::int32_t>(p64);
          std::int32_t const f = flag(p - lo);
          if (final) scan(p - lo) = acc;
          acc += f >= 0 ? (f & 1) : 0;
          if (final && p == hi - 1) scan(hi - lo) = acc;
        });
    Kokkos::parallel_for(
        "kboost::partition::count", Kokkos::RangePolicy<ExecutionSpace>(space, 0, ns), KOKKOS_LAMBDA(int k) {
          n_left(k) = n_left_host(k) = scan(d(k).end - lo) - scan(d(k).begin - lo);
        });
    // 3. place: lefts first, then rights, each in parent order (positions outside stay).
    Kokkos::parallel_for(
        "kboost::partition::place", Kokkos::RangePolicy<ExecutionSpace>(space, lo, hi), KOKKOS_LAMBDA(std::int64_t p64) {
          std::int32_t const p = static_cast<std::int32_t>(p64);
          std::int32_t const f = flag(p - lo);
          if (f < 0) {
            tmp(p) = ridx(p);
            return;
          }
          int const k = f >> 1;
          PartitionSplit const s = d(k);
          std::int32_t const lefts_before = scan(p - lo) - scan(s.begin - lo);
          std::int32_t const pos = (f & 1) ? s.begin + lefts_before
                                           : s.begin + n_left(k) + (p - s.begin - lefts_before);
          tmp(pos) = ridx(p);
        });
    // tmp holds [lo, hi) placed and nothing else that matters: copy the range back.
    Kokkos::parallel_for(
        "kboost::partition::copy_back", Kokkos::RangePolicy<ExecutionSpace>(space, lo, hi),
        KOKKOS_LAMBDA(std::int64_t p) { ridx(p) = tmp(p); });
  }

  /// Rows that went left in each segment of the last split (device memory; the kernels that follow
  /// a split_queued read it).
  Kokkos::View<const std::int32_t*, Mem> left_counts() const { return n_left_; }
  /// The same counts in page-locked host memory: valid once the host has waited for the space.
  std::int32_t left_count_on_host(std::size_t k) const { return n_left_host_(k); }

  /// One block of a segment for split_blocks.
  struct Block {
    std::int32_t seg = 0, begin = 0, end = 0, lefts = 0, left_out = 0, right_out = 0;
  };

  /// Host backends: the same stable partition in two passes over fixed blocks of each segment
  /// (decide and partition each block into tmp, then place every block's lefts and rights from
  /// per-block offsets), no scan over the whole range and no search for a position's segment. The
  /// result is the unique stable partition, so it equals the count/scan/place path bit for bit
  /// (public: CUDA extended lambdas).
  template <class BinsView>
  std::vector<std::int32_t> split_blocks(ExecutionSpace const& space, BinsView const& bins,
                                         std::vector<PartitionSplit> const& splits,
                                         std::vector<std::uint32_t> const& cat_words) {
    constexpr std::int32_t kBlock = 8192;
    std::vector<Block> hb;
    for (std::size_t k = 0; k < splits.size(); ++k)
      for (std::int32_t b = splits[k].begin; b < splits[k].end; b += kBlock)
        hb.push_back(Block{static_cast<std::int32_t>(k), b, b + kBlock < splits[k].end ? b + kBlock : splits[k].end});
    if (blocks_.extent(0) < hb.size())
      blocks_ = Kokkos::View<Block*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::partition::blocks"), 2 * hb.size());
    if (desc_.extent(0) < splits.size())
      desc_ = Kokkos::View<PartitionSplit*, Mem>("kboost::partition::desc", 2 * splits.size());
    for (std::size_t i = 0; i < splits.size(); ++i) desc_(i) = splits[i];
    for (std::size_t i = 0; i < hb.size(); ++i) blocks_(i) = hb[i];
    auto blocks = blocks_;
    auto d = desc_;
    Kokkos::View<const std::uint32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> cw(cat_words.data(), cat_words.size());
    auto ridx = ridx_;
    auto tmp = tmp_;
    int const nb = static_cast<int>(hb.size());
    // 1. per block: decide each row once and partition the block into tmp, lefts forward from the
    //    block's start and rights backward from its end (both in parent order when read back).
    Kokkos::parallel_for(
        "kboost::partition::block_decide", Kokkos::RangePolicy<ExecutionSpace>(space, 0, nb), KOKKOS_LAMBDA(int t) {
          Block& b = blocks(t);
          PartitionSplit const s = d(b.seg);
          std::int32_t l = b.begin, r = b.end;
          for (std::int32_t p = b.begin; p < b.end; ++p) {
            if (p + 16 < b.end) compat::prefetch(&bins(ridx(p + 16), s.feature));
            // Branch-free (the direction is a coin flip to the branch predictor): the row is written
            // at both ends of the unfilled part [l, r) and only one end advances.
            std::int32_t const row = ridx(p);
            std::int32_t const go = s.goes_left(bins(row, s.feature), cw) ? 1 : 0;
            tmp(l) = row;
            tmp(r - 1) = row;
            l += go;
            r -= 1 - go;
          }
          b.lefts = l - b.begin;
        });
    space.fence();
    std::vector<std::int32_t> result(splits.size(), 0);
    for (int t = 0; t < nb; ++t) result[blocks(t).seg] += blocks(t).lefts;
    std::vector<std::int32_t> lefts_before(splits.size(), 0);
    for (int t = 0; t < nb; ++t) {
      Block& b = blocks(t);
      PartitionSplit const& s = splits[b.seg];
      std::int32_t const lb = lefts_before[b.seg];
      b.left_out = s.begin + lb;
      b.right_out = s.begin + result[b.seg] + (b.begin - s.begin - lb);
      lefts_before[b.seg] += b.lefts;
    }
    // 2. per block: its lefts and rights to their places in the segment.
    Kokkos::parallel_for(
        "kboost::partition::block_place", Kokkos::RangePolicy<ExecutionSpace>(space, 0, nb), KOKKOS_LAMBDA(int t) {
          Block const b = blocks(t);
          for (std::int32_t j = 0; j < b.lefts; ++j) ridx(b.left_out + j) = tmp(b.begin + j);
          std::int32_t const rights = b.end - b.begin - b.lefts;
          for (std::int32_t j = 0; j < rights; ++j) ridx(b.right_out + j) = tmp(b.end - 1 - j);
        });
    space.fence();
    return result;
  }

 private:
  Kokkos::View<Block*, Mem> blocks_;
  static constexpr bool kHostSpace = Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible;
  Kokkos::View<std::int32_t*, Mem> ridx_, tmp_, scan_, tmp_flag_, n_left_;
  Kokkos::View<std::int32_t*, HostPinnedSpace> n_left_host_;  ///< written by the count kernel
  Kokkos::View<PartitionSplit*, Mem> desc_;
};

}  // namespace kboost
