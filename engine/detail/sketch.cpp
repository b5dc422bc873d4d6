/// \file sketch.cpp
/// Host replica of upstream XGBoost's CPU quantile sketch for one numerical feature
/// (src/common/quantile.h WQSummary / WQuantileSketch, src/common/quantile.cc
/// HostSketchContainer + SketchContainerImpl::AllReduce/MakeCuts/AddCutPoint, v2.x-3.2), in float
/// arithmetic exactly as upstream so the cuts match bit for bit.
#include <kboost/engine/detail/sketch.hpp>
#include <kboost/engine/detail/upstream_sort.hpp>
#include <kboost/kernels/quantile_sketch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kboost {
namespace {

/// WQSummary<float, float>::Entry.
struct Entry {
  float rmin, rmax, wmin, value;
  float rmin_next() const { return rmin + wmin; }
  float rmax_prev() const { return rmax - wmin; }
};
using Summary = std::vector<Entry>;

/// WQSummary::SetPrune: keep at most maxsize entries.
void set_prune(Summary& dst, Summary const& src, std::size_t maxsize) {
  if (src.size() <= maxsize) {
    dst = src;
    return;
  }
  float const begin = src[0].rmax;
  float const range = src.back().rmin - src[0].rmax;
  std::size_t const n = maxsize - 1;
  dst.clear();
  dst.push_back(src[0]);
  std::size_t i = 1, lastidx = 0;
  for (std::size_t k = 1; k < n; ++k) {
    float const dx2 = 2 * ((static_cast<float>(k) * range) / static_cast<float>(n) + begin);
    while (i < src.size() - 1 && dx2 >= src[i + 1].rmax + src[i + 1].rmin) ++i;
    if (i == src.size() - 1) break;
    if (dx2 < src[i].rmin_next() + src[i + 1].rmax_prev()) {
      if (i != lastidx) {
        dst.push_back(src[i]);
        lastidx = i;
      }
    } else {
      if (i + 1 != lastidx) {
        dst.push_back(src[i + 1]);
        lastidx = i + 1;
      }
    }
  }
  if (lastidx != src.size() - 1) dst.push_back(src.back());
}

/// WQSummary::SetCombine: merge two summaries, then FixError. The repair is applied to each entry
/// as it is written (it only looks back at entries already repaired), which is the same arithmetic
/// in the same order as upstream's separate pass.
void set_combine(Summary& dst, Summary const& sa, Summary const& sb) {
  if (sa.empty()) { dst = sb; return; }
  if (sb.empty()) { dst = sa; return; }
  dst.resize(sa.size() + sb.size());
  Entry* out = dst.data();
  std::size_t n = 0;
  float prev_rmin = 0, prev_rmax = 0;  // FixError state
  auto emit = [&](float rmin, float rmax, float wmin, float value) {
    Entry e{rmin, rmax, wmin, value};
    if (e.rmin < prev_rmin) e.rmin = prev_rmin; else prev_rmin = e.rmin;
    if (e.rmax < prev_rmax) e.rmax = prev_rmax;
    float const rmin_next = e.rmin_next();
    if (e.rmax < rmin_next) e.rmax = rmin_next;
    prev_rmax = e.rmax;
    out[n++] = e;
  };
  std::size_t a = 0, b = 0;
  float aprev_rmin = 0, bprev_rmin = 0;
  while (a < sa.size() && b < sb.size()) {
    if (sa[a].value == sb[b].value) {
      emit(sa[a].rmin + sb[b].rmin, sa[a].rmax + sb[b].rmax, sa[a].wmin + sb[b].wmin, sa[a].value);
      aprev_rmin = sa[a].rmin_next();
      bprev_rmin = sb[b].rmin_next();
      ++a; ++b;
    } else if (sa[a].value < sb[b].value) {
      emit(sa[a].rmin + bprev_rmin, sa[a].rmax + sb[b].rmax_prev(), sa[a].wmin, sa[a].value);
      aprev_rmin = sa[a].rmin_next();
      ++a;
    } else {
      emit(sb[b].rmin + aprev_rmin, sb[b].rmax + sa[a].rmax_prev(), sb[b].wmin, sb[b].value);
      bprev_rmin = sb[b].rmin_next();
      ++b;
    }
  }
  if (a < sa.size()) {
    float const brmax = sb.back().rmax;
    for (; a < sa.size(); ++a) emit(sa[a].rmin + bprev_rmin, sa[a].rmax + brmax, sa[a].wmin, sa[a].value);
  }
  if (b < sb.size()) {
    float const armax = sa.back().rmax;
    for (; b < sb.size(); ++b) emit(sb[b].rmin + aprev_rmin, sb[b].rmax + armax, sb[b].wmin, sb[b].value);
  }
  dst.resize(n);
}

struct QEntry {
  float value, weight;
};

/// A queue entry with its value as a sortable key.
struct KEntry {
  std::uint32_t key;
  float weight;
};

/// LSD radix sort of queue[0, n) by value: keys computed once, the three digit histograms (11, 11 and
/// 10 bits) in the same pass, a digit that puts every entry in one bucket skipped (stable passes, so
/// the order is that of a stable sort by value). `buf` is scratch (grown to 2n entries).
void radix_sort_by_value(std::vector<QEntry>& queue, std::size_t n, std::vector<KEntry>& buf) {
  constexpr std::uint32_t kMask = (1u << 11) - 1;
  if (buf.size() < 2 * n) buf.resize(2 * n);
  KEntry* src = buf.data();
  KEntry* dst = buf.data() + n;
  std::vector<std::uint32_t> count(3 * 2048, 0u);
  std::uint32_t* const c0 = count.data();
  std::uint32_t* const c1 = c0 + 2048;
  std::uint32_t* const c2 = c1 + 2048;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t const k = sketch_key(queue[i].value);
    src[i] = KEntry{k, queue[i].weight};
    ++c0[k & kMask];
    ++c1[(k >> 11) & kMask];
    ++c2[k >> 22];
  }
  std::uint32_t* const counts[3] = {c0, c1, c2};
  for (int d = 0; d < 3; ++d) {
    int const shift = 11 * d;
    std::uint32_t* const c = counts[d];
    if (c[(src[0].key >> shift) & kMask] == n) continue;  // one bucket: this pass keeps the order
    std::uint32_t sum = 0;
    for (int j = 0; j < 2048; ++j) {
      std::uint32_t const t = c[j];
      c[j] = sum;
      sum += t;
    }
    for (std::size_t i = 0; i < n; ++i) dst[c[(src[i].key >> shift) & kMask]++] = src[i];
    std::swap(src, dst);
  }
  for (std::size_t i = 0; i < n; ++i) queue[i] = QEntry{sketch_value(src[i].key), src[i].weight};
}

/// WQSummary::Queue::MakeSummary: sort the queue, merge equal values, exact ranks.
/// Upstream sorts with std::sort (not stable). Where the weights of equal values are small integers
/// (the unweighted case: every queued weight counts merged rows, and the chunk's total stays below
/// 2^24) their float sum does not depend on the order of equal values, and no -0 meets +0, a radix
/// sort gives the same summary bits several times faster; otherwise upstream's sort with upstream's
/// comparator (upstream_sort.hpp: libstdc++'s std::sort as kboost code, whatever the platform's
/// standard library) keeps the order of equal values, and so the float sums, upstream's.
void make_summary(std::vector<QEntry>& queue, std::size_t qtail, Summary& out, bool integer_weights,
                  std::vector<KEntry>& tmp) {
  bool radix = integer_weights && qtail > 64;
  if (radix) {
    double total = 0;
    bool neg_zero = false;
    for (std::size_t i = 0; i < qtail; ++i) {
      total += queue[i].weight;
      neg_zero = neg_zero || (queue[i].value == 0.0f && std::signbit(queue[i].value));
    }
    radix = total < 16777216.0 && !neg_zero;
  }
  if (radix) {
    radix_sort_by_value(queue, qtail, tmp);
  } else {
    kboost::detail::upstream_sort(queue.data(), queue.data() + qtail,
                                  [](QEntry const& x, QEntry const& y) { return x.value < y.value; });
  }
  out.clear();
  float wsum = 0;
  for (std::size_t i = 0; i < qtail;) {
    std::size_t j = i + 1;
    float w = queue[i].weight;
    while (j < qtail && queue[j].value == queue[i].value) {
      w += queue[j].weight;
      ++j;
    }
    out.push_back({wsum, wsum + w, w, queue[i].value});
    wsum += w;
    i = j;
  }
}

/// QuantileSketchTemplate<float, float, WQSummary> (WQuantileSketch) for one column.
class WQSketch {
 public:
  /// integer_weights: every pushed weight is 1 (see make_summary).
  WQSketch(std::size_t maxn, double eps, bool integer_weights) : integer_weights_(integer_weights) {
    // LimitSizeLevel
    nlevel_ = 1;
    while (true) {
      limit_size_ = static_cast<std::size_t>(std::ceil(static_cast<double>(nlevel_) / eps)) + 1;
      limit_size_ = std::min(maxn, limit_size_);
      std::size_t const n = std::size_t(1) << nlevel_;
      if (n * limit_size_ >= maxn) break;
      ++nlevel_;
    }
    queue_.resize(limit_size_ * 2);  // HostSketchContainer sizes the queue up front
    qtail_ = 0;
  }

  void push(float x, float w) {
    if (w == 0.0f) return;
    if (qtail_ == queue_.size() && queue_[qtail_ - 1].value != x) {
      make_summary(queue_, qtail_, temp_, integer_weights_, sort_tmp_);
      qtail_ = 0;
      push_temp();
    }
    // Queue::Push
    if (qtail_ == 0 || queue_[qtail_ - 1].value != x) {
      queue_[qtail_++] = QEntry{x, w};
    } else {
      queue_[qtail_ - 1].weight += w;
    }
  }

  void get_summary(Summary& out) {
    make_summary(queue_, qtail_, out, integer_weights_, sort_tmp_);
    if (!level_.empty()) {
      set_prune(level_[0], out, limit_size_);
      for (std::size_t l = 1; l < level_.size(); ++l) {
        if (level_[l].empty()) continue;
        if (level_[0].empty()) {
          level_[0] = level_[l];
        } else {
          set_combine(out, level_[0], level_[l]);
          set_prune(level_[0], out, limit_size_);
        }
      }
      out = level_[0];
    } else if (out.size() > limit_size_) {
      Summary t;
      set_prune(t, out, limit_size_);
      out = t;
    }
  }

 private:
  void init_level(std::size_t nlevel) {
    if (level_.size() >= nlevel) return;
    level_.resize(nlevel);
  }
  void push_temp() {
    for (std::size_t l = 1; true; ++l) {
      init_level(l + 1);
      if (level_[l].empty()) {
        set_prune(level_[l], temp_, limit_size_);
        break;
      }
      set_prune(level_[0], temp_, limit_size_);
      set_combine(temp_, level_[0], level_[l]);
      if (temp_.size() > limit_size_) {
        level_[l].clear();
      } else {
        level_[l] = temp_;
        break;
      }
    }
  }

  bool integer_weights_ = false;
  std::size_t nlevel_ = 1, limit_size_ = 1, qtail_ = 0;
  std::vector<QEntry> queue_;
  std::vector<KEntry> sort_tmp_;
  std::vector<Summary> level_;
  Summary temp_;
};

constexpr int kFactor = 8;  // WQSketch::kFactor in 3.2

/// The last cut, above every value: cpt + (|cpt| + 1e-5) evaluated in double (3.2 uses a double
/// literal here; float arithmetic differs by an ulp, checked against the venv's cuts), then float.
float sentinel_above(float cpt) {
  double const c = static_cast<double>(cpt);
  return static_cast<float>(c + (std::fabs(c) + 1e-5));
}

}  // namespace

FeatureCuts sketch_feature(std::vector<float> const& values, std::vector<float> const& weights, int max_bin) {
  if (!weights.empty() && weights.size() != values.size())
    throw std::runtime_error("sketch_feature: " + std::to_string(weights.size()) + " weights for " +
                             std::to_string(values.size()) + " values");
  return sketch_feature(values.data(), weights.empty() ? nullptr : weights.data(), values.size(), max_bin);
}

FeatureCuts sketch_feature(float const* values, float const* weights, std::size_t n, int max_bin) {
  if (max_bin < 2) throw std::runtime_error("max_bin must be at least 2, got " + std::to_string(max_bin));
  std::size_t const column_size = n;
  FeatureCuts out;
  Summary reduced;
  if (column_size > 0) {
    // HostSketchContainer: eps from min(max_bin, column size).
    std::size_t n_bins = std::min(static_cast<std::size_t>(max_bin), column_size);
    n_bins = std::max<std::size_t>(n_bins, 1);
    double const eps = 1.0 / (static_cast<float>(n_bins) * kFactor);
    WQSketch sketch(column_size, eps, weights == nullptr);
    for (std::size_t i = 0; i < column_size; ++i) sketch.push(values[i], weights ? weights[i] : 1.0f);
    Summary summary;
    sketch.get_summary(summary);
    // AllReduce (one worker): prune to min(column size, max_bin * kFactor).
    std::size_t const intermediate = std::min(column_size, static_cast<std::size_t>(max_bin) * kFactor);
    set_prune(reduced, summary, intermediate);
    // MakeCuts.
    std::size_t const max_num_bins = std::min(intermediate, static_cast<std::size_t>(max_bin));
    Summary a;
    set_prune(a, reduced, max_num_bins + 1);
    std::vector<float> values(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) values[i] = a[i].value;
    out = cuts_from_summary(values, max_num_bins);
  } else {
    out = empty_feature_cuts();
  }
  return out;
}

FeatureCuts cuts_from_summary(std::vector<float> const& a, std::size_t max_num_bins) {
  if (a.empty()) throw std::runtime_error("cuts_from_summary: empty summary");
  FeatureCuts out;
  float const mval = a[0];
  out.min_val = mval - std::fabs(mval) - 1e-5f;
  std::size_t const required = std::min(a.size(), max_num_bins);
  for (std::size_t i = 1; i < required; ++i) {
    float const cpt = a[i];
    if (i == 1 || cpt > out.values.back()) out.values.push_back(cpt);
  }
  out.values.push_back(sentinel_above(a.back()));
  return out;
}

FeatureCuts empty_feature_cuts() {
  FeatureCuts out;
  out.min_val = 1e-5f;  // as upstream
  out.values.push_back(sentinel_above(out.min_val));
  return out;
}

FeatureCuts categorical_feature_cuts(float const* values, std::size_t n) {
  float max_cat = 0.0f;
  for (std::size_t i = 0; i < n; ++i) max_cat = std::max(max_cat, values[i]);
  FeatureCuts out;
  out.min_val = 0.0f;
  auto const last = static_cast<std::int32_t>(max_cat);
  for (std::int32_t c = 0; c <= last; ++c) out.values.push_back(static_cast<float>(c));
  return out;
}

}  // namespace kboost

namespace kboost::detail {
namespace {

template <class T>
void put(std::vector<char>& out, T const* p, std::size_t n) {
  out.insert(out.end(), reinterpret_cast<char const*>(p), reinterpret_cast<char const*>(p + n));
}

/// Reads n values of T at `at` and advances it; throws when the payload is shorter.
template <class T>
void take(std::vector<char> const& in, std::size_t& at, T* p, std::size_t n) {
  if (at + n * sizeof(T) > in.size()) throw std::runtime_error("sketch: a rank's payload is shorter than announced");
  if (n > 0) std::memcpy(p, in.data() + at, n * sizeof(T));
  at += n * sizeof(T);
}

}  // namespace

HostColumns exchange_columns(Collective& comm, HostColumns const& local, std::size_t features, bool weighted) {
  std::size_t const ranks = static_cast<std::size_t>(comm.size());
  std::vector<std::vector<char>> send(ranks);
  std::vector<float> ones;
  for (std::size_t f = 0; f < features; ++f) {
    auto& out = send[f % ranks];
    std::uint64_t const n = local.begin[f + 1] - local.begin[f];
    put(out, &n, 1);
    put(out, local.values.data() + local.begin[f], n);
    if (!weighted) continue;
    if (local.weights.empty()) {
      ones.assign(n, 1.0f);
      put(out, ones.data(), n);
    } else {
      put(out, local.weights.data() + local.begin[f], n);
    }
  }
  auto const got = comm.alltoall(send);
  HostColumns owned;
  owned.begin.push_back(0);
  std::vector<std::size_t> at(ranks, 0);
  for (std::size_t f = static_cast<std::size_t>(comm.rank()); f < features; f += ranks) {
    for (std::size_t r = 0; r < ranks; ++r) {  // rank order = global row order
      std::uint64_t n = 0;
      take(got[r], at[r], &n, 1);
      std::size_t const o = owned.values.size();
      owned.values.resize(o + n);
      take(got[r], at[r], owned.values.data() + o, n);
      if (weighted) {
        owned.weights.resize(o + n);
        take(got[r], at[r], owned.weights.data() + o, n);
      }
    }
    owned.begin.push_back(owned.values.size());
  }
  return owned;
}

std::vector<FeatureCuts> share_cuts(Collective& comm, std::vector<FeatureCuts> const& owned, std::size_t features) {
  std::size_t const ranks = static_cast<std::size_t>(comm.size());
  std::vector<char> mine;
  for (auto const& c : owned) {
    std::uint64_t const n = c.values.size();
    put(mine, &c.min_val, 1);
    put(mine, &n, 1);
    put(mine, c.values.data(), n);
  }
  auto const got = comm.alltoall(std::vector<std::vector<char>>(ranks, mine));
  std::vector<FeatureCuts> all(features);
  std::vector<std::size_t> at(ranks, 0);
  for (std::size_t f = 0; f < features; ++f) {
    std::size_t const r = f % ranks;
    std::uint64_t n = 0;
    take(got[r], at[r], &all[f].min_val, 1);
    take(got[r], at[r], &n, 1);
    all[f].values.resize(n);
    take(got[r], at[r], all[f].values.data(), n);
  }
  return all;
}

}  // namespace kboost::detail
