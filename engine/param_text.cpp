/// \file param_text.cpp
/// The public face of the engine's parameter-text helpers (engine/param_text.hpp).
#include <kboost/engine/param_text.hpp>

#include <kboost/engine/detail/nearest_name.hpp>
#include <kboost/engine/detail/param_table.hpp>

namespace kboost {

std::string trim_blanks(std::string const& s) { return detail::trim_blanks(s); }

std::string did_you_mean(std::string const& given, std::vector<std::string> const& known) {
  return detail::did_you_mean(given, known);
}

}  // namespace kboost
