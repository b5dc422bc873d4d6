#pragma once
/// \file device_forest.hpp
/// kboost::DeviceForest: a model's prediction, callable for one row from inside any Kokkos kernel
/// (or plain host code when the forest is in host memory). It is a trivially copyable handle of raw
/// pointers into the arrays a Predictor owns (kernels/predict_layout.hpp ForestArrays), so a user
/// captures it by value in a parallel_for over cells or particles and predicts each from wherever its
/// features live, through an accessor x(feature) -> float.
///
/// The arithmetic is the batch kernel's (kernels/predict_kernel.hpp), in the same order: the margin
/// starts at the base score, adds each tree's leaf IN TREE ORDER in float32 (DART: (0 + leaf) *
/// weight_drop), then the objective's transform (core/output_transform.hpp). So a row's result is
/// bit-identical to the batch predictor, to `kboost predict` and to upstream XGBoost 3.2's CPU predict
/// (src/predictor/cpu_predictor.cc PredValueByOneTree, src/gbm/gbtree.cc Dart::PredictBatchImpl), on
/// every backend.
///
/// predict_team is the same prediction by a team of threads (a user kernel with a team per cell or
/// particle): the trees are walked side by side and each output column's leaves added in tree order
/// by one thread, so it gives predict's bits for any team size.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <kboost/core/compat.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/kernels/predict_layout.hpp>

namespace kboost {

namespace detail {
/// A non-owning array read with View syntax a(i), so split_goes_left/traverse_tree serve both the
/// View-holding ForestArrays and the pointer-holding DeviceForest.
template <class T>
struct ConstArray {
  T const* data = nullptr;
  KOKKOS_INLINE_FUNCTION T const& operator()(std::int64_t i) const { return data[i]; }
};

/// A scalar tree's contribution: its leaf value, DART-weighted as upstream ((0 + leaf) · weight_drop).
template <class Forest>
KOKKOS_INLINE_FUNCTION float scalar_leaf(Forest const& f, int tree, std::int32_t slot) {
  float v = f.nodes(slot).value;
  if (f.tree_weight.data != nullptr) v = (0.0f + v) * f.tree_weight(tree);
  return v;
}

/// A tree's contribution to a row as one word, for predictors that keep the leaves of many trees
/// before adding them in tree order: scalar_leaf's float bits, or the leaf's pool slot for
/// vector-leaf trees.
template <class Forest>
KOKKOS_INLINE_FUNCTION std::int32_t leaf_word(Forest const& f, int tree, std::int32_t slot) {
  return f.vector_leaf ? slot : pmath::detail::bit_cast<std::int32_t>(scalar_leaf(f, tree, slot));
}
}  // namespace detail

/// One model's trees [first_tree, last_tree) in `MemorySpace`, ready to predict single rows.
/// Obtain it from Predictor::device_forest(); valid while that Predictor lives. Thread-safe: it is
/// read-only, so any number of threads or kernels may use one handle at once.
template <class MemorySpace>
struct DeviceForest {
  using memory_space = MemorySpace;

  detail::ConstArray<PredictNode> nodes;
  detail::ConstArray<std::int32_t> node_ids, cat_begin, cat_words;
  detail::ConstArray<std::uint32_t> cat_bits;
  detail::ConstArray<float> leaf_values;
  detail::ConstArray<std::int32_t> tree_begin;
  detail::ConstArray<std::uint8_t> tree_dense;
  detail::ConstArray<std::int32_t> tree_group;
  detail::ConstArray<float> tree_weight;  ///< DART weight_drop; null for gbtree
  detail::ConstArray<float> base_margin;  ///< n_outputs margin-space base scores
  int first_tree = 0, last_tree = 0;      ///< trees predicted (pool order; the iteration range)
  int n_outputs = 1;                      ///< margin columns: classes or targets
  int n_features = 0;                     ///< features the model reads (x(f) for f < n_features)
  OutputTransform transform = OutputTransform::kIdentity;  ///< kIdentity when margins were asked for
  bool vector_leaf = false;
  float missing = std::numeric_limits<float>::quiet_NaN();  ///< also missing besides NaN

  /// Floats predict() needs at `out`: the margin columns (a softmax/argmax works in place there).
  KOKKOS_INLINE_FUNCTION int margin_columns() const { return n_outputs; }
  /// Values predict() leaves in out[0 .. output_columns()): 1 for multi:softmax, else n_outputs.
  KOKKOS_INLINE_FUNCTION int output_columns() const { return transformed_columns(transform, n_outputs); }

  /// Pool slot of the leaf row `x` reaches in tree `t` (first_tree <= t < last_tree).
  template <class Row>
  KOKKOS_INLINE_FUNCTION std::int32_t leaf(int t, Row const& x) const {
    return traverse_tree(*this, t, x, missing);
  }

  /// Margins of row `x` (accessor x(feature) -> float, NaN = missing, or a pointer to contiguous
  /// features) into out[0 .. margin_columns()).
  template <class Row>
  KOKKOS_INLINE_FUNCTION void predict_margin(Row const& x, float* out) const {
    for (int k = 0; k < n_outputs; ++k) out[k] = base_margin(k);
    for (int t = first_tree; t < last_tree; ++t) add_leaf_word(t, leaf_word(t, x), out);
  }

  /// Prediction of row `x`: margins, then the transform in place. `out` holds margin_columns()
  /// floats; the result is out[0 .. output_columns()).
  template <class Row>
  KOKKOS_INLINE_FUNCTION void predict(Row const& x, float* out) const {
    predict_margin(x, out);
    auto io = [out](int j) -> float& { return out[j]; };
    apply_transform(transform, n_outputs, io, io);
  }

  /// Most trees whose leaves predict_team keeps in team scratch at once (16 KiB of words); larger
  /// forests go through in chunks of this many trees.
  static constexpr int kTeamTreeWords = 4096;

  /// Trees per chunk of predict_margin_team: every tree of the range up to kTeamTreeWords, and at
  /// least one per thread.
  KOKKOS_INLINE_FUNCTION int team_chunk_trees(int team_size) const {
    int const trees = last_tree - first_tree < kTeamTreeWords ? last_tree - first_tree : kTeamTreeWords;
    return trees > team_size ? trees : team_size;
  }

  /// 32-bit words of level-0 team scratch that predict_team needs for a team of `team_size`
  /// threads: a chunk's leaves (team_chunk_trees) and the row's margins. Request them per team, e.g.
  /// policy.set_scratch_size(0, Kokkos::PerTeam(forest.team_scratch_bytes(team_size))).
  KOKKOS_INLINE_FUNCTION std::size_t team_scratch_words(int team_size) const {
    return static_cast<std::size_t>(team_chunk_trees(team_size)) + static_cast<std::size_t>(n_outputs);
  }
  KOKKOS_INLINE_FUNCTION std::size_t team_scratch_bytes(int team_size) const {
    return team_scratch_words(team_size) * sizeof(std::int32_t);
  }

  /// The team's share of level-0 scratch for predict_team: take it once per team (each call takes
  /// team_scratch_bytes more from the team's scratch) and pass it to all of the team's calls.
  template <class TeamMember>
  KOKKOS_INLINE_FUNCTION std::int32_t* team_scratch(TeamMember const& team) const {
    return static_cast<std::int32_t*>(
        team.team_scratch(0).get_shmem(team_scratch_bytes(team.team_size())));
  }

  /// predict_margin of row `x` by the threads of `team` (a TeamPolicy member; vector length 1).
  /// Per chunk of team_chunk_trees trees (usually the whole forest, so one pair of barriers):
  /// thread r walks the chunk's trees r, r + team_size, ... into `scratch` (team_scratch); then
  /// thread g adds, IN TREE ORDER, the leaves of output column g (a scalar tree adds to its group's
  /// column only; a vector leaf's value j to column j), so each column sees predict_margin's float
  /// sequence for any team size and backend. Every thread of the team calls it with the same row;
  /// each gets the margins in its own out[0 .. margin_columns()).
  template <class TeamMember, class Row>
  KOKKOS_INLINE_FUNCTION void predict_margin_team(TeamMember const& team, Row const& x, std::int32_t* scratch,
                                                  float* out) const {
    int const n = team.team_size(), r = team.team_rank(), chunk = team_chunk_trees(n);
    float* const margin = reinterpret_cast<float*>(scratch + chunk);
    for (int k = r; k < n_outputs; k += n) margin[k] = base_margin(k);
    for (int t0 = first_tree; t0 < last_tree; t0 += chunk) {
      int const nt = last_tree - t0 < chunk ? last_tree - t0 : chunk;
      for (int j = r; j < nt; j += n) scratch[j] = leaf_word(t0 + j, x);
      team.team_barrier();
      for (int k = r; k < n_outputs; k += n) margin[k] = add_chunk_column(t0, nt, k, scratch, margin[k]);
      team.team_barrier();
    }
    for (int k = 0; k < n_outputs; ++k) out[k] = margin[k];
    team.team_barrier();  // the scratch is free again for the team's next row
  }

  /// predict of row `x` by the threads of `team`: predict_margin_team, then the transform in each
  /// thread's out (margin_columns() floats; the result is out[0 .. output_columns())).
  template <class TeamMember, class Row>
  KOKKOS_INLINE_FUNCTION void predict_team(TeamMember const& team, Row const& x, std::int32_t* scratch,
                                           float* out) const {
    predict_margin_team(team, x, scratch, out);
    auto io = [out](int j) -> float& { return out[j]; };
    apply_transform(transform, n_outputs, io, io);
  }

 private:
  /// Tree t's detail::leaf_word for row x.
  template <class Row>
  KOKKOS_INLINE_FUNCTION std::int32_t leaf_word(int t, Row const& x) const {
    return detail::leaf_word(*this, t, leaf(t, x));
  }

  /// Adds tree t's leaf_word to the margins: the leaf's n_outputs values, or its scalar to its
  /// output group.
  KOKKOS_INLINE_FUNCTION void add_leaf_word(int t, std::int32_t word, float* margin) const {
    if (vector_leaf) {
      std::int32_t const off = nodes(word).child;
      for (int j = 0; j < n_outputs; ++j) margin[j] += leaf_values(off + j);
    } else {
      margin[tree_group(t)] += pmath::detail::bit_cast<float>(word);
    }
  }

  /// Output column k of the margins, `acc`, after the leaf words words[0 .. nt) of trees t0, t0 + 1,
  /// ... added in tree order (add_leaf_word's arithmetic, column k only).
  KOKKOS_INLINE_FUNCTION float add_chunk_column(int t0, int nt, int k, std::int32_t const* words, float acc) const {
    if (vector_leaf) {
      for (int j = 0; j < nt; ++j) acc += leaf_values(nodes(words[j]).child + k);
    } else if (n_outputs == 1) {
      KBOOST_UNROLL
      for (int j = 0; j < nt; ++j) acc += pmath::detail::bit_cast<float>(words[j]);
    } else {
      for (int j = 0; j < nt; ++j)
        if (tree_group(t0 + j) == k) acc += pmath::detail::bit_cast<float>(words[j]);
    }
    return acc;
  }
};

static_assert(std::is_trivially_copyable<DeviceForest<Kokkos::HostSpace>>::value,
              "DeviceForest is passed by value into user kernels");

/// The handle over `arrays` for trees [first_tree, last_tree), base margins `base_margin`
/// (n_outputs, margin space) and `transform` (kIdentity for margins).
template <class MemorySpace>
DeviceForest<MemorySpace> make_device_forest(ForestArrays<MemorySpace> const& arrays,
                                             Kokkos::View<const float*, MemorySpace> const& base_margin,
                                             int first_tree, int last_tree, int n_features, OutputTransform transform,
                                             float missing) {
  DeviceForest<MemorySpace> f;
  f.nodes.data = arrays.nodes.data();
  f.node_ids.data = arrays.node_ids.data();
  f.cat_begin.data = arrays.cat_begin.data();
  f.cat_words.data = arrays.cat_words.data();
  f.cat_bits.data = arrays.cat_bits.data();
  f.leaf_values.data = arrays.leaf_values.data();
  f.tree_begin.data = arrays.tree_begin.data();
  f.tree_dense.data = arrays.tree_dense.data();
  f.tree_group.data = arrays.tree_group.data();
  f.tree_weight.data = arrays.tree_weight.extent(0) > 0 ? arrays.tree_weight.data() : nullptr;
  f.base_margin.data = base_margin.data();
  f.first_tree = first_tree;
  f.last_tree = last_tree;
  f.n_outputs = static_cast<int>(base_margin.extent(0));
  f.n_features = n_features;
  f.transform = transform;
  f.vector_leaf = arrays.vector_leaf;
  f.missing = missing;
  return f;
}

}  // namespace kboost
