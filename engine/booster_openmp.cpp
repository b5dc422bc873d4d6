/// \file booster_openmp.cpp
/// BasicBooster<Kokkos::OpenMP> compiled once (its extern declaration is at the end of booster.hpp),
/// in a translation unit of its own so that the backends of a build compile in parallel.
#include <kboost/engine/booster.hpp>

#ifdef KOKKOS_ENABLE_OPENMP
namespace kboost {
template class BasicBooster<Kokkos::OpenMP>;
}  // namespace kboost
#endif
