/// \file gpu_summary.cpp
/// Upstream 3.4.1's GPU quantile summaries for one feature (engine/detail/gpu_summary.hpp), each
/// function following the kernel named beside it in src/common/quantile.cu.
#include <kboost/engine/detail/gpu_summary.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace kboost::gpu_sketch {
namespace {

/// upstream's kRtEps: the weight of an entry whose scanned weights decrease.
constexpr float kRtEps = 1e-6f;

/// upstream's SketchEpsilon.
double sketch_epsilon(int max_bin, std::size_t rows) {
  std::size_t const n = std::max<std::size_t>(1, rows);
  std::size_t const bins = std::min<std::size_t>(static_cast<std::size_t>(max_bin), n);
  return 1.0 / static_cast<double>(bins);
}

/// The entry of sorted value k of a batch (Push's to_sketch_entry).
Entry batch_entry(float const* values, float const* weight_scan, std::size_t k) {
  if (weight_scan == nullptr)
    return Entry{static_cast<float>(k), static_cast<float>(k + 1), 1.0f, values[k]};
  float const rmin = k > 0 ? weight_scan[k - 1] : 0.0f;
  float const rmax = weight_scan[k];
  float wmin = rmax - rmin;
  wmin = wmin < 0 ? kRtEps : wmin;
  return Entry{rmin, rmax, wmin, values[k]};
}

/// BinarySearchQueryIndex (Algorithm 4 of XGBoost's paper): the entry of `entry(0 .. n)` (n >= 2)
/// answering rank query `rank`.
template <class EntryAt>
std::size_t query_index(EntryAt const& entry, std::size_t n, float rank) {
  rank *= 2;
  Entry const front = entry(0);
  if (rank < front.rmin + front.rmax) return 0;
  Entry const back = entry(n - 1);
  if (rank >= back.rmin + back.rmax) return n - 1;
  // thrust::upper_bound over rmin + rmax of entries [1, n - 1)
  std::size_t lo = 1, hi = n - 1;
  while (lo < hi) {
    std::size_t const mid = lo + (hi - lo) / 2;
    Entry const e = entry(mid);
    if (rank < e.rmin + e.rmax) hi = mid; else lo = mid + 1;
  }
  std::size_t const i = lo - 1;
  return rank < entry(i).rmin_next() + entry(i + 1).rmax_prev() ? i : i + 1;
}

/// The rank query of output idx of `to` when pruning a summary from `front` to `back`
/// (PruneImpl, SelectPruneIndices).
float prune_query(Entry const& front, Entry const& back, std::size_t idx, std::size_t to) {
  float const w = back.rmin - front.rmax;
  return (static_cast<float>(idx) * w) / (static_cast<float>(to) - 1.0f) + front.rmax;
}

/// The source entry of output idx of `to` (n > to): first, last, or the rank query's answer.
template <class EntryAt>
std::size_t prune_source(EntryAt const& entry, std::size_t n, std::size_t idx, std::size_t to) {
  if (idx == 0) return 0;
  if (idx == to - 1) return n - 1;
  return query_index(entry, n, prune_query(entry(0), entry(n - 1), idx, to));
}

/// SketchUnique: entries of one value (compared as upstream does, by their difference).
bool same_value(Entry const& a, Entry const& b) { return a.value - b.value == 0; }

/// SegmentedUnique with SketchUnique on one column: the first entry of each run of one value.
Summary unique_values(Summary const& s) {
  Summary out;
  out.reserve(s.size());
  for (Entry const& e : s)
    if (out.empty() || !same_value(out.back(), e)) out.push_back(e);
  return out;
}

/// ScanInput: a reverse scan that folds the weight of later kept entries of one value (at other
/// ranks) into the first, then the first of each run.
Summary scan_input(Summary s) {
  for (std::size_t k = s.size(); k-- > 1;) {
    Entry const& r = s[k];
    Entry& l = s[k - 1];
    if (l.value - r.value == 0 && l.rmin - r.rmin != 0) {
      float const w = l.wmin + r.wmin;
      l = Entry{l.rmin, l.rmin + w, w, l.value};
    }
  }
  return unique_values(s);
}

/// FixError: each entry's bounds raised to its left neighbour's (as read before the fix) and rmax
/// to at least rmin + wmin.
void fix_error(Summary& s) {
  Summary const in = s;
  for (std::size_t k = 0; k < s.size(); ++k) {
    float const prev_rmin = k == 0 ? 0.0f : in[k - 1].rmin;
    if (s[k].rmin < prev_rmin) s[k].rmin = prev_rmin;
    float const prev_rmax = k == 0 ? 0.0f : in[k - 1].rmax;
    if (s[k].rmax < prev_rmax) s[k].rmax = prev_rmax;
    float const rmin_next = s[k].rmin_next();
    if (s[k].rmax < rmin_next) s[k].rmax = rmin_next;
  }
}

/// MergePartition: how many of the first k merged entries come from x (equal values: x first).
std::size_t merge_partition(Summary const& x, Summary const& y, std::size_t k) {
  std::size_t const m = x.size(), n = y.size();
  std::size_t lo = k > n ? k - n : 0, hi = std::min(k, m);
  auto need_more_x = [&](std::size_t i) {
    std::size_t const j = k - i;
    return j > 0 && i < m && y[j - 1].value >= x[i].value;
  };
  while (lo < hi) {  // first i in [lo, hi] with need_more_x(i) false (it is false at hi)
    std::size_t const mid = lo + (hi - lo) / 2;
    if (need_more_x(mid)) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/// Rank bounds the other summary adds below an entry inserted at `ind` (MergeImpl's other_rmin,
/// other_rmax).
float other_rmin(Summary const& s, std::size_t ind) {
  if (ind == 0) return 0.0f;
  if (ind == s.size()) return s.back().rmin_next();
  return s[ind - 1].rmin_next();
}
float other_rmax(Summary const& s, std::size_t ind) {
  if (ind == s.size()) return s.back().rmax;
  return s[ind].rmax_prev();
}

/// Output k of the merge of x and y (MergeImpl's merge_entry_at).
Entry merged_entry(Summary const& x, Summary const& y, std::size_t k) {
  if (x.empty()) return y[k];
  if (y.empty()) return x[k];
  std::size_t const a = merge_partition(x, y, k), b = k - a;
  auto from_x = [&](Entry const& e, std::size_t y_ind) {
    return Entry{e.rmin + other_rmin(y, y_ind), e.rmax + other_rmax(y, y_ind), e.wmin, e.value};
  };
  auto from_y = [&](Entry const& e, std::size_t x_ind) {
    return Entry{other_rmin(x, x_ind) + e.rmin, other_rmax(x, x_ind) + e.rmax, e.wmin, e.value};
  };
  if (a == x.size()) return from_y(y[b], a);
  Entry const& xe = x[a];
  if (b == y.size()) return from_x(xe, b);
  Entry const& ye = y[b];
  if (xe.value == ye.value) return Entry{xe.rmin + ye.rmin, xe.rmax + ye.rmax, xe.wmin + ye.wmin, xe.value};
  return xe.value < ye.value ? from_x(xe, b) : from_y(ye, a);
}

}  // namespace

std::size_t limit_size_level(std::size_t maxn, double eps) {
  if (maxn == 0) return 1;
  constexpr float kFactor = 2.0f;
  double const internal_eps = eps / kFactor;
  std::size_t nlevel = 1, limit_size = 1;
  while (true) {
    limit_size = static_cast<std::size_t>(std::ceil(static_cast<double>(nlevel) / internal_eps)) + 1;
    limit_size = std::min(maxn, limit_size);
    if ((std::size_t(1) << nlevel) * limit_size >= maxn) break;
    ++nlevel;
  }
  return limit_size;
}

std::size_t summary_budget(int max_bin, std::size_t rows) {
  std::size_t const n = std::max<std::size_t>(1, rows);
  return limit_size_level(n, sketch_epsilon(max_bin, n));
}

std::size_t batch_budget(int max_bin, std::size_t rows_in_batch) {
  std::size_t const n = std::max<std::size_t>(1, rows_in_batch);
  return std::min(summary_budget(max_bin, n), n);
}

std::vector<std::uint64_t> prune_positions(std::uint64_t n, std::uint64_t to) {
  std::vector<std::uint64_t> out;
  if (n <= to) {
    for (std::uint64_t k = 0; k < n; ++k) out.push_back(k);
    return out;
  }
  auto entry = [](std::size_t k) { return Entry{static_cast<float>(k), static_cast<float>(k + 1), 1.0f, 0.0f}; };
  for (std::uint64_t idx = 0; idx < to; ++idx) out.push_back(prune_source(entry, n, idx, to));
  return out;
}

Summary batch_summary(float const* values, float const* weight_scan, std::size_t n, std::size_t to) {
  auto entry = [&](std::size_t k) { return batch_entry(values, weight_scan, k); };
  Summary out;
  std::size_t const kept = std::min(n, to);
  out.reserve(kept);
  for (std::size_t idx = 0; idx < kept; ++idx) out.push_back(entry(n <= to ? idx : prune_source(entry, n, idx, to)));
  return scan_input(std::move(out));
}

Summary position_summary(std::vector<std::uint64_t> const& positions, std::vector<float> const& values) {
  Summary out(positions.size());
  for (std::size_t k = 0; k < positions.size(); ++k)
    out[k] = Entry{static_cast<float>(positions[k]), static_cast<float>(positions[k] + 1), 1.0f, values[k]};
  return scan_input(std::move(out));
}

Summary merge(Summary const& x, Summary const& y) {
  Summary out(x.size() + y.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = merged_entry(x, y, k);
  out = unique_values(out);
  fix_error(out);
  return out;
}

Summary prune(Summary const& s, std::size_t to) {
  if (s.size() <= to) return s;
  auto entry = [&](std::size_t k) { return s[k]; };
  Summary out;
  std::size_t last = s.size();
  for (std::size_t idx = 0; idx < to; ++idx) {
    std::size_t const k = prune_source(entry, s.size(), idx, to);
    if (k != last) out.push_back(s[k]);  // SegmentedUnique of the selected indices
    last = k;
  }
  return unique_values(out);
}

std::vector<float> query_cut_values(Summary const& s, std::size_t max_bin) {
  if (s.empty()) return {1e-5f};
  std::size_t const n = s.size();
  std::vector<float> cuts;
  auto next_distinct = [&](std::size_t cursor, float value) {
    while (cursor < n && s[cursor].value <= value) ++cursor;
    return cursor;
  };
  float last_cut = s[0].value;
  std::size_t next_value = next_distinct(1, last_cut);
  if (n <= max_bin) {
    while (next_value < n) {
      float const cpt = s[next_value].value;
      cuts.push_back(cpt);
      last_cut = cpt;
      next_value = next_distinct(next_value + 1, last_cut);
    }
  } else {
    double const total = static_cast<double>(s[n - 1].rmax);
    std::size_t query = 0;
    for (std::size_t i = 1; i < max_bin; ++i) {
      double const rank = static_cast<double>(i) * total / static_cast<double>(max_bin);
      double const rank2 = 2.0 * rank;
      while (query < n - 2 && rank2 >= static_cast<double>(s[query + 1].rmin + s[query + 1].rmax)) ++query;
      Entry const& queried =
          rank2 < static_cast<double>(s[query].rmin_next() + s[query + 1].rmax_prev()) ? s[query] : s[query + 1];
      float cpt = queried.value;
      if (cpt <= last_cut) {
        next_value = next_distinct(next_value, last_cut);
        if (next_value == n) break;
        cpt = s[next_value].value;
      } else if (next_value < n && s[next_value].value <= cpt) {
        next_value = next_distinct(next_value + 1, cpt);
      }
      cuts.push_back(cpt);
      last_cut = cpt;
    }
  }
  float const top = s[n - 1].value;
  cuts.push_back(top + (std::fabs(top) + 1e-5f));
  return cuts;
}

GpuFeatureSketch::GpuFeatureSketch(int max_bin) : max_bin_(max_bin) {
  if (max_bin < 2) throw std::runtime_error("sketch_cuts: max_bin must be at least 2, got " + std::to_string(max_bin));
}

void GpuFeatureSketch::push(float const* values, float const* weight_scan, std::size_t n, std::size_t rows_in_batch) {
  push_summary(batch_summary(values, weight_scan, n, batch_budget(max_bin_, rows_in_batch)), rows_in_batch);
}

void GpuFeatureSketch::push_summary(Summary const& batch, std::size_t rows_in_batch) {
  rows_seen_ += rows_in_batch;
  summary_ = prune(merge(summary_, batch), summary_budget(max_bin_, rows_seen_));
}

}  // namespace kboost::gpu_sketch
