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
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

#include <kboost/core/output_transform.hpp>
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
    bool const dart = tree_weight.data != nullptr;
    for (int t = first_tree; t < last_tree; ++t) {
      std::int32_t const l = leaf(t, x);
      if (vector_leaf) {
        std::int32_t const off = nodes(l).child;
        for (int j = 0; j < n_outputs; ++j) out[j] += leaf_values(off + j);
      } else {
        float v = nodes(l).value;
        if (dart) v = (0.0f + v) * tree_weight(t);
        out[tree_group(t)] += v;
      }
    }
  }

  /// Prediction of row `x`: margins, then the transform in place. `out` holds margin_columns()
  /// floats; the result is out[0 .. output_columns()).
  template <class Row>
  KOKKOS_INLINE_FUNCTION void predict(Row const& x, float* out) const {
    predict_margin(x, out);
    auto io = [out](int j) -> float& { return out[j]; };
    apply_transform(transform, n_outputs, io, io);
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
