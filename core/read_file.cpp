/// \file read_file.cpp
/// Whole-file reads (core/read_file.hpp).
#include <kboost/core/read_file.hpp>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace kboost {

std::string read_file(std::string const& path, std::string const& what) {
  auto const refuse = [&](std::string const& why) { throw std::runtime_error(path + ": " + why); };
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
