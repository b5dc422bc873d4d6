#include <kboost/core/version.hpp>
namespace kboost {
char const* version() { return KBOOST_VERSION; }
}  // namespace kboost
