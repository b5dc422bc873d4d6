#pragma once
/// \file nearest_name.hpp
/// The known name closest to a misspelt one, for "did you mean" hints in parameter errors.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace kboost::detail {

/// Optimal string alignment distance (Levenshtein with adjacent transpositions: "max_dpeth" is one
/// edit from "max_depth"), case-sensitive, over bytes. Three rolling rows of the table (the
/// transposition looks two rows back).
inline std::size_t edit_distance(std::string const& a, std::string const& b) {
  std::size_t const n = a.size(), m = b.size();
  std::vector<std::size_t> two_back(m + 1), back(m + 1), row(m + 1);
  for (std::size_t j = 0; j <= m; ++j) back[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      std::size_t const cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({back[j] + 1, row[j - 1] + 1, back[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], two_back[j - 2] + 1);
    }
    std::swap(two_back, back);
    std::swap(back, row);
  }
  return back[m];
}

/// The name in `known` nearest to `given` when it is close enough to be a slip (at most a third of
/// the longer name's characters, and at least 1, edited; the first of equals in `known`'s order),
/// else "".
inline std::string nearest_name(std::string const& given, std::vector<std::string> const& known) {
  std::string best;
  std::size_t best_d = 0;
  for (auto const& k : known) {
    std::size_t const allowed = std::max<std::size_t>(1, std::max(given.size(), k.size()) / 3);
    std::size_t const length_gap = given.size() > k.size() ? given.size() - k.size() : k.size() - given.size();
    if (length_gap > allowed) continue;  // the distance is at least the difference in length
    std::size_t const d = edit_distance(given, k);
    if (d <= allowed && (best.empty() || d < best_d)) {
      best = k;
      best_d = d;
    }
  }
  return best;
}

/// " (did you mean 'x'?)" for the nearest known name, or "" when none is near.
inline std::string did_you_mean(std::string const& given, std::vector<std::string> const& known) {
  std::string const n = nearest_name(given, known);
  return n.empty() ? std::string() : " (did you mean '" + n + "'?)";
}

}  // namespace kboost::detail
