// A Kokkos Tools library that times every kernel and host-device copy by name on a CUDA device:
// the device is synchronised before and after each one, so a kernel's time is its launch plus its
// run with nothing else in flight (the gaps between kernels, where the host prepares the next
// launch, are what remains of the wall time). At exit it prints, per name: calls, total seconds,
// mean microseconds, share of the timed total.
//
// Build: g++ -O2 -shared -fPIC kernel_timer.cpp -o libkboost_kernel_timer.so \
//          -I$CUDA_HOME/include -L$CUDA_HOME/lib64 -lcudart
// Use:   KOKKOS_PROFILE_LIBRARY=./libkboost_kernel_timer.so (Kokkos 3.x) or
//        KOKKOS_TOOLS_LIBS=./libkboost_kernel_timer.so (Kokkos 4.x) ./program
// Synchronising around every kernel slows the program: use it to attribute time, not to measure it.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Entry {
  std::int64_t calls = 0;
  double seconds = 0;
};

struct State {
  std::map<std::string, Entry> by_name;
  std::vector<std::pair<std::string, Clock::time_point>> open;  // kernel id -> (name, start)
  Clock::time_point start = Clock::now();
} state;

std::uint64_t begin(std::string name) {
  cudaDeviceSynchronize();
  state.open.emplace_back(std::move(name), Clock::now());
  return state.open.size() - 1;
}

void end(std::uint64_t id) {
  cudaDeviceSynchronize();
  auto const& o = state.open.at(id);
  Entry& e = state.by_name[o.first];
  ++e.calls;
  e.seconds += std::chrono::duration<double>(Clock::now() - o.second).count();
  if (id + 1 == state.open.size()) state.open.pop_back();
}

}  // namespace

extern "C" {

void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) { state.start = Clock::now(); }

void kokkosp_finalize_library() {
  double const wall = std::chrono::duration<double>(Clock::now() - state.start).count();
  std::vector<std::pair<std::string, Entry>> rows(state.by_name.begin(), state.by_name.end());
  std::sort(rows.begin(), rows.end(), [](auto const& a, auto const& b) { return a.second.seconds > b.second.seconds; });
  double total = 0;
  for (auto const& r : rows) total += r.second.seconds;
  std::printf("kernel timer: %.3f s timed of %.3f s wall\n%-60s %10s %10s %10s %7s\n", total, wall, "name", "calls",
              "total s", "mean us", "share");
  for (auto const& r : rows)
    std::printf("%-60s %10lld %10.4f %10.2f %6.1f%%\n", r.first.c_str(), static_cast<long long>(r.second.calls),
                r.second.seconds, 1e6 * r.second.seconds / static_cast<double>(r.second.calls),
                100.0 * r.second.seconds / (total > 0 ? total : 1));
}

void kokkosp_begin_parallel_for(char const* name, std::uint32_t, std::uint64_t* id) { *id = begin(name); }
void kokkosp_end_parallel_for(std::uint64_t id) { end(id); }
void kokkosp_begin_parallel_scan(char const* name, std::uint32_t, std::uint64_t* id) { *id = begin(name); }
void kokkosp_end_parallel_scan(std::uint64_t id) { end(id); }
void kokkosp_begin_parallel_reduce(char const* name, std::uint32_t, std::uint64_t* id) { *id = begin(name); }
void kokkosp_end_parallel_reduce(std::uint64_t id) { end(id); }

struct SpaceHandle {
  char name[64];
};
void kokkosp_begin_deep_copy(SpaceHandle dst, char const* dst_label, void const*, SpaceHandle src, char const*,
                             void const*, std::uint64_t) {
  begin(std::string("deep_copy ") + src.name + " -> " + dst.name + " " + dst_label);
}
void kokkosp_end_deep_copy() {
  if (!state.open.empty()) end(state.open.size() - 1);
}

}  // extern "C"
