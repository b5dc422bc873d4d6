#pragma once
/// \file cuda_ex2_table.hpp
/// The sm_90 special-function unit's `ex2.approx.ftz.f32`, the step of CUDA's expf that no
/// formula gives: captured on the GPU (perf/upstream_gpu/ex2_table_probe.cu, packed by
/// perf/upstream_gpu/pack_ex2_table.py into core/data/cuda_ex2_sm90.tar.xz, embedded in the library
/// by core/cuda_ex2_table.cpp). For t in [0, 1) the unit's result depends on floor(t * 2^23) alone
/// (perf/upstream_gpu/ex2_key_probe.cu); entry k holds its bits minus those of 2^(k / 2^23)
/// correctly rounded (-1, 0 or +1, stored + 1 in two bits: entry k in bits 2 (k mod 4) of byte
/// k / 4). For t in [1, 2) the unit gives twice the entry of t - 1, for t in (-1, 0) an entry of
/// -t from a second table, of which CUDA's expf reaches only the first 256 (in
/// cuda_math.hpp's detail::ex2_approx). The
/// model equals the unit on every float in (-1, 2), and CUDA's expf and upstream's Sigmoid built on
/// it equal nvcc's on every float (ex2_table_probe.cu, on an H100).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>

namespace kboost::pmath::cuda {

constexpr std::size_t kEx2TableBytes = std::size_t(1) << 21;  ///< 2^23 entries of two bits
constexpr std::uint64_t kEx2TableFnv1a = 0xa516287644c1c521ull;  ///< FNV-1a 64 of the packed bytes

/// The packed table in host memory (kEx2TableBytes bytes, the library's read-only data).
std::uint8_t const* ex2_table_host();

/// FNV-1a 64 of the embedded table, to check it against kEx2TableFnv1a.
std::uint64_t ex2_table_fnv1a();

/// The packed table where kernels of ExecutionSpace can read it: the embedded bytes when the space
/// reads host memory, else one copy per process in its memory space (made on first use, released
/// by Kokkos::finalize). Thread-safe; call between Kokkos::initialize and Kokkos::finalize.
template <class ExecutionSpace>
std::uint8_t const* ex2_table(ExecutionSpace const& space) {
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible) {
    (void)space;
    return ex2_table_host();
  } else {
    using Table = Kokkos::View<std::uint8_t*, typename ExecutionSpace::memory_space>;
    static std::mutex mutex;
    static Table* copy = nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    if (copy == nullptr) {
      copy = new Table(Kokkos::ViewAllocateWithoutInitializing("kboost::cuda_math::ex2_table"), kEx2TableBytes);
      Kokkos::View<std::uint8_t const*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
          ex2_table_host(), kEx2TableBytes);
      Kokkos::deep_copy(space, *copy, host);
      space.fence();
      Kokkos::push_finalize_hook([] {
        std::lock_guard<std::mutex> release_lock(mutex);
        delete copy;
        copy = nullptr;
      });
    }
    return copy->data();
  }
}

}  // namespace kboost::pmath::cuda
