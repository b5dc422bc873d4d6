#pragma once
/// \file leaves.hpp
/// Adding a finished tree's leaf values to the margins on the device: for training rows from the
/// row partitioner's leaf segments (upstream src/tree/updater_gpu_hist.cu UpdatePredictionCache),
/// for other matrices (eval sets) by walking the tree on the raw values (left iff x < cond,
/// missing → default; categorical nodes: right iff the category is in the node's set; upstream
/// src/predictor/predict_fn.h GetNextNode, src/common/categorical.h Decision). Float adds in a fixed order
/// (one tree at a time), so margins are identical on every backend.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
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

/// A tree's arrays on the device. cat_begin (nodes): −1 for a numerical node, else the offset of
/// the node's category words in `words` (cat_words of them; bit c of word c/32: category c goes right).
template <class Mem>
struct DeviceTree {
  Kokkos::View<std::int32_t*, Mem> left, right, feature;
  Kokkos::View<float*, Mem> cond;
  Kokkos::View<std::uint8_t*, Mem> default_left;
  Kokkos::View<std::int32_t*, Mem> cat_begin, cat_words;
  Kokkos::View<std::uint32_t*, Mem> words;
};

namespace detail {
/// Whether category value x goes left at a categorical node with `n_words` words at words(begin):
/// left iff x is not a valid category (negative or ≥ 2^24, as upstream's InvalidCat), beyond the
/// stored words, or not in the set.
template <class Words>
KOKKOS_INLINE_FUNCTION bool category_goes_left(float x, Words const& words, std::int32_t begin, std::int32_t n_words) {
  if (!(x >= 0.0f && x < 16777216.0f)) return true;
  auto const c = static_cast<std::uint32_t>(x);
  std::uint32_t const w = c >> 5;
  return w >= static_cast<std::uint32_t>(n_words) || ((words(begin + static_cast<std::int32_t>(w)) >> (c & 31u)) & 1u) == 0u;
}
}  // namespace detail

/// Upload a TreeModel's routing arrays.
template <class Mem>
DeviceTree<Mem> upload_tree(TreeModel const& t) {
  std::size_t const n = t.num_nodes();
  DeviceTree<Mem> d{Kokkos::View<std::int32_t*, Mem>("kboost::tree::left", n),
                    Kokkos::View<std::int32_t*, Mem>("kboost::tree::right", n),
                    Kokkos::View<std::int32_t*, Mem>("kboost::tree::feature", n),
                    Kokkos::View<float*, Mem>("kboost::tree::cond", n),
                    Kokkos::View<std::uint8_t*, Mem>("kboost::tree::default_left", n),
                    {},
                    {},
                    {}};
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
  // categorical nodes: their right-going sets as words
  std::vector<std::int32_t> begin(n, -1), count(n, 0);
  std::vector<std::uint32_t> words;
  for (std::size_t k = 0; k < t.categories_nodes.size(); ++k) {
    auto const node = static_cast<std::size_t>(t.categories_nodes[k]);
    std::int32_t widest = 0;
    for (auto j = t.categories_segments[k]; j < t.categories_segments[k] + t.categories_sizes[k]; ++j)
      widest = std::max(widest, t.categories[static_cast<std::size_t>(j)] / 32 + 1);
    begin[node] = static_cast<std::int32_t>(words.size());
    count[node] = widest;
    words.resize(words.size() + static_cast<std::size_t>(widest), 0u);
    for (auto j = t.categories_segments[k]; j < t.categories_segments[k] + t.categories_sizes[k]; ++j) {
      auto const c = static_cast<std::uint32_t>(t.categories[static_cast<std::size_t>(j)]);
      words[static_cast<std::size_t>(begin[node]) + c / 32] |= 1u << (c % 32);
    }
  }
  words.push_back(0u);  // never empty
  auto const to_device = [](char const* label, auto const& v) {  // an owning copy in Mem
    using T = typename std::decay_t<decltype(v)>::value_type;
    Kokkos::View<T*, Mem> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), v.size());
    counted_deep_copy(out, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
    return out;
  };
  d.cat_begin = to_device("kboost::tree::cat_begin", begin);
  d.cat_words = to_device("kboost::tree::cat_words", count);
  d.words = to_device("kboost::tree::words", words);
  return d;
}

/// margin(i, group) += leaf value reached by row i of X (rows × features, NaN = missing) times
/// `weight` (DART's weight_drop, rounded as upstream's `out += leaf * w`; 1 leaves the leaf exact).
template <class ExecutionSpace, class Mem>
void add_tree_margins(ExecutionSpace const& space, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> X,
                      DeviceTree<Mem> const& t, Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin, int group,
                      float weight = 1.0f) {
  auto left = t.left;
  auto right = t.right;
  auto feature = t.feature;
  auto cond = t.cond;
  auto dl = t.default_left;
  auto cat_begin = t.cat_begin;
  auto cat_words = t.cat_words;
  auto words = t.words;
  Kokkos::parallel_for(
      "kboost::leaves::add_tree_margins", Kokkos::RangePolicy<ExecutionSpace>(space, 0, X.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) {
        std::int32_t n = 0;
        while (left(n) != -1) {
          float const x = X(i, feature(n));
          bool const go_left = x != x             ? dl(n) != 0
                               : cat_begin(n) < 0 ? x < cond(n)
                                                  : detail::category_goes_left(x, words, cat_begin(n), cat_words(n));
          n = go_left ? left(n) : right(n);
        }
        margin(i, group) = margin(i, group) + cond(n) * weight;
      });
}

}  // namespace kboost
