/// run_isolated: fork, an address-space limit (RLIMIT_AS) in the child, the result back through a
/// memfd. The memfd holds a status byte, the result's length (8 bytes at offset 1) and the result or
/// error message (from offset 16); the child writes the status last, so a child that dies mid-write
/// leaves "no result".
#include <kboost/io/detail/isolated_read.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>

#if defined(__linux__)
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace kboost::io_detail {
namespace {

std::atomic<bool> isolation_on{true};
bool in_isolated_child = false;  // set only in a forked child, which runs one thread

#if defined(__linux__)

enum Status : unsigned char { kNoResult = 0, kResult = 1, kError = 2 };
constexpr off_t kPayloadAt = 16;  // after the status byte and the length

bool write_all(int fd, char const* p, std::size_t n, off_t at) {
  while (n > 0) {
    ssize_t const w = pwrite(fd, p, n, at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w, n -= static_cast<std::size_t>(w), at += w;
  }
  return true;
}

bool read_all(int fd, char* p, std::size_t n, off_t at) {
  while (n > 0) {
    ssize_t const r = pread(fd, p, n, at);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r, n -= static_cast<std::size_t>(r), at += r;
  }
  return true;
}

struct OwnedFd {
  int fd;
  ~OwnedFd() {
    if (fd >= 0) close(fd);
  }
};

/// The bytes this process has mapped (/proc/self/statm's first field, in pages).
std::uint64_t mapped_bytes() {
  unsigned long long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

void raise_soft_limit(std::uint64_t bytes) {
  rlimit lim{};
  if (getrlimit(RLIMIT_AS, &lim) != 0) return;
  if (lim.rlim_cur == RLIM_INFINITY) return;
  rlim_t const wanted = lim.rlim_cur > std::numeric_limits<rlim_t>::max() - bytes ? RLIM_INFINITY : lim.rlim_cur + bytes;
  lim.rlim_cur = lim.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, lim.rlim_max);
  setrlimit(RLIMIT_AS, &lim);
}

/// The child's side: run, write the result or the error, leave without running the parent's
/// atexit handlers or flushing its stdio buffers.
[[noreturn]] void run_child(int fd, std::string const& path, char const* library,
                            std::function<void(ResultWriter&)> const& produce) {
  in_isolated_child = true;
  // The parent's handlers for crashes (a test framework's, an MPI runtime's, a sanitizer's) are not
  // the child's to run: one that allocates deadlocked on the malloc lock libhdf5 held when it
  // aborted on a corrupt heap. The child dies of the signal and the parent reports it.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS}) std::signal(sig, SIG_DFL);
  rlimit lim{};
  std::uint64_t const mapped = mapped_bytes();  // 0 when /proc is not there: then no limit
  if (mapped > 0 && getrlimit(RLIMIT_AS, &lim) == 0 && (lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > mapped)) {
    lim.rlim_cur = mapped;
    setrlimit(RLIMIT_AS, &lim);
  }
  if (mapped > 0) raise_soft_limit(kIsolatedMemoryBase);
  Status status = kResult;
  std::string message;
  std::uint64_t n = 0;
  try {
    ResultWriter out(fd, kPayloadAt);
    produce(out);
    n = out.end() - kPayloadAt;
  } catch (std::bad_alloc const&) {
    status = kError;
    message = path + ": reading it with " + library + " needed more memory than its values take plus " +
              std::to_string(kIsolatedMemoryBase >> 20) + " MiB (a corrupt header claims huge sizes)";
  } catch (std::exception const& e) {
    status = kError;
    message = e.what();
  } catch (...) {
    status = kError;
    message = path + ": reading it with " + library + " failed with an unknown error";
  }
  if (status == kError) n = message.size();
  bool const ok = (status == kResult || write_all(fd, message.data(), message.size(), kPayloadAt)) &&
                  write_all(fd, reinterpret_cast<char const*>(&n), sizeof n, 1) &&
                  write_all(fd, reinterpret_cast<char const*>(&status), 1, 0);
  _exit(ok ? 0 : 1);
}

/// How a child that left no result ended, for the error message.
std::string ending_of(char const* library, int wait_status, bool waited) {
  std::string const head(library);
  if (waited && WIFSIGNALED(wait_status)) {
    int const sig = WTERMSIG(wait_status);
    char const* name = strsignal(sig);
    return head + " crashed reading the file (signal " + std::to_string(sig) +
           (name ? std::string(", ") + name : std::string()) + "): the file is corrupt";
  }
  return head + " stopped reading the file without a result (" +
         (waited ? "exit status " + std::to_string(WEXITSTATUS(wait_status)) : std::string("its status was lost")) +
         "): the file is corrupt";
}

#endif

}  // namespace

void set_isolated_reads(bool on) { isolation_on = on; }
bool isolated_reads() { return isolation_on; }

void allow_isolated_memory(std::uint64_t bytes) {
#if defined(__linux__)
  if (in_isolated_child) raise_soft_limit(bytes);
#else
  (void)bytes;
#endif
}

void ResultWriter::write(void const* p, std::size_t n) {
  if (fd_ < 0) {
    bytes_.append(static_cast<char const*>(p), n);
    return;
  }
#if defined(__linux__)
  if (!write_all(fd_, static_cast<char const*>(p), n, static_cast<off_t>(at_)))
    throw std::runtime_error("kboost: cannot pass " + std::to_string(n) + " bytes of a result back from the reader's child process");
#endif
  at_ += n;
}

ResultReader::~ResultReader() {
#if defined(__linux__)
  if (fd_ >= 0) close(fd_);
#endif
}

void ResultReader::read(void* p, std::size_t n) {
  if (n > end_ - at_) throw std::logic_error("kboost: a child process's result is truncated");
  if (fd_ < 0) {
    if (n > 0) std::memcpy(p, bytes_.data() + at_, n);
  } else {
#if defined(__linux__)
    if (!read_all(fd_, static_cast<char*>(p), n, static_cast<off_t>(at_)))
      throw std::logic_error("kboost: a child process's result does not read back");
#endif
  }
  at_ += n;
}

std::uint64_t ResultReader::get_count(std::size_t value_bytes) {
  auto const n = get<std::uint64_t>();
  if (n > (end_ - at_) / value_bytes) throw std::logic_error("kboost: a child process's result is truncated");
  return n;
}

ResultReader run_isolated(std::string const& path, char const* library,
                          std::function<void(ResultWriter&)> const& produce) {
  auto const here = [&] {
    ResultWriter out;
    produce(out);
    return ResultReader(std::move(out.bytes()));
  };
#if defined(__linux__)
  if (!isolation_on || in_isolated_child) return here();
  int const fd = memfd_create("kboost-isolated-read", MFD_CLOEXEC);
  if (fd < 0) return here();
  pid_t const pid = fork();
  if (pid < 0) {
    close(fd);
    return here();
  }
  if (pid == 0) run_child(fd, path, library, produce);
  OwnedFd owned{fd};  // closes the memfd on every path out but the last
  int wait_status = 0;
  pid_t w = -1;
  do {
    w = waitpid(pid, &wait_status, 0);
  } while (w < 0 && errno == EINTR);
  // (SIGCHLD set to SIG_IGN reaps the child itself: waitpid fails and the memfd alone tells.)
  unsigned char status = kNoResult;
  std::uint64_t n = 0;
  struct stat st {};
  bool const complete = fstat(fd, &st) == 0 && read_all(fd, reinterpret_cast<char*>(&status), 1, 0) &&
                        read_all(fd, reinterpret_cast<char*>(&n), sizeof n, 1) && status != kNoResult &&
                        st.st_size >= kPayloadAt && n <= static_cast<std::uint64_t>(st.st_size - kPayloadAt);
  if (!complete) throw std::runtime_error(path + ": " + ending_of(library, wait_status, w == pid));
  if (status == kError) {
    std::string message(n, '\0');
    if (!read_all(fd, message.data(), n, kPayloadAt)) throw std::runtime_error(path + ": " + ending_of(library, wait_status, w == pid));
    throw std::runtime_error(message);
  }
  owned.fd = -1;
  return ResultReader(fd, kPayloadAt, kPayloadAt + n);
#else
  (void)path, (void)library;
  return here();
#endif
}

}  // namespace kboost::io_detail
