// A simulation-style kernel: each particle carries its features in the simulation's own storage
// (here a LayoutLeft View, particles × properties) and a user parallel_for predicts every particle
// with kboost's device-callable forest — no batch copy, no second kernel. The predictions are
// bit-identical to kboost::Predictor's batch kernel and to `kboost predict`.
//   usage: particles <model.json|ubj> <x.csv>      (prints one prediction row per particle)
#include <Kokkos_Core.hpp>
#include <kboost/kboost.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: particles <model> <x.csv>\n");
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  using Space = Kokkos::DefaultExecutionSpace;
  kboost::Predictor<Space> predictor(argv[1]);

  std::vector<std::vector<float>> rows;
  std::ifstream in(argv[2]);
  for (std::string line; std::getline(in, line);) {
    std::vector<float> row;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) row.push_back(std::strtof(cell.c_str(), nullptr));
    rows.push_back(row);
  }
  int const n = static_cast<int>(rows.size());
  int const nf = predictor.model().num_feature;

  // The simulation's particle properties, already on the device.
  Kokkos::View<float**, Kokkos::LayoutLeft, Space> props("props", n, nf);
  auto h = Kokkos::create_mirror_view(props);
  for (int i = 0; i < n; ++i)
    for (int f = 0; f < nf; ++f) h(i, f) = rows[i][f];
  Kokkos::deep_copy(props, h);

  // A trivially copyable handle into the predictor's device arrays; valid while `predictor` lives.
  auto const forest = predictor.device_forest();
  constexpr int kMaxOutputs = 8;  // the kernel's per-particle scratch
  if (forest.margin_columns() > kMaxOutputs) {
    std::fprintf(stderr, "particles: the model has more than %d outputs\n", kMaxOutputs);
    return 1;
  }
  int const k = forest.output_columns();
  Kokkos::View<float**, Kokkos::LayoutRight, Space> pred("pred", n, k);
  Kokkos::parallel_for(
      "particles::predict", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) {
        float out[kMaxOutputs];
        forest.predict([&](int f) { return props(i, f); }, out);
        for (int j = 0; j < k; ++j) pred(i, j) = out[j];
      });
  auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pred);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < k; ++j) std::printf("%.9g%c", hp(i, j), j + 1 < k ? ',' : '\n');
  return 0;
}
