// The histogram tile tuner (engine/hist_tuner.hpp) and its store (engine/tune_store.hpp): the store
// round-trips per device and build, writes atomically, falls back to memory when it cannot write;
// the tuner returns a candidate tile size and a min_shared from the quartering sequence, stores both
// and reads them back; and the tile/global choice (forced either way, mixed, or tuned) never
// changes a bit of the trained model.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <kboost/io/model_writer.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/hist_tuner.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/engine/tune_store.hpp>
#include "tests/test_util.hpp"

namespace {

/// rows × features uniform [-1, 1) with 1/32 missing; label 1 when x0 + 0.5 x1 - 0.25 x2 > noise.
kboost::HostDMatrix tuner_synthetic(std::size_t rows, std::size_t features) {
  std::vector<float> X(rows * features), y(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    float* const row = X.data() + i * features;
    for (std::size_t f = 0; f < features; ++f) {
      std::uint64_t const r = kboost::test::splitmix64(i * 131 + f);
      float const u = static_cast<float>(r >> 40) / static_cast<float>(1 << 24) * 2.0f - 1.0f;
      row[f] = (r & 31) == 0 ? std::numeric_limits<float>::quiet_NaN() : u;
    }
    float const noise = static_cast<float>(kboost::test::splitmix64(i + 977) >> 40) / static_cast<float>(1 << 24) - 0.5f;
    float const x0 = std::isnan(row[0]) ? 0 : row[0], x1 = std::isnan(row[1]) ? 0 : row[1],
                x2 = std::isnan(row[2]) ? 0 : row[2];
    y[i] = x0 + 0.5f * x1 - 0.25f * x2 > noise ? 1.0f : 0.0f;
  }
  return kboost::host_dmatrix(X.data(), rows, features, y.data());
}

/// Sets an environment variable for one scope.
struct ScopedEnv {
  std::string name, old;
  bool had = false;
  ScopedEnv(std::string n, std::string const& v) : name(std::move(n)) {
    if (char const* o = std::getenv(name.c_str())) {
      had = true;
      old = o;
    }
    ::setenv(name.c_str(), v.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had) ::setenv(name.c_str(), old.c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};

using tuner_bins = Kokkos::View<std::uint16_t**, Kokkos::LayoutRight, TEST_MEMSPACE>;

/// rows × (ptrs.size() − 1) bin codes (kernels/binning.hpp), 1 in missing_mask + 1 missing (a power
/// of two less one: 1/16 by default), uploaded to TEST_MEMSPACE.
tuner_bins tuner_random_bins(std::size_t rows, std::vector<std::uint32_t> const& ptrs, std::uint64_t missing_mask = 15) {
  std::size_t const nf = ptrs.size() - 1;
  tuner_bins d("kboost::test::bins", rows, nf);
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t f = 0; f < nf; ++f) {
      std::uint64_t const r = kboost::test::splitmix64(i * 7919 + f);
      std::uint32_t const n_bins = ptrs[f + 1] - ptrs[f];  // also the missing code
      h(i, f) = static_cast<std::uint16_t>((r & missing_mask) == 0 ? n_bins : (r >> 8) % n_bins);
    }
  Kokkos::deep_copy(d, h);
  return d;
}

}  // namespace

TEST_CASE("tune store " TEST_BACKEND ": per device and build, atomic file, memory fallback", "[tune]") {
  namespace fs = std::filesystem;
  auto const dir = kboost::test::temp_dir("tune_store");
  fs::remove_all(dir / "store");
  std::string const store_dir = (dir / "store").string();
  SECTION("values round-trip through the file; another device does not see them") {
    kboost::TuneStore a("Cuda|test device|c1", store_dir);
    CHECK_FALSE(a.get("hist.tile.g1.n16").has_value());
    a.put("hist.tile.g1.n16", 1024);
    a.put("hist.tile.g1.n16.min", 4096);
    REQUIRE(a.persistent());
    REQUIRE(fs::exists(a.file()));
    std::ifstream in(a.file());
    auto const j = nlohmann::json::parse(in);
    CHECK(j["build"] == kboost::TuneStore::build_key());
    CHECK(j["device"] == "Cuda|test device|c1");
    CHECK(j["values"]["hist.tile.g1.n16"] == 1024);
    CHECK(j["values"]["hist.tile.g1.n16.min"] == 4096);
    int tmp_files = 0;
    for (auto const& e : fs::directory_iterator(store_dir)) tmp_files += e.path().string().find(".tmp.") != std::string::npos;
    CHECK(tmp_files == 0);
    // a fresh store object (as a new process) reads the file
    kboost::TuneStore b("Cuda|test device|c1", store_dir);
    REQUIRE(b.get("hist.tile.g1.n16.min").has_value());
    CHECK(*b.get("hist.tile.g1.n16.min") == 4096);
    kboost::TuneStore other("Cuda|other device|c1", store_dir);
    CHECK_FALSE(other.get("hist.tile.g1.n16").has_value());
  }
  SECTION("a file from another build or a torn file reads as empty and is replaced") {
    kboost::TuneStore a("Serial|foreign|c1", store_dir);
    a.put("k", 1);
    std::string const file = a.file();
    {
      std::ifstream in(file);
      auto j = nlohmann::json::parse(in);
      j["build"] = "0.0.0+0000000000000000";
      j["values"]["k2"] = 7;
      std::ofstream(file) << j.dump();
    }
    kboost::TuneStore b("Serial|foreign|c1", store_dir);
    CHECK_FALSE(b.get("k2").has_value());
    std::ofstream(file) << "{\"build\": \"tor";
    kboost::TuneStore c("Serial|foreign|c1", store_dir);
    CHECK_FALSE(c.get("k3").has_value());
    c.put("k3", 3);
    kboost::TuneStore d("Serial|foreign|c1", store_dir);
    REQUIRE(d.get("k3").has_value());
    CHECK(*d.get("k3") == 3);
  }
  SECTION("an unwritable directory falls back to memory") {
    std::string const blocker = kboost::test::write_file(dir, "not_a_dir", "x");
    kboost::TuneStore s("Serial|nowrite|c1", blocker + "/sub");
    s.put("k", 42);
    CHECK_FALSE(s.persistent());
    REQUIRE(s.get("k").has_value());
    CHECK(*s.get("k") == 42);
    kboost::TuneStore m("Serial|memory|c1", "");
    CHECK_FALSE(m.persistent());
    m.put("k", 5);
    CHECK(*kboost::TuneStore("Serial|memory|c1", "").get("k") == 5);  // same process: remembered
  }
  SECTION("default directory: KBOOST_TUNE_DIR, then XDG_CACHE_HOME, then HOME") {
    {
      ScopedEnv e("KBOOST_TUNE_DIR", "/some/where");
      CHECK(kboost::TuneStore::default_dir() == "/some/where");
    }
    {
      ScopedEnv e("KBOOST_TUNE_DIR", "");
      CHECK(kboost::TuneStore::default_dir().empty());
    }
    if (std::getenv("KBOOST_TUNE_DIR") == nullptr) {
      ScopedEnv x("XDG_CACHE_HOME", "/xdg");
      CHECK(kboost::TuneStore::default_dir() == "/xdg/kboost");
    }
  }
  CHECK(kboost::TuneStore::build_key().rfind(KBOOST_VERSION "+", 0) == 0);
  fs::remove_all(dir);
}

TEST_CASE("tune store " TEST_BACKEND ": 8 processes storing at once keep the file whole and every answer", "[tune]") {
  namespace fs = std::filesystem;
  auto const dir = kboost::test::temp_dir("tune_store_processes");
  fs::remove_all(dir / "store");
  std::string const store_dir = (dir / "store").string(), device = "Cuda|concurrent test|c8";
  constexpr int kProcesses = 8, kPuts = 25;
  auto const key = [](int p, int k) { return "p" + std::to_string(p) + ".k" + std::to_string(k); };
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t const pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {  // the child: host file I/O only, then _exit (none of the parent's exit handlers)
      kboost::TuneStore store(device, store_dir);
      for (int k = 0; k < kPuts; ++k) store.put(key(p, k), p * 1000 + k);
      _exit(store.persistent() ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t const pid : children) {
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
  kboost::TuneStore const store(device, store_dir);
  std::ifstream in(store.file());
  auto const j = nlohmann::json::parse(in);  // whole: it parses
  CHECK(j["values"].size() == std::size_t(kProcesses * kPuts));
  for (int p = 0; p < kProcesses; ++p)
    for (int k = 0; k < kPuts; ++k) {
      auto const v = store.get(key(p, k));
      REQUIRE(v.has_value());
      CHECK(*v == p * 1000 + k);
    }
  for (auto const& e : fs::directory_iterator(store_dir)) CHECK(e.path().string().find(".tmp.") == std::string::npos);
}

TEST_CASE("hist tuner " TEST_BACKEND ": measured answer is a candidate, stored and read back", "[tune]") {
  std::vector<std::uint32_t> const ptrs{0, 16, 48, 50, 306, 562};  // 562 bins: one tile group
  std::int64_t const rows = 20000;
  auto const bins = tuner_random_bins(rows, ptrs);
  kboost::HistTuneOptions o;
  o.min_rows = 0;
  o.rounds = 1;
  o.sync_samples = 3;
  o.sync_multiple = 2;
  o.tile_rows = {256, 1024};
  // No time limit: the quartering runs to its end however slow the machine (under compute-sanitizer
  // the timings ran past the default 1 s budget); the limit has its own case below.
  o.budget_seconds = 1e9;
  kboost::TuneStore store(kboost::tune_device_key(TEST_EXECSPACE()) + "|test", "");
  auto const cbins = kboost::with_feature_order(TEST_EXECSPACE(), Kokkos::View<const std::uint16_t**, Kokkos::LayoutRight, TEST_MEMSPACE>(bins));
  auto const r = kboost::tuned_hist_choice<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), cbins, ptrs, o, &store);
  INFO(r.describe());
  CHECK(r.source == kboost::HistTuneResult::Source::kMeasured);
  CHECK(r.key == "hist.tile.g1.n14");
  CHECK((r.tile_rows == 256 || r.tile_rows == 1024));
  // tiles winning the smallest segment (78 rows) send every node to tiles: min_shared 0
  bool const in_sequence = r.min_shared == kboost::kHistNeverTile || r.min_shared == 20000 || r.min_shared == 5000 ||
                           r.min_shared == 1250 || r.min_shared == 312 || r.min_shared == 0;
  CHECK(in_sequence);
  CHECK(r.sync_seconds > 0);
  REQUIRE(r.timings.size() >= 3);
  CHECK(r.timings[0].first == "root/global");
  for (auto const& t : r.timings) CHECK(t.second > 0);
  auto const again = kboost::tuned_hist_choice<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), cbins, ptrs, o, &store);
  CHECK(again.source == kboost::HistTuneResult::Source::kStore);
  CHECK(again.tile_rows == r.tile_rows);
  CHECK(again.min_shared == r.min_shared);
  // no time left after the root: tiles, when they win at the root, are kept down to untimed_min_shared
  {
    auto q = o;
    q.budget_seconds = 0;
    q.untimed_min_shared = 777;
    auto const b = kboost::measure_hist_tiles<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), cbins, ptrs, q);
    INFO(b.describe());
    CHECK((b.min_shared == kboost::kHistNeverTile || b.min_shared == 777));
  }
  // more rows than max_rows: the builds are timed on max_rows rows (root and quartered segments
  // below it), the key still names the fit's shape
  {
    auto q = o;
    q.max_rows = 5000;
    auto const b = kboost::measure_hist_tiles<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), cbins, ptrs, q);
    INFO(b.describe());
    CHECK(b.key == "hist.tile.g1.n14");
    CHECK((b.min_shared == kboost::kHistNeverTile || b.min_shared == 5000 || b.min_shared == 1250 ||
           b.min_shared == 312 || b.min_shared == 0));
    for (auto const& t : b.timings) CHECK(t.first.rfind("seg5000", 0) != 0);  // uncapped: the first segment
  }
  // the kernel timed is the one the fit runs: host tiles read present codes where at least
  // kPresentCodesMissingShare of the values are missing (half here, 1/16 above); devices never
  {
    bool const host = Kokkos::SpaceAccessibility<TEST_EXECSPACE, Kokkos::HostSpace>::accessible;
    CHECK_FALSE(r.present_codes);
    auto const hbins = kboost::with_feature_order(
        TEST_EXECSPACE(), Kokkos::View<const std::uint16_t**, Kokkos::LayoutRight, TEST_MEMSPACE>(tuner_random_bins(rows, ptrs, 1)));
    auto q = o;
    q.budget_seconds = 0;
    auto const half = kboost::measure_hist_tiles<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), hbins, ptrs, q);
    INFO(half.describe());
    CHECK(half.present_codes == host);
    CHECK((half.tile_rows == 256 || half.tile_rows == 1024));
    q.present_codes_missing_share = 0.75;
    CHECK_FALSE(kboost::measure_hist_tiles<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), hbins, ptrs, q).present_codes);
  }
  // below min_rows: defaults, nothing measured
  o.min_rows = rows + 1;
  CHECK(kboost::tuned_hist_choice<TEST_EXECSPACE, TEST_MEMSPACE>(TEST_EXECSPACE(), cbins, ptrs, o, &store).source ==
        kboost::HistTuneResult::Source::kDefault);
  // a feature wider than the tile: global atomics, nothing timed
  std::vector<std::uint32_t> const wide{0, 16, 16 + kboost::HistogramBuilder<TEST_EXECSPACE, TEST_MEMSPACE, std::uint16_t>::kTileBins + 1};
  auto const wbins = tuner_random_bins(1000, wide);
  auto const w = kboost::measure_hist_tiles<TEST_EXECSPACE, TEST_MEMSPACE>(
      TEST_EXECSPACE(), kboost::with_feature_order(TEST_EXECSPACE(), Kokkos::View<const std::uint16_t**, Kokkos::LayoutRight, TEST_MEMSPACE>(wbins)), wide, o);
  CHECK(w.min_shared == kboost::kHistNeverTile);
  CHECK(w.timings.empty());
}

TEST_CASE("hist tuner " TEST_BACKEND ": tile, global, mixed and tuned kernels give the same model bytes", "[tune][bits]") {
  namespace fs = std::filesystem;
  auto const dir = kboost::test::temp_dir("tune_bits");
  ScopedEnv env("KBOOST_TUNE_DIR", (dir / "store").string());
  auto const d = tuner_synthetic(70000, 6);  // >= HistTuneOptions::min_rows: the booster tunes
  std::map<std::string, std::string> const base{
      {"objective", "binary:logistic"}, {"num_round", "2"}, {"max_depth", "5"}, {"max_bin", "64"}};
  auto const train = [&](std::map<std::string, std::string> extra, kboost::HistTuneResult* tuning = nullptr,
                         double* tune_s = nullptr) {
    auto kv = base;
    for (auto const& [k, v] : extra) kv[k] = v;
    kboost::BasicBooster<TEST_EXECSPACE> b;
    b.train(kboost::parse_params(kv), d);
    if (tuning) *tuning = b.hist_tuning();
    if (tune_s) *tune_s = b.phases().tune;
    return kboost::model_to_json_bytes(b.model());
  };
  kboost::HistTuneResult first, second;
  double first_s = 0;
  std::string const tuned = train({}, &first, &first_s);
  CHECK(first.source == kboost::HistTuneResult::Source::kMeasured);
  CHECK(first_s > 0);
  CHECK(fs::exists(first.store_file));
  std::string const tuned_again = train({}, &second);
  CHECK(second.source == kboost::HistTuneResult::Source::kStore);
  CHECK(second.tile_rows == first.tile_rows);
  CHECK(second.min_shared == first.min_shared);
  kboost::HistTuneResult off;
  std::string const global = train({{"kboost_min_shared", "9000000000000000000"}}, &off);
  CHECK(off.source == kboost::HistTuneResult::Source::kDefault);  // explicit choice: not tuned
  std::string const tile256 = train({{"kboost_min_shared", "0"}, {"kboost_tile_rows", "256"}});
  std::string const tile4096 = train({{"kboost_min_shared", "0"}, {"kboost_tile_rows", "4096"}});
  std::string const mixed = train({{"kboost_min_shared", "3000"}, {"kboost_tile_rows", "1024"}});
  REQUIRE(tuned.size() > 1000);
  CHECK(tuned == tuned_again);
  CHECK(tuned == global);
  CHECK(tuned == tile256);
  CHECK(tuned == tile4096);
  CHECK(tuned == mixed);
  fs::remove_all(dir);
}

TEST_CASE("histogram builder " TEST_BACKEND ": every kernel mix gives the reference sums; an empty node is zeroed; "
          "children whose rows divide on the device; host backends' present codes, one feature group or two",
          "[tune]") {
  constexpr bool kHost = Kokkos::SpaceAccessibility<TEST_EXECSPACE, Kokkos::HostSpace>::accessible;
  // the second cut pointers need two feature groups on host backends (HistogramBuilder::kTileBins)
  for (std::vector<std::uint32_t> const& ptrs : {std::vector<std::uint32_t>{0, 7, 7 + 300, 7 + 300 + 2, 7 + 300 + 2 + 40},
                                                 std::vector<std::uint32_t>{0, 20000, 20003, 40000}}) {
    std::size_t const rows = 5000;
    auto const bins = tuner_random_bins(rows, ptrs);
    auto const hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bins);
    // nodes: rows [0, 3000) in slot 0 (every third row), [3000, 3000) empty in slot 1, [3000, 5000) in slot 2
    std::vector<std::int32_t> order;
    for (std::int32_t i = 0; i < 3000; i += 3) order.push_back(i);
    for (std::int32_t i = 1; i < 3000; ++i)
      if (i % 3 != 0) order.push_back(i);
    for (std::int32_t i = 3000; i < static_cast<std::int32_t>(rows); ++i) order.push_back(i);
    Kokkos::View<std::int32_t*, Kokkos::HostSpace> hr("ridx", rows);
    Kokkos::View<kboost::GradientPairInt64*, Kokkos::HostSpace> hg("gpair", rows);
    for (std::size_t i = 0; i < rows; ++i) {
      hr(i) = order[i];
      hg(i) = kboost::GradientPairInt64{static_cast<std::int64_t>(kboost::test::splitmix64(i) >> 20) - (std::int64_t(1) << 43),
                                        static_cast<std::int64_t>(kboost::test::splitmix64(i + rows) >> 21)};
    }
    // nodes 3-6: children of [3000, 5000) and of [1000, 3000) whose rows divide where the device's left
    // counts say (700 and 0 rows left), with expected rows that send them to either kernel
    std::vector<kboost::HistNode> const nodes{{0, 0, 1000},           {1, 1000, 1000},         {2, 3000, 5000},
                                              {3, 3000, 5000, 0, 0, 5}, {4, 3000, 5000, 0, 1, 1300},
                                              {5, 1000, 3000, 1, 0, 1800}, {6, 1000, 3000, 1, 1, 20}};
    std::vector<std::int32_t> const left_counts{700, 0};
    Kokkos::View<std::int32_t*, Kokkos::HostSpace> hc("counts", left_counts.size());
    for (std::size_t i = 0; i < left_counts.size(); ++i) hc(i) = left_counts[i];
    auto const dc = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hc);
    using Hist = Kokkos::View<kboost::GradientPairInt64**, Kokkos::LayoutRight, Kokkos::HostSpace>;
    Hist ref("ref", nodes.size(), ptrs.back());
    for (auto const& n : nodes)
      for (std::int32_t p = n.rows(hc).first; p < n.rows(hc).second; ++p)
        for (std::size_t f = 0; f + 1 < ptrs.size(); ++f) {
          std::uint32_t const code = hb(hr(p), f);
          if (code < ptrs[f + 1] - ptrs[f]) ref(n.slot, ptrs[f] + code) += hg(hr(p));
        }
    auto const dr = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hr);
    auto const dg = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hg);
    auto const cbins = kboost::with_feature_order(TEST_EXECSPACE(), Kokkos::View<const std::uint16_t**, Kokkos::LayoutRight, TEST_MEMSPACE>(bins));
    for (std::int64_t min_shared : {std::int64_t(0), std::int64_t(1500), kboost::kHistNeverTile}) {
      for (std::int32_t tile_rows : {256, 4096}) {
        for (bool present : {false, true}) {
          INFO("min_shared " << min_shared << " tile_rows " << tile_rows << " present codes " << present << " features "
                             << ptrs.size() - 1);
          kboost::HistogramBuilder<TEST_EXECSPACE, TEST_MEMSPACE, std::uint16_t> b(ptrs, min_shared, tile_rows);
          // a sixteenth of the values are missing: present codes when asked for at that share, not at a half
          CHECK_FALSE(b.use_present_codes(TEST_EXECSPACE(), cbins.by_row, 0.5));
          if (present) CHECK(b.use_present_codes(TEST_EXECSPACE(), cbins.by_row, 0.05) == (kHost && b.tile_enabled()));
          if (kHost && min_shared == 0) CHECK(b.n_groups() == (ptrs.size() == 4 ? 2 : 1));
          kboost::UploadArena<TEST_EXECSPACE, TEST_MEMSPACE> uploads;
          Kokkos::View<kboost::GradientPairInt64**, Kokkos::LayoutRight, TEST_MEMSPACE> hist("hist", nodes.size(), ptrs.back());
          Kokkos::deep_copy(hist, kboost::GradientPairInt64{7, 7});  // stale sums from an earlier level
          b.build(TEST_EXECSPACE(), uploads, cbins, Kokkos::View<const std::int32_t*, TEST_MEMSPACE>(dr),
                  Kokkos::View<const kboost::GradientPairInt64*, TEST_MEMSPACE>(dg), nodes, hist,
                  Kokkos::View<const std::int32_t*, TEST_MEMSPACE>(dc));
          auto const got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hist);
          std::size_t bad = 0;
          for (std::size_t k = 0; k < nodes.size(); ++k)
            for (std::uint32_t j = 0; j < ptrs.back(); ++j) bad += !(got(k, j) == ref(k, j));
          CHECK(bad == 0);
        }
      }
    }
  }
}
