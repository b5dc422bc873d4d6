#pragma once
/// Helpers of the stage tests (tests/tst_<stage>.hpp, one per kernels/ stage): small hand-written
/// inputs copied into TEST_MEMSPACE and results copied back to the host for exact checks.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <vector>

namespace kboost::test {

/// `v` as a 1-D View in TEST_MEMSPACE.
template <class T>
Kokkos::View<T*, TEST_MEMSPACE> to_device(std::vector<T> const& v) {
  Kokkos::View<T*, Kokkos::HostSpace> h("kboost::test::host_1d", v.size());
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::View<T*, TEST_MEMSPACE> d("kboost::test::device_1d", v.size());
  Kokkos::deep_copy(d, h);
  return d;
}

/// `v` (rows × cols, row by row) as a 2-D View of layout `Layout` in TEST_MEMSPACE.
template <class T, class Layout = Kokkos::LayoutRight>
Kokkos::View<T**, Layout, TEST_MEMSPACE> to_device(std::vector<T> const& v, std::size_t rows, std::size_t cols) {
  Kokkos::View<T**, Layout, TEST_MEMSPACE> d("kboost::test::device_2d", rows, cols);
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) h(r, c) = v[r * cols + c];
  Kokkos::deep_copy(d, h);
  return d;
}

/// A 1-D View's elements on the host.
template <class View>
std::vector<typename View::non_const_value_type> to_vector(View const& d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  std::vector<typename View::non_const_value_type> out(h.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = h(i);
  return out;
}

}  // namespace kboost::test
