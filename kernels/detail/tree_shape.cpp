/// \file tree_shape.cpp
#include <kboost/kernels/detail/tree_shape.hpp>

#include <algorithm>
#include <utility>

namespace kboost::detail {

int tree_depth(TreeModel const& t) {
  int depth = 0;
  std::vector<std::pair<int, int>> stack{{0, 0}};
  while (!stack.empty()) {
    auto [i, d] = stack.back();
    stack.pop_back();
    depth = std::max(depth, d);
    if (!t.is_leaf(i)) {
      stack.push_back({t.left_children[i], d + 1});
      stack.push_back({t.right_children[i], d + 1});
    }
  }
  return depth;
}

std::vector<std::vector<std::uint32_t>> right_category_bits(TreeModel const& t) {
  std::vector<std::vector<std::uint32_t>> bits(t.num_nodes());
  for (std::size_t k = 0; k < t.categories_nodes.size(); ++k) {
    auto& b = bits[static_cast<std::size_t>(t.categories_nodes[k])];
    for (auto j = t.categories_segments[k]; j < t.categories_segments[k] + t.categories_sizes[k]; ++j) {
      auto c = static_cast<std::uint32_t>(t.categories[static_cast<std::size_t>(j)]);
      if (b.size() <= c / 32) b.resize(c / 32 + 1, 0u);
      b[c / 32] |= 1u << (c % 32);
    }
  }
  return bits;
}

}  // namespace kboost::detail
