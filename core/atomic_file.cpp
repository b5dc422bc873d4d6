#include <kboost/core/atomic_file.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace kboost {

namespace {

bool is_symlink(std::string const& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

/// The file type bits of what `path` names after following links, or 0 when nothing is there.
mode_t file_type(std::string const& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

bool is_stream_type(mode_t type) { return type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK; }

/// Writes `bytes` to the device or FIFO `target` as it is (no temporary file, no rename).
void write_in_place(std::string const& path, std::string const& target, std::string const& bytes) {
  std::ofstream out(target, std::ios::binary);
  if (!out) throw std::runtime_error(path + ": cannot open for writing (" + std::strerror(errno) + ")");
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.flush();
  if (!out) throw std::runtime_error(path + ": write failed (" + std::strerror(errno) + ")");
}

}  // namespace

std::string write_target(std::string const& path) {
  if (is_stream_type(file_type(path))) return path;  // /dev/stdout's magic link opens by its own name
  std::filesystem::path target(path);
  for (int hops = 0; is_symlink(target.string()); ++hops) {
    if (hops == 40) throw std::runtime_error(path + ": too many levels of symbolic links (a loop?)");
    std::error_code ec;
    std::filesystem::path const next = std::filesystem::read_symlink(target, ec);
    if (ec) break;
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  return target.lexically_normal().string();
}

bool writes_in_place(std::string const& target) { return is_stream_type(file_type(target)); }

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
  std::string const target = write_target(path);
  if (writes_in_place(target)) return write_in_place(path, target, bytes);
  std::string const tmp = temp_path_for(target);
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
  commit_temp_file(tmp, target);
}

void check_can_write(std::string const& path) {
  if (path == "-") return;
  if (path.empty()) throw std::runtime_error("an empty output path: give a file name (or - for standard output)");
  namespace fs = std::filesystem;
  std::error_code ec;
  auto const cannot = [&](std::string const& why) { throw std::runtime_error(path + ": cannot be written: " + why); };
  std::string const target = write_target(path);
  if (writes_in_place(target)) {
    if (::access(target.c_str(), W_OK) != 0) cannot(std::strerror(errno));
    return;
  }
  if (file_type(target) == S_IFBLK) cannot("it is a block device");
  fs::path const dir = fs::path(target).has_parent_path() ? fs::path(target).parent_path() : fs::path(".");
  if (!fs::exists(dir, ec)) cannot("directory '" + dir.string() + "' does not exist");
  if (!fs::is_directory(dir, ec)) cannot("'" + dir.string() + "' is not a directory");
  if (fs::is_directory(target, ec)) cannot("it is a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    cannot("directory '" + dir.string() + "' is not writable (" + std::strerror(errno) + ")");
}

}  // namespace kboost
