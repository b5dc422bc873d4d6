#pragma once
/// \file present_codes.hpp
/// Sparse rows for host histograms of data with many missing values: each row's codes that are not
/// missing, per feature group of the tile kernel (kernels/histogram.hpp), as the slot they add to
/// in the group's team-local histogram. The dense tile loop adds every feature of a row, a missing
/// value into its feature's missing slot, which the flush drops; with these lists a row adds only
/// its present values, as upstream's CPU hist reads a sparse page's row entries
/// (src/common/hist_util.cc RowsWiseBuildHistKernel over GHistIndexMatrix row_ptr) and LightGBM
/// skips the most frequent bin. The sums are the same integers, so the histogram's bits are too.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/kernels/quantiser.hpp>

namespace kboost::detail {

/// Row r's present slots of group g are slots(i) for i in [start(r·groups + g), start(r·groups +
/// g + 1)); empty views: not built (dense rows).
template <class Mem>
struct PresentCodes {
  Kokkos::View<std::uint64_t*, Mem> start;  ///< rows × groups + 1 offsets into `slots`
  Kokkos::View<std::uint16_t*, Mem> slots;  ///< each present value's slot in its group's local histogram
  int groups = 0;
  KOKKOS_INLINE_FUNCTION bool built() const { return start.extent(0) != 0; }
};

/// The present codes of `bins` (rows × features, host-accessible; feature f's code n_f =
/// ptrs[f+1] − ptrs[f] is missing) for the groups whose first features are group_feature[g]
/// (groups + 1 entries), a feature's slots in its group starting at ptrs[f] + f − (ptrs[f0] + f0).
/// Not built (empty) when fewer than `min_missing_share` of the values are missing.
template <class ExecutionSpace, class Mem, class Bins>
PresentCodes<Mem> make_present_codes(ExecutionSpace const& space, Bins const& bins, std::vector<std::uint32_t> const& ptrs,
                                     std::vector<std::int32_t> const& group_feature, double min_missing_share) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible, "host backends only");
  std::size_t const rows = bins.extent(0);
  int const nf = static_cast<int>(bins.extent(1));
  int const groups = static_cast<int>(group_feature.size()) - 1;
  PresentCodes<Mem> out;
  if (rows == 0 || nf == 0 || groups <= 0) return out;
  std::vector<std::uint32_t> missing_code(nf);
  for (int f = 0; f < nf; ++f) missing_code[f] = ptrs[f + 1] - ptrs[f];
  // start holds each (row, group)'s count at index + 1 first, then their running sum
  Kokkos::View<std::uint64_t*, Mem> start(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::hist::present_start"),
                                          rows * static_cast<std::size_t>(groups) + 1);
  start(0) = 0;
  Kokkos::parallel_for(
      "kboost::hist::count_present", Kokkos::RangePolicy<ExecutionSpace>(space, 0, rows), [&](std::size_t r) {
        for (int g = 0; g < groups; ++g) {
          std::uint64_t n = 0;
          for (int f = group_feature[g]; f < group_feature[g + 1]; ++f) n += bins(r, f) != missing_code[f] ? 1 : 0;
          start(r * groups + g + 1) = n;
        }
      });
  space.fence();
  for (std::size_t i = 1; i < start.extent(0); ++i) start(i) += start(i - 1);
  std::uint64_t const present = start(start.extent(0) - 1);
  double const values = static_cast<double>(rows) * static_cast<double>(nf);
  if (static_cast<double>(present) > (1.0 - min_missing_share) * values) return out;
  out.groups = groups;
  out.start = start;
  out.slots = Kokkos::View<std::uint16_t*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::hist::present_slots"),
                                                present);
  auto const o = out;
  Kokkos::parallel_for(
      "kboost::hist::fill_present", Kokkos::RangePolicy<ExecutionSpace>(space, 0, rows), [&](std::size_t r) {
        for (int g = 0; g < groups; ++g) {
          std::int32_t const f0 = group_feature[g];
          std::uint32_t const s0 = ptrs[f0] + static_cast<std::uint32_t>(f0);
          std::uint64_t i = o.start(r * groups + g);
          for (int f = f0; f < group_feature[g + 1]; ++f) {
            std::uint32_t const code = bins(r, f);
            if (code != missing_code[f]) o.slots(i++) = static_cast<std::uint16_t>(ptrs[f] + static_cast<std::uint32_t>(f) - s0 + code);
          }
        }
      });
  space.fence();
  return out;
}

/// add_tile_rows_one_thread (kernels/histogram.hpp) over the present codes `pc` of group `group`:
/// each of tile t's rows adds its gradient to the slots of its present values only.
template <class Ridx, class Gpair, class Local, class Mem>
KOKKOS_INLINE_FUNCTION void add_tile_present_one_thread(std::int32_t begin, std::int32_t end, int group, Ridx const& ridx,
                                                        Gpair const& gpair, Local const& local, PresentCodes<Mem> const& pc) {
  constexpr std::int32_t kAhead = 16;
  GradientPairInt64* const loc = local.data();
  std::size_t const groups = static_cast<std::size_t>(pc.groups);
  for (std::int32_t p = begin; p < end; ++p) {
    if (p + kAhead < end) {
      std::size_t const ahead = static_cast<std::size_t>(ridx(p + kAhead));
      compat::prefetch(pc.slots.data() + pc.start(ahead * groups + group));
      compat::prefetch(&gpair(ahead));
    }
    std::size_t const row = static_cast<std::size_t>(ridx(p));
    GradientPairInt64 const g = gpair(row);
    if (g.grad == 0 && g.hess == 0) continue;
    std::uint64_t const first = pc.start(row * groups + group), last = pc.start(row * groups + group + 1);
    std::uint16_t const* s = pc.slots.data();
    for (std::uint64_t i = first; i < last; ++i) {
      GradientPairInt64& h = loc[s[i]];
      h.grad += g.grad;
      h.hess += g.hess;
    }
  }
}

}  // namespace kboost::detail
