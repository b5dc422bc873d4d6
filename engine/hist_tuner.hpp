#pragma once
/// \file hist_tuner.hpp
/// Measures, once per shape and device, which histogram kernel (kernels/histogram.hpp) builds
/// faster: the shared-memory (team scratch) tile kernel at 256..4096 rows per tile, or the
/// global-atomic kernel; and the smallest node (`min_shared` rows) at which tiles still win.
/// Method: the root histogram of the fit's own bins is built with every candidate in
/// interleaved rounds, the median per candidate wins; each sample repeats the build so that it
/// lasts at least 16 launch-plus-sync round trips (the median of 9 one-row builds, measured first);
/// candidates more than 2× slower than the fastest after the first round are not timed again;
/// then the segment is quartered from the root down to 32 rows while tiles keep winning (and when
/// they win the smallest, every node takes tiles). On host backends the tile candidates read the
/// present codes where the fit's grower will (kPresentCodesMissingShare), so the kernel timed is
/// the one the fit runs.
/// Answers go to a TuneStore (engine/tune_store.hpp) keyed "hist.tile.g<groups>.n<log2 rows>" (and
/// ".min"). The choice only moves work between kernels whose integer sums are identical, so it never
/// changes a model bit. Upstream XGBoost sizes its shared-memory histogram from the device limits
/// instead (src/tree/gpu_hist/histogram.cu DeviceHistogramBuilderImpl::Reset).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/binning.hpp>
#include <kboost/kernels/hist_cuts.hpp>
#include <kboost/kernels/histogram.hpp>
#include <kboost/kernels/quantiser.hpp>
#include <kboost/engine/tune_store.hpp>

namespace kboost {

/// min_shared meaning "tiles never win": every node takes the global-atomic kernel.
constexpr std::int64_t kHistNeverTile = std::numeric_limits<std::int64_t>::max();

/// How the tuner measures.
struct HistTuneOptions {
  std::int64_t min_rows = 65536;  ///< fits with fewer rows keep the defaults (nothing measured)
  /// Builds are timed on at most this many rows: beyond it both kernels' time per row is flat (H200,
  /// 28 features: global 33 ns/row at 1M rows and 31.5 at 10M; tiles 0.61 and 0.38), so the answer
  /// is the same, and a 10M-row first fit no longer spends 0.6 s timing the global kernel.
  std::int64_t max_rows = std::int64_t(1) << 20;
  int rounds = 3;                 ///< interleaved rounds per comparison (median of these)
  int sync_samples = 9;           ///< one-row builds whose median is the launch-plus-sync cost
  int sync_multiple = 16;         ///< each sample lasts at least this many launch-plus-sync costs
  /// Rows-per-tile candidates; empty = the execution space's own list (hist_tile_candidates).
  std::vector<std::int32_t> tile_rows;
  /// Quartering stops below this many rows; when tiles still win at the last segment timed, every
  /// node takes tiles (min_shared 0): below it both kernels take about one launch.
  std::int64_t min_segment = 32;
  int max_reps = 64;              ///< cap on builds per sample (a noisy calibration cannot blow up a sample)
  double prune_factor = 2.0;      ///< after round 0, candidates slower than this × the fastest stop being timed
  double budget_seconds = 1.0;    ///< quartering stops once tuning has taken this long (root always finishes)
  std::int64_t untimed_min_shared = 2048;  ///< min_shared when the budget stops the quartering (TreeParams' default)
  /// Host backends: the tile candidates read the present codes of a row, as the fit's grower will,
  /// when at least this share of the values are missing (HistogramBuilder::use_present_codes).
  double present_codes_missing_share = kPresentCodesMissingShare;
};

/// Default tile sizes: 256..4096 rows on GPUs (a team's scratch tile per block); on host backends,
/// where a team is one core and each tile ends in a flush of its whole local histogram, larger
/// tiles up to 65,536 rows.
template <class ExecutionSpace>
std::vector<std::int32_t> hist_tile_candidates() {
  if (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) return {1024, 4096, 16384, 65536};
  return {256, 512, 1024, 2048, 4096};
}

/// The tuner's answer. Timings are medians in seconds per histogram build.
struct HistTuneResult {
  enum class Source { kDefault, kStore, kMeasured };
  Source source = Source::kDefault;  ///< kDefault: too small to tune, use the grower's defaults
  std::int32_t tile_rows = 4096;
  std::int64_t min_shared = 2048;    ///< kHistNeverTile: tiles never win
  std::string key;                   ///< the store key ("hist.tile.g4.n20")
  std::string store_file;            ///< "" when the store is memory only
  double sync_seconds = 0;           ///< launch-plus-sync cost (measured runs only)
  bool present_codes = false;        ///< the tile candidates were timed reading present codes (measured runs)
  std::vector<std::pair<std::string, double>> timings;  ///< ("root/global", s), ("root/tile1024", s), ("seg65536/tile", s)...

  /// One line for logs: key, choice, where it came from, the measured medians.
  std::string describe() const {
    char const* src = source == Source::kMeasured ? "measured" : source == Source::kStore ? "stored" : "default";
    std::string s = "hist tune " + key + ": tile_rows " + std::to_string(tile_rows) + ", min_shared " +
                    (min_shared == kHistNeverTile ? std::string("never") : std::to_string(min_shared)) + " (" + src;
    char buf[64];
    if (source == Source::kMeasured) {
      std::snprintf(buf, sizeof buf, "; sync %.1f us", sync_seconds * 1e6);
      s += buf;
      if (present_codes) s += "; tiles read present codes";
      for (auto const& [name, t] : timings) {
        std::snprintf(buf, sizeof buf, "; %s %.3f ms", name.c_str(), t * 1e3);
        s += buf;
      }
    }
    return s + ")";
  }
};

/// Store key of a shape: feature groups of the tile kernel and floor(log2(rows)).
inline std::string hist_tune_key(int groups, std::int64_t rows) {
  int lg = 0;
  while (lg < 62 && (std::int64_t{2} << lg) <= rows) ++lg;
  return "hist.tile.g" + std::to_string(groups) + ".n" + std::to_string(rows > 0 ? lg : 0);
}

/// The device key of an execution-space instance (engine/tune_store.hpp tune_device_key).
template <class ExecutionSpace>
std::string tune_device_key(ExecutionSpace const& space) {
  int device = 0;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecutionSpace, Kokkos::Cuda>) device = space.cuda_device();
#endif
  return tune_device_key(compat::space_name<ExecutionSpace>(), compat::concurrency(space), device);
}

namespace detail {

/// Identity row index and constant non-zero gradients for n rows (timing needs only the access
/// pattern: which bins each row hits, which the fit's own bins give).
template <class ExecutionSpace, class Mem>
void tune_inputs(ExecutionSpace const& space, std::int64_t n, Kokkos::View<std::int32_t*, Mem>& ridx,
                 Kokkos::View<GradientPairInt64*, Mem>& gpair) {
  ridx = Kokkos::View<std::int32_t*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::tune::ridx"), n);
  gpair = Kokkos::View<GradientPairInt64*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::tune::gpair"), n);
  auto r = ridx;
  auto g = gpair;
  Kokkos::parallel_for(
      "kboost::tune::inputs", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n), KOKKOS_LAMBDA(std::int64_t i) {
        r(i) = static_cast<std::int32_t>(i);
        g(i).grad = 1 + (i & 7);
        g(i).hess = 1;
      });
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

/// Times root histogram builds of the fit's own bins: one node of the first `rows` rows, with the
/// inputs of tune_inputs, built into one scratch histogram.
template <class ExecutionSpace, class Mem, class BinT>
class HistBuildTimer {
 public:
  using Builder = HistogramBuilder<ExecutionSpace, Mem, BinT>;

  /// Inputs for builds of up to n rows of `bins` (rows × features codes) with cut pointers `ptrs`
  /// (features + 1, host); `bins` and `o` must outlive the timer.
  HistBuildTimer(ExecutionSpace const& space, BinCodes<BinT, Mem> const& bins, std::vector<std::uint32_t> const& ptrs,
                 std::int64_t n, HistTuneOptions const& o)
      : space_(space), bins_(bins), o_(o) {
    Kokkos::View<std::int32_t*, Mem> ridx;
    Kokkos::View<GradientPairInt64*, Mem> gpair;
    tune_inputs(space, n, ridx, gpair);
    std::uint32_t const total_bins = ptrs.empty() ? 1 : ptrs.back();
    hist_ = typename Builder::hist_view("kboost::tune::hist", 1, std::max<std::uint32_t>(total_bins, 1));
    ridx_ = ridx;
    gpair_ = gpair;
  }

  /// Seconds per build of a `rows`-row node, `reps` builds between two fences.
  double sample(Builder& b, std::int64_t rows, int reps) {
    std::vector<HistNode> const nodes{HistNode{0, 0, static_cast<std::int32_t>(rows)}};
    space_.fence();
    auto const t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < reps; ++k) b.build(space_, uploads_, bins_, ridx_, gpair_, nodes, hist_);
    space_.fence();
    uploads_.release();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
  }

  /// Measures the launch-plus-sync cost with `b`: a one-row build, median of o.sync_samples (after
  /// one warm-up). Later samples are sized to rise above it. Returns it in seconds.
  double calibrate_sync(Builder& b) {
    sample(b, 1, 1);
    std::vector<double> sync;
    for (int k = 0; k < std::max(1, o_.sync_samples); ++k) sync.push_back(sample(b, 1, 1));
    sync_seconds_ = median(sync);
    return sync_seconds_;
  }

  /// Median seconds per build of each builder at `rows`, interleaved rounds, samples sized to rise
  /// above the sync cost. Round 0 doubles as the calibration pass: a candidate whose single build
  /// already lasts long enough keeps that build as its round-0 sample. After round 0, candidates
  /// slower than prune_factor × the fastest drop out (their median is their round-0 sample), so a
  /// slow kernel at the root is timed twice, not 2 + rounds times.
  std::vector<double> compare(std::vector<Builder*> const& bs, std::int64_t rows) {
    std::int64_t const warm_rows = std::min<std::int64_t>(rows, 4 * 4096);
    double const want = o_.sync_multiple * sync_seconds_;
    std::vector<int> reps;
    std::vector<std::vector<double>> s(bs.size());
    for (std::size_t i = 0; i < bs.size(); ++i) {
      sample(*bs[i], warm_rows, 1);  // warm-up: first launch
      double t1 = sample(*bs[i], rows, 1);
      if (t1 >= want) {
        reps.push_back(1);
        s[i].push_back(t1);
        continue;
      }
      t1 = std::max(median({t1, sample(*bs[i], rows, 1), sample(*bs[i], rows, 1)}), 1e-9);
      reps.push_back(static_cast<int>(std::clamp(want / t1 + 0.999, 1.0, static_cast<double>(std::max(1, o_.max_reps)))));
      s[i].push_back(sample(*bs[i], rows, reps[i]));
    }
    double fastest = s[0][0];
    for (auto const& v : s) fastest = std::min(fastest, v[0]);
    for (int round = 1; round < std::max(1, o_.rounds); ++round)
      for (std::size_t i = 0; i < bs.size(); ++i)
        if (s[i][0] <= o_.prune_factor * fastest) s[i].push_back(sample(*bs[i], rows, reps[i]));
    std::vector<double> med;
    for (auto const& v : s) med.push_back(median(v));
    return med;
  }

 private:
  ExecutionSpace space_;
  BinCodes<BinT, Mem> const& bins_;
  HistTuneOptions const& o_;
  Kokkos::View<const std::int32_t*, Mem> ridx_;
  Kokkos::View<const GradientPairInt64*, Mem> gpair_;
  typename Builder::hist_view hist_;
  UploadArena<ExecutionSpace, Mem> uploads_;
  double sync_seconds_ = 0;
};

/// The root (n rows): `global` against every tile size (`tiles`, one builder per entry of
/// `tile_rows`). Appends the medians to r.timings, sets r.tile_rows to the fastest tile size and
/// returns its index in `tiles`; sets r.min_shared to n when that tile size beats the global
/// kernel, else to kHistNeverTile.
template <class Timer, class Builder>
std::size_t time_root(Timer& timer, Builder& global, std::vector<Builder>& tiles,
                      std::vector<std::int32_t> const& tile_rows, std::int64_t n, HistTuneResult& r) {
  std::vector<Builder*> all{&global};
  for (auto& t : tiles) all.push_back(&t);
  auto const root = timer.compare(all, n);
  r.timings.emplace_back("root/global", root[0]);
  std::size_t best = 0;
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    r.timings.emplace_back("root/tile" + std::to_string(tile_rows[i]), root[i + 1]);
    if (root[i + 1] < root[best + 1]) best = i;
  }
  r.tile_rows = tile_rows[best];
  r.min_shared = root[best + 1] < root[0] ? n : kHistNeverTile;
  return best;
}

/// After tiles won the root (n rows): quarters the segment from n / 4 down to o.min_segment while
/// `tile` keeps beating `global`, lowering r.min_shared to the last segment tiles won (0 when that
/// was the smallest timed) and appending each segment's medians to r.timings. Stops early, at
/// o.untimed_min_shared, once tuning (begun at `start`) has taken o.budget_seconds.
template <class Timer, class Builder>
void time_segments(Timer& timer, Builder& global, Builder& tile, std::int64_t n, HistTuneOptions const& o,
                   std::chrono::steady_clock::time_point start, HistTuneResult& r) {
  for (std::int64_t seg = n / 4; seg >= o.min_segment; seg /= 4) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > o.budget_seconds) {
      // Tiles won every segment timed: assume they keep winning down to the grower's default
      // rather than sending every node below the last timed segment to the global-atomic kernel.
      r.min_shared = std::min(r.min_shared, o.untimed_min_shared);
      break;
    }
    auto const m = timer.compare({&global, &tile}, seg);
    r.timings.emplace_back("seg" + std::to_string(seg) + "/global", m[0]);
    r.timings.emplace_back("seg" + std::to_string(seg) + "/tile", m[1]);
    if (!(m[1] < m[0])) return;
    r.min_shared = seg;
  }
  if (r.min_shared < o.min_segment * 4) r.min_shared = 0;  // tiles won the smallest segment timed
}

}  // namespace detail

/// Measures the tile-vs-global choice on `bins` (rows × features codes, kernels/binning.hpp) with cut
/// pointers `ptrs` (features + 1, host). Nothing is stored. A fit whose features do not fit the tile
/// (one feature wider than HistogramBuilder::kTileBins slots) gets min_shared = kHistNeverTile at no cost.
template <class ExecutionSpace, class Mem, class BinT>
HistTuneResult measure_hist_tiles(ExecutionSpace const& space,
                                  BinCodes<BinT, Mem> const& bins, std::vector<std::uint32_t> const& ptrs,
                                  HistTuneOptions const& o = {}) {
  compat::ScopedRegion region("kboost::tune::hist");
  using Builder = HistogramBuilder<ExecutionSpace, Mem, BinT>;
  auto const start = std::chrono::steady_clock::now();
  std::int64_t const rows_total = static_cast<std::int64_t>(bins.n_rows());
  std::int64_t const n = std::min(rows_total, std::max<std::int64_t>(o.max_rows, 1));  // rows timed
  HistTuneResult r;
  r.source = HistTuneResult::Source::kMeasured;
  Builder global(ptrs, kHistNeverTile, 4096);
  r.key = hist_tune_key(global.n_groups(), rows_total);
  std::vector<std::int32_t> const tile_rows = o.tile_rows.empty() ? hist_tile_candidates<ExecutionSpace>() : o.tile_rows;
  if (!global.tile_enabled() || n == 0) {
    r.min_shared = kHistNeverTile;
    return r;
  }
  detail::HistBuildTimer<ExecutionSpace, Mem, BinT> timer(space, bins, ptrs, n, o);
  r.sync_seconds = timer.calibrate_sync(global);
  std::vector<Builder> tiles;
  tiles.reserve(tile_rows.size());
  for (std::int32_t t : tile_rows) tiles.emplace_back(ptrs, 0, t);
  r.present_codes = !tiles.empty() && tiles[0].use_present_codes(space, bins.by_row, o.present_codes_missing_share);
  for (std::size_t i = 1; r.present_codes && i < tiles.size(); ++i)
    tiles[i].share_present_codes(tiles[0]);  // the tile kernel the fit will run
  std::size_t const best = detail::time_root(timer, global, tiles, tile_rows, n, r);
  if (r.min_shared != kHistNeverTile) detail::time_segments(timer, global, tiles[best], n, o, start, r);
  return r;
}


/// The histogram choice for a fit: from `store` when this shape was tuned before on this device and
/// build, else measured (measure_hist_tiles) and stored. Fits with fewer than o.min_rows rows get
/// Source::kDefault (keep the grower's defaults; nothing measured or stored). `store` null: the
/// default store of this device (TuneStore::default_dir()).
template <class ExecutionSpace, class Mem, class BinT>
HistTuneResult tuned_hist_choice(ExecutionSpace const& space,
                                 BinCodes<BinT, Mem> const& bins, std::vector<std::uint32_t> const& ptrs,
                                 HistTuneOptions const& o = {}, TuneStore* store = nullptr) {
  HistTuneResult r;
  std::int64_t const n = static_cast<std::int64_t>(bins.n_rows());
  if (n < o.min_rows || n == 0) return r;
  TuneStore local(tune_device_key(space), store ? std::string() : TuneStore::default_dir());
  TuneStore& s = store ? *store : local;
  int const groups = HistogramBuilder<ExecutionSpace, Mem, BinT>(ptrs, kHistNeverTile, 4096).n_groups();
  std::string const key = hist_tune_key(groups, n);
  auto const tile = s.get(key);
  auto const min = s.get(key + ".min");
  if (tile && min && *tile > 0) {
    r.source = HistTuneResult::Source::kStore;
    r.key = key;
    r.tile_rows = static_cast<std::int32_t>(*tile);
    r.min_shared = *min;
    r.store_file = s.file();
    return r;
  }
  r = measure_hist_tiles(space, bins, ptrs, o);
  s.put(key, r.tile_rows);
  s.put(key + ".min", r.min_shared);
  r.store_file = s.file();
  return r;
}

/// As above with the fit's cuts.
template <class ExecutionSpace, class Mem, class BinT>
HistTuneResult tuned_hist_choice(ExecutionSpace const& space,
                                 BinCodes<BinT, Mem> const& bins, HistogramCuts<Mem> const& cuts,
                                 HistTuneOptions const& o = {},
                                 TuneStore* store = nullptr) {
  return tuned_hist_choice(space, bins, cuts.host_ptrs, o, store);
}

}  // namespace kboost
