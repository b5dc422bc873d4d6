/// The one definition the CLI's subcommands need from apps/main.cpp, for the CLI fuzz targets
/// (which link apps/*.cpp without main): the job of one process, as the CLI without MPI has.
#include "commands.hpp"

namespace kboost::cli {
Collective& job() { return local_collective(); }
}  // namespace kboost::cli
