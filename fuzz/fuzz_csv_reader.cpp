/// Fuzz target: bytes -> a CSV file -> kboost::read_dataset(path, format "csv"), once unlabelled
/// with every default (header and delimiter detected), once with a label column, a weight column,
/// a query-id column and an ignored column (the side-information paths).
#include "dataset_fuzz.hpp"

namespace {

kboost::ReadOptions unlabelled() {
  kboost::ReadOptions o;
  o.format = "csv";
  return o;
}

kboost::ReadOptions with_side_columns() {
  kboost::ReadOptions o;
  o.format = "csv";
  o.label_column = "0";
  o.weight_column = "-1";
  o.qid_column = "1";
  o.ignore_columns = {"2"};
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  static kboost::fuzz::InputFile file("input.csv");
  kboost::fuzz::read_each(file, data, size, {unlabelled(), with_side_columns()});
  return 0;
}
