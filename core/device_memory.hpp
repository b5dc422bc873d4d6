#pragma once
/// \file device_memory.hpp
/// Allocations that fail with the numbers a user needs: the bytes asked and the bytes free. Kokkos'
/// own message gives a rounded size and no free figure; kboost allocates its large buffers (inputs,
/// outputs, SHAP scratch) through allocate_view, which catches Kokkos' failure and says both.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kboost {

/// Free and total bytes of a memory space's memory; both 0 when unknown.
struct MemoryInfo {
  std::size_t free = 0, total = 0;
};

/// Device memory (CUDA: cudaMemGetInfo, HIP: hipMemGetInfo) of the current device when `device`,
/// else the host's (/proc/meminfo MemAvailable and MemTotal).
MemoryInfo memory_info(bool device);

/// "<what>: out of <space> memory: <bytes> bytes asked, <free> of <total> bytes free" (or "free
/// memory unknown").
std::string out_of_memory_message(std::string const& what, char const* space, std::size_t bytes, MemoryInfo const& info);

/// A new View of `View`'s type with `label` and the given extents (zero-initialised unless `init`
/// is false). \throws std::runtime_error naming the label, the bytes asked and the bytes free when
/// the allocation fails.
template <class View, class... Extents>
View allocate_view(std::string const& label, bool init, Extents... extents) {
  using memory_space = typename View::memory_space;
  std::size_t bytes = sizeof(typename View::value_type);
  for (std::size_t e : {static_cast<std::size_t>(extents)...}) bytes *= e;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
  View v;
  try {
    v = init ? View(label, extents...) : View(Kokkos::view_alloc(label, Kokkos::WithoutInitializing), extents...);
  } catch (std::exception const&) {
    throw std::runtime_error(out_of_memory_message(label, memory_space::name(), bytes, memory_info(!host)));
  }
  // Kokkos 3.4 wraps extents whose product it cannot represent (2^44 × 29 floats comes back with
  // extent 0) instead of failing: such a size is beyond any memory space too.
  std::size_t r = 0;
  for (std::size_t e : {static_cast<std::size_t>(extents)...})
    if (v.extent(r++) != e) throw std::runtime_error(out_of_memory_message(label, memory_space::name(), bytes, memory_info(!host)));
  return v;
}

}  // namespace kboost
