/// \file tune_store.cpp
/// TuneStore: JSON files (nlohmann) per device, written atomically; a process-wide map when no
/// file can be written.
#include <kboost/engine/tune_store.hpp>

#include <kboost/core/atomic_file.hpp>

#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>

#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

// Included so that a change to the tuned kernels recompiles this file and so changes build_key().
#include <kboost/kernels/histogram.hpp>
#include <kboost/engine/hist_tuner.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace kboost {
namespace {

/// An exclusive flock on `<file>.lock` while put() reads, merges and writes the file: the rename
/// alone keeps the file whole when processes store answers at once, the lock keeps every answer.
/// Without a lock file (an unwritable directory) put() goes on unlocked and its write fails.
class StoreLock {
 public:
  explicit StoreLock(std::string const& file) : fd_(::open((file + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0)
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  ~StoreLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  StoreLock(StoreLock const&) = delete;
  StoreLock& operator=(StoreLock const&) = delete;

 private:
  int fd_;
};

std::uint64_t fnv1a(std::string const& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

/// Answers of stores that are memory-only (or whose file failed), process-wide.
std::mutex g_mutex;
std::map<std::string, std::int64_t>& memory() {
  static std::map<std::string, std::int64_t> m;
  return m;
}

/// The file's values when it belongs to this build and device, else an empty object.
nlohmann::json read_values(std::string const& file, std::string const& device) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return nlohmann::json::object();
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    if (j.value("build", "") != TuneStore::build_key() || j.value("device", "") != device ||
        !j.contains("values") || !j["values"].is_object())
      return nlohmann::json::object();
    return j["values"];
  } catch (std::exception const&) {
    return nlohmann::json::object();  // a torn or foreign file is replaced on the next put()
  }
}

}  // namespace

TuneStore::TuneStore(std::string device_key, std::string dir) : device_key_(std::move(device_key)) {
  if (!dir.empty()) file_ = (std::filesystem::path(dir) / ("tune-" + hex64(fnv1a(device_key_)) + ".json")).string();
}

std::string TuneStore::default_dir() {
  if (char const* d = std::getenv("KBOOST_TUNE_DIR")) return d;
  if (char const* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (std::filesystem::path(x) / "kboost").string();
  if (char const* h = std::getenv("HOME"); h && *h) return (std::filesystem::path(h) / ".cache" / "kboost").string();
  return "";
}

std::string TuneStore::build_key() {
  std::ostringstream s;
  s << KBOOST_VERSION << '|' << __VERSION__ << '|' << KOKKOS_VERSION << '|'
#if defined(KOKKOS_ENABLE_CUDA)
    << "cuda" << CUDART_VERSION << '|'
#endif
#if defined(KOKKOS_ENABLE_HIP)
    << "hip|"
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    << "openmp|"
#endif
    << KBOOST_TUNED_SOURCES_HASH;
  return std::string(KBOOST_VERSION) + "+" + hex64(fnv1a(s.str()));
}

std::optional<std::int64_t> TuneStore::get(std::string const& key) const {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = memory().find(device_key_ + '\n' + key);
    if (it != memory().end()) return it->second;
  }
  if (file_.empty()) return std::nullopt;
  nlohmann::json const v = read_values(file_, device_key_);
  auto it = v.find(key);
  if (it == v.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<std::int64_t>();
}

void TuneStore::put(std::string const& key, std::int64_t value) {
  std::lock_guard<std::mutex> lock(g_mutex);
  memory()[device_key_ + '\n' + key] = value;
  if (file_.empty()) return;
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path const path(file_);
  fs::create_directories(path.parent_path(), ec);
  StoreLock const file_lock(file_);
  nlohmann::json values = read_values(file_, device_key_);
  values[key] = value;
  nlohmann::json const doc = {{"format", 1}, {"build", build_key()}, {"device", device_key_}, {"values", values}};
  try {
    write_file_atomic(path.string(), doc.dump(2) + "\n");
  } catch (std::exception const&) {
    file_.clear();  // not writable: memory only from now on
  }
}

std::string tune_device_key(std::string const& space_name, int concurrency, int cuda_device) {
  std::string key = space_name;
#if defined(KOKKOS_ENABLE_CUDA)
  if (space_name == "Cuda") {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, cuda_device) == cudaSuccess) {
      key += std::string("|") + prop.name + "|cc" + std::to_string(prop.major) + "." + std::to_string(prop.minor) +
             "|sm" + std::to_string(prop.multiProcessorCount) + "|smem" + std::to_string(prop.sharedMemPerBlock);
    }
  }
#endif
  (void)cuda_device;
  return key + "|c" + std::to_string(concurrency);
}

}  // namespace kboost
