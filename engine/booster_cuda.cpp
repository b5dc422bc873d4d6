/// \file booster_cuda.cpp
/// BasicBooster<Kokkos::Cuda> compiled once (its extern declaration is at the end of booster.hpp),
/// in a translation unit of its own so that the backends of a build compile in parallel.
#include <kboost/engine/booster.hpp>

#ifdef KOKKOS_ENABLE_CUDA
namespace kboost {
template class BasicBooster<Kokkos::Cuda>;
}  // namespace kboost
#endif
