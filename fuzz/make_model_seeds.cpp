/// Writes seeds for the checkpoint and feature-map fuzz targets from real models:
///   make_model_seeds <checkpoint dir> <feature-map dir> <model file> ...
/// For each model, a checkpoint as `kboost train --checkpoint-every` writes it (its rounds done,
/// an evaluation log of two metrics per round, a NaN best score for every other model) and the
/// feature map upstream would make for it (resolve_feature_map: its own names and types, else
/// "f<i>" and "q"), plus one with the other numerical types (i, int, float) in turn.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <kboost/engine/checkpoint.hpp>
#include <kboost/io/feature_map.hpp>
#include <kboost/io/model_reader.hpp>

namespace {

kboost::TrainState state_of(kboost::Model const& model, bool nan_best) {
  kboost::TrainState s;
  s.rounds_done = model.num_rounds();
  s.best_iteration = s.rounds_done - 1;
  s.best_score = nan_best ? std::nan("") : 0.125;
  for (int r = 0; r < s.rounds_done; ++r)
    s.history.push_back({{"train", "logloss", 0.5 / (r + 1)}, {"eval", "auc", 1.0 - 0.25 / (r + 1)}});
  return s;
}

std::string map_text(kboost::FeatureMap const& fmap, bool vary_types) {
  static char const* const names[] = {"i", "q", "int", "float", "c"};
  char const* const numerical[] = {"i", "int", "float", "q"};
  std::ostringstream out;
  for (std::size_t k = 0; k < fmap.size(); ++k) {
    bool const categorical = fmap.types[k] == kboost::FeatureMapType::kCategorical;
    out << k << '\t' << fmap.names[k] << '\t'
        << (vary_types && !categorical ? numerical[k % 4] : names[static_cast<int>(fmap.types[k])]) << '\n';
  }
  return out.str();
}

void write(std::string const& path, std::string const& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: make_model_seeds <checkpoint dir> <feature-map dir> <model file> ...\n");
    return 2;
  }
  for (int i = 3; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    kboost::Model const model = kboost::parse_model(bytes.str(), argv[i]);
    std::string const stem = std::to_string(i - 3);
    write(std::string(argv[1]) + "/" + stem + ".json", kboost::checkpoint_bytes(model, state_of(model, i % 2 == 0), "seed-job"));
    kboost::FeatureMap const fmap = kboost::resolve_feature_map(model, {});
    write(std::string(argv[2]) + "/" + stem + ".fmap", map_text(fmap, false));
    write(std::string(argv[2]) + "/" + stem + "-types.fmap", map_text(fmap, true));
  }
  return 0;
}
