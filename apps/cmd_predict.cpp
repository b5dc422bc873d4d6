// placeholder, replaced by the predict implementation
#include "apps/commands.hpp"
#include <iostream>
namespace kboost::cli {
Runner add_predict(CLI::App& app) {
  app.add_subcommand("predict", "predict (not yet implemented)");
  return [] { std::cerr << "kboost predict: not implemented yet\n"; return 2; };
}
}  // namespace kboost::cli
