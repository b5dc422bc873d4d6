#pragma once
/// \file leaves.hpp
/// Adding a finished tree's leaf values to the margins on the device: for training rows from the
/// row partitioner's leaf segments (upstream src/tree/updater_gpu_hist.cu UpdatePredictionCache),
/// for other matrices (eval sets) by walking the tree on the raw values (left iff x < cond,
/// missing → default; upstream src/predictor/predict_fn.h GetNextNode). Float adds in a fixed order
/// (one tree at a time), so margins are identical on every backend.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/transfers.hpp>

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
/// leaves: sorted by begin, covering [0, rows). margin: rows × groups.
template <class ExecutionSpace, class Mem>
void add_leaf_values(ExecutionSpace const& space, Kokkos::View<const std::int32_t*, Mem> ridx,
                     std::vector<LeafSegment> const& leaves,
                     Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin, int group) {
  compat::ScopedRegion region("kboost::leaves::add");
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    add_leaf_values_by_chunk(space, ridx, leaves, margin, group);
    return;
  }
  Kokkos::View<LeafSegment*, Mem> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::leaves::segments"),
                                    leaves.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < leaves.size(); ++i) h(i) = leaves[i];
  counted_deep_copy(d, h);
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

/// A tree's arrays on the device (numerical splits only: what kboost's trainer produces).
template <class Mem>
struct DeviceTree {
  Kokkos::View<std::int32_t*, Mem> left, right, feature;
  Kokkos::View<float*, Mem> cond;
  Kokkos::View<std::uint8_t*, Mem> default_left;
};

/// Upload a TreeModel's routing arrays.
template <class Mem>
DeviceTree<Mem> upload_tree(TreeModel const& t) {
  std::size_t const n = t.num_nodes();
  DeviceTree<Mem> d{Kokkos::View<std::int32_t*, Mem>("kboost::tree::left", n),
                    Kokkos::View<std::int32_t*, Mem>("kboost::tree::right", n),
                    Kokkos::View<std::int32_t*, Mem>("kboost::tree::feature", n),
                    Kokkos::View<float*, Mem>("kboost::tree::cond", n),
                    Kokkos::View<std::uint8_t*, Mem>("kboost::tree::default_left", n)};
  auto l = Kokkos::create_mirror_view(d.left);
  auto r = Kokkos::create_mirror_view(d.right);
  auto f = Kokkos::create_mirror_view(d.feature);
  auto c = Kokkos::create_mirror_view(d.cond);
  auto dl = Kokkos::create_mirror_view(d.default_left);
  for (std::size_t i = 0; i < n; ++i) {
    l(i) = t.left_children[i];
    r(i) = t.right_children[i];
    f(i) = t.split_indices[i];
    c(i) = t.split_conditions[i];
    dl(i) = t.default_left[i];
  }
  Kokkos::deep_copy(d.left, l);
  Kokkos::deep_copy(d.right, r);
  Kokkos::deep_copy(d.feature, f);
  Kokkos::deep_copy(d.cond, c);
  Kokkos::deep_copy(d.default_left, dl);
  return d;
}

/// margin(i, group) += leaf value reached by row i of X (rows × features, NaN = missing).
template <class ExecutionSpace, class Mem>
void add_tree_margins(ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                      DeviceTree<Mem> const& t, Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin, int group) {
  auto left = t.left;
  auto right = t.right;
  auto feature = t.feature;
  auto cond = t.cond;
  auto dl = t.default_left;
  Kokkos::parallel_for(
      "kboost::leaves::add_tree_margins", Kokkos::RangePolicy<ExecutionSpace>(space, 0, X.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) {
        std::int32_t n = 0;
        while (left(n) != -1) {
          float const x = X(i, feature(n));
          n = (x != x) ? (dl(n) ? left(n) : right(n)) : (x < cond(n) ? left(n) : right(n));
        }
        margin(i, group) = margin(i, group) + cond(n);
      });
}

}  // namespace kboost
