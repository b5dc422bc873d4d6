/// \file booster_openmp.cpp
/// BasicBooster<Kokkos::OpenMP> compiled once (its extern declaration is at the end of booster.hpp),
/// in a translation unit of its own so that the backends of a build compile in parallel.
// Kokkos' configuration macros only: a build without this backend parses nothing more here
#include <Kokkos_Macros.hpp>

#ifdef KOKKOS_ENABLE_OPENMP
#include <kboost/engine/booster.hpp>

namespace kboost {
template class BasicBooster<Kokkos::OpenMP>;
}  // namespace kboost
#endif
