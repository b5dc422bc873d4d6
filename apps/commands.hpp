#pragma once
/// Subcommand registration: each add_* adds its CLI11 subcommand and options to `app` and returns
/// the function that runs it (called after Kokkos is initialised; returns the exit code).
#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include <kboost/core/collective.hpp>

namespace kboost::cli {
using Runner = std::function<int()>;
/// The processes of this run: MPI_COMM_WORLD under an MPI launcher, else one (set up by main).
Collective& job();
Runner add_info(CLI::App& app);
/// `threads`: main's host thread count, which `train --nthread N` sets before Kokkos starts.
Runner add_train(CLI::App& app, int* threads);
Runner add_predict(CLI::App& app);
Runner add_dump(CLI::App& app);
Runner add_importance(CLI::App& app);

/// Options several subcommands share: the model file (`--model`, required) and the feature map
/// (`--fmap`), into `path`, which must outlive parsing.
CLI::Option* add_model_option(CLI::App* sub, std::string& path);
CLI::Option* add_fmap_option(CLI::App* sub, std::string& path);
/// `text` to the file `path`, written atomically (core/atomic_file.hpp), or to standard output
/// when `path` is empty. \throws std::runtime_error naming the file when it cannot be written.
void write_output(std::string const& path, std::string const& text);
}  // namespace kboost::cli
