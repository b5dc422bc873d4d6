/// Instantiations of kboost::densify (core/dmatrix.hpp) for the memory spaces of the enabled
/// backends, so callers need only core/dmatrix.hpp.
#include "core/compat.hpp"
#include "io/densify.hpp"

namespace kboost {
template DMatrix<Kokkos::HostSpace>::dense_type densify(DMatrix<Kokkos::HostSpace> const&);
#ifdef KOKKOS_ENABLE_CUDA
template DMatrix<Kokkos::CudaSpace>::dense_type densify(DMatrix<Kokkos::CudaSpace> const&);
template DMatrix<Kokkos::CudaUVMSpace>::dense_type densify(DMatrix<Kokkos::CudaUVMSpace> const&);
#endif
#ifdef KOKKOS_ENABLE_HIP
template DMatrix<compat::HIPSpace>::dense_type densify(DMatrix<compat::HIPSpace> const&);
#endif
}  // namespace kboost
