// Predicts a dense CSV (rows of n_features values, "nan" = missing) with kboost::Predictor on
// Kokkos' default execution space, from three kinds of user View: LayoutLeft (Fortran order, CUDA's
// default), LayoutRight, and a LayoutStride subview of a wider matrix. Checks that the three agree
// bit for bit and prints the predictions (9 significant digits: exact float32).
//   usage: predict_views <model.json|ubj> <x.csv>
#include <Kokkos_Core.hpp>
#include <kboost/kboost.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::vector<float>> read_csv(char const* path) {
  std::vector<std::vector<float>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<float> row;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) row.push_back(std::strtof(cell.c_str(), nullptr));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: predict_views <model> <x.csv>\n");
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  using Space = Kokkos::DefaultExecutionSpace;
  kboost::Predictor<Space> predictor(argv[1]);
  auto const rows = read_csv(argv[2]);
  std::size_t const n = rows.size(), nf = static_cast<std::size_t>(predictor.model().num_feature);
  std::size_t const k = static_cast<std::size_t>(predictor.output_columns({}));

  // The same matrix three ways: Fortran order, C order, and columns 1..nf of a wider C-order matrix.
  Kokkos::View<float**, Kokkos::LayoutLeft, Space> x_left("x_left", n, nf);
  Kokkos::View<float**, Kokkos::LayoutRight, Space> x_right("x_right", n, nf), wide("wide", n, nf + 1);
  auto h_left = Kokkos::create_mirror_view(x_left);
  auto h_wide = Kokkos::create_mirror_view(wide);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t f = 0; f < nf; ++f) h_left(r, f) = h_wide(r, f + 1) = rows[r][f];
  Kokkos::deep_copy(x_left, h_left);
  Kokkos::deep_copy(wide, h_wide);
  Kokkos::deep_copy(x_right, x_left);
  auto x_strided = Kokkos::subview(wide, Kokkos::ALL(), std::make_pair(std::size_t{1}, nf + 1));

  Space space;  // the caller's instance: the work runs there, kboost fences nothing else
  Kokkos::View<float**, Kokkos::LayoutRight, Space> a("a", n, k), b("b", n, k), c("c", n, k);
  predictor.predict_into(space, x_left, a);
  predictor.predict_into(space, x_right, b);
  predictor.predict_into(space, x_strided, c);
  space.fence();

  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
  if (std::memcmp(ha.data(), hb.data(), n * k * sizeof(float)) != 0 ||
      std::memcmp(ha.data(), hc.data(), n * k * sizeof(float)) != 0) {
    std::fprintf(stderr, "predict_views: layouts disagree\n");
    return 1;
  }
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t j = 0; j < k; ++j) std::printf("%.9g%c", ha(r, j), j + 1 < k ? ',' : '\n');
  return 0;
}
