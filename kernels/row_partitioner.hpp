#pragma once
/// \file row_partitioner.hpp
/// Rows of each tree node as a segment [begin, end) of one index array, split stably: count, scan,
/// place (upstream src/tree/gpu_hist/row_partitioner.cuh UpdatePositionBatch keeps the same
/// contract). Rows keep their parent's order inside each child on every backend, because the only
/// scan is Kokkos::parallel_scan over ints (exact).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include "core/compat.hpp"
#include "core/transfers.hpp"

namespace kboost {

/// How to split one node: its rows ridx[begin, end); a row goes left iff its bin of `feature` is
/// ≥ 0 and ≤ split_bin, or it is missing (bin −1) and default_left.
struct PartitionSplit {
  std::int32_t begin = 0, end = 0, feature = 0, split_bin = 0, default_left = 0;
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
        n_left_("kboost::partition::n_left", 0) {}

  /// All rows in the root, in order.
  void reset(ExecutionSpace const& space) {
    auto r = ridx_;
    Kokkos::parallel_for("kboost::partition::reset", Kokkos::RangePolicy<ExecutionSpace>(space, 0, r.extent(0)),
                         KOKKOS_LAMBDA(std::size_t i) { r(i) = static_cast<std::int32_t>(i); });
  }

  Kokkos::View<const std::int32_t*, Mem> ridx() const { return ridx_; }

  /// Split the disjoint segments in `splits` (sorted by begin). Returns the number of rows that went
  /// left in each. bins: rows × features global bins (−1 missing).
  std::vector<std::int32_t> split(ExecutionSpace const& space,
                                  Kokkos::View<const std::int32_t**, Kokkos::LayoutRight, Mem> bins,
                                  std::vector<PartitionSplit> const& splits) {
    compat::ScopedRegion region("kboost::partition::split");
    std::vector<std::int32_t> result(splits.size(), 0);
    if (splits.empty()) return result;
    if (desc_.extent(0) < splits.size()) {
      desc_ = Kokkos::View<PartitionSplit*, Mem>("kboost::partition::desc", 2 * splits.size());
      n_left_ = Kokkos::View<std::int32_t*, Mem>("kboost::partition::n_left", 2 * splits.size());
    }
    auto hd = Kokkos::create_mirror_view(desc_);
    for (std::size_t i = 0; i < splits.size(); ++i) hd(i) = splits[i];
    counted_deep_copy(desc_, hd);
    auto d = desc_;
    auto ridx = ridx_;
    auto tmp = tmp_;
    auto scan = scan_;
    auto n_left = n_left_;
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
            std::int32_t const b = bins(ridx(p), s.feature);
            f = 2 * k + ((b < 0 ? s.default_left != 0 : b <= s.split_bin) ? 1 : 0);
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
          n_left(k) = scan(d(k).end - lo) - scan(d(k).begin - lo);
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
    auto h = counted_to_host(n_left);
    for (int k = 0; k < ns; ++k) result[k] = h(k);
    return result;
  }

 private:
  Kokkos::View<std::int32_t*, Mem> ridx_, tmp_, scan_, tmp_flag_, n_left_;
  Kokkos::View<PartitionSplit*, Mem> desc_;
};

}  // namespace kboost
