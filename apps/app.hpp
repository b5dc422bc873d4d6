#pragma once
/// The `kboost` command line's definition, apart from main: its global options and subcommands,
/// so that anything parsing a kboost command line (main, the argument fuzzer in fuzz/) parses the
/// very same one.
#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace kboost::cli {

/// The runner of each subcommand (commands.hpp).
struct Commands {
  Runner info, train, predict, dump, importance;
  /// The runner of the subcommand `app` parsed (require_subcommand(1): exactly one).
  Runner const& chosen(CLI::App const& app) const;
};

/// Registers `--threads` (into `threads`, which must outlive parsing) and every subcommand on
/// `app`, which must then name exactly one subcommand. `--version` is main's: its text depends on
/// the process' environment. The options write into state the runners own: keep the returned
/// Commands alive until parsing is over, even when no runner is to be called.
Commands add_commands(CLI::App& app, int& threads);

}  // namespace kboost::cli
