/// \file booster_serial.cpp
/// BasicBooster<Kokkos::Serial> compiled once (its extern declaration is at the end of booster.hpp),
/// in a translation unit of its own so that the backends of a build compile in parallel.
// Kokkos' configuration macros only: a build without this backend parses nothing more here
#include <Kokkos_Macros.hpp>

#ifdef KOKKOS_ENABLE_SERIAL
#include <kboost/engine/booster.hpp>

namespace kboost {
template class BasicBooster<Kokkos::Serial>;
}  // namespace kboost
#endif
