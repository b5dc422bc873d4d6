#pragma once
/// The `kboost` command line the CLI fuzz targets parse: built once per process with every
/// subcommand and option main registers (apps/app.hpp add_commands), then cleared before each
/// input. CLI11's App::clear resets each option's results and count and each app's remaining
/// arguments and parsed subcommands, which is all that parsing, apply_config_file and
/// refuse_unknown_arguments read; the values options wrote into the runners' state are only read
/// by the runners, which the targets never call. Building the app per input instead spends
/// nearly all of each run in CLI11's name checks (each new option against every earlier one).
#include <CLI/CLI.hpp>

#include "app.hpp"

namespace kboost::fuzz {

class CliApp {
 public:
  CliApp() : commands_(kboost::cli::add_commands(app_, threads_)) {
    app_.set_version_flag("--version", "kboost (fuzz)");
  }
  CliApp(CliApp const&) = delete;
  CliApp& operator=(CliApp const&) = delete;

  /// The app, with no result of an earlier parse left in it.
  CLI::App& cleared() {
    app_.clear();
    return app_;
  }

 private:
  CLI::App app_{"kboost"};
  int threads_ = 0;
  kboost::cli::Commands commands_;  // owns the state the options write into; outlives every parse
};

}  // namespace kboost::fuzz
