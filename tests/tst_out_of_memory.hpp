// An allocation the memory space cannot hold fails with the bytes asked and the bytes free
// (core/device_memory.hpp), not with Kokkos' rounded size alone or a crash.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <kboost/core/device_memory.hpp>
#include <kboost/engine/explainer.hpp>
#include <kboost/engine/predictor.hpp>
#include "tests/test_util.hpp"

using Catch::Matchers::ContainsSubstring;

TEST_CASE("out of memory " TEST_BACKEND ": predictions and SHAP values too large for the memory space say the bytes asked and free",
          "[oom]") {
  std::string const model = kboost::test::golden_path("models/binary_logistic.json");
  kboost::Predictor<TEST_EXECSPACE> predictor(model);
  int const F = predictor.model().num_feature;
  // 2^44 rows: the output alone is 64 TiB, more than any memory space holds. X views one real row
  // (the output allocation fails before any kernel reads it).
  Kokkos::View<float*, TEST_MEMSPACE> row("row", static_cast<std::size_t>(F));
  std::size_t const rows = std::size_t{1} << 44;
  Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE, Kokkos::MemoryUnmanaged> X(row.data(), rows,
                                                                                             static_cast<std::size_t>(F));
  std::string const asked = std::to_string(rows * 4) + " bytes asked, ";
  CHECK_THROWS_WITH(predictor.predict(X), ContainsSubstring("kboost::predict::out: out of ") && ContainsSubstring(asked) &&
                                              ContainsSubstring(" bytes free"));
  kboost::Explainer<TEST_EXECSPACE> explainer(model);
  std::string const shap_asked = std::to_string(rows * static_cast<std::size_t>(F + 1) * 4) + " bytes asked, ";
  CHECK_THROWS_WITH(explainer.contributions(X), ContainsSubstring("kboost::shap::contributions: out of ") &&
                                                    ContainsSubstring(shap_asked));
  auto const info = kboost::memory_info(!Kokkos::SpaceAccessibility<Kokkos::HostSpace, TEST_MEMSPACE>::accessible);
  CHECK(info.total > 0);
  CHECK(info.free <= info.total);
}
