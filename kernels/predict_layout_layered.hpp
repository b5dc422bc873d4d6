#pragma once
/// \file predict_layout_layered.hpp
/// A second prediction layout of a forest, for GPUs: the trees are taken in groups of G and the
/// nodes of a group are interleaved level by level (level 0 of trees t .. t+G-1, then level 1 of
/// each, then level 2, ...), as nvForest's (RAPIDS cuML FIL) "layered" layout does. Threads that
/// walk neighbouring trees side by side (the small-batch (tree, row) blocking of
/// kernels/predict_kernel.hpp, where a warp spans many trees of one row) then load adjacent nodes,
/// and the top levels of a group form one small contiguous block that stays in cache while many
/// rows are walked through it.
///
/// The result is an ordinary HostForest (kernels/predict_layout.hpp), so every kernel and the
/// DeviceForest handle read it unchanged: each tree is stored in the compact convention (tree_dense
/// 0; a split's children at tree_begin(t) + child and + child + 1, siblings adjacent), with
/// tree_begin(t) the slot of tree t's root and tree_begin(n_trees) the pool size. Only the slots
/// move: the nodes (thresholds, default directions, categorical sets, leaf values and vector
/// leaves) and their original node ids are those of flatten_forest, so every walk follows the same
/// split rule (kernels/split_rule.hpp) to the same leaf, pred_leaf writes the same node ids, and
/// the ordered sums give the same bits.
#include <kboost/core/model.hpp>
#include <kboost/kernels/predict_layout.hpp>

namespace kboost {

/// Flatten `m` (validated by read_model/validate_model) in the layered layout with `group_size`
/// trees per interleaved group (1: each tree breadth-first on its own, i.e. flatten_forest's compact
/// layout for every tree). Upstream reference: nvForest / cuML FIL's layered node layout
/// (forest layout "layered"); the decisions are upstream XGBoost's GetNextNode.
/// \throws std::invalid_argument when group_size < 1; std::runtime_error when the pool exceeds
/// 32-bit slots (as flatten_forest).
HostForest flatten_forest_layered(Model const& m, int group_size);

}  // namespace kboost
