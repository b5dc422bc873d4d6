/// Fuzz target: bytes -> a LibSVM/svmlight file -> kboost::read_dataset(path, format "libsvm"),
/// with indices as given (XGBoost's default) and with the index base detected from the file.
#include "dataset_fuzz.hpp"

namespace {

kboost::ReadOptions index_base(int base) {
  kboost::ReadOptions o;
  o.format = "libsvm";
  o.index_base = base;
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  static kboost::fuzz::InputFile file("input.libsvm");
  kboost::fuzz::read_each(file, data, size, {index_base(0), index_base(-1)});
  return 0;
}
