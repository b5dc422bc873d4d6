#pragma once
/// \file transfers.hpp
/// Counts the host-device copies that training makes, so the phase log reports the round trips per
/// tree level. Every copy between a host and a device memory space in the training
/// path goes through counted_deep_copy / counted_to_host; copies inside one memory space (every
/// copy on the Serial and OpenMP backends) cost nothing and are not counted.
#include <Kokkos_Core.hpp>

#include <atomic>
#include <cstdint>
#include <type_traits>

namespace kboost {

/// Process-wide counts (uploads = host to device, downloads = device to host; a download is a round
/// trip: the host waits for the device).
struct TransferCount {
  std::int64_t uploads = 0, downloads = 0;
};

namespace detail {
inline std::atomic<std::int64_t>& upload_counter() {
  static std::atomic<std::int64_t> c{0};
  return c;
}
inline std::atomic<std::int64_t>& download_counter() {
  static std::atomic<std::int64_t> c{0};
  return c;
}
template <class Dst, class Src>
void count_copy() {
  using D = typename Dst::memory_space;
  using S = typename Src::memory_space;
  if constexpr (!std::is_same_v<D, S>) {
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, D>::accessible &&
                  !Kokkos::SpaceAccessibility<Kokkos::HostSpace, S>::accessible) {
      ++download_counter();
    } else if constexpr (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, D>::accessible &&
                         Kokkos::SpaceAccessibility<Kokkos::HostSpace, S>::accessible) {
      ++upload_counter();
    }
  }
}
}  // namespace detail

/// The counts so far (subtract two snapshots to count a stretch of work).
inline TransferCount transfer_count() {
  return TransferCount{detail::upload_counter().load(), detail::download_counter().load()};
}

/// Kokkos::deep_copy(dst, src), counted when it crosses between host and device memory.
template <class Dst, class Src>
void counted_deep_copy(Dst const& dst, Src const& src) {
  detail::count_copy<Dst, Src>();
  Kokkos::deep_copy(dst, src);
}

/// Kokkos::create_mirror_view_and_copy(Space(), src), counted when it crosses host and device.
template <class Space, class Src>
auto counted_copy_to(Src const& src) {
  auto d = Kokkos::create_mirror_view_and_copy(Space(), src);
  detail::count_copy<decltype(d), Src>();
  return d;
}

/// Kokkos::create_mirror_view_and_copy(HostSpace, src), counted when src is device memory.
template <class Src>
auto counted_to_host(Src const& src) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), src);
  detail::count_copy<decltype(h), Src>();
  return h;
}

}  // namespace kboost
