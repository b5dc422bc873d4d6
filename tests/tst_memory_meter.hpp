// MemoryMeter (core/memory_meter.hpp): the peak of the Kokkos bytes allocated while it lives, per
// kind of memory space; frees of older allocations are not charged; meters nest; a tool's own
// allocate callback keeps receiving every event and is put back afterwards; a fit reports at least
// the bytes of its two bin-code matrices.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <kboost/core/memory_meter.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/params.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

constexpr bool kDeviceSpace = !std::is_same_v<TEST_MEMSPACE, Kokkos::HostSpace>;

std::int64_t peak_of(kboost::MemoryMeter const& m) { return kDeviceSpace ? m.peaks().device : m.peaks().host; }
std::int64_t live_of(kboost::MemoryMeter const& m) { return kDeviceSpace ? m.live_device() : m.live_host(); }

int tool_allocations = 0;
void counting_tool(Kokkos_Profiling_SpaceHandle const, char const*, void const*, std::uint64_t) { ++tool_allocations; }

}  // namespace

TEST_CASE("memory meter " TEST_BACKEND ": peak and live bytes of the allocations it sees", "[memory]") {
  std::int64_t const bytes = std::int64_t(1) << 22;
  Kokkos::View<float*, TEST_MEMSPACE> older("older", 1000);
  kboost::MemoryMeter outer;
  {
    Kokkos::View<float*, TEST_MEMSPACE> a("a", bytes / 4);
    CHECK(live_of(outer) == bytes);
    kboost::MemoryMeter inner;
    {
      Kokkos::View<char*, TEST_MEMSPACE> b("b", 1000);
      CHECK(live_of(inner) == 1000);
      CHECK(live_of(outer) == bytes + 1000);
    }
    a = Kokkos::View<float*, TEST_MEMSPACE>();
    CHECK(live_of(inner) == 0);  // a was allocated before inner started
    CHECK(peak_of(inner) == 1000);
  }
  older = Kokkos::View<float*, TEST_MEMSPACE>();  // allocated before the meter: not charged
  CHECK(live_of(outer) == 0);
  CHECK(peak_of(outer) == bytes + 1000);
  CHECK(outer.peaks().process_rss > 0);
  CHECK(kboost::is_host_space_name("Host"));
  CHECK(kboost::is_host_space_name("CudaHostPinned"));
  CHECK_FALSE(kboost::is_host_space_name("Cuda"));
  CHECK_FALSE(kboost::is_host_space_name("CudaUVM"));
}

TEST_CASE("memory meter " TEST_BACKEND ": a tool's allocate callback is kept and put back", "[memory]") {
  auto const before = Kokkos::Tools::Experimental::get_callbacks();
  auto with_tool = before;
  with_tool.allocate_data = &counting_tool;
  Kokkos::Tools::Experimental::set_callbacks(with_tool);
  tool_allocations = 0;
  {
    kboost::MemoryMeter m;
    Kokkos::View<int*, TEST_MEMSPACE> v("v", 10);
    CHECK(tool_allocations == 1);
    CHECK(live_of(m) == 40);
  }
  CHECK(Kokkos::Tools::Experimental::get_callbacks().allocate_data == &counting_tool);
  CHECK(Kokkos::Tools::Experimental::get_callbacks().deallocate_data == before.deallocate_data);
  Kokkos::Tools::Experimental::set_callbacks(before);
}

TEST_CASE("memory meter " TEST_BACKEND ": a fit reports the peak of its allocations", "[memory][train]") {
  std::size_t const rows = 20000, features = 12;
  std::vector<float> X(rows * features), y(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t f = 0; f < features; ++f) X[i * features + f] = static_cast<float>((i * (f + 3)) % 97);
    y[i] = static_cast<float>(i % 2);
  }
  auto const d = kboost::host_dmatrix(X.data(), rows, features, y.data());
  kboost::BasicBooster<TEST_EXECSPACE> b;
  b.train(kboost::parse_params({{"objective", "binary:logistic"}, {"num_round", "2"}}), d);
  auto const m = b.phases().memory;
  std::int64_t const codes = static_cast<std::int64_t>(2 * rows * features);  // 8-bit codes, two orders
  CHECK((kDeviceSpace ? m.device : m.host) >= codes);
  CHECK((kDeviceSpace ? m.device : m.host) < 64 * codes);
  CHECK(m.process_rss > 0);
  CHECK_THAT(b.phases().summary(), Catch::Matchers::ContainsSubstring("peak memory:"));
}
