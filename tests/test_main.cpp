// Catch2 v3 main that owns Kokkos' lifetime: Kokkos is initialised once (OMP_NUM_THREADS picks the
// OpenMP thread count, see tests/CMakeLists.txt) and finalised after every test has run.
#include <catch2/catch_session.hpp>

#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>

#include <kboost/core/compat.hpp>

namespace {

/// Removes the temp directories this process's test bodies made (tests/test_util.hpp temp_dir:
/// kboost_test_<name>_<backend>_<pid>).
void remove_temp_dirs() {
  std::string const suffix = "_" + std::to_string(::getpid());
  std::error_code ec;
  for (auto const& e : std::filesystem::directory_iterator(std::filesystem::temp_directory_path(), ec)) {
    std::string const name = e.path().filename().string();
    if (name.rfind("kboost_test_", 0) == 0 && name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      std::filesystem::remove_all(e.path(), ec);
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  kboost::compat::initialize(0);
  int rc = Catch::Session().run(argc, argv);
  Kokkos::finalize();
  remove_temp_dirs();
  return rc;
}
