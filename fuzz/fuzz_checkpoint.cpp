/// Fuzz target: bytes -> kboost::parse_checkpoint (the files `kboost train --resume` reads: the
/// training state as JSON around the model's upstream JSON, engine/checkpoint.hpp). A checkpoint
/// the reader accepts must write back (checkpoint_bytes) to bytes that read back to the same
/// bytes: a resumed fit stores and restores its whole state, so a second read refusing what kboost
/// itself wrote, or reading something else, is a finding even though no exception escapes.
#include <cstdio>
#include <cstdlib>

#include <kboost/engine/checkpoint.hpp>

#include "fuzz_support.hpp"

namespace {

[[noreturn]] void finding(char const* what, std::string const& detail) {
  std::fprintf(stderr, "kboost fuzz: %s%s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  kboost::fuzz::start_kokkos();
  auto const read =
      kboost::fuzz::accepted([&] { return kboost::parse_checkpoint(kboost::fuzz::bytes(data, size), "fuzz-input"); });
  if (!read) return 0;
  std::string once;
  try {
    once = kboost::checkpoint_bytes(read->model, read->state, read->job);
    kboost::Checkpoint const again = kboost::parse_checkpoint(once, "fuzz-rewritten");
    if (kboost::checkpoint_bytes(again.model, again.state, again.job) != once)
      finding("a checkpoint reads back to other bytes than kboost wrote", "");
  } catch (std::exception const& e) {
    finding("a checkpoint kboost wrote does not read back: ", e.what());
  }
  return 0;
}
