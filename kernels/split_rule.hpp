#pragma once
/// \file split_rule.hpp
/// The one rule that sends a row left or right at a split from its raw feature value, for every
/// walk over a flattened tree (batch and per-row prediction, the GPU's staged trees, TreeSHAP and
/// eval-set margins during training): a missing value (NaN, or equal to the caller's `missing`)
/// goes to the default child; a categorical split sends a valid category right iff it is in the
/// node's set; a numerical split sends v left iff v < threshold. Upstream:
/// src/predictor/predict_fn.h GetNextNode and src/common/categorical.h Decision / InvalidCat.
///
/// A node type `Node` here provides `value` (the threshold), `default_left()` and
/// `is_categorical()` (PredictNode, kernels/predict_layout.hpp, and the staged nodes of
/// kernels/predict_rows.hpp). A forest `Forest` provides, per pool slot, `cat_begin(slot)` and
/// `cat_words(slot)` and the shared bit words `cat_bits(i)` (bit c of a node's set: category c goes
/// RIGHT).
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kboost {

/// Whether feature value `v` is missing: NaN always, or equal to `missing` (a NaN `missing` adds
/// nothing).
KOKKOS_INLINE_FUNCTION bool is_missing(float v, float missing) { return v != v || v == missing; }

/// Numerical split `n`: missing -> its default child, else left iff v < threshold (upstream
/// GetNextNode's `fvalue < node.SplitCond()`). The whole rule for trees without categorical splits.
template <class Node>
KOKKOS_INLINE_FUNCTION bool numeric_goes_left(Node const& n, float v, float missing) {
  return is_missing(v, missing) ? n.default_left() : v < n.value;
}

/// Categorical split at pool slot `slot` for a value `v` that is not missing: left iff `v` is not a
/// valid category (negative or >= 2^24, upstream InvalidCat), lies beyond the node's stored words,
/// or is not in the node's right-going set (upstream Decision).
template <class Forest>
KOKKOS_INLINE_FUNCTION bool category_goes_left(Forest const& f, std::int32_t slot, float v) {
  if (v < 0.0f || v >= 16777216.0f) return true;
  std::int32_t const c = static_cast<std::int32_t>(v);
  std::int32_t const w = c >> 5;
  return w >= f.cat_words(slot) || ((f.cat_bits(f.cat_begin(slot) + w) >> (c & 31)) & 1u) == 0;
}

/// Split decision at pool slot `slot` (node `n`) of forest `f` for value `v`: true for the left
/// child. Numerical splits follow numeric_goes_left; categorical ones send missing values to the
/// default child and the rest by category_goes_left.
template <class Forest, class Node>
KOKKOS_INLINE_FUNCTION bool split_goes_left(Forest const& f, std::int32_t slot, Node const& n, float v, float missing) {
  if (!n.is_categorical()) return numeric_goes_left(n, v, missing);
  return is_missing(v, missing) ? n.default_left() : category_goes_left(f, slot, v);
}

}  // namespace kboost
