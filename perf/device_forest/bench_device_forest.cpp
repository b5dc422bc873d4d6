// Prediction latency of one model, three ways, on Kokkos' default execution space:
//  - batch: Predictor::predict_into (one kboost kernel per call);
//  - in a user kernel: a parallel_for over rows ("particles") calling DeviceForest::predict per row,
//    features read through an accessor from a LayoutLeft View (the simulation's storage);
//  - in a user kernel with a team per row: DeviceForest::predict_team, at each team size of
//    `team_sizes` (GPUs: 32, 128, 512; host: the space's concurrency), the fastest reported.
// Synthetic rows (features uniform in [-2, 2), 2 % NaN), fixed seed. Per batch size: the median and
// 99th percentile of `repeats` timed calls (after 3 warm-ups), each ending with a fence, and whether
// the three ways give the same bits. CSV on stdout:
//   rows,batch_p50_ms,batch_p99_ms,kernel_p50_ms,kernel_p99_ms,kernel_ns_per_row,team_size,team_p50_ms,
//   team_p99_ms,bits_equal
//   usage: bench_device_forest <model> [repeats=50] [rows...=1 100 10000 1000000]
#include <Kokkos_Core.hpp>
#include <kboost/engine/predictor.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;

KOKKOS_INLINE_FUNCTION float quiet_nan() {
  std::uint32_t const bits = 0x7fc00000u;
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

/// Median and 99th percentile (ms) of `f()` over `repeats` calls after 3 warm-ups.
template <class F>
std::pair<double, double> time_ms(int repeats, F&& f) {
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t[std::min(t.size() - 1, t.size() * 99 / 100)]};
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_device_forest <model> [repeats] [rows...]\n");
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  int const repeats = argc > 2 ? std::atoi(argv[2]) : 50;
  std::vector<int> sizes;
  for (int i = 3; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {1, 100, 10000, 1000000};
  kboost::Predictor<Space> predictor(argv[1]);
  int const nf = predictor.model().num_feature;
  auto const forest = predictor.device_forest();
  constexpr int kMax = 16;
  if (forest.margin_columns() > kMax) {
    std::fprintf(stderr, "bench_device_forest: more than %d outputs\n", kMax);
    return 1;
  }
  int const k = forest.output_columns();
  std::printf("# %s, %zu trees, %d features, %d outputs, %s\n", argv[1], predictor.model().trees.size(), nf, k,
              Space::name());
  std::printf("rows,batch_p50_ms,batch_p99_ms,kernel_p50_ms,kernel_p99_ms,kernel_ns_per_row,team_size,team_p50_ms,"
              "team_p99_ms,bits_equal\n");
  bool const host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space::memory_space>::accessible;
  std::vector<int> const team_sizes = host ? std::vector<int>{Space().concurrency()} : std::vector<int>{32, 128, 512};
  for (int n : sizes) {
    Kokkos::View<float**, Kokkos::LayoutLeft, Space> X("X", n, nf);
    Kokkos::parallel_for(
        "bench::fill", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
          for (int f = 0; f < nf; ++f) {
            std::uint64_t h = (static_cast<std::uint64_t>(i) * 1000003u + static_cast<std::uint64_t>(f)) * 0x9E3779B97F4A7C15ull;
            h ^= h >> 29;
            h *= 0xBF58476D1CE4E5B9ull;
            h ^= h >> 32;
            X(i, f) = (h % 100) < 2 ? quiet_nan() : static_cast<float>(h % 4096) / 1024.0f - 2.0f;
          }
        });
    Kokkos::View<float**, Kokkos::LayoutRight, Space> batch("batch", n, k), kernel("kernel", n, k);
    Space space;
    auto b = time_ms(repeats, [&] {
      predictor.predict_into(space, X, batch);
      space.fence();
    });
    auto u = time_ms(repeats, [&] {
      Kokkos::parallel_for(
          "user::particles", Kokkos::RangePolicy<Space>(space, 0, n), KOKKOS_LAMBDA(int i) {
            float out[kMax];
            forest.predict([&](int f) { return X(i, f); }, out);
            for (int j = 0; j < k; ++j) kernel(i, j) = out[j];
          });
      space.fence();
    });
    auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), batch);
    auto hk = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel);
    bool same = std::memcmp(hb.data(), hk.data(), hb.size() * sizeof(float)) == 0;
    std::pair<double, double> best{1e30, 1e30};
    int best_size = 0;
    for (int ts : team_sizes) {
      Kokkos::TeamPolicy<Space> policy(space, n, ts);
      policy.set_scratch_size(0, Kokkos::PerTeam(forest.team_scratch_bytes(ts)));
      auto t = time_ms(repeats, [&] {
        Kokkos::parallel_for(
            "user::particle_teams", policy, KOKKOS_LAMBDA(Kokkos::TeamPolicy<Space>::member_type const& team) {
              int const i = team.league_rank();
              float out[kMax];
              forest.predict_team(team, [&](int f) { return X(i, f); }, forest.team_scratch(team), out);
              if (team.team_rank() == 0)
                for (int j = 0; j < k; ++j) kernel(i, j) = out[j];
            });
        space.fence();
      });
      auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel);
      same = same && std::memcmp(hb.data(), ht.data(), hb.size() * sizeof(float)) == 0;
      if (t.first < best.first) best = t, best_size = ts;
    }
    std::printf("%d,%.4f,%.4f,%.4f,%.4f,%.1f,%d,%.4f,%.4f,%d\n", n, b.first, b.second, u.first, u.second,
                u.first * 1e6 / n, best_size, best.first, best.second, same);
    std::fflush(stdout);
  }
  return 0;
}
