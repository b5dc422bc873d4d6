#pragma once
/// The training parameters as CLI11 options of `kboost train`, and upstream's CLI config file read
/// with CLI11's config reader.
#include <CLI/CLI.hpp>

#include <map>
#include <set>
#include <string>

namespace kboost::cli {

/// Registers every training parameter of engine/params.hpp train_param_docs() on `sub`: `--name`,
/// its dashed spelling (`--max-depth`) and its aliases, under the doc's group, with its type,
/// range and default in --help. A value given is stored under the parameter's name in `kv` (which
/// must outlive parsing); repeated `--eval_metric` values accumulate, comma-joined, as upstream's
/// CLI. Values are checked by parse_params, which names the parameter. Names in `skip` are left to
/// options the command registers itself.
void add_param_options(CLI::App& sub, std::map<std::string, std::string>& kv, std::set<std::string> const& skip);

/// Reads the XGBoost CLI config file `path` (`key = value` lines, `#` comments, quoted values:
/// CLI11's TOML/INI reader) into `sub`'s options, as upstream's cli_main.cc: each key sets the
/// option of that name unless the command line gave it (the command line wins). Upstream's
/// `eval[name] = file` becomes `--eval name=file`, and list values CLI11 split at commas are
/// joined again. Returns each key's 1-based line (the last, for a repeated key) so later errors
/// can name it. Throws std::runtime_error "<path>:<line>: ..." for a key no option has (naming the
/// nearest known one) or a value the option refuses, and "<path>: cannot read config file".
std::map<std::string, int> apply_config_file(CLI::App& sub, std::string const& path);

/// The error for the first argument `sub` left over (allow_extras): an unknown `--name` gets the
/// nearest option name; anything else is an unexpected argument. Throws std::runtime_error when
/// `sub->remaining()` is not empty; returns otherwise.
void refuse_unknown_arguments(CLI::App const& sub);

}  // namespace kboost::cli
