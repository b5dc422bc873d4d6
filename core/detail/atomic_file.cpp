#include <kboost/core/detail/atomic_file.hpp>

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
    if (!out) throw std::runtime_error(path + ": cannot open temporary file " + tmp + " for writing");
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

}  // namespace kboost
