#pragma once
/// \file tree_shape.hpp
/// Facts about one model tree that several flattened layouts need: its depth and the category set
/// of each categorical split as bit words (upstream's RegTree categories, src/tree/tree_model.cc).
#include <cstdint>
#include <vector>

#include <kboost/core/model.hpp>

namespace kboost::detail {

/// Depth of `t` (the root is at depth 0; a single leaf has depth 0).
int tree_depth(TreeModel const& t);

/// Per node of `t`, the bit words of its right-going category set (bit c of word c / 32: category c
/// goes right), empty for numerical nodes and categorical nodes without a stored set.
std::vector<std::vector<std::uint32_t>> right_category_bits(TreeModel const& t);

}  // namespace kboost::detail
