/// \file memory_meter.cpp
/// The Kokkos Tools allocate/deallocate callbacks behind MemoryMeter (core/memory_meter.hpp).
#include <kboost/core/memory_meter.hpp>

#include <Kokkos_Core.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kboost {

namespace {

struct Allocation {
  std::int64_t bytes;
  std::uint64_t seq;  ///< order of the allocation among all that meters saw
  bool device;
};

/// Meters alive, each with the sequence number of its first allocation; allocations made while
/// any meter lives. A deallocation is charged only to meters that saw the allocation.
struct Registry {
  std::mutex mu;
  std::vector<std::pair<MemoryMeter*, std::uint64_t>> meters;
  std::unordered_map<void const*, Allocation> live;
  std::uint64_t next_seq = 0;
  Kokkos::Tools::Experimental::EventSet previous{};
};

Registry& registry() {
  static Registry r;
  return r;
}

void on_allocate(Kokkos_Profiling_SpaceHandle const space, char const* label, void const* ptr, std::uint64_t size) {
  Registry& r = registry();
  Kokkos_Profiling_allocateDataFunction forward = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    bool const device = !is_host_space_name(space.name);
    auto const bytes = static_cast<std::int64_t>(size);
    r.live[ptr] = Allocation{bytes, r.next_seq++, device};
    for (auto& m : r.meters) m.first->record(device, bytes);
    forward = r.previous.allocate_data;
  }
  if (forward) forward(space, label, ptr, size);
}

void on_deallocate(Kokkos_Profiling_SpaceHandle const space, char const* label, void const* ptr, std::uint64_t size) {
  Registry& r = registry();
  Kokkos_Profiling_deallocateDataFunction forward = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    auto const it = r.live.find(ptr);
    if (it != r.live.end()) {
      for (auto& m : r.meters)
        if (m.second <= it->second.seq) m.first->record(it->second.device, -it->second.bytes);
      r.live.erase(it);
    }
    forward = r.previous.deallocate_data;
  }
  if (forward) forward(space, label, ptr, size);
}

std::int64_t process_peak_rss() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  return static_cast<std::int64_t>(u.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace

bool is_host_space_name(char const* name) {
  return std::strcmp(name, "Host") == 0 || std::strstr(name, "HostPinned") != nullptr;
}

MemoryMeter::MemoryMeter() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (r.meters.empty()) {
    r.previous = Kokkos::Tools::Experimental::get_callbacks();
    auto mine = r.previous;
    mine.allocate_data = &on_allocate;
    mine.deallocate_data = &on_deallocate;
    Kokkos::Tools::Experimental::set_callbacks(mine);
  }
  r.meters.emplace_back(this, r.next_seq);
}

MemoryMeter::~MemoryMeter() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.meters.erase(std::remove_if(r.meters.begin(), r.meters.end(), [this](auto const& m) { return m.first == this; }),
                 r.meters.end());
  if (r.meters.empty()) {
    // The callbacks set since this meter's first one (a tool initialised meanwhile) stay; only
    // kboost's two are replaced by what was there before.
    auto now = Kokkos::Tools::Experimental::get_callbacks();
    now.allocate_data = r.previous.allocate_data;
    now.deallocate_data = r.previous.deallocate_data;
    Kokkos::Tools::Experimental::set_callbacks(now);
    r.live.clear();
  }
}

void MemoryMeter::record(bool device_space, std::int64_t bytes) {
  int const k = device_space ? 0 : 1;
  live_[k] += bytes;
  peak_[k] = std::max(peak_[k], live_[k]);
}

MemoryPeaks MemoryMeter::peaks() const {
  std::lock_guard<std::mutex> lock(registry().mu);
  return MemoryPeaks{peak_[0], peak_[1], process_peak_rss()};
}

std::int64_t MemoryMeter::live_device() const {
  std::lock_guard<std::mutex> lock(registry().mu);
  return live_[0];
}

std::int64_t MemoryMeter::live_host() const {
  std::lock_guard<std::mutex> lock(registry().mu);
  return live_[1];
}

}  // namespace kboost
