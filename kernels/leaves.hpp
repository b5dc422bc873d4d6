#pragma once
/// \file leaves.hpp
/// Adding a finished tree's leaf values to the margins on the device: for training rows from the
/// row partitioner's leaf segments (upstream src/tree/updater_gpu_hist.cu UpdatePredictionCache),
/// for other matrices (eval sets) by walking the tree in the prediction layout with the predictor's
/// split rule (kernels/split_rule.hpp; upstream src/predictor/predict_fn.h GetNextNode,
/// src/common/categorical.h Decision). Float adds in a fixed order (one tree at a time), so margins
/// are identical on every backend.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/core/upload_arena.hpp>
#include <kboost/kernels/predict_layout.hpp>

namespace kboost {

/// A leaf's rows ridx[begin, end), its value (eta applied) and its tree node id.
struct LeafSegment {
  std::int32_t begin = 0, end = 0;
  float value = 0.0f;
  std::int32_t node = -1;
};

/// Host backends: add_leaf_values over chunks of at most 8,192 positions of one leaf each (no
/// search per position; one chunk per task). Every row is in one leaf, so the order of chunks
/// cannot change a margin.
template <class ExecutionSpace, class Mem>
void add_leaf_values_by_chunk(ExecutionSpace const& space, Kokkos::View<const std::int32_t*, Mem> ridx,
                              std::vector<LeafSegment> const& leaves,
                              Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin, int group) {
  constexpr std::int32_t kChunk = 8192;
  std::vector<LeafSegment> chunks;
  for (auto const& l : leaves)
    for (std::int32_t b = l.begin; b < l.end; b += kChunk)
      chunks.push_back(LeafSegment{b, b + kChunk < l.end ? b + kChunk : l.end, l.value, l.node});
  LeafSegment const* c = chunks.data();
  Kokkos::parallel_for(
      "kboost::leaves::add_leaf_chunks", Kokkos::RangePolicy<ExecutionSpace>(space, 0, chunks.size()),
      KOKKOS_LAMBDA(std::size_t k) {
        LeafSegment const s = c[k];
        for (std::int32_t p = s.begin; p < s.end; ++p) {
          float& m = margin(ridx(p), group);
          m = m + s.value;
        }
      });
  space.fence();
}

/// margin(ridx[p], group) += value of the leaf segment holding p, for all positions p.
/// leaves: sorted by begin, covering [0, rows). margin: rows × groups. On device memory the segments
/// go through `uploads` and the kernel is queued without a wait (the caller releases the arena after
/// its next wait); host backends add at once.
template <class ExecutionSpace, class Mem>
void add_leaf_values(ExecutionSpace const& space, UploadArena<ExecutionSpace, Mem>& uploads,
                     Kokkos::View<const std::int32_t*, Mem> ridx, std::vector<LeafSegment> const& leaves,
                     Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin, int group) {
  compat::ScopedRegion region("kboost::leaves::add");
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    add_leaf_values_by_chunk(space, ridx, leaves, margin, group);
    return;
  }
  auto const d = uploads.put(space, leaves);
  int const nl = static_cast<int>(leaves.size());
  Kokkos::parallel_for(
      "kboost::leaves::add_leaf_values", Kokkos::RangePolicy<ExecutionSpace>(space, 0, ridx.extent(0)),
      KOKKOS_LAMBDA(std::int64_t p) {
        int a = 0, b = nl - 1;
        while (a < b) {
          int const mid = (a + b + 1) / 2;
          if (d(mid).begin <= p) a = mid; else b = mid - 1;
        }
        float& m = margin(ridx(p), group);
        m = m + d(a).value;
      });
}

/// One tree on the device for margins of other matrices: a one-tree forest in the prediction
/// layout (kernels/predict_layout.hpp), walked by the predictor's split rule.
template <class Mem>
using DeviceTree = ForestArrays<Mem>;

/// Upload tree `t` (flatten_tree; Views labelled kboost::tree::*).
template <class Mem>
DeviceTree<Mem> upload_tree(TreeModel const& t) {
  return upload_forest<Mem>(flatten_tree(t), "kboost::tree");
}

namespace detail {
/// add_tree_margins' body for one row. A named functor rather than a KOKKOS_LAMBDA: nvcc's wrapper
/// of an extended host-device lambda capturing the tree's Views called a null function pointer on
/// the host in optimised CUDA builds (the same nvcc fault ArborX works around with functors).
template <class Mem>
struct AddTreeMargin {
  Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X;
  ForestArrays<Mem> t;
  Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin;
  int group;
  float weight;
  float missing;  ///< NaN: NaN alone is missing

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    auto const row = [&](int f) { return X(i, f); };
    std::int32_t const leaf = traverse_tree(t, 0, row, missing);
    margin(i, group) = margin(i, group) + t.nodes(leaf).value * weight;
  }
};
}  // namespace detail

/// margin(i, group) += leaf value reached by row i of X (rows × features, NaN = missing) times
/// `weight` (DART's weight_drop, rounded as upstream's `out += leaf * w`; 1 leaves the leaf exact).
template <class ExecutionSpace, class Mem>
void add_tree_margins(ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                      DeviceTree<Mem> const& t, Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin, int group,
                      float weight = 1.0f) {
  Kokkos::parallel_for("kboost::leaves::add_tree_margins", Kokkos::RangePolicy<ExecutionSpace>(space, 0, X.extent(0)),
                       detail::AddTreeMargin<Mem>{X, t, margin, group, weight, std::numeric_limits<float>::quiet_NaN()});
}

}  // namespace kboost
