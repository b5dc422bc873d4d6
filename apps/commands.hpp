#pragma once
/// Subcommand registration: each add_* adds its CLI11 subcommand and options to `app` and returns
/// the function that runs it (called after Kokkos is initialised; returns the exit code).
#include <CLI/CLI.hpp>

#include <functional>

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
}  // namespace kboost::cli
