#pragma once
/// \file isolated_read.hpp
/// Reading untrusted files through a third-party library in a child process (not part of the
/// public API). Debian 12's libhdf5 1.10.8 crashes on some corrupt files (null reads in its metadata
/// cache) and allocates without bound on others (a corrupt root-group local heap), inside its own
/// calls, before kboost sees a dataset: neither can be checked from outside without reimplementing
/// the format. Run in a forked child under a memory limit, such a file ends in an error naming it
/// instead of taking the process down.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kboost::io_detail {

/// Whether `run_isolated` forks (the default). Off runs the work in this process: the fuzz targets
/// turn it off, as libFuzzer must see the library's coverage and crashes in its own process.
void set_isolated_reads(bool on);
bool isolated_reads();

/// The memory a child may map beyond what the parent had mapped when it forked, before the work
/// asks for more with `allow_isolated_memory`: libhdf5's metadata cache (32 MiB at most by default)
/// and chunk caches (1 MiB per dataset) fit many times over.
constexpr std::uint64_t kIsolatedMemoryBase = std::uint64_t{1} << 30;

/// Where `run_isolated`'s work writes its result: values, and vectors and strings with their
/// length, in order. In a child, straight into the memfd the parent reads; in this process, a string.
class ResultWriter {
 public:
  ResultWriter() = default;
  explicit ResultWriter(int fd, std::uint64_t at) : fd_(fd), at_(at) {}
  /// Throws std::runtime_error when the memfd refuses the bytes (no memory for it).
  void write(void const* p, std::size_t n);
  template <class T>
  void put(T const& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    write(&v, sizeof(T));
  }
  template <class T>
  void put(std::vector<T> const& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<std::uint64_t>(v.size());
    write(v.data(), v.size() * sizeof(T));
  }
  void put(std::string const& s) {
    put<std::uint64_t>(s.size());
    write(s.data(), s.size());
  }
  std::uint64_t end() const { return at_; }
  std::string& bytes() { return bytes_; }

 private:
  int fd_ = -1;
  std::uint64_t at_ = 0;
  std::string bytes_;
};

/// Reads back, in the same order, what a ResultWriter wrote: from the memfd, or from a string.
/// Throws std::logic_error past the end. Closes the memfd when destroyed.
class ResultReader {
 public:
  ResultReader(int fd, std::uint64_t begin, std::uint64_t end) : fd_(fd), at_(begin), end_(end) {}
  explicit ResultReader(std::string bytes) : bytes_(std::move(bytes)), end_(bytes_.size()) {}
  ResultReader(ResultReader&& o) noexcept : fd_(o.fd_), bytes_(std::move(o.bytes_)), at_(o.at_), end_(o.end_) { o.fd_ = -1; }
  ResultReader(ResultReader const&) = delete;
  ResultReader& operator=(ResultReader const&) = delete;
  ResultReader& operator=(ResultReader&&) = delete;
  ~ResultReader();

  void read(void* p, std::size_t n);
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    read(&v, sizeof(T));
    return v;
  }
  /// A vector's length, checked against the bytes left for `value_bytes`-byte values.
  std::uint64_t get_count(std::size_t value_bytes);
  template <class T>
  void get(std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    v.resize(get_count(sizeof(T)));
    read(v.data(), v.size() * sizeof(T));
  }
  void get(std::string& s) {
    s.resize(get_count(1));
    read(s.data(), s.size());
  }

 private:
  int fd_ = -1;
  std::string bytes_;
  std::uint64_t at_ = 0, end_ = 0;
};

/// Runs `produce` in a forked child whose address space may grow by kIsolatedMemoryBase bytes
/// (RLIMIT_AS, raised by `allow_isolated_memory`), and returns what it wrote (passed back through a
/// memfd). Throws std::runtime_error: with the child's message when `produce` threw; naming `path`
/// and `library` when the child died (a signal, an exit without a result) or ran out of memory.
/// Runs `produce` here instead when isolation is off, or when this system cannot fork or create a
/// memfd (the failures it contains are then not contained). Linux only; elsewhere always here.
ResultReader run_isolated(std::string const& path, char const* library,
                          std::function<void(ResultWriter&)> const& produce);

/// In a child of run_isolated: raises its memory limit by `bytes` before the work allocates a
/// buffer whose size it has checked (a dataset's values). Does nothing in any other process.
void allow_isolated_memory(std::uint64_t bytes);

}  // namespace kboost::io_detail
