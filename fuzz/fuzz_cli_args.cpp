/// Fuzz target: bytes -> argument vector (tokens split at NUL and newline, after argv[0] =
/// "kboost") -> CLI11 parsing of the real `kboost` command line (apps/app.hpp add_commands: every
/// subcommand and option main registers, plus a --version flag), then refuse_unknown_arguments on
/// the parsed subcommand as its runner would. Parse only: no runner is called, nothing is read,
/// trained or written. The app is built once per process and cleared before each input
/// (cli_app.hpp).
#include <vector>

#include "train_params.hpp"

#include "cli_app.hpp"
#include "fuzz_support.hpp"

namespace {

/// The input's tokens: split at '\0' and '\n'; empty tokens are kept (an empty argument is legal).
std::vector<std::string> tokens(std::uint8_t const* data, std::size_t size) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < size; ++i) {
    char const c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  if (size > 4096) return 0;  // a command line, not a file
  std::vector<std::string> const args = tokens(data, size);
  std::vector<char const*> argv{"kboost"};
  for (auto const& a : args) argv.push_back(a.c_str());
  static kboost::fuzz::CliApp cli;
  kboost::fuzz::refusals_only([&] {
    CLI::App& app = cli.cleared();
    app.parse(static_cast<int>(argv.size()), argv.data());
    for (CLI::App const* sub : app.get_subcommands()) kboost::cli::refuse_unknown_arguments(*sub);
  });
  return 0;
}
