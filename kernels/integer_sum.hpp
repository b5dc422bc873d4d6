#pragma once
/// \file integer_sum.hpp
/// Exact sums of int64 terms over rows without Kokkos::parallel_reduce: a fixed number of lanes
/// each sums a strided share of the rows (lane t: rows t, t + L, t + 2L, ...; coalesced on GPUs),
/// a second pass folds the lanes to 256 partials, the host adds those. Integer addition makes the
/// result independent of the order anyway; the point is a plain parallel_for that compute-sanitizer
/// racecheck sees no shared-memory hazards in (Kokkos 3.4's CUDA reduction has warp-synchronous
/// steps that racecheck reports) and one counted download per call.
#include <Kokkos_Core.hpp>

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

#include <kboost/core/compat.hpp>
#include <kboost/core/transfers.hpp>

namespace kboost {

/// How IntegerReduce combines lanes: sums (exact in any order) or maxima.
struct IntegerSumOp {
  static constexpr std::int64_t kIdentity = 0;
  KOKKOS_INLINE_FUNCTION static void join(std::int64_t& a, std::int64_t b) { a += b; }
};
struct IntegerMaxOp {
  static constexpr std::int64_t kIdentity = INT64_MIN;
  KOKKOS_INLINE_FUNCTION static void join(std::int64_t& a, std::int64_t b) { a = b > a ? b : a; }
};

/// Op-reduction (IntegerSumOp, IntegerMaxOp) over i in [0, n) of N int64 terms per row, with its
/// lane buffers kept between calls (no allocation after the first call of a size).
template <int N, class Op, class ExecutionSpace, class Mem>
class IntegerReduce {
 public:
  static constexpr std::size_t kLanes = 16384, kFold = 256;

  /// `term` is a device callable `void(std::size_t i, std::int64_t (&acc)[N])` that joins row i's
  /// terms into acc (acc starts at Op::kIdentity); `label` names the kernels ("<label>::lanes",
  /// "<label>::fold").
  template <class Term>
  std::array<std::int64_t, N> operator()(ExecutionSpace const& space, std::string const& label, std::size_t n,
                                         Term const& term) {
    std::size_t const lanes = n < kLanes ? (n > 0 ? n : 1) : kLanes;
    if (lane_sum_.extent(0) < lanes) {
      lane_sum_ = Kokkos::View<std::int64_t* [N], Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::sum::lanes"), lanes);
      fold_sum_ = Kokkos::View<std::int64_t* [N], Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::sum::fold"), kFold);
    }
    auto lane_sum = lane_sum_;
    auto fold_sum = fold_sum_;
    Kokkos::parallel_for(
        label + "::lanes", Kokkos::RangePolicy<ExecutionSpace>(space, 0, lanes), KOKKOS_LAMBDA(std::size_t t) {
          std::int64_t acc[N];
          for (int k = 0; k < N; ++k) acc[k] = Op::kIdentity;
          for (std::size_t i = t; i < n; i += lanes) term(i, acc);
          for (int k = 0; k < N; ++k) lane_sum(t, k) = acc[k];
        });
    Kokkos::parallel_for(
        label + "::fold", Kokkos::RangePolicy<ExecutionSpace>(space, 0, kFold), KOKKOS_LAMBDA(std::size_t u) {
          std::int64_t acc[N];
          for (int k = 0; k < N; ++k) acc[k] = Op::kIdentity;
          for (std::size_t t = u; t < lanes; t += kFold)
            for (int k = 0; k < N; ++k) Op::join(acc[k], lane_sum(t, k));
          for (int k = 0; k < N; ++k) fold_sum(u, k) = acc[k];
        });
    auto const h = landing_.fetch(space, fold_sum);  // the span in fold_sum's layout
    std::size_t const s0 = fold_sum.stride(0), s1 = fold_sum.stride(1);
    std::array<std::int64_t, N> out;
    out.fill(Op::kIdentity);
    for (std::size_t u = 0; u < kFold; ++u)
      for (int k = 0; k < N; ++k) Op::join(out[k], h(u * s0 + static_cast<std::size_t>(k) * s1));
    return out;
  }

 private:
  Kokkos::View<std::int64_t* [N], Mem> lane_sum_, fold_sum_;
  HostLanding<std::int64_t, ExecutionSpace, Mem> landing_;
};

/// Σ over rows of N int64 terms (the term adds into acc).
template <int N, class ExecutionSpace, class Mem>
using IntegerSums = IntegerReduce<N, IntegerSumOp, ExecutionSpace, Mem>;

}  // namespace kboost
