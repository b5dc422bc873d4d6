/// The dense-size check and the instantiations of the one-argument kboost::densify for the memory
/// spaces of the enabled backends.
#include <kboost/core/compat.hpp>
#include <kboost/kernels/densify.hpp>

#include <unistd.h>

#include <stdexcept>

namespace kboost {

void check_dense_size(std::size_t rows, std::size_t features, std::string const& what) {
  long const pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  double const limit = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 64.0 * (1ULL << 30);
  double const bytes = static_cast<double>(rows) * static_cast<double>(features) * sizeof(float);
  if (bytes > limit)
    throw std::runtime_error(what + ": a dense " + std::to_string(rows) + " rows x " + std::to_string(features) +
                             " features float32 matrix needs " + std::to_string(static_cast<unsigned long long>(bytes)) +
                             " bytes, more than this machine's " + std::to_string(static_cast<unsigned long long>(limit)) +
                             " bytes of memory (a huge feature index in a sparse file?)");
}

template DMatrix<Kokkos::HostSpace>::dense_type densify(DMatrix<Kokkos::HostSpace> const&);
#ifdef KOKKOS_ENABLE_CUDA
template DMatrix<Kokkos::CudaSpace>::dense_type densify(DMatrix<Kokkos::CudaSpace> const&);
template DMatrix<Kokkos::CudaUVMSpace>::dense_type densify(DMatrix<Kokkos::CudaUVMSpace> const&);
#endif
#ifdef KOKKOS_ENABLE_HIP
template DMatrix<compat::HIPSpace>::dense_type densify(DMatrix<compat::HIPSpace> const&);
#endif
}  // namespace kboost
