#pragma once
/// \file nearest_name.hpp
/// The known name closest to a misspelt one, for "did you mean" hints in parameter errors.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace kboost::detail {

/// Optimal string alignment distance (Levenshtein with adjacent transpositions: "max_dpeth" is one
/// edit from "max_depth"), case-sensitive, over bytes.
inline std::size_t edit_distance(std::string const& a, std::string const& b) {
  std::size_t const n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      std::size_t const cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

/// The name in `known` nearest to `given` when it is close enough to be a slip (at most a third of
/// the longer name's characters, and at least 1, edited; the first of equals in `known`'s order),
/// else "".
inline std::string nearest_name(std::string const& given, std::vector<std::string> const& known) {
  std::string best;
  std::size_t best_d = 0;
  for (auto const& k : known) {
    std::size_t const d = edit_distance(given, k);
    std::size_t const allowed = std::max<std::size_t>(1, std::max(given.size(), k.size()) / 3);
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
