/// kboost command line: `kboost train|predict|info|dump|importance ...` (CLI11). Each subcommand lives in its own
/// cmd_*.cpp and registers itself through the functions declared in commands.hpp.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <unistd.h>

#include "app.hpp"
#include <kboost/core/compat.hpp>
#include <kboost/core/version.hpp>
#include <kboost/engine/param_text.hpp>
#if defined(KBOOST_HAVE_MPI)
#include <kboost/core/mpi_collective.hpp>
#endif

namespace {
/// libgomp reads OMP_WAIT_POLICY once, when it is loaded, before any of kboost's code runs (and
/// glibc restores the environment after .preinit_array functions), so the CLI sets it and
/// re-executes itself when the user has not chosen a policy. Passive waiting puts a thread that
/// reaches a barrier to sleep at once instead of spinning: on a shared or oversubscribed node a
/// spinning thread holds a core that its descheduled teammate needs. With one of two cores kept
/// busy, training took 2.1× its idle time with libgomp's default against 1.5× with passive waiting,
/// idle times equal (perf/bench_train_cpu.py --contention). A user's OMP_WAIT_POLICY wins.
void default_wait_policy(char** argv) {
#if defined(__linux__)
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
  if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  execv("/proc/self/exe", argv);  // returns only on failure: run on under libgomp's default
  unsetenv("OMP_WAIT_POLICY");
#else
  (void)argv;
#endif
}

kboost::Collective* the_job = nullptr;

/// The OMP_WAIT_POLICY in effect (passive unless the user set another), for --version.
std::string wait_policy() {
  char const* v = std::getenv("OMP_WAIT_POLICY");
  return v ? std::string(v) : std::string("unset");
}

/// What an error says: std::bad_alloc's own text ("std::bad_alloc") tells a user nothing.
std::string error_text(std::exception const& e) {
  if (dynamic_cast<std::bad_alloc const*>(&e) != nullptr)
    return "out of memory (std::bad_alloc): the input or the model needs more memory than this process may use";
  return e.what();
}

/// Output a command wrote to standard output that did not arrive (a full disk, a closed descriptor)
/// is an error, not exit status 0: empty when everything was written.
std::string standard_output_error() {
  std::cout.flush();
  bool const ok = std::fflush(stdout) == 0 && std::cout && !std::ferror(stdout);
  return ok ? "" : std::string("standard output: write failed (") + std::strerror(errno) + ")";
}
}  // namespace

namespace kboost::cli {
Collective& job() { return the_job ? *the_job : local_collective(); }
}  // namespace kboost::cli

int main(int argc, char** argv) {
  default_wait_policy(argv);
#if defined(KBOOST_HAVE_MPI)
  kboost::MpiSession mpi(&argc, &argv);
  the_job = &mpi.collective();
#endif
  kboost::Collective& job = kboost::cli::job();
  CLI::App app{"kboost: gradient-boosted decision trees on Kokkos, compatible with XGBoost"};
  app.set_version_flag("--version", std::string("kboost ") + kboost::version() + " (Kokkos " +
                                        std::to_string(KOKKOS_VERSION) + ", OMP_WAIT_POLICY " + wait_policy() + ")");
  int threads = 0;
  kboost::cli::Commands const commands = kboost::cli::add_commands(app, threads);
  // Usage errors (unknown option, missing or conflicting flags, a value outside its range) exit with
  // status 2, as getopt-style tools do; CLI11's own codes (105-109) would say nothing to a script.
  // --help and --version exit 0.
  try {
    app.parse(argc, argv);
  } catch (CLI::ParseError const& e) {
    // CLI11 files a word that names no subcommand under its extras and reports only that a
    // subcommand is required; name the word instead, with the nearest command
    if (app.get_subcommands().empty() && !app.remaining().empty() && app.remaining().front().rfind("-", 0) != 0) {
      std::string const word = app.remaining().front();
      std::vector<std::string> names;
      std::string listed;
      for (CLI::App const* sub : app.get_subcommands({})) {
        names.push_back(sub->get_name());
        listed += (listed.empty() ? "" : ", ") + sub->get_name();
      }
      std::cerr << "kboost: error: unknown command '" << word << "'" << kboost::did_you_mean(word, names)
                << " (commands: " << listed << ")\n";
      return 2;
    }
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
    std::cerr << "kboost: error: " << e.what() << "\nRun with --help for more information.\n";
    return 2;
  }

  // A rank's error: on one process, or when every rank agreed on it (kboost::run_on_all_ranks), the
  // message (once) and exit status 1; a failure on one rank alone stops the whole job (MPI_Abort),
  // so no rank is left waiting for it.
  std::string const who = job.size() > 1 ? "rank " + std::to_string(job.rank()) + " of " + std::to_string(job.size()) + ": " : "";
  auto const fail = [&](std::exception const& e) {
    if (dynamic_cast<kboost::AgreedError const*>(&e) != nullptr || job.size() == 1) {
      if (job.rank() == 0) std::cerr << "kboost: error: " << error_text(e) << "\n";
      return 1;
    }
    job.abort("kboost: " + who + "error: " + error_text(e) + "\n", 1);
    return 1;
  };
  try {
    // One GPU per rank: node-local rank modulo the node's devices (ranks may share a GPU).
    kboost::compat::initialize(threads, job.size() > 1 ? job.local_rank() : -1);
  } catch (std::exception const& e) {
    return fail(e);
  }
  int rc = 0;
  try {
    rc = commands.chosen(app)();
  } catch (std::exception const& e) {
    rc = fail(e);
  }
  if (std::string const lost = standard_output_error(); rc == 0 && !lost.empty()) {
    std::cerr << "kboost: error: " << lost << "\n";
    rc = 1;
  }
  Kokkos::finalize();
  return rc;
}
