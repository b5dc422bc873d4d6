#pragma once
/// The body of the dataset-reader fuzz targets: the input becomes a file, read by
/// kboost::read_dataset with the format forced (so the bytes never leave the reader under test)
/// under each of a few option sets, since options switch on whole paths of a reader (labels,
/// weights, query ids, index base).
#include <initializer_list>

#include <kboost/io/dataset_reader.hpp>

#include "fuzz_support.hpp"

namespace kboost::fuzz {

inline void read_each(InputFile& file, std::uint8_t const* data, std::size_t size,
                      std::initializer_list<ReadOptions> option_sets) {
  start_kokkos();
  std::string const& path = file.write(data, size);
  for (ReadOptions const& opt : option_sets) refusals_only([&] { read_dataset(path, opt); });
}

}  // namespace kboost::fuzz
