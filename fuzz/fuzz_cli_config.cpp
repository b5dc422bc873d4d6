/// Fuzz target: bytes -> an XGBoost CLI config file -> kboost::cli::apply_config_file on the
/// `train` subcommand that apps/cmd_train.cpp defines, after CLI11 parsed `kboost train --config
/// <file>`, then refuse_unknown_arguments as `kboost train` does next. Training never runs:
/// the subcommand's runner is not called. One app per process, cleared before each input
/// (cli_app.hpp).
#include "train_params.hpp"

#include "cli_app.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  static kboost::fuzz::InputFile file("train.conf");
  std::string const& path = file.write(data, size);
  static kboost::fuzz::CliApp cli;
  kboost::fuzz::refusals_only([&] {
    CLI::App& app = cli.cleared();
    char const* argv[] = {"kboost", "train", "--config", path.c_str()};
    app.parse(4, argv);
    CLI::App& train = *app.get_subcommand("train");
    kboost::cli::apply_config_file(train, path);
    kboost::cli::refuse_unknown_arguments(train);
  });
  return 0;
}
