// kboost::pmath::expf/logf against the host's glibc ::expf/::logf, bit for bit, computed inside a
// kernel of the backend under test. Dense sample of the float line (every 1021st bit pattern, ~4.2M
// values, plus the neighbourhood of the special-case thresholds). An exhaustive run over all 2^32
// inputs matched too (Debian 12 glibc 2.36, FMA build; see core/portable_math.hpp).
#include <catch2/catch_test_macros.hpp>

#include <kboost/core/portable_math.hpp>
#include "tests/test_util.hpp"

#include <cmath>
#include <cstring>
#include <vector>

namespace {

std::vector<float> probe_floats() {
  std::vector<float> out;
  for (std::uint64_t u = 0; u <= 0xffffffffull; u += 1021) {
    std::uint32_t const b = static_cast<std::uint32_t>(u);
    float f;
    std::memcpy(&f, &b, 4);
    out.push_back(f);
  }
  // thresholds of the special paths and small neighbourhoods around 0, 1, 88.7, -103.3, -104
  for (float c : {0.0f, 1.0f, -1.0f, 88.0f, 88.7f, 0x1.62e42ep6f, -0x1.9fe368p6f, -0x1.9d1d9ep6f, 0x1p-126f, 0x1p-149f}) {
    float x = c;
    for (int i = 0; i < 2000; ++i) x = std::nextafter(x, INFINITY);
    for (int i = 0; i < 4000; ++i) {
      out.push_back(x);
      x = std::nextafter(x, -INFINITY);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("pmath " TEST_BACKEND ": expf/logf give glibc's bits", "[pmath]") {
  auto const probes = probe_floats();
  std::size_t const n = probes.size();
  Kokkos::View<float*, Kokkos::HostSpace> hx("hx", n);
  for (std::size_t i = 0; i < n; ++i) hx(i) = probes[i];
  auto x = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hx);
  Kokkos::View<float*, TEST_MEMSPACE> e("e", n), l("l", n), s("s", n);
  Kokkos::parallel_for("kboost::test::pmath", Kokkos::RangePolicy<TEST_EXECSPACE>(0, n), KOKKOS_LAMBDA(std::size_t i) {
    e(i) = kboost::pmath::expf(x(i));
    l(i) = kboost::pmath::logf(x(i));
    s(i) = kboost::pmath::sigmoid(x(i));
  });
  auto he = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), e);
  auto hl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), l);
  auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s);
  std::size_t bad_e = 0, bad_l = 0, bad_s = 0;
  for (std::size_t i = 0; i < n; ++i) {
    float const v = probes[i];
    bad_e += !kboost::test::same_result(he(i), ::expf(v));
    bad_l += !kboost::test::same_result(hl(i), ::logf(v));
    // upstream common::Sigmoid with glibc expf
    float const nx = std::min(-v, 88.7f);
    float const sig = 1.0f / (::expf(nx) + 1.0f + 1e-16f);
    bad_s += !kboost::test::same_result(hs(i), sig);
  }
  INFO(n << " probes");
  CHECK(bad_e == 0);
  CHECK(bad_l == 0);
  CHECK(bad_s == 0);
}

TEST_CASE("pmath " TEST_BACKEND ": fixed values", "[pmath]") {
  CHECK(kboost::pmath::expf(0.0f) == 1.0f);
  CHECK(kboost::pmath::logf(1.0f) == 0.0f);
  CHECK(kboost::pmath::expf(-INFINITY) == 0.0f);
  CHECK(std::isinf(kboost::pmath::expf(100.0f)));
  CHECK(std::isinf(kboost::pmath::logf(0.0f)));
  CHECK(std::isnan(kboost::pmath::logf(-1.0f)));
  CHECK(kboost::pmath::expf(1.0f) == 2.71828174591064453125f);  // glibc expf(1)
  CHECK(kboost::pmath::sigmoid(0.0f) == 0.5f);
  // the non-FMA build agrees with the FMA build on this sample (they differ nowhere we probed)
  for (float v : {-3.5f, -0.1f, 0.3f, 7.25f, 42.0f}) {
    CHECK(kboost::pmath::detail::expf_nofma(v) == kboost::pmath::expf(v));
    CHECK(kboost::pmath::detail::logf_nofma(v + 50.0f) == kboost::pmath::logf(v + 50.0f));
  }
}

TEST_CASE("pmath " TEST_BACKEND ": log1pf within 3 ulp of log1p", "[pmath]") {
  std::vector<float> probes;
  for (float v : probe_floats())
    if (v > -1.0f && std::isfinite(v)) probes.push_back(v);
  std::size_t const n = probes.size();
  Kokkos::View<float*, Kokkos::HostSpace> hx("hx", n);
  for (std::size_t i = 0; i < n; ++i) hx(i) = probes[i];
  auto x = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hx);
  Kokkos::View<float*, TEST_MEMSPACE> l("l", n);
  Kokkos::parallel_for("kboost::test::log1pf", Kokkos::RangePolicy<TEST_EXECSPACE>(0, n),
                       KOKKOS_LAMBDA(std::size_t i) { l(i) = kboost::pmath::log1pf(x(i)); });
  auto hl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), l);
  std::size_t worse = 0;
  for (std::size_t i = 0; i < n; ++i) {
    float const want = static_cast<float>(std::log1p(static_cast<double>(probes[i])));
    float const ulp = std::nextafter(std::fabs(want), INFINITY) - std::fabs(want);
    worse += !(std::fabs(hl(i) - want) <= 3 * ulp);  // 3.0 ulp is the worst over every 97th float
  }
  INFO(n << " probes above -1");
  CHECK(worse == 0);
  CHECK(kboost::pmath::log1pf(0.0f) == 0.0f);
  CHECK(kboost::pmath::log1pf(1e-30f) == 1e-30f);
  CHECK(std::isinf(kboost::pmath::log1pf(-1.0f)));
  CHECK(std::isnan(kboost::pmath::log1pf(-2.0f)));
  CHECK(std::isnan(kboost::pmath::log1pf(NAN)));
  CHECK(std::isinf(kboost::pmath::log1pf(INFINITY)));
}
