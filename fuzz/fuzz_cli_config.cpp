/// Fuzz target: bytes -> an XGBoost CLI config file -> kboost::cli::apply_config_file on the
/// `train` subcommand that apps/cmd_train.cpp defines, after CLI11 parsed `kboost train --config
/// <file>`, then refuse_unknown_arguments as `kboost train` does next. Training never runs:
/// the subcommand's runner is not called. A fresh app per input, as options keep their results.
#include "app.hpp"
#include "train_params.hpp"

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  static kboost::fuzz::InputFile file("train.conf");
  std::string const& path = file.write(data, size);
  kboost::fuzz::refusals_only([&] {
    CLI::App app{"kboost"};
    int threads = 0;
    kboost::cli::Commands const commands = kboost::cli::add_commands(app, threads);  // owns what options write
    char const* argv[] = {"kboost", "train", "--config", path.c_str()};
    app.parse(4, argv);
    CLI::App& train = *app.get_subcommand("train");
    kboost::cli::apply_config_file(train, path);
    kboost::cli::refuse_unknown_arguments(train);
  });
  return 0;
}
