// engine/detail/upstream_sort.hpp, the quantile sketch's sort, against libstdc++'s std::sort: the
// same final order of equal keys (elements carry their input position), on random inputs with few
// and many distinct keys, presorted, reversed and organ-pipe inputs, and its heap-sort fallback
// against std::partial_sort. Only where the standard library is libstdc++ (the reference).
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include <kboost/engine/detail/upstream_sort.hpp>

#if defined(__GLIBCXX__)
namespace {

struct Keyed {
  float key;
  int position;
};

bool same_order(std::vector<Keyed> const& a, std::vector<Keyed> const& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].position != b[i].position) return false;
  return true;
}

}  // namespace

TEST_CASE("upstream sort " TEST_BACKEND ": libstdc++'s std::sort order of equal keys, step for step", "[cuts][sort]") {
  auto const less = [](Keyed const& a, Keyed const& b) { return a.key < b.key; };
  std::mt19937 rng(20261204);
  int sorts = 0;
  for (int t = 0; t < 600; ++t) {
    std::size_t const n = t < 70 ? std::size_t(t) : std::size_t(rng() % 20000);
    unsigned const distinct = 1 + rng() % (t % 3 == 0 ? 4u : 1000u);
    std::vector<Keyed> input(n);
    for (std::size_t i = 0; i < n; ++i) input[i] = {float(rng() % distinct), int(i)};
    if (t % 7 == 0) std::sort(input.begin(), input.end(), less);
    if (t % 11 == 0) std::reverse(input.begin(), input.end());
    auto expected = input, got = input, heap_expected = input, heap_got = input;
    std::sort(expected.begin(), expected.end(), less);
    kboost::detail::upstream_sort(got.data(), got.data() + n, less);
    CHECK(same_order(expected, got));
    std::partial_sort(heap_expected.begin(), heap_expected.end(), heap_expected.end(), less);
    kboost::detail::upstream_sort_impl::heap_sort(heap_got.data(), heap_got.data() + n, less);
    CHECK(same_order(heap_expected, heap_got));
    ++sorts;
  }
  for (std::size_t n : {1000u, 4096u, 65536u}) {  // organ pipe: deep partitions
    std::vector<Keyed> input(n);
    for (std::size_t i = 0; i < n; ++i) input[i] = {float(i < n / 2 ? i : n - i), int(i)};
    auto expected = input, got = input;
    std::sort(expected.begin(), expected.end(), less);
    kboost::detail::upstream_sort(got.data(), got.data() + n, less);
    CHECK(same_order(expected, got));
  }
  CHECK(sorts == 600);
}
#endif
