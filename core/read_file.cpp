/// \file read_file.cpp
/// Whole-file reads (core/read_file.hpp).
#include <kboost/core/read_file.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <vector>

namespace kboost {
namespace {

/// The bytes of a stream `in` (named `name` in errors), read in 1 MiB chunks up to the cap.
std::string read_stream(std::istream& in, std::string const& name) {
  std::size_t const cap = stream_byte_cap();
  std::string bytes;
  std::vector<char> chunk(std::size_t(1) << 20);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    auto const n = static_cast<std::size_t>(in.gcount());
    if (n == 0) break;
    if (bytes.empty() && n == chunk.size() && std::string_view(chunk.data(), n).find_first_not_of('\0') == std::string_view::npos)
      throw std::runtime_error(name + ": starts with 1 MiB of NUL bytes: not an input kboost reads");
    if (bytes.size() + n > cap)
      throw std::runtime_error(name + ": more than " + std::to_string(cap) +
                               " bytes from a pipe, device or standard input, kboost's cap for an input it cannot "
                               "size beforehand (set KBOOST_MAX_INPUT_BYTES to raise it, or give a file)");
    bytes.append(chunk.data(), n);
  }
  if (in.bad()) throw std::runtime_error(name + ": read error");
  return bytes;
}

/// Each stream source's bytes, read once for the process.
std::shared_ptr<std::string const> stream_bytes(std::string const& path, std::string const& what) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<std::string const>> read;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = read[path];
  if (slot) return slot;
  if (path == "-") {
    slot = std::make_shared<std::string const>(read_stream(std::cin, source_name(path)));
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open " + what + " for reading");
    slot = std::make_shared<std::string const>(read_stream(in, path));
  }
  return slot;
}

}  // namespace

std::string source_name(std::string const& path) { return path == "-" ? "standard input" : path; }

bool is_stream_source(std::string const& path) {
  if (path == "-") return true;
  std::error_code ec;
  auto const st = std::filesystem::status(path, ec);
  return !ec && (st.type() == std::filesystem::file_type::fifo || st.type() == std::filesystem::file_type::character);
}

std::size_t stream_byte_cap() {
  if (char const* env = std::getenv("KBOOST_MAX_INPUT_BYTES")) {
    char* end = nullptr;
    unsigned long long const v = std::strtoull(env, &end, 10);
    bool const digits = env[0] >= '0' && env[0] <= '9';  // strtoull takes "-5" as a huge number
    if (digits && end != env && *end == '\0' && v > 0) return static_cast<std::size_t>(v);
    throw std::runtime_error("KBOOST_MAX_INPUT_BYTES='" + std::string(env) + "' is not a positive number of bytes");
  }
  long const pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return std::size_t(4) << 30;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 4;
}

std::string read_file(std::string const& path, std::string const& what) {
  auto const refuse = [&](std::string const& why) { throw std::runtime_error(path + ": " + why); };
  if (is_stream_source(path)) return *stream_bytes(path, what);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) refuse("no such file");
  if (std::filesystem::is_directory(path, ec)) refuse("is a directory, not a " + what);
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse("cannot open " + what + " for reading");
  std::string bytes(static_cast<std::size_t>(std::filesystem::file_size(path, ec)), '\0');
  if (ec) refuse("cannot get the file size");
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (in.bad() || static_cast<std::size_t>(in.gcount()) != bytes.size()) refuse("read error");
  return bytes;
}

}  // namespace kboost
