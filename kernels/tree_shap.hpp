#pragma once
/// \file tree_shap.hpp
/// SHAP values of rows × features inputs on any Kokkos backend, one thread per row, with upstream
/// XGBoost 3.2's CPU arithmetic (src/predictor/treeshap.cc, src/predictor/cpu_predictor.cc):
///  - TreeSHAP, path-dependent (Lundberg et al. 2018, Algorithm 2): ExtendPath, UnwindPath and
///    UnwoundPathSum in float32 with upstream's expressions; upstream's recursion becomes a loop with
///    an explicit stack that visits the hot child before the cold one, so every float operation
///    happens in upstream's order;
///  - Saabas' approximation (approx_contribs): each split's change of the subtree mean;
///  - interaction values (pred_interactions): contributions with each feature conditioned on and off.
/// Per row and output group, each tree's values are summed in a zeroed per-tree buffer, then added
/// to the row's result (times DART's weight_drop) in tree order, and the base score (or base margin)
/// is added to the bias column last, as upstream does. So the bytes are the same on every backend.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

#include <kboost/core/compat.hpp>
#include <kboost/core/device_memory.hpp>
#include <kboost/kernels/device_forest.hpp>
#include <kboost/kernels/shap_layout.hpp>
#include <kboost/kernels/split_rule.hpp>

namespace kboost {

/// One element of TreeSHAP's decision path (upstream's PathElement). pweight is the permutation
/// weight of the paths with i - 1 ones among the first elements.
struct PathElement {
  int feature_index;
  float zero_fraction;
  float one_fraction;
  float pweight;
};

/// A pending cold-child visit of the TreeSHAP walk: what upstream's recursion keeps on its call stack
/// between the hot and the cold call of a split.
struct ShapFrame {
  int path;                    ///< offset of the split's path in the row's path buffer
  std::uint32_t depth;         ///< its unique depth after unwinding (the child gets depth + 1)
  std::int32_t cold;           ///< pool slot of the cold child
  float zero_fraction;         ///< cold cover fraction times the incoming zero fraction
  std::uint32_t split_feature;
  float condition_fraction;
};

/// A trivially copyable handle of the SHAP arrays for trees [0, n_trees).
template <class MemorySpace>
struct ShapForest {
  using memory_space = MemorySpace;
  detail::ConstArray<ShapNode> nodes;
  detail::ConstArray<std::int32_t> cat_begin, cat_words;
  detail::ConstArray<std::uint32_t> cat_bits;
  detail::ConstArray<std::int32_t> tree_begin, tree_group, tree_features_begin, tree_features;
  detail::ConstArray<float> tree_weight;  ///< null for gbtree
  detail::ConstArray<float> base_margin;  ///< n_groups margin-space base scores
  int n_trees = 0, n_features = 0, n_groups = 1;
  float missing = std::numeric_limits<float>::quiet_NaN();
};

/// Path buffer length per row for trees up to `max_depth` deep: upstream's (d + 2)(d + 3) / 2.
inline int shap_path_length(int max_depth) { return (max_depth + 2) * (max_depth + 3) / 2; }

namespace detail {

/// Extend the path at p(b ..) with a fraction of zero and one extensions (upstream ExtendPath).
template <class P>
KOKKOS_INLINE_FUNCTION void extend_path(P const& p, int b, std::uint32_t unique_depth, float zero_fraction,
                                        float one_fraction, int feature_index) {
  PathElement& e = p(b + static_cast<int>(unique_depth));
  e.feature_index = feature_index;
  e.zero_fraction = zero_fraction;
  e.one_fraction = one_fraction;
  e.pweight = (unique_depth == 0 ? 1.0f : 0.0f);
  for (int i = unique_depth - 1; i >= 0; i--) {
    p(b + i + 1).pweight += one_fraction * p(b + i).pweight * (i + 1) / static_cast<float>(unique_depth + 1);
    p(b + i).pweight = zero_fraction * p(b + i).pweight * (unique_depth - i) / static_cast<float>(unique_depth + 1);
  }
}

/// Undo the extension at path_index (upstream UnwindPath).
template <class P>
KOKKOS_INLINE_FUNCTION void unwind_path(P const& p, int b, std::uint32_t unique_depth, std::uint32_t path_index) {
  float const one_fraction = p(b + static_cast<int>(path_index)).one_fraction;
  float const zero_fraction = p(b + static_cast<int>(path_index)).zero_fraction;
  float next_one_portion = p(b + static_cast<int>(unique_depth)).pweight;
  for (int i = unique_depth - 1; i >= 0; --i) {
    if (one_fraction != 0) {
      float const tmp = p(b + i).pweight;
      p(b + i).pweight = next_one_portion * (unique_depth + 1) / static_cast<float>((i + 1) * one_fraction);
      next_one_portion = tmp - p(b + i).pweight * zero_fraction * (unique_depth - i) / static_cast<float>(unique_depth + 1);
    } else {
      p(b + i).pweight = (p(b + i).pweight * (unique_depth + 1)) / static_cast<float>(zero_fraction * (unique_depth - i));
    }
  }
  for (auto i = path_index; i < unique_depth; ++i) {
    PathElement& e = p(b + static_cast<int>(i));
    PathElement const& n = p(b + static_cast<int>(i) + 1);
    e.feature_index = n.feature_index;
    e.zero_fraction = n.zero_fraction;
    e.one_fraction = n.one_fraction;
  }
}

/// Total permutation weight if the extension at path_index were undone (upstream UnwoundPathSum).
template <class P>
KOKKOS_INLINE_FUNCTION float unwound_path_sum(P const& p, int b, std::uint32_t unique_depth, std::uint32_t path_index) {
  float const one_fraction = p(b + static_cast<int>(path_index)).one_fraction;
  float const zero_fraction = p(b + static_cast<int>(path_index)).zero_fraction;
  float next_one_portion = p(b + static_cast<int>(unique_depth)).pweight;
  float total = 0;
  for (int i = unique_depth - 1; i >= 0; --i) {
    if (one_fraction != 0) {
      float const tmp = next_one_portion * (unique_depth + 1) / static_cast<float>((i + 1) * one_fraction);
      total += tmp;
      next_one_portion = p(b + i).pweight - tmp * zero_fraction * ((unique_depth - i) / static_cast<float>(unique_depth + 1));
    } else if (zero_fraction != 0) {
      total += (p(b + i).pweight / zero_fraction) / ((unique_depth - i) / static_cast<float>(unique_depth + 1));
    }
  }
  return total;
}

/// If the split feature is already on the path at p(b ..), undo its extension and return its zero and
/// one fractions (upstream TreeShap's "see if we have already split on this feature"); depth drops
/// by one. Otherwise the fractions stay 1.
template <class P>
KOKKOS_INLINE_FUNCTION void unwind_repeated_feature(P const& p, int b, std::uint32_t& depth, std::uint32_t split,
                                                    float& incoming_zero_fraction, float& incoming_one_fraction) {
  incoming_zero_fraction = 1;
  incoming_one_fraction = 1;
  std::uint32_t path_index = 0;
  for (; path_index <= depth; ++path_index)
    if (static_cast<std::uint32_t>(p(b + static_cast<int>(path_index)).feature_index) == split) break;
  if (path_index != depth + 1) {
    incoming_zero_fraction = p(b + static_cast<int>(path_index)).zero_fraction;
    incoming_one_fraction = p(b + static_cast<int>(path_index)).one_fraction;
    unwind_path(p, b, depth, path_index);
    depth -= 1;
  }
}

/// Leaf term of path element i (1 <= i <= depth) at p(b ..): what upstream's TreeShap adds to
/// phi[el.feature_index] for a leaf of value `leaf_value`.
template <class P>
KOKKOS_INLINE_FUNCTION float leaf_term(P const& p, int b, std::uint32_t depth, std::uint32_t i, float leaf_value,
                                       float condition_fraction) {
  float const w = unwound_path_sum(p, b, depth, i);
  PathElement const el = p(b + static_cast<int>(i));
  return w * (el.one_fraction - el.zero_fraction) * leaf_value * condition_fraction;
}

/// DART's weight_drop of tree t, 1 for gbtree.
template <class Forest>
KOKKOS_INLINE_FUNCTION float shap_tree_weight(Forest const& f, int t) {
  return f.tree_weight.data != nullptr ? f.tree_weight(t) : 1.0f;
}

/// Adds one tree's values, times its weight, into out(g, c) and zeroes them: phi_at(k) is the value of
/// the tree's k-th split feature (k < its feature count), phi_at(feature count) the bias. Only the
/// tree's split features and the bias can be non-zero; adding the others' zeros would change nothing
/// (a sum that starts at +0 never becomes -0).
template <class Forest, class PhiAt, class Out>
KOKKOS_INLINE_FUNCTION void add_tree_values(Forest const& f, int t, int g, PhiAt const& phi_at, Out const& out) {
  float const w = shap_tree_weight(f, t);
  int const begin = f.tree_features_begin(t), n = f.tree_features_begin(t + 1) - begin;
  for (int k = 0; k < n; ++k) {
    out(g, f.tree_features(begin + k)) += phi_at(k) * w;
    phi_at(k) = 0.0f;
  }
  out(g, f.n_features) += phi_at(n) * w;
  phi_at(n) = 0.0f;
}

/// Child of the split at pool slot `slot` that row `x` follows (split_goes_left, upstream GetNextNode).
template <class MemorySpace, class Row>
KOKKOS_INLINE_FUNCTION std::int32_t shap_next(ShapForest<MemorySpace> const& f, std::int32_t slot, ShapNode const& n,
                                             Row const& x) {
  return split_goes_left(f, slot, n.split, x(n.split.feature), f.missing) ? n.split.child : n.right;
}

/// TreeSHAP of tree `t` for row `x`, added into phi(feature) (upstream TreeShap from the root with
/// condition / condition_feature). `path` holds shap_path_length(max depth) elements, `stack` max
/// depth + 1 frames.
template <class MemorySpace, class Row, class Path, class Stack, class Phi>
KOKKOS_INLINE_FUNCTION void tree_shap(ShapForest<MemorySpace> const& f, int t, Row const& x, Path const& path,
                                      Stack const& stack, Phi const& phi, int condition, std::uint32_t condition_feature) {
  // The arguments of upstream's current TreeShap call.
  std::int32_t node = f.tree_begin(t);
  std::uint32_t depth = 0;
  int parent = 0;
  float zero_fraction = 1, one_fraction = 1, condition_fraction = 1;
  int parent_feature = -1;
  bool root = true;
  int top = 0;
  while (true) {
    bool descend = false;
    if (condition_fraction != 0) {
      int const b = parent + static_cast<int>(depth) + 1;
      // The root's copy reads upstream's uninitialised first element, which ExtendPath overwrites.
      if (!root)
        for (std::uint32_t i = 0; i <= depth; ++i) path(b + static_cast<int>(i)) = path(parent + static_cast<int>(i));
      root = false;
      if (condition == 0 || condition_feature != static_cast<std::uint32_t>(parent_feature))
        extend_path(path, b, depth, zero_fraction, one_fraction, parent_feature);
      ShapNode const n = f.nodes(node);
      if (n.split.flags & PredictNode::kLeaf) {
        for (std::uint32_t i = 1; i <= depth; ++i)
          phi(path(b + static_cast<int>(i)).feature_index) += leaf_term(path, b, depth, i, n.split.value, condition_fraction);
      } else {
        auto const split = static_cast<std::uint32_t>(n.split.feature);
        std::int32_t const hot = shap_next(f, node, n, x);
        std::int32_t const cold = hot == n.split.child ? n.right : n.split.child;
        float const w = n.cover;
        float const hot_zero_fraction = f.nodes(hot).cover / w;
        float const cold_zero_fraction = f.nodes(cold).cover / w;
        float incoming_zero_fraction, incoming_one_fraction;
        unwind_repeated_feature(path, b, depth, split, incoming_zero_fraction, incoming_one_fraction);
        float hot_condition_fraction = condition_fraction;
        float cold_condition_fraction = condition_fraction;
        if (condition > 0 && split == condition_feature) {
          cold_condition_fraction = 0;
          depth -= 1;
        } else if (condition < 0 && split == condition_feature) {
          hot_condition_fraction *= hot_zero_fraction;
          cold_condition_fraction *= cold_zero_fraction;
          depth -= 1;
        }
        stack(top++) = ShapFrame{b, depth, cold, cold_zero_fraction * incoming_zero_fraction, split, cold_condition_fraction};
        node = hot;
        parent = b;
        depth = depth + 1;
        zero_fraction = hot_zero_fraction * incoming_zero_fraction;
        one_fraction = incoming_one_fraction;
        parent_feature = static_cast<int>(split);
        condition_fraction = hot_condition_fraction;
        descend = true;
      }
    }
    if (descend) continue;
    if (top == 0) break;
    ShapFrame const fr = stack(--top);
    node = fr.cold;
    parent = fr.path;
    depth = fr.depth + 1;
    zero_fraction = fr.zero_fraction;
    one_fraction = 0;
    parent_feature = static_cast<int>(fr.split_feature);
    condition_fraction = fr.condition_fraction;
  }
}

/// Saabas' attribution of tree `t` for row `x` into phi (upstream CalculateContributionsApprox):
/// the bias gets the root's mean, each split's feature the change of the mean along x's path.
template <class MemorySpace, class Row, class Phi>
KOKKOS_INLINE_FUNCTION void tree_saabas(ShapForest<MemorySpace> const& f, int t, Row const& x, Phi const& phi) {
  std::int32_t nidx = f.tree_begin(t);
  ShapNode n = f.nodes(nidx);
  float node_value = n.mean_value;
  phi(f.n_features) += node_value;
  if (n.split.flags & PredictNode::kLeaf) return;
  int split_index = 0;
  while (!(n.split.flags & PredictNode::kLeaf)) {
    split_index = n.split.feature;
    nidx = shap_next(f, nidx, n, x);
    n = f.nodes(nidx);
    float const new_value = n.mean_value;
    phi(split_index) += new_value - node_value;
    node_value = new_value;
  }
  phi(split_index) += n.split.value - node_value;
}

/// Per-row scratch of the SHAP kernels: path elements, cold-visit frames and one tree's values
/// (features + bias; zero between trees).
template <class PathView, class StackView, class TmpView>
struct ShapScratch {
  PathView path;
  StackView stack;
  TmpView tree_phi;
};

/// Row r of a rank-2 scratch View as an accessor a(i).
template <class V>
struct ScratchRowOf {
  V v;
  int r;
  KOKKOS_INLINE_FUNCTION typename V::reference_type operator()(int i) const { return v(r, i); }
};

/// Contributions of row `x` for every group into out(g, c) (zeroed here first; c < n_features + 1,
/// bias last), as upstream's PredictContributionKernel with `condition` on `condition_feature`;
/// `bm` points at the row's base margins (n_groups) or is null for the model's base score.
template <class MemorySpace, class Row, class Scratch, class Out>
KOKKOS_INLINE_FUNCTION void row_contributions(ShapForest<MemorySpace> const& f, Row const& x, Scratch const& s, int r,
                                              bool approximate, int condition, std::uint32_t condition_feature,
                                              float const* bm, Out const& out) {
  ScratchRowOf<decltype(s.path)> const path{s.path, r};
  ScratchRowOf<decltype(s.stack)> const stack{s.stack, r};
  ScratchRowOf<decltype(s.tree_phi)> const phi{s.tree_phi, r};
  int const F = f.n_features;
  for (int g = 0; g < f.n_groups; ++g) {
    for (int c = 0; c <= F; ++c) out(g, c) = 0.0f;
    for (int t = 0; t < f.n_trees; ++t) {
      if (f.tree_group(t) != g) continue;
      if (approximate) {
        tree_saabas(f, t, x, phi);
      } else {
        if (condition == 0) phi(F) += f.nodes(f.tree_begin(t)).mean_value;
        tree_shap(f, t, x, path, stack, phi, condition, condition_feature);
      }
      int const begin = f.tree_features_begin(t), n = f.tree_features_begin(t + 1) - begin;
      add_tree_values(f, t, g, [&](int k) -> float& { return phi(k < n ? f.tree_features(begin + k) : F); }, out);
    }
    out(g, F) += bm != nullptr ? bm[g] : f.base_margin(g);
  }
}

/// Row r of a rows × groups × columns View as out(g, c).
template <class V>
struct Rank3Row {
  V v;
  int r;
  KOKKOS_INLINE_FUNCTION float& operator()(int g, int c) const { return v(r, g, c); }
};

/// Row r of a rows × (groups · cols) scratch View as out(g, c).
template <class V>
struct GroupedRow {
  V v;
  int r, cols;
  KOKKOS_INLINE_FUNCTION float& operator()(int g, int c) const { return v(r, g * cols + c); }
};

}  // namespace detail

/// Scratch Views for `rows` rows at a time: path buffers, frames and per-tree values, in the
/// execution space's preferred layout (row-major on hosts, row-minor on GPUs so that a warp's
/// threads touch adjacent words).
template <class ExecutionSpace>
struct ShapWorkspace {
  using layout = typename ExecutionSpace::array_layout;
  using memory_space = typename ExecutionSpace::memory_space;
  Kokkos::View<PathElement**, layout, memory_space> path;
  Kokkos::View<ShapFrame**, layout, memory_space> stack;
  Kokkos::View<float**, layout, memory_space> tree_phi;
  /// Interaction values only: the unconditioned, off- and on-conditioned contributions.
  Kokkos::View<float**, layout, memory_space> diag, off, on;

  ShapWorkspace(int rows, int max_depth, int n_features, int n_groups, bool interactions)
      // zeroed as upstream's std::vector<PathElement>: the root frame copies one element of its
      // parent path before ExtendPath overwrites it
      : path(allocate_view<decltype(path)>("kboost::shap::path", true, rows, shap_path_length(max_depth))),
        stack(allocate_view<decltype(stack)>("kboost::shap::stack", false, rows, max_depth + 1)),
        tree_phi(allocate_view<decltype(tree_phi)>("kboost::shap::tree_phi", true, rows, n_features + 1)) {
    if (interactions) {
      std::size_t const cols = static_cast<std::size_t>(n_groups) * static_cast<std::size_t>(n_features + 1);
      diag = allocate_view<decltype(diag)>("kboost::shap::diag", false, rows, cols);
      off = allocate_view<decltype(off)>("kboost::shap::off", false, rows, cols);
      on = allocate_view<decltype(on)>("kboost::shap::on", false, rows, cols);
    }
  }
  /// Bytes per row, to size the row chunks.
  static std::size_t bytes_per_row(int max_depth, int n_features, int n_groups, bool interactions) {
    std::size_t b = sizeof(PathElement) * static_cast<std::size_t>(shap_path_length(max_depth)) +
                    sizeof(ShapFrame) * static_cast<std::size_t>(max_depth + 1) + 4 * static_cast<std::size_t>(n_features + 1);
    if (interactions) b += 3 * 4 * static_cast<std::size_t>(n_groups) * static_cast<std::size_t>(n_features + 1);
    return b;
  }
};

/// SHAP contributions of rows [row0, row0 + ws rows) of X (rows × features, any layout) into `out`
/// (rows × n_groups × (n_features + 1), bias last; any layout), TreeSHAP or Saabas (`approximate`).
/// `base_margin`: rows × n_groups, or extent 0 for the model's base score. Runs on `space`
/// (asynchronous on device backends). Label "kboost::shap::contributions".
template <class ExecutionSpace, class MemorySpace, class XView, class OutView, class BaseMarginView>
void shap_contributions(ExecutionSpace const& space, ShapForest<MemorySpace> const& f, XView const& X,
                        BaseMarginView const& base_margin, bool approximate, ShapWorkspace<ExecutionSpace> const& ws,
                        int row0, int n_rows, OutView const& out) {
  static_assert(XView::rank == 2 && OutView::rank == 3, "X is rows x features, out rows x groups x columns");
  compat::ScopedRegion region("kboost::shap::contributions");
  detail::ShapScratch<decltype(ws.path), decltype(ws.stack), decltype(ws.tree_phi)> const s{ws.path, ws.stack, ws.tree_phi};
  bool const has_bm = base_margin.extent(0) > 0;
  Kokkos::parallel_for(
      "kboost::shap::contributions", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n_rows), KOKKOS_LAMBDA(int i) {
        int const r = row0 + i;
        detail::ViewRow<XView> const x{X, r};
        float const* bm = has_bm ? &base_margin(r, 0) : nullptr;
        detail::row_contributions(f, x, s, i, approximate, 0, 0u, bm, detail::Rank3Row<OutView>{out, r});
      });
}

/// SHAP interaction values of rows [row0, row0 + n_rows) of X into `out` (rows × n_groups ×
/// (n_features + 1) × (n_features + 1); any layout), as upstream's PredictInteractionContributions:
/// off-diagonal (i, k) = (contribution of k with i on − with i off) / 2, diagonal = the
/// contribution of i minus its row's off-diagonals. Label "kboost::shap::interactions".
template <class ExecutionSpace, class MemorySpace, class XView, class OutView, class BaseMarginView>
void shap_interactions(ExecutionSpace const& space, ShapForest<MemorySpace> const& f, XView const& X,
                       BaseMarginView const& base_margin, bool approximate, ShapWorkspace<ExecutionSpace> const& ws,
                       int row0, int n_rows, OutView const& out) {
  static_assert(XView::rank == 2 && OutView::rank == 4, "X is rows x features, out rows x groups x columns x columns");
  compat::ScopedRegion region("kboost::shap::interactions");
  detail::ShapScratch<decltype(ws.path), decltype(ws.stack), decltype(ws.tree_phi)> const s{ws.path, ws.stack, ws.tree_phi};
  auto const diag = ws.diag, off = ws.off, on = ws.on;
  bool const has_bm = base_margin.extent(0) > 0;
  int const C = f.n_features + 1;
  Kokkos::parallel_for(
      "kboost::shap::interactions", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n_rows), KOKKOS_LAMBDA(int i) {
        int const r = row0 + i;
        detail::ViewRow<XView> const x{X, r};
        float const* bm = has_bm ? &base_margin(r, 0) : nullptr;
        detail::GroupedRow<decltype(diag)> const d{diag, i, C}, lo{off, i, C}, hi{on, i, C};
        detail::row_contributions(f, x, s, i, approximate, 0, 0u, bm, d);
        for (int c = 0; c < C; ++c) {
          detail::row_contributions(f, x, s, i, approximate, -1, static_cast<std::uint32_t>(c), bm, lo);
          detail::row_contributions(f, x, s, i, approximate, 1, static_cast<std::uint32_t>(c), bm, hi);
          for (int g = 0; g < f.n_groups; ++g) {
            out(r, g, c, c) = 0;
            for (int k = 0; k < C; ++k) {
              if (k == c) {
                out(r, g, c, c) += d(g, k);
              } else {
                // upstream: (on - off) / 2.0 in double, stored as float: the same value as 0.5f times
                out(r, g, c, k) = 0.5f * (hi(g, k) - lo(g, k));
                out(r, g, c, c) -= out(r, g, c, k);
              }
            }
          }
        }
      });
}

}  // namespace kboost
