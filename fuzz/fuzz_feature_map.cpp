/// Fuzz target: bytes -> kboost::parse_feature_map (an upstream `fmap` file, io/feature_map.hpp);
/// a map the reader accepts then names and types the features of real models (the golden models
/// named at build time, widened to the map's length) in what `kboost dump` and
/// `kboost importance` make of it: dump_model_file in text, json and dot, with and without
/// statistics, and gain importance. Refusals (a categorical split on a feature the map does not
/// call "c", a map shorter than a model's features) are std::runtime_error like any other.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include <kboost/engine/importance.hpp>
#include <kboost/io/feature_map.hpp>
#include <kboost/io/model_dump.hpp>
#include <kboost/io/model_reader.hpp>

#include "fuzz_support.hpp"

namespace {

/// The models of KBOOST_FUZZ_FMAP_MODELS (a '|'-separated list of files, set by fuzz/CMakeLists.txt;
/// the environment variable of that name overrides it), with their own names and types dropped.
std::vector<kboost::Model> load_models() {
  char const* env = std::getenv("KBOOST_FUZZ_FMAP_MODELS");
  std::stringstream list(env ? env : KBOOST_FUZZ_FMAP_MODELS);
  std::vector<kboost::Model> models;
  for (std::string path; std::getline(list, path, '|');) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in) std::abort();  // the harness is broken: no use fuzzing on
    models.push_back(kboost::parse_model(bytes.str(), path));
    models.back().feature_names.clear();
    models.back().feature_types.clear();
  }
  return models;
}

void use(kboost::Model const& model, kboost::FeatureMap const& fmap) {
  for (auto format : {kboost::DumpFormat::kText, kboost::DumpFormat::kJson, kboost::DumpFormat::kDot})
    for (bool stats : {false, true})
      kboost::fuzz::refusals_only([&] { kboost::dump_model_file(model, {format, stats, fmap}); });
  kboost::fuzz::refusals_only([&] { kboost::feature_importance(model, kboost::ImportanceType::kGain, fmap); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  kboost::fuzz::start_kokkos();
  static std::vector<kboost::Model> const models = load_models();
  auto const fmap =
      kboost::fuzz::accepted([&] { return kboost::parse_feature_map(kboost::fuzz::bytes(data, size), "fuzz-input"); });
  if (!fmap || fmap->empty()) return 0;
  for (kboost::Model const& m : models) {
    if (fmap->size() < static_cast<std::size_t>(m.num_feature)) {
      use(m, *fmap);  // refused: too short
      continue;
    }
    kboost::Model wide = m;  // features past the model's own are valid, just never split on
    wide.num_feature = static_cast<int>(fmap->size());
    use(wide, *fmap);
  }
  return 0;
}
