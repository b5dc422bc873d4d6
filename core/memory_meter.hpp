#pragma once
/// \file memory_meter.hpp
/// Peak memory of a fit: the bytes of Kokkos allocations made while a MemoryMeter lives and not
/// yet freed, at their maximum, per kind of memory space (device: CudaSpace, CudaUVMSpace,
/// HIPSpace, …; host: HostSpace and the pinned host spaces), and the process' peak resident set.
///
/// Kokkos reports every allocation and deallocation to its Tools callbacks
/// (Kokkos::Tools::Experimental::EventSet). A meter adds its own allocate/deallocate callbacks to
/// the ones already set (a user's KOKKOS_PROFILE_LIBRARY tool keeps receiving every event) and
/// puts the previous set back when the last meter ends. With only these two callbacks set, Kokkos
/// launches take its profiling branch but call no tool and add no fence.
/// Memory that is not a Kokkos allocation (std::vector scratch of the host sketch) appears only in
/// the resident-set figure.
#include <cstdint>

namespace kboost {

/// Peaks seen by a MemoryMeter, bytes.
struct MemoryPeaks {
  std::int64_t device = 0;  ///< Kokkos allocations in device memory spaces
  std::int64_t host = 0;    ///< Kokkos allocations in host memory spaces (pinned included)
  std::int64_t process_rss = 0;  ///< peak resident set of the whole process since it started (getrusage)
};

/// Measures MemoryPeaks from construction on. Meters may nest and may live in several threads
/// (each sees every allocation made while it lives). Not copyable.
class MemoryMeter {
 public:
  MemoryMeter();
  ~MemoryMeter();
  MemoryMeter(MemoryMeter const&) = delete;
  MemoryMeter& operator=(MemoryMeter const&) = delete;

  /// The peaks so far (device and host: over the bytes this meter saw allocated and not freed).
  MemoryPeaks peaks() const;

  /// Current bytes this meter saw allocated and not yet freed: {device, host}.
  std::int64_t live_device() const;
  std::int64_t live_host() const;

  /// Updates this meter on one allocation (bytes > 0) or deallocation (bytes < 0) in a device or
  /// host space; called by the Kokkos callbacks (memory_meter.cpp).
  void record(bool device_space, std::int64_t bytes);

 private:
  std::int64_t live_[2] = {0, 0}, peak_[2] = {0, 0};  ///< [0] device, [1] host
};

/// Whether a Kokkos memory space name (SpaceHandle::name: "Host", "Cuda", "CudaHostPinned",
/// "HIP", …) is host memory.
bool is_host_space_name(char const* name);

}  // namespace kboost
