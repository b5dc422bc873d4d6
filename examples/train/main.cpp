// Trains binary:logistic on a LibSVM file with kboost::Booster on Kokkos' default execution space
// (the GPU in a CUDA build) and saves the model: the same parameters as
//   kboost train --data <train> --format libsvm --objective binary:logistic --num-round 10 \
//                --max_depth 6 --eta 0.3
// so the two model files can be compared byte for byte.
//   usage: train <train.libsvm> <model.json>
#include <Kokkos_Core.hpp>
#include <kboost/kboost.hpp>

#include <cstdio>
#include <exception>

int main(int argc, char* argv[]) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: train <train.libsvm> <model.json>\n");
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    kboost::ReadOptions read;
    read.format = "libsvm";
    auto const data = kboost::read_dataset(argv[1], read);
    auto const params = kboost::parse_params(
        {{"objective", "binary:logistic"}, {"num_round", "10"}, {"max_depth", "6"}, {"eta", "0.3"}});
    kboost::Booster booster;
    booster.train(params, data);
    booster.save(argv[2]);
    std::printf("trained %zu trees on %s (%s)\n", booster.model().trees.size(), argv[1],
                Kokkos::DefaultExecutionSpace::name());
  } catch (std::exception const& e) {
    std::fprintf(stderr, "train: %s\n", e.what());
    return 1;
  }
  return 0;
}
