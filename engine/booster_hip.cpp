/// \file booster_hip.cpp
/// BasicBooster<compat::HIP> compiled once (its extern declaration is at the end of booster.hpp),
/// in a translation unit of its own so that the backends of a build compile in parallel.
#include <kboost/engine/booster.hpp>

#ifdef KOKKOS_ENABLE_HIP
namespace kboost {
template class BasicBooster<compat::HIP>;
}  // namespace kboost
#endif
