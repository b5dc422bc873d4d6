// Where the test binaries find the CLI, the sources and the data folders. The paths are compiled
// into one generated unit per test binary (tests/CMakeLists.txt, test_paths.cpp), not passed as -D
// definitions to every test unit: ccache rewrites path arguments under the clone to relative ones,
// but not string definitions, so absolute paths on every unit's command line would make a second
// clone of the same commit recompile every test unit.
#pragma once

namespace kboost::test {

/// The `kboost` CLI this build made (the test binaries spawn it).
char const* cli_path();
/// The repository's root (for tests/golden/ and tests/fuzz_regressions/).
char const* source_dir();
/// ../shared beside the repository unless configured otherwise ($KBOOST_SHARED overrides it at run time).
char const* default_shared_dir();
/// Where set-up put the registry data ($KBOOST_DATA overrides it at run time).
char const* default_registry_data_dir();

}  // namespace kboost::test
