#include <kboost/core/atomic_file.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace kboost {

std::string temp_path_for(std::string const& path) { return path + ".tmp." + std::to_string(::getpid()); }

void commit_temp_file(std::string const& tmp, std::string const& path) {
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw std::runtime_error(path + ": cannot rename temporary file into place: " + ec.message());
  }
}

void write_file_atomic(std::string const& path, std::string const& bytes) {
  std::string const tmp = temp_path_for(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw std::runtime_error(path + ": cannot open temporary file " + tmp + " for writing (" + std::strerror(errno) + ")");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw std::runtime_error(path + ": write failed (" + std::strerror(errno) + ")");
    }
  }
  commit_temp_file(tmp, path);
}

void check_can_write(std::string const& path) {
  if (path == "-") return;
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path const dir = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  auto const cannot = [&](std::string const& why) { throw std::runtime_error(path + ": cannot be written: " + why); };
  if (!fs::exists(dir, ec)) cannot("directory '" + dir.string() + "' does not exist");
  if (!fs::is_directory(dir, ec)) cannot("'" + dir.string() + "' is not a directory");
  if (fs::is_directory(path, ec)) cannot("it is a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    cannot("directory '" + dir.string() + "' is not writable (" + std::strerror(errno) + ")");
}

}  // namespace kboost
