/// \file booster_serial.cpp
/// BasicBooster<Kokkos::Serial> compiled once (its extern declaration is at the end of booster.hpp),
/// in a translation unit of its own so that the backends of a build compile in parallel.
#include <kboost/engine/booster.hpp>

#ifdef KOKKOS_ENABLE_SERIAL
namespace kboost {
template class BasicBooster<Kokkos::Serial>;
}  // namespace kboost
#endif
