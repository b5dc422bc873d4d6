#pragma once
/// Helpers shared by the test bodies: where ../shared and set-up's registry data are, temp files the
/// tests write themselves.
#include <catch2/catch_test_macros.hpp>

#include "tests/test_paths.hpp"

#include <kboost/core/hash.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <unistd.h>

namespace kboost::test {

/// float32's quiet NaN, the missing-value marker the test inputs use.
inline float const kNaN = std::numeric_limits<float>::quiet_NaN();

/// The synthetic test data's counter-based values (core/hash.hpp).
using kboost::splitmix64;

/// The same 32 bits (a NaN equals only a NaN of the same payload).
inline bool bits_equal(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Bits equal, or both NaN (CUDA's canonical NaN and the host's default NaN differ in bits).
inline bool same_result(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, 4) == 0;
}

/// The project's shared/ folder: $KBOOST_SHARED, else ../shared beside the repository.
inline std::string shared_dir() {
  char const* env = std::getenv("KBOOST_SHARED");
  return env ? env : kboost::test::default_shared_dir();
}

/// Whether a missing shared/ folder fails the test instead of skipping it (CI sets
/// KBOOST_REQUIRE_SHARED=1: there every shared-data test must run).
inline bool shared_required() {
  char const* env = std::getenv("KBOOST_REQUIRE_SHARED");
  return env && std::string(env) == "1";
}

/// Data that set-up fetched from Debian's registry ($KBOOST_DATA, else <deps>/data): agaricus from
/// the `xgboost` source package, byte-identical to shared/data/agaricus.
inline std::string registry_data_dir() {
  char const* env = std::getenv("KBOOST_DATA");
  return env ? env : kboost::test::default_registry_data_dir();
}

/// Path of `rel` (e.g. "data/adult/adult.data") in the shared folder. Test cases that call this for
/// anything but agaricus carry the [shared] tag (their own ctest entry). When the shared folder is
/// absent, agaricus comes from set-up's registry copy and every other file skips the test case with
/// the reason; with KBOOST_REQUIRE_SHARED=1 an absent folder fails instead. A shared folder that is
/// there but lacks the file is always a failure.
inline std::string shared_path(std::string const& rel) {
  std::string const dir = shared_dir();
  std::string const p = dir + "/" + rel;
  if (!std::filesystem::is_directory(dir) && !shared_required()) {
    std::string const agaricus = "data/agaricus/";
    if (rel.compare(0, agaricus.size(), agaricus) == 0) {
      std::string const fetched = registry_data_dir() + "/" + rel.substr(agaricus.size());
      if (std::filesystem::exists(fetched)) return fetched;
      SKIP("needs " << rel << ": no shared folder (" << dir << ") and no registry copy (" << fetched
                    << "; scripts/bootstrap fetches it)");
    }
    SKIP("needs the project's shared folder: " << dir << " is absent (set KBOOST_SHARED)");
  }
  INFO("shared file " << p);
  REQUIRE(std::filesystem::exists(p));
  return p;
}

/// Path of a file under the repository's tests/golden/.
inline std::string golden_path(std::string const& rel) {
  return std::string(kboost::test::source_dir()) + "/tests/golden/" + rel;
}

/// A fresh temp directory per test body and backend.
inline std::filesystem::path temp_dir(std::string const& name) {
  auto d = std::filesystem::temp_directory_path() / ("kboost_test_" + name + "_" + TEST_BACKEND + "_" +
                                                      std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

/// Write `content` to `dir/name` and return the path.
inline std::string write_file(std::filesystem::path const& dir, std::string const& name, std::string const& content) {
  auto p = dir / name;
  std::ofstream(p, std::ios::binary) << content;
  return p.string();
}

/// Whole file as bytes ("" when it cannot be read).
inline std::string read_file(std::string const& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Runs the `kboost` CLI built with this test binary with `args`; returns std::system's status and
/// puts stdout + stderr into `out` (through a file in `dir`).
inline int run_cli(std::filesystem::path const& dir, std::string const& args, std::string& out) {
  std::string const file = (dir / "cli_out.txt").string();
  int const rc = std::system((std::string(kboost::test::cli_path()) + " " + args + " > " + file + " 2>&1").c_str());
  out = read_file(file);
  return rc;
}

}  // namespace kboost::test
