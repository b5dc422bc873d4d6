/// \file predict_layout_layered.cpp
/// flatten_forest_layered: flatten_forest's compact trees (breadth-first, so each tree's levels are
/// consecutive runs of slots), their slots then reordered group by group, level by level.
#include <kboost/kernels/predict_layout_layered.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace kboost {

namespace {

/// Slots of `c`'s tree `t` (compact, breadth-first) where each level begins, plus the end: level l
/// holds slots [starts[l], starts[l + 1]). A level's nodes are the children of the previous level's
/// splits, which the breadth-first layout placed right after it.
std::vector<std::int32_t> level_starts(HostForest const& c, int t) {
  std::int32_t const base = c.tree_begin[t], end = c.tree_begin[t + 1];
  std::vector<std::int32_t> starts{base};
  std::int32_t level_end = base + 1;
  while (level_end <= end && starts.back() < level_end) {
    std::int32_t next_end = level_end;
    for (std::int32_t s = starts.back(); s < level_end; ++s)
      if (!(c.nodes[s].flags & PredictNode::kLeaf)) next_end = std::max(next_end, base + c.nodes[s].child + 2);
    starts.push_back(level_end);
    level_end = next_end;
  }
  if (starts.back() != end) throw std::logic_error("flatten_forest_layered: tree " + std::to_string(t) + " is not breadth-first");
  return starts;
}

/// new_of_old[old slot] for trees [t0, t1) of `c`, placed from slot `next` level by level: level 0
/// of every tree of the group, then level 1 of every tree, ... (a tree's level keeps its order, so
/// siblings stay adjacent). Returns the slot after the group.
std::int32_t place_group(HostForest const& c, int t0, int t1, std::int32_t next, std::vector<std::int32_t>& new_of_old) {
  std::vector<std::vector<std::int32_t>> levels;
  std::size_t depth = 0;
  for (int t = t0; t < t1; ++t) {
    levels.push_back(level_starts(c, t));
    depth = std::max(depth, levels.back().size() - 1);
  }
  for (std::size_t l = 0; l < depth; ++l)
    for (auto const& starts : levels)
      if (l + 1 < starts.size())
        for (std::int32_t s = starts[l]; s < starts[l + 1]; ++s) new_of_old[s] = next++;
  return next;
}

/// `c`'s pool with slot s moved to new_of_old[s]: children re-pointed relative to their tree's new
/// root (leaves keep their leaf-vector offsets), per-slot node ids and category entries moved along.
HostForest move_slots(HostForest const& c, std::vector<std::int32_t> const& new_of_old) {
  HostForest h = c;
  int const n_trees = static_cast<int>(c.tree_group.size());
  for (int t = 0; t < n_trees; ++t) h.tree_begin[t] = new_of_old[c.tree_begin[t]];
  for (int t = 0; t < n_trees; ++t) {
    std::int32_t const old_base = c.tree_begin[t], new_base = h.tree_begin[t];
    for (std::int32_t s = old_base; s < c.tree_begin[t + 1]; ++s) {
      std::int32_t const to = new_of_old[s];
      PredictNode n = c.nodes[s];
      if (!(n.flags & PredictNode::kLeaf)) {
        std::int32_t const left = new_of_old[old_base + n.child];
        if (new_of_old[old_base + n.child + 1] != left + 1)
          throw std::logic_error("flatten_forest_layered: siblings not adjacent in tree " + std::to_string(t));
        n.child = left - new_base;
      }
      h.nodes[to] = n;
      h.node_ids[to] = c.node_ids[s];
      if (c.has_categorical) {
        h.cat_begin[to] = c.cat_begin[s];
        h.cat_words[to] = c.cat_words[s];
      }
    }
  }
  return h;
}

}  // namespace

HostForest flatten_forest_layered(Model const& m, int group_size) {
  if (group_size < 1)
    throw std::invalid_argument("flatten_forest_layered: group_size must be >= 1, got " + std::to_string(group_size));
  HostForest const c = flatten_forest(m, /*max_dense_depth=*/-1);  // every tree compact, breadth-first
  int const n_trees = static_cast<int>(c.tree_group.size());
  std::vector<std::int32_t> new_of_old(c.nodes.size(), -1);
  std::int32_t next = 0;
  for (int t0 = 0; t0 < n_trees; t0 += group_size) next = place_group(c, t0, std::min(n_trees, t0 + group_size), next, new_of_old);
  if (static_cast<std::size_t>(next) != c.nodes.size())
    throw std::logic_error("flatten_forest_layered: " + std::to_string(next) + " slots placed of " + std::to_string(c.nodes.size()));
  return move_slots(c, new_of_old);
}

}  // namespace kboost
