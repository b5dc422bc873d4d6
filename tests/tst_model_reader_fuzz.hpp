// Fuzz corpus, generated deterministically here: truncated and byte-mutated versions of a few real
// models (JSON with bare NaN, pretty JSON, UBJSON, vector-leaf UBJSON). Loading and predicting each
// must either work or throw std::runtime_error — never crash, hang or throw anything else.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>

#include <kboost/engine/predictor.hpp>
#include "tests/test_util.hpp"

namespace {

/// xorshift64*: the corpus is the same on every run and platform.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
};

/// 0 = loaded and predicted, 1 = runtime_error; anything else fails the test.
int try_model(std::string const& bytes) {
  try {
    kboost::Model m = kboost::parse_model(bytes, "fuzz");
    if (m.num_feature > 4096) return 1;  // valid but too wide to bother predicting on
    kboost::Predictor<TEST_EXECSPACE> p(std::move(m));
    int f = p.model().num_feature;
    Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE> X("fuzz_X", 5, static_cast<std::size_t>(f));
    auto h = Kokkos::create_mirror_view(X);
    for (int i = 0; i < 5; ++i)
      for (int k = 0; k < f; ++k) h(i, k) = (i + k) % 4 == 0 ? std::nanf("") : static_cast<float>((i * 7 + k * 3) % 11) - 3.0f;
    Kokkos::deep_copy(X, h);
    auto out = p.predict(X);
    kboost::PredictOptions leaf;
    leaf.pred_leaf = true;
    auto leaves = p.predict(X, leaf);
    Kokkos::fence();
    return 0;
  } catch (std::runtime_error const&) {
    return 1;
  }
}

/// Truncates and mutates each model file; every variant must load and predict or fail with an error.
void fuzz_models(std::vector<std::string> const& files) {
  Rng rng{0x9E3779B97F4A7C15ULL};
  int ok = 0, errors = 0;
  for (auto const& path : files) {
    std::string const orig = kboost::test::read_file(path);
    REQUIRE(orig.size() > 100);
    REQUIRE(try_model(orig) == 0);
    // Truncations at 40 evenly spaced lengths (and the empty file).
    for (std::size_t k = 0; k < 40; ++k) {
      INFO(path << " truncated to " << orig.size() * k / 40);
      (try_model(orig.substr(0, orig.size() * k / 40)) == 0 ? ok : errors)++;
    }
    // 1..4 random bytes replaced, 120 mutants per file; half of them hit digits/structure only.
    static char const kBytes[] = "0123456789-.eE[]{}\",:NaLlid$#U";
    for (int k = 0; k < 120; ++k) {
      std::string m = orig;
      int n_changes = 1 + static_cast<int>(rng.next() % 4);
      for (int c = 0; c < n_changes; ++c) {
        std::size_t pos = rng.next() % m.size();
        m[pos] = (k % 2) ? static_cast<char>(rng.next() & 0xff) : kBytes[rng.next() % (sizeof(kBytes) - 1)];
      }
      INFO(path << " mutant " << k);
      (try_model(m) == 0 ? ok : errors)++;
    }
  }
  CHECK(errors > 0);  // the corpus does reach the error paths
  CHECK(ok > 0);      // and mutants that stay valid are predicted
}

}  // namespace

TEST_CASE("model reader fuzz " TEST_BACKEND ": truncated and mutated models never crash", "[model_reader][fuzz]") {
  fuzz_models({kboost::test::golden_path("models/vector_leaf.ubj"), kboost::test::golden_path("models/dart.json"),
               kboost::test::golden_path("models/categorical.ubj")});
}

TEST_CASE("model reader fuzz " TEST_BACKEND ": truncated and mutated shared models never crash",
          "[model_reader][fuzz][shared]") {
  fuzz_models({kboost::test::shared_path("models/nvforest_tiny_reg_v312.json"),
               kboost::test::shared_path("models/tl2cgen_toycat_reg_v140.json"),
               kboost::test::shared_path("models/xgbgo_iris_softmax_v120.json"),
               kboost::test::shared_path("models/jpmml_visit_poisson_dart_v172.ubj")});
}
