#pragma once
/// \file tree_shap_paths.hpp
/// Path-parallel TreeSHAP contributions with upstream XGBoost 3.2's CPU bits (src/predictor/treeshap.cc),
/// for GPUs, where one thread per row (kernels/tree_shap.hpp) leaves most of the device idle.
///
/// Upstream's recursion reaches a leaf with a path state (ExtendPath / UnwindPath from the root,
/// with the row's hot/cold zero and one fractions) that depends only on the root-to-leaf path and the
/// row, so it is replayed independently per (row, leaf) with the same float operations, in place
/// in one buffer where upstream copies it at each level (the copy changes no value). Then:
///  - pass 1, one thread per (row, path): replays the path (kernels/shap_paths.hpp) and stores each
///    of the leaf's terms, w · (one − zero) · leaf value · 1 (upstream's phi increments), and the
///    leaf's rank in the row's visit order (hot child first at every split, as upstream recurses);
///  - pass 2, one thread per (row, tree, split feature or bias): sums that feature's terms of the
///    tree in that order from +0 (the root's mean for the bias), as upstream adds them into phi;
///  - pass 3, one thread per row: adds the trees' values times DART's weight into the row's result in
///    tree order (kernels/tree_shap.hpp add_tree_values), the base score or margin last.
/// Every float operation and every sum order is upstream's, so the bytes equal the per-row kernel's.
/// Trees and rows are processed in chunks whose buffers fit the caller's scratch bound.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/device_memory.hpp>
#include <kboost/kernels/shap_paths.hpp>
#include <kboost/kernels/tree_shap.hpp>

namespace kboost {

/// A trivially copyable handle of the path arrays (ShapPathArrays) beside the forest's.
struct ShapPathForest {
  detail::ConstArray<std::int32_t> tree_path_begin, path_tree, step_begin, term_begin, term_column, column_tree;
  detail::ConstArray<ShapPathStep> steps;
  detail::ConstArray<std::uint64_t> column_mask;
};

/// Trees [tree0, tree1) of one launch group: their paths [path0, path1) and terms [term0, term1),
/// and their per-tree value columns (split features + bias per tree).
struct ShapTreeChunk {
  int tree0 = 0, tree1 = 0, path0 = 0, path1 = 0, term0 = 0, term1 = 0, columns = 0;
  int feature0 = 0;  ///< tree_features_begin of tree0: tree t's columns start at its own minus this, plus t − tree0
};

/// Bytes one row needs for tree t: its terms, its leaves' visit order and its values.
inline std::size_t shap_path_row_bytes(HostShapPaths const& p, std::vector<std::int32_t> const& tree_features_begin, int t) {
  auto const ut = static_cast<std::size_t>(t);
  auto const paths = static_cast<std::size_t>(p.tree_path_begin[ut + 1] - p.tree_path_begin[ut]);
  auto const terms = static_cast<std::size_t>(p.term_begin[static_cast<std::size_t>(p.tree_path_begin[ut + 1])] -
                                              p.term_begin[static_cast<std::size_t>(p.tree_path_begin[ut])]);
  auto const columns = static_cast<std::size_t>(tree_features_begin[ut + 1] - tree_features_begin[ut] + 1);
  return 4 * (terms + paths + columns);
}

/// How the path kernel splits a call: `rows` rows per launch, over tree chunks, with buffers as
/// wide as the widest chunk's terms, leaves and value columns.
struct ShapPathPlan {
  int rows = 1;
  std::vector<ShapTreeChunk> chunks;
  int max_terms = 1, max_paths = 1, max_columns = 1;
  std::size_t bytes() const {
    return 4 * static_cast<std::size_t>(rows) * static_cast<std::size_t>(max_terms + max_paths + max_columns);
  }
};

/// Tree chunks of trees [0, n_trees) whose row bytes stay within `budget` (at least one tree each).
inline std::vector<ShapTreeChunk> shap_tree_chunks(HostShapPaths const& p, std::vector<std::int32_t> const& tree_features_begin,
                                                   int n_trees, std::size_t budget) {
  std::vector<ShapTreeChunk> chunks;
  for (int t = 0; t < n_trees;) {
    ShapTreeChunk c;
    c.tree0 = t;
    c.feature0 = tree_features_begin[static_cast<std::size_t>(t)];
    std::size_t bytes = 0;
    do {
      bytes += shap_path_row_bytes(p, tree_features_begin, t);
      c.columns += tree_features_begin[static_cast<std::size_t>(t) + 1] - tree_features_begin[static_cast<std::size_t>(t)] + 1;
      ++t;
    } while (t < n_trees && bytes + shap_path_row_bytes(p, tree_features_begin, t) <= budget);
    c.tree1 = t;
    c.path0 = p.tree_path_begin[static_cast<std::size_t>(c.tree0)];
    c.path1 = p.tree_path_begin[static_cast<std::size_t>(c.tree1)];
    c.term0 = p.term_begin[static_cast<std::size_t>(c.path0)];
    c.term1 = p.term_begin[static_cast<std::size_t>(c.path1)];
    chunks.push_back(c);
  }
  return chunks;
}

/// The plan for `n_rows` rows of trees [0, n_trees): as many rows per launch as the widest tree
/// allows within `limit`, tree chunks filling that, then rows cut so that plan.bytes() <= limit
/// (unless one row of one tree alone is larger).
inline ShapPathPlan plan_shap_paths(HostShapPaths const& p, std::vector<std::int32_t> const& tree_features_begin, int n_trees,
                                    int n_rows, std::size_t limit) {
  auto const rows_within = [&](std::size_t row_bytes) {
    return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(n_rows), limit / row_bytes)));
  };
  std::size_t widest = 1;
  for (int t = 0; t < n_trees; ++t) widest = std::max(widest, shap_path_row_bytes(p, tree_features_begin, t));
  ShapPathPlan plan;
  plan.chunks = shap_tree_chunks(p, tree_features_begin, n_trees, limit / static_cast<std::size_t>(rows_within(widest)));
  for (auto const& c : plan.chunks) {
    plan.max_terms = std::max(plan.max_terms, c.term1 - c.term0);
    plan.max_paths = std::max(plan.max_paths, c.path1 - c.path0);
    plan.max_columns = std::max(plan.max_columns, c.columns);
  }
  plan.rows = rows_within(4 * static_cast<std::size_t>(plan.max_terms + plan.max_paths + plan.max_columns));
  return plan;
}

/// Scratch of the path kernel for a plan, row index fastest on GPUs (execution space's layout).
template <class ExecutionSpace>
struct ShapPathWorkspace {
  using layout = typename ExecutionSpace::array_layout;
  using memory_space = typename ExecutionSpace::memory_space;
  Kokkos::View<float**, layout, memory_space> terms;
  Kokkos::View<std::int32_t**, layout, memory_space> order;
  Kokkos::View<float**, layout, memory_space> tree_phi;
  explicit ShapPathWorkspace(ShapPathPlan const& plan)
      : terms(allocate_view<decltype(terms)>("kboost::shap::path_terms", false, plan.rows, plan.max_terms)),
        order(allocate_view<decltype(order)>("kboost::shap::path_order", false, plan.rows, plan.max_paths)),
        tree_phi(allocate_view<decltype(tree_phi)>("kboost::shap::path_tree_phi", false, plan.rows, plan.max_columns)) {}
};

namespace detail {

/// A thread's own path buffer as an accessor p(i), for extend_path and friends.
struct LocalPath {
  PathElement* e;
  KOKKOS_INLINE_FUNCTION PathElement& operator()(int i) const { return e[i]; }
};

/// Replays upstream's recursion along path p for row x (the state at the leaf, one buffer updated in
/// place), writes the leaf's terms to term_out(0 .. unique depth − 1) and returns the leaf's rank
/// in the row's visit order of the tree's leaves.
template <class MemorySpace, class Row, class TermOut>
KOKKOS_INLINE_FUNCTION int replay_path(ShapForest<MemorySpace> const& f, ShapPathForest const& pf, int p, Row const& x,
                                       TermOut const& term_out) {
  PathElement buffer[kShapPathMaxDepth + 1];
  LocalPath const path{buffer};
  std::uint32_t depth = 0;
  float zero_fraction = 1, one_fraction = 1;
  int feature = -1, rank = 0;
  float const condition_fraction = 1;
  int const last = pf.step_begin(p + 1) - 1;
  for (int s = pf.step_begin(p);; ++s) {
    extend_path(path, 0, depth, zero_fraction, one_fraction, feature);
    ShapPathStep const step = pf.steps(s);
    ShapNode const n = f.nodes(step.node);
    if (s == last) {
      for (std::uint32_t i = 1; i <= depth; ++i) term_out(static_cast<int>(i) - 1) = leaf_term(path, 0, depth, i, n.split.value, condition_fraction);
      return rank;
    }
    auto const split = static_cast<std::uint32_t>(n.split.feature);
    std::int32_t const hot = shap_next(f, step.node, n, x);
    std::int32_t const next = pf.steps(s + 1).node;
    float incoming_zero_fraction, incoming_one_fraction;
    unwind_repeated_feature(path, 0, depth, split, incoming_zero_fraction, incoming_one_fraction);
    zero_fraction = f.nodes(next).cover / n.cover * incoming_zero_fraction;
    if (next == hot) {
      one_fraction = incoming_one_fraction;
    } else {
      one_fraction = 0;
      rank += step.other_leaves;
    }
    feature = static_cast<int>(split);
    depth += 1;
  }
}

/// Column `c0 + j` of row r of a rank-2 scratch View as an accessor a(j).
template <class V>
struct ScratchColumns {
  V v;
  int r, c0;
  KOKKOS_INLINE_FUNCTION typename V::reference_type operator()(int j) const { return v(r, c0 + j); }
};

}  // namespace detail

/// Pass 1 for rows [row0, row0 + n_rows) and chunk `c`: every (row, path)'s terms and rank.
/// Label "kboost::shap::path_terms".
template <class ExecutionSpace, class MemorySpace, class XView>
void shap_path_terms(ExecutionSpace const& space, ShapForest<MemorySpace> const& f, ShapPathForest const& pf, XView const& X,
                     ShapPathWorkspace<ExecutionSpace> const& ws, ShapTreeChunk const& c, int row0, int n_rows) {
  auto const terms = ws.terms;
  auto const order = ws.order;
  std::int64_t const n = static_cast<std::int64_t>(n_rows) * (c.path1 - c.path0);
  Kokkos::parallel_for(
      "kboost::shap::path_terms", Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) {
        int const r = static_cast<int>(i % n_rows);
        int const p = c.path0 + static_cast<int>(i / n_rows);
        detail::ViewRow<XView> const x{X, row0 + r};
        detail::ScratchColumns<decltype(terms)> const out{terms, r, pf.term_begin(p) - c.term0};
        int const rank = detail::replay_path(f, pf, p, x, out);
        order(r, pf.tree_path_begin(pf.path_tree(p)) - c.path0 + rank) = p;
      });
}

/// Pass 2: each (row, tree, column)'s value, in a register: the root's mean for the bias column;
/// for a split feature's column, the terms of that feature in the row's visit order of the tree's
/// leaves (a path holds each feature at most once), as upstream adds them into phi. A row's columns
/// are adjacent threads, so they share the row's visit order and path loads.
/// Label "kboost::shap::path_tree_values".
template <class ExecutionSpace, class MemorySpace>
void shap_path_tree_values(ExecutionSpace const& space, ShapForest<MemorySpace> const& f, ShapPathForest const& pf,
                           ShapPathWorkspace<ExecutionSpace> const& ws, ShapTreeChunk const& c, int n_rows) {
  auto const terms = ws.terms;
  auto const order = ws.order;
  auto const tree_phi = ws.tree_phi;
  std::int64_t const n = static_cast<std::int64_t>(n_rows) * c.columns;
  Kokkos::parallel_for(
      "kboost::shap::path_tree_values", Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) {
        int const j = static_cast<int>(i % c.columns);
        int const r = static_cast<int>(i / c.columns);
        int const column = c.feature0 + c.tree0 + j;
        int const t = pf.column_tree(column);
        int const k = column - (f.tree_features_begin(t) + t);
        float value = 0.0f;
        if (k == f.tree_features_begin(t + 1) - f.tree_features_begin(t)) {
          value += f.nodes(f.tree_begin(t)).mean_value;
        } else {
          std::uint64_t const bit = k < 64 ? std::uint64_t{1} << k : ~std::uint64_t{0};
          for (int q = pf.tree_path_begin(t); q < pf.tree_path_begin(t + 1); ++q) {
            int const p = order(r, q - c.path0);
            if ((pf.column_mask(p) & bit) == 0) continue;
            for (int e = pf.term_begin(p); e < pf.term_begin(p + 1); ++e)
              if (pf.term_column(e) == k) {
                value += terms(r, e - c.term0);
                break;
              }
          }
        }
        tree_phi(r, j) = value;
      });
}

/// Pass 3: each row's result plus its trees' values times their weights, in tree order.
/// Label "kboost::shap::path_add_trees".
template <class ExecutionSpace, class MemorySpace, class OutView>
void shap_path_add_trees(ExecutionSpace const& space, ShapForest<MemorySpace> const& f, ShapPathWorkspace<ExecutionSpace> const& ws,
                         ShapTreeChunk const& c, int row0, int n_rows, OutView const& out) {
  auto const tree_phi = ws.tree_phi;
  Kokkos::parallel_for(
      "kboost::shap::path_add_trees", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n_rows), KOKKOS_LAMBDA(int r) {
        detail::Rank3Row<OutView> const row{out, row0 + r};
        for (int t = c.tree0; t < c.tree1; ++t) {
          detail::ScratchColumns<decltype(tree_phi)> const phi{tree_phi, r, f.tree_features_begin(t) - c.feature0 + (t - c.tree0)};
          detail::add_tree_values(f, t, f.tree_group(t), phi, row);
        }
      });
}

/// TreeSHAP contributions of rows [row0, row0 + n_rows) of X into `out` (rows × n_groups ×
/// (n_features + 1), bias last), the same bytes as shap_contributions without approximation, over
/// the tree chunks `chunks` (plan_shap_paths; the workspace sized by that plan).
/// `base_margin`: rows × n_groups, or extent 0 for the model's base score. Asynchronous on device
/// backends. Labels "kboost::shap::path_*".
template <class ExecutionSpace, class MemorySpace, class XView, class OutView, class BaseMarginView>
void shap_contributions_by_paths(ExecutionSpace const& space, ShapForest<MemorySpace> const& f, ShapPathForest const& pf,
                                 XView const& X, BaseMarginView const& base_margin, ShapPathWorkspace<ExecutionSpace> const& ws,
                                 std::vector<ShapTreeChunk> const& chunks, int row0, int n_rows, OutView const& out) {
  static_assert(XView::rank == 2 && OutView::rank == 3, "X is rows x features, out rows x groups x columns");
  compat::ScopedRegion region("kboost::shap::path_contributions");
  int const cols = f.n_features + 1;
  Kokkos::parallel_for(
      "kboost::shap::path_zero", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n_rows), KOKKOS_LAMBDA(int r) {
        for (int g = 0; g < f.n_groups; ++g)
          for (int k = 0; k < cols; ++k) out(row0 + r, g, k) = 0.0f;
      });
  for (auto const& c : chunks) {
    shap_path_terms(space, f, pf, X, ws, c, row0, n_rows);
    shap_path_tree_values(space, f, pf, ws, c, n_rows);
    shap_path_add_trees(space, f, ws, c, row0, n_rows, out);
  }
  bool const has_bm = base_margin.extent(0) > 0;
  Kokkos::parallel_for(
      "kboost::shap::path_base_margin", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n_rows), KOKKOS_LAMBDA(int r) {
        for (int g = 0; g < f.n_groups; ++g) out(row0 + r, g, cols - 1) += has_bm ? base_margin(row0 + r, g) : f.base_margin(g);
      });
}

}  // namespace kboost
