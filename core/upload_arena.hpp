#pragma once
/// \file upload_arena.hpp
/// Small per-level descriptor arrays (tile lists, node lists, split descriptors) sent to the device
/// without waiting for it. A plain Kokkos::deep_copy from pageable memory fences the whole device
/// before it copies, so every descriptor upload drained the launch queue; here the host writes each
/// array into page-locked memory and the copy is queued on the caller's execution-space instance,
/// in order before the kernels that read it (upstream's GPU hist does the same with pinned
/// buffers, src/tree/gpu_hist/row_partitioner.cuh's pinned scratch).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include <kboost/core/transfers.hpp>

namespace kboost {

/// Arena of page-locked host memory (HostPinnedSpace) mirrored in `Mem`. put() hands out device
/// copies of host arrays; their host bytes stay reserved until release(), which the caller makes
/// only after it has waited for the execution space (a download or a fence), so no queued copy still
/// reads them. On host memory spaces put() returns a view of the arena's own copy (no transfer).
template <class ExecutionSpace, class Mem>
class UploadArena {
 public:
  template <class T>
  using view = Kokkos::View<T*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  UploadArena() = default;
  UploadArena(UploadArena const&) = delete;
  UploadArena& operator=(UploadArena const&) = delete;
  /// Waits for the device before the buffers go: kernels queued last (a tree's leaf values) may
  /// still read them.
  ~UploadArena() {
    if constexpr (!kHostMemory)
      if (host_.extent(0) > 0) Kokkos::fence();
  }

  /// A copy of v (v.size() elements) in Mem, valid for kernels queued on `space` after this call
  /// and until release(). Counted as one upload when Mem is device memory.
  template <class T>
  view<T> put(ExecutionSpace const& space, std::vector<T> const& v) {
    static_assert(std::is_trivially_copyable_v<T>, "descriptors are copied bytewise");
    std::size_t const bytes = v.size() * sizeof(T);
    std::size_t const at = (used_ + kAlign - 1) / kAlign * kAlign;
    if (at + bytes > host_.extent(0)) {
      grow(std::max<std::size_t>(2 * host_.extent(0), bytes + kAlign));
      return put(space, v);
    }
    if (bytes > 0) std::memcpy(host_.data() + at, v.data(), bytes);
    used_ = at + bytes;
    if constexpr (kHostMemory) {
      return view<T>(reinterpret_cast<T*>(host_.data() + at), v.size());
    } else {
      detail::count_copy<Device, Host>();
      auto const range = std::make_pair(at, at + bytes);
      if (bytes > 0) Kokkos::deep_copy(space, Kokkos::subview(device_, range), Kokkos::subview(host_, range));
      return view<T>(reinterpret_cast<T*>(device_.data() + at), v.size());
    }
  }

  /// Frees every put() for reuse. Call only when the execution space has finished all work queued
  /// before (the host waited for it).
  void release() {
    used_ = 0;
    retired_.clear();
  }

 private:
  static constexpr std::size_t kAlign = 64;
  static constexpr bool kHostMemory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  using Host = Kokkos::View<unsigned char*, std::conditional_t<kHostMemory, Mem, HostPinnedSpace>>;
  using Device = Kokkos::View<unsigned char*, Mem>;

  void grow(std::size_t capacity) {
    capacity = std::max<std::size_t>(capacity, std::size_t(64) << 10);
    // Views handed out before stay valid until release(): their buffers are kept alive here.
    retired_.push_back(Buffers{host_, device_});
    host_ = Host(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::upload_arena::host"), capacity);
    if constexpr (!kHostMemory)
      device_ = Device(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::upload_arena::device"), capacity);
    used_ = 0;
  }

  struct Buffers {
    Host host;
    Device device;
  };
  Host host_;
  Device device_;
  std::size_t used_ = 0;
  std::vector<Buffers> retired_;
};

}  // namespace kboost
