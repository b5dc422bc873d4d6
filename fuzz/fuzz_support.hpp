#pragma once
/// What every kboost fuzz target shares: Kokkos started once per process, the input written to a
/// file for readers that take a path, and the rule that decides a bug: an input may be refused
/// with std::runtime_error (kboost's documented error type, CLI11's errors derive from it too);
/// any other exception, like a crash or a sanitizer report, is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include <fcntl.h>
#include <unistd.h>

#include <kboost/core/compat.hpp>

namespace kboost::fuzz {

/// Kokkos with one host thread: libFuzzer runs one input at a time, and a second thread would
/// only make a finding harder to replay.
inline void start_kokkos() {
  if (!kboost::compat::is_initialized()) kboost::compat::initialize(1);
}

/// Runs `f`; a std::runtime_error is an accepted refusal of the input. Any other exception
/// aborts with its type and message, so libFuzzer saves the input as a crash that says what
/// was thrown (an uncaught exception would only show std::terminate).
template <class F>
void refusals_only(F&& f) {
  try {
    f();
  } catch (std::runtime_error const&) {
  } catch (std::exception const& e) {
    std::fprintf(stderr, "kboost fuzz: unexpected exception %s: %s\n", typeid(e).name(), e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "kboost fuzz: unexpected non-std exception\n");
    std::abort();
  }
}

/// What `parse` returns, or nullopt when it refuses the input (as refusals_only decides).
template <class Parse>
auto accepted(Parse&& parse) -> std::optional<decltype(parse())> {
  std::optional<decltype(parse())> out;
  refusals_only([&] { out = parse(); });
  return out;
}

/// The input's bytes as a string, for the parsers that take text in memory.
inline std::string bytes(std::uint8_t const* data, std::size_t size) {
  return std::string(reinterpret_cast<char const*>(data), size);
}

/// A file in /dev/shm (memory, so the disk is not worn by millions of writes) that each run
/// overwrites with its input; one per process, named after the pid so parallel jobs do not meet.
class InputFile {
 public:
  explicit InputFile(std::string const& name)
      : path_((access("/dev/shm", W_OK) == 0 ? std::string("/dev/shm") : std::string("/tmp")) + "/kboost-fuzz-" +
              std::to_string(getpid()) + "-" + name) {}
  ~InputFile() { unlink(path_.c_str()); }
  InputFile(InputFile const&) = delete;
  InputFile& operator=(InputFile const&) = delete;

  /// Replaces the file's content with `size` bytes at `data`; returns the path.
  std::string const& write(std::uint8_t const* data, std::size_t size) {
    int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) std::abort();  // the harness itself is broken: no use fuzzing on
    for (std::size_t done = 0; done < size;) {
      ssize_t n = ::write(fd, data + done, size - done);
      if (n <= 0) std::abort();
      done += static_cast<std::size_t>(n);
    }
    close(fd);
    return path_;
  }

 private:
  std::string path_;
};

}  // namespace kboost::fuzz
