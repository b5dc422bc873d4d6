// placeholder, replaced by the info implementation
#include "apps/commands.hpp"
#include <iostream>
namespace kboost::cli {
Runner add_info(CLI::App& app) {
  app.add_subcommand("info", "info (not yet implemented)");
  return [] { std::cerr << "kboost info: not implemented yet\n"; return 2; };
}
}  // namespace kboost::cli
