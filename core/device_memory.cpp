/// \file device_memory.cpp
#include <kboost/core/device_memory.hpp>

#include <fstream>
#include <sstream>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#elif defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#endif

namespace kboost {

namespace {

/// The host's available and total memory from /proc/meminfo (kB lines).
MemoryInfo host_memory() {
  MemoryInfo m;
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::size_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit) {
    if (key == "MemTotal:") m.total = kb * 1024;
    if (key == "MemAvailable:") m.free = kb * 1024;
  }
  return m;
}

}  // namespace

MemoryInfo memory_info(bool device) {
  MemoryInfo m;
  if (!device) return host_memory();
#if defined(KOKKOS_ENABLE_CUDA)
  if (cudaMemGetInfo(&m.free, &m.total) != cudaSuccess) m = MemoryInfo{};
#elif defined(KOKKOS_ENABLE_HIP)
  if (hipMemGetInfo(&m.free, &m.total) != hipSuccess) m = MemoryInfo{};
#endif
  return m;
}

std::string out_of_memory_message(std::string const& what, char const* space, std::size_t bytes, MemoryInfo const& info) {
  std::ostringstream s;
  s << what << ": out of " << space << " memory: " << bytes << " bytes asked, ";
  if (info.total > 0) s << info.free << " of " << info.total << " bytes free";
  else s << "free memory unknown";
  return s.str();
}

}  // namespace kboost
