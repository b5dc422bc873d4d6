/// Fuzz target: bytes -> an HDF5 file -> kboost::read_dataset(path, format "hdf5"), with the
/// default datasets (X, optional y) and with weights "w" and query ids "qid" as well (the seeds,
/// made by make_hdf5_seeds.cpp, hold all four). The reader opens files by path (H5Fopen), so the
/// input goes through a file in /dev/shm rather than HDF5's file-image API. libhdf5 runs in this
/// process, not in the child process read_dataset forks for it, so that libFuzzer sees its
/// coverage and its crashes.
#include <kboost/io/detail/isolated_read.hpp>

#include "dataset_fuzz.hpp"

namespace {

kboost::ReadOptions datasets(bool side_information) {
  kboost::ReadOptions o;
  o.format = "hdf5";
  if (side_information) {
    o.weight_column = "w";
    o.qid_column = "qid";
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  static kboost::fuzz::InputFile file("input.h5");
  kboost::io_detail::set_isolated_reads(false);
  kboost::fuzz::read_each(file, data, size, {datasets(false), datasets(true)});
  return 0;
}
