// placeholder, replaced by the train implementation
#include "apps/commands.hpp"
#include <iostream>
namespace kboost::cli {
Runner add_train(CLI::App& app) {
  app.add_subcommand("train", "train (not yet implemented)");
  return [] { std::cerr << "kboost train: not implemented yet\n"; return 2; };
}
}  // namespace kboost::cli
