#pragma once
/// \file dump_common.hpp
/// What the tree-dump generators (io/model_dump.cpp) share, each as upstream's helper of the same
/// role in src/tree/tree_model.cc (Match, ToStr, GetSplitCategories, GetFeatureName) and
/// src/common/common.cc (EscapeU8). Not API.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <kboost/core/float_text.hpp>
#include <kboost/core/model.hpp>
#include <kboost/io/feature_map.hpp>

namespace kboost::detail {

/// Upstream's TreeGenerator::Match: for each key in std::map (sorted) order, replace the FIRST
/// occurrence of the key in the text built so far. Kept literally (rather than a one-pass
/// formatter) so that names or values containing a later key behave exactly as upstream's.
/// \throws std::logic_error when a key is absent (upstream: CHECK_NE).
std::string match(std::string const& input, std::map<std::string, std::string> const& replacements);

/// Upstream's EscapeU8 for feature names: backslash (kept single before 'u'), quote and control
/// characters escaped as in JSON strings.
std::string escape_u8(std::string const& s);

/// Read-only view of one TreeModel for the generators: children, stats and categories as
/// upstream's ScalarTreeView / MultiTargetTreeView give them.
class DumpTreeView {
 public:
  explicit DumpTreeView(TreeModel const& tree);
  bool is_leaf(int n) const { return t_.left_children[n] == -1; }
  int left(int n) const { return t_.left_children[n]; }
  int right(int n) const { return t_.right_children[n]; }
  bool default_left(int n) const { return t_.default_left[n] != 0; }
  int default_child(int n) const { return default_left(n) ? left(n) : right(n); }
  std::uint32_t split_index(int n) const { return static_cast<std::uint32_t>(t_.split_indices[n]); }
  float split_cond(int n) const { return t_.split_conditions[n]; }
  bool is_categorical(int n) const { return !t_.split_type.empty() && t_.split_type[n] == 1; }
  bool vector_leaf() const { return t_.size_leaf_vector > 1; }
  float loss_chg(int n) const { return t_.loss_changes.empty() ? 0.0f : t_.loss_changes[n]; }
  float sum_hess(int n) const { return t_.sum_hessian.empty() ? 0.0f : t_.sum_hessian[n]; }
  /// Leaf value text: to_str of a scalar leaf; a vector leaf as upstream's ToStr(VectorView):
  /// "[a, b]", "[a, b, c]", "[a, b, ..., z]" (at most three values shown).
  std::string leaf_text(int n) const;
  /// Categories of a categorical split's right-going set, ascending and distinct (the bits upstream's
  /// GetSplitCategories reads); empty for a node without a stored set.
  std::vector<std::int32_t> split_categories(int n) const;

 private:
  TreeModel const& t_;
  std::map<int, std::size_t> cat_slot_;  ///< node -> index into categories_nodes
};

/// "{a,b,c}" (upstream's PrintCatsAsSet).
std::string cats_as_set(std::vector<std::int32_t> const& cats);

/// The feature's name for a dump: fmap's name (escaped) when index < fmap.size(), else "f<index>".
std::string feature_name(FeatureMap const& fmap, std::uint32_t index);

}  // namespace kboost::detail
