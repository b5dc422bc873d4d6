#pragma once
/// Helpers shared by the test bodies: where ../shared is, temp files the tests write themselves.
#include <catch2/catch_test_macros.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace kboost::test {

/// ../shared beside the repository (or $KBOOST_SHARED). A missing file is a test failure, not a skip.
inline std::string shared_path(std::string const& rel) {
  char const* env = std::getenv("KBOOST_SHARED");
  std::string p = std::string(env ? env : KBOOST_SHARED_DIR) + "/" + rel;
  INFO("shared file " << p);
  REQUIRE(std::filesystem::exists(p));
  return p;
}

/// Path of a file under the repository's tests/golden/.
inline std::string golden_path(std::string const& rel) {
  return std::string(KBOOST_SOURCE_DIR) + "/tests/golden/" + rel;
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
  int const rc = std::system((std::string(KBOOST_CLI) + " " + args + " > " + file + " 2>&1").c_str());
  out = read_file(file);
  return rc;
}

}  // namespace kboost::test
