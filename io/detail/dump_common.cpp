/// Shared helpers of the tree-dump generators (see dump_common.hpp).
#include <kboost/io/detail/dump_common.hpp>

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace kboost::detail {

std::string match(std::string const& input, std::map<std::string, std::string> const& replacements) {
  std::string result = input;
  for (auto const& [key, value] : replacements) {
    auto pos = result.find(key);
    if (pos == std::string::npos) throw std::logic_error("model dump: template key " + key + " missing");
    result.replace(pos, key.length(), value);
  }
  return result;
}

std::string escape_u8(std::string const& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char const ch = s[i];
    if (ch == '\\') {
      out += (s[i + 1] == 'u') ? "\\" : "\\\\";  // s[size()] is '\0', as upstream relies on
    } else if (ch == '"') {
      out += "\\\"";
    } else if (ch == '\b') {
      out += "\\b";
    } else if (ch == '\f') {
      out += "\\f";
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (static_cast<std::uint8_t>(ch) <= 0x1f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(ch));
      out += buf;
    } else {
      out += ch;
    }
  }
  return out;
}

DumpTreeView::DumpTreeView(TreeModel const& tree) : t_(tree) {
  for (std::size_t k = 0; k < t_.categories_nodes.size(); ++k) cat_slot_[t_.categories_nodes[k]] = k;
}

std::string DumpTreeView::leaf_text(int n) const {
  if (!vector_leaf()) return ostream_float_string(t_.split_conditions[n]);
  // A vector leaf's values sit at its leaf index (stored in right_children) × size_leaf_vector.
  auto const k = static_cast<std::size_t>(t_.size_leaf_vector);
  float const* v = t_.leaf_weights.data() + static_cast<std::size_t>(right(n)) * k;
  constexpr std::size_t kLimit = 3;  // upstream's hard-coded limit for dot graphs, used by all formats
  std::string out = "[";
  std::size_t const shown = std::min(k - 1, kLimit - 1);
  for (std::size_t i = 0; i < shown; ++i) out += ostream_float_string(v[i]) + ", ";
  if (k > kLimit) out += "..., ";
  return out + ostream_float_string(v[k - 1]) + "]";
}

std::vector<std::int32_t> DumpTreeView::split_categories(int n) const {
  auto it = cat_slot_.find(n);
  if (it == cat_slot_.end()) return {};
  auto const seg = static_cast<std::size_t>(t_.categories_segments[it->second]);
  auto const size = static_cast<std::size_t>(t_.categories_sizes[it->second]);
  std::vector<std::int32_t> cats(t_.categories.begin() + static_cast<std::ptrdiff_t>(seg),
                                 t_.categories.begin() + static_cast<std::ptrdiff_t>(seg + size));
  // upstream reads the set back from a bit field: ascending, each category once
  std::sort(cats.begin(), cats.end());
  cats.erase(std::unique(cats.begin(), cats.end()), cats.end());
  return cats;
}

std::string cats_as_set(std::vector<std::int32_t> const& cats) {
  std::string out = "{";
  for (std::size_t i = 0; i < cats.size(); ++i) out += (i ? "," : "") + std::to_string(cats[i]);
  return out + "}";
}

std::string feature_name(FeatureMap const& fmap, std::uint32_t index) {
  return escape_u8(index < fmap.size() ? fmap.names[index] : "f" + std::to_string(index));
}

}  // namespace kboost::detail
