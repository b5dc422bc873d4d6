// kboost::pmath::cuda (core/cuda_math.hpp) against upstream's Sigmoid and CUDA's expf / logf as
// nvcc compiles them, run on an H100 (perf/upstream_gpu/cuda_math_goldens.cu wrote
// tests/golden/cuda_math/functions.txt), computed inside a kernel of the backend under test with
// the special-function table where that backend reads it. The table's model was checked on every
// float against the GPU (perf/upstream_gpu/ex2_table_probe.cu); this test keeps a sample of it.
#include <catch2/catch_test_macros.hpp>

#include <kboost/core/cuda_math.hpp>
#include "tests/test_util.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct FunctionGolden {
  std::vector<float> in, out;
};

float float_of(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// The lines of functions.txt naming `fn`: input and output bits.
FunctionGolden function_golden(std::string const& fn) {
  std::ifstream file(kboost::test::golden_path("cuda_math/functions.txt"));
  REQUIRE(file);
  FunctionGolden g;
  std::string name, in_hex, out_hex;
  while (file >> name >> in_hex >> out_hex) {
    if (name != fn) continue;
    g.in.push_back(float_of(static_cast<std::uint32_t>(std::stoul(in_hex, nullptr, 16))));
    g.out.push_back(float_of(static_cast<std::uint32_t>(std::stoul(out_hex, nullptr, 16))));
  }
  return g;
}

}  // namespace

TEST_CASE("cuda math " TEST_BACKEND ": the embedded special-function table is the captured one", "[pmath]") {
  CHECK(kboost::pmath::cuda::ex2_table_fnv1a() == kboost::pmath::cuda::kEx2TableFnv1a);
}

TEST_CASE("cuda math " TEST_BACKEND ": Sigmoid, expf and logf give the GPU's bits", "[pmath]") {
  for (char const* fn : {"sigmoid", "expf", "logf"}) {
    INFO("function " << fn);
    auto const g = function_golden(fn);
    REQUIRE(g.in.size() > 4096);
    std::size_t const n = g.in.size();
    Kokkos::View<float*, Kokkos::HostSpace> hx("hx", n);
    for (std::size_t i = 0; i < n; ++i) hx(i) = g.in[i];
    auto x = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hx);
    Kokkos::View<float*, TEST_MEMSPACE> y("y", n);
    kboost::pmath::SpecialFunctions const math{true, kboost::pmath::cuda::ex2_table(TEST_EXECSPACE())};
    int const which = std::string(fn) == "sigmoid" ? 0 : std::string(fn) == "expf" ? 1 : 2;
    Kokkos::parallel_for("kboost::test::cuda_math", Kokkos::RangePolicy<TEST_EXECSPACE>(0, n),
                         KOKKOS_LAMBDA(std::size_t i) {
                           y(i) = which == 0 ? math.sigmoid(x(i)) : which == 1 ? math.exp(x(i)) : math.log(x(i));
                         });
    auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    std::size_t bad = 0, first = n;
    for (std::size_t i = 0; i < n; ++i)
      if (!kboost::test::same_result(hy(i), g.out[i])) first = bad++ ? first : i;
    INFO(bad << " of " << n << " differ" << (bad ? ", the first at input " + std::to_string(g.in[first]) : ""));
    CHECK(bad == 0);
  }
}

TEST_CASE("cuda math " TEST_BACKEND ": exp2_rounded rounds 2^f correctly", "[pmath]") {
  // (float) of glibc's double exp2 is 2^f correctly rounded on these inputs (no double result
  // lies near a float rounding boundary); every 97th float in [-2, 2) and a stride through [-126, 128)
  std::size_t bad = 0, n = 0;
  auto check = [&](float f) {
    ++n;
    float ref = static_cast<float>(std::exp2(static_cast<double>(f)));
    if (ref < 0x1p-126f) ref = 0.0f;
    bad += !kboost::test::same_result(kboost::pmath::cuda::detail::exp2_rounded(f), ref);
  };
  for (std::uint64_t u = 0; u <= 0xffffffffull; u += 97) {
    float const f = float_of(static_cast<std::uint32_t>(u));
    if (f >= -2.0f && f < 2.0f) check(f);
  }
  for (float f = -126.0f; f < 128.0f; f += 0.0078125f * 1.37f) check(f);
  INFO(n << " inputs");
  CHECK(bad == 0);
}
