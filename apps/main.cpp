/// kboost command line: `kboost train|predict|info ...` (CLI11). Each subcommand lives in its own
/// cmd_*.cpp and registers itself through the functions declared in commands.hpp.
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <string>

#include "commands.hpp"
#include <kboost/core/compat.hpp>
#include <kboost/core/version.hpp>

int main(int argc, char** argv) {
  CLI::App app{"kboost: gradient-boosted decision trees on Kokkos, compatible with XGBoost"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("kboost ") + kboost::version() + " (Kokkos " +
                                        std::to_string(KOKKOS_VERSION) + ")");
  int threads = 0;
  app.add_option("--threads,--nthread", threads, "host threads for the OpenMP backend (default: OMP_NUM_THREADS)")
      ->check(CLI::Range(0, kboost::compat::max_host_threads()));
  auto run_info = kboost::cli::add_info(app);
  auto run_train = kboost::cli::add_train(app);
  auto run_predict = kboost::cli::add_predict(app);
  CLI11_PARSE(app, argc, argv);

  try {
    kboost::compat::initialize(threads);
  } catch (std::exception const& e) {
    std::cerr << "kboost: error: " << e.what() << "\n";
    return 1;
  }
  int rc = 0;
  try {
    if (app.got_subcommand("info")) rc = run_info();
    else if (app.got_subcommand("train")) rc = run_train();
    else if (app.got_subcommand("predict")) rc = run_predict();
  } catch (std::exception const& e) {
    std::cerr << "kboost: error: " << e.what() << "\n";
    rc = 1;
  }
  Kokkos::finalize();
  return rc;
}
