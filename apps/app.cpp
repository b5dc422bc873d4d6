/// The `kboost` command line's definition (app.hpp).
#include "app.hpp"

#include <kboost/core/atomic_file.hpp>
#include <kboost/core/compat.hpp>

#include <iostream>

namespace kboost::cli {

Runner const& Commands::chosen(CLI::App const& app) const {
  if (app.got_subcommand("train")) return train;
  if (app.got_subcommand("predict")) return predict;
  if (app.got_subcommand("dump")) return dump;
  if (app.got_subcommand("importance")) return importance;
  return info;
}

Commands add_commands(CLI::App& app, int& threads) {
  app.require_subcommand(1);
  app.add_option("--threads,--nthread", threads, "host threads for the OpenMP backend (default: OMP_NUM_THREADS)")
      ->check(CLI::Range(0, kboost::compat::max_host_threads()));
  Commands c;
  c.info = add_info(app);
  c.train = add_train(app, &threads);
  c.predict = add_predict(app);
  c.dump = add_dump(app);
  c.importance = add_importance(app);
  return c;
}

CLI::Option* add_model_option(CLI::App* sub, std::string& path) {
  return sub->add_option("--model", path, "XGBoost JSON or UBJSON model file")->required();
}

CLI::Option* add_fmap_option(CLI::App* sub, std::string& path) {
  return sub->add_option("--fmap", path, "feature map: lines '<id> <name> <i|q|int|float|c>'");
}

void write_output(std::string const& path, std::string const& text) {
  if (path.empty())
    std::cout << text << std::flush;
  else
    write_file_atomic(path, text);
}

}  // namespace kboost::cli
