#pragma once
/// \file transfers.hpp
/// Counts the host-device copies that training makes, so the phase log reports the round trips per
/// tree level. Every copy between a host and a device memory space in the training
/// path goes through counted_deep_copy / counted_to_host; copies inside one memory space (every
/// copy on the Serial and OpenMP backends) cost nothing and are not counted.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

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

/// Page-locked host memory where the backend has it (CUDA, HIP), else HostSpace: the device copies
/// from it at the link's speed, and asynchronously.
#if defined(KOKKOS_ENABLE_CUDA)
using HostPinnedSpace = Kokkos::CudaHostPinnedSpace;
#elif defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
using HostPinnedSpace = Kokkos::HIPHostPinnedSpace;
#elif defined(KOKKOS_ENABLE_HIP)
using HostPinnedSpace = Kokkos::Experimental::HIPHostPinnedSpace;
#else
using HostPinnedSpace = Kokkos::HostSpace;
#endif

/// Copies host matrices (rows × cols, row-major) into matrices of the same extents (row-major, in a
/// memory space the execution space reaches) and fences. When the destination is device memory,
/// through two page-locked staging buffers of `chunk_bytes` (whole rows), made on the first copy
/// that needs them and kept for the next: host threads fill one while the space copies the other,
/// one fence per chunk (a pageable copy runs at a fraction of the link's speed: the driver stages it
/// itself, one chunk after the other). Each copy is counted as one upload.
template <class T>
class StagedUploader {
 public:
  explicit StagedUploader(std::size_t chunk_bytes = std::size_t(64) << 20) : chunk_bytes_(chunk_bytes) {}

  /// dst = src. Throws std::runtime_error when the extents differ.
  template <class ExecutionSpace, class... DstProps>
  void operator()(ExecutionSpace const& space, Kokkos::View<T**, Kokkos::LayoutRight, DstProps...> const& dst,
                  Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace> const& src) {
    using Dst = Kokkos::View<T**, Kokkos::LayoutRight, DstProps...>;
    if (dst.extent(0) != src.extent(0) || dst.extent(1) != src.extent(1))
      throw std::runtime_error("staged_upload: extents differ");
    std::size_t const rows = src.extent(0), cols = src.extent(1);
    std::size_t const chunk = std::max<std::size_t>(1, chunk_bytes_ / std::max<std::size_t>(1, cols * sizeof(T)));
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Dst::memory_space>::accessible ||
                  std::is_same_v<HostPinnedSpace, Kokkos::HostSpace>) {
      counted_deep_copy(dst, src);
    } else if (rows <= chunk || !src.span_is_contiguous() || !dst.span_is_contiguous()) {
      counted_deep_copy(dst, src);
    } else {
      detail::count_copy<Dst, Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace>>();
      copy_through_stages(space, dst, src, chunk);
    }
    space.fence();
  }

 private:
  using Stage = Kokkos::View<T**, Kokkos::LayoutRight, HostPinnedSpace>;

  /// Rows [r0, r0 + n) of src into `to` (n = min(chunk, rows − r0)), four host threads.
  static void fill(Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace> const& src, std::size_t chunk,
                   std::size_t r0, Stage const& to) {
    std::size_t const cols = src.extent(1);
    std::size_t const bytes = std::min(chunk, src.extent(0) - r0) * cols * sizeof(T);
    char const* from = reinterpret_cast<char const*>(src.data() + r0 * cols);
    char* out = reinterpret_cast<char*>(to.data());
    constexpr std::size_t kThreads = 4;
    std::size_t const part = (bytes + kThreads - 1) / kThreads;
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < kThreads && t * part < bytes; ++t)
      pool.emplace_back([=] { std::memcpy(out + t * part, from + t * part, std::min(part, bytes - t * part)); });
    std::memcpy(out, from, std::min(part, bytes));
    for (auto& t : pool) t.join();
  }

  template <class ExecutionSpace, class Dst>
  void copy_through_stages(ExecutionSpace const& space, Dst const& dst,
                           Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace> const& src, std::size_t chunk) {
    std::size_t const rows = src.extent(0), cols = src.extent(1);
    if (stage_[0].extent(0) != chunk || stage_[0].extent(1) != cols)
      for (auto& st : stage_) st = Stage(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::upload::stage"), chunk, cols);
    fill(src, chunk, 0, stage_[0]);
    for (std::size_t r0 = 0, k = 0; r0 < rows; r0 += chunk, ++k) {
      std::size_t const n = std::min(chunk, rows - r0);
      // chunk k goes out of stage[k % 2] while the host fills stage[(k + 1) % 2], whose last copy
      // (chunk k - 1) the previous iteration's fence has seen finish
      Kokkos::deep_copy(space, Kokkos::subview(dst, std::make_pair(r0, r0 + n), Kokkos::ALL()),
                        Kokkos::subview(stage_[k % 2], std::make_pair(std::size_t(0), n), Kokkos::ALL()));
      if (r0 + chunk < rows) fill(src, chunk, r0 + chunk, stage_[(k + 1) % 2]);
      space.fence();
    }
  }

  std::size_t chunk_bytes_;
  Stage stage_[2];
};

/// Copies the host matrix `src` (rows × cols, row-major) into `dst` (same extents, row-major, in a
/// memory space `space` reaches) and fences, through StagedUploader's page-locked staging buffers
/// of `chunk_bytes` when dst is device memory. Counted as one upload. Throws std::runtime_error
/// when the extents differ.
template <class ExecutionSpace, class T, class... DstProps>
void staged_upload(ExecutionSpace const& space, Kokkos::View<T**, Kokkos::LayoutRight, DstProps...> const& dst,
                   Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace> const& src,
                   std::size_t chunk_bytes = std::size_t(64) << 20) {
  StagedUploader<T> upload(chunk_bytes);
  upload(space, dst, src);
}

/// Downloads into page-locked host memory kept from one call to the next, so that a download
/// allocates nothing and is queued on the caller's execution-space instance (a per-level download
/// through create_mirror_view_and_copy allocated host memory and fenced every instance). Where Mem
/// is host memory, fetch waits for `space` and hands out the source itself.
template <class T, class ExecutionSpace, class Mem>
class HostLanding {
 public:
  using host_view = Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  /// The elements of `src` (a view of T in Mem whose span is contiguous, any rank) on the host, in
  /// span order, after waiting for `space`; valid until the next fetch. Counted as one download.
  /// \throws std::runtime_error when src's span is not contiguous.
  template <class Src>
  host_view fetch(ExecutionSpace const& space, Src const& src) {
    static_assert(std::is_same_v<typename Src::non_const_value_type, T>, "fetch: element type");
    if (!src.span_is_contiguous()) throw std::runtime_error("HostLanding::fetch: the source is not contiguous");
    std::size_t const n = src.span();
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) {
      space.fence();
      return host_view(src.data(), n);
    } else {
      if (host_.extent(0) < n)
        host_ = Kokkos::View<T*, HostPinnedSpace>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::download::landing"), 2 * n);
      detail::count_copy<Kokkos::View<T*, HostPinnedSpace>, Src>();
      Kokkos::View<const T*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> flat(src.data(), n);
      Kokkos::deep_copy(space, Kokkos::subview(host_, std::make_pair(std::size_t(0), n)), flat);
      space.fence();
      return host_view(host_.data(), n);
    }
  }

 private:
  Kokkos::View<T*, HostPinnedSpace> host_;
};

}  // namespace kboost
