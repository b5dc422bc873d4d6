// QuickScorer on host spaces (kernels/predict_quickscorer.hpp, HostPath::kQuickScorer) byte for byte
// against the block walk and the team kernel: on the eligible golden models (their golden rows and
// rows at their splits' edges), on synthetic forests whose thresholds and inputs sit on the edges
// (±0, ±inf, values equal to a threshold and its float neighbours, thresholds shared across trees,
// NaN and a missing marker, default directions both ways), balanced, chain-shaped (compact layout),
// single-leaf and 64-leaf trees, three classes (softprob), DART weights, 1 to 300 rows; and the
// refusals of models it cannot serve. Device backends refuse the path (no host tables).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <kboost/kernels/predict_quickscorer.hpp>
#include "tests/golden_cases.hpp"
#include "tests/predict_edge_inputs.hpp"

namespace {

using QsMatrix = Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE>;
using QsConstMatrix = Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE>;
constexpr bool kQsHost = Kokkos::SpaceAccessibility<Kokkos::HostSpace, TEST_MEMSPACE>::accessible;

/// A small deterministic generator (LCG) for the synthetic forests and rows.
struct QsRandom {
  std::uint64_t state;
  std::uint32_t next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(state >> 33);
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint32_t>(n)); }
};

/// The thresholds the synthetic forests split on: shared across trees, with ±0 and ±inf.
constexpr float kQsThresholds[] = {-0.0f, 0.0f, 1.0f, -1.5f, 0.25f, 3.0f, -std::numeric_limits<float>::infinity(),
                                   std::numeric_limits<float>::infinity(), 1e-30f, 7.5f};

/// Appends to `t` a subtree of the given shape: `depth` levels below the node, every split on a
/// random feature of `n_features` and threshold of kQsThresholds; `chain` grows only right children
/// (a deep, narrow tree the layout keeps compact). Returns the new node's id.
int grow(kboost::TreeModel& t, int depth, bool chain, int n_features, QsRandom& rng, int parent) {
  int const id = static_cast<int>(t.left_children.size());
  bool const leaf = depth == 0;
  t.left_children.push_back(-1);
  t.right_children.push_back(-1);
  t.parents.push_back(parent < 0 ? 2147483647 : parent);
  t.split_indices.push_back(leaf ? 0 : rng.below(n_features));
  t.split_conditions.push_back(leaf ? static_cast<float>(rng.below(2001) - 1000) / 997.0f
                                    : kQsThresholds[rng.below(static_cast<int>(std::size(kQsThresholds)))]);
  t.default_left.push_back(static_cast<std::uint8_t>(rng.below(2)));
  t.split_type.push_back(0);
  for (auto* v : {&t.loss_changes, &t.sum_hessian, &t.base_weights}) v->push_back(1.0f);
  if (leaf) return id;
  int const left = grow(t, chain ? 0 : depth - 1, chain, n_features, rng, id);
  int const right = grow(t, depth - 1, chain, n_features, rng, id);
  t.left_children[static_cast<std::size_t>(id)] = left;
  t.right_children[static_cast<std::size_t>(id)] = right;
  return id;
}

/// A synthetic softprob forest of 3 classes over 4 features, `rounds` rounds: per round one tree per class, shapes
/// cycling through a single leaf, depth 6 (64 leaves), a 40-level chain and random depths 1..5;
/// DART weights when `dart`; `extra_leaves` adds a depth-7 tree (128 leaves, not QuickScorer's).
[[maybe_unused]] kboost::Model synthetic_forest(bool dart, bool extra_leaves, std::uint64_t seed, int rounds = 8) {
  kboost::Model m;
  m.objective = "multi:softprob";
  m.num_class = 3;
  m.num_feature = 4;
  m.base_score = {0.5f, 0.5f, 0.5f};
  QsRandom rng{seed};
  m.iteration_indptr = {0};
  for (int round = 0; round < rounds; ++round) {
    for (int g = 0; g < 3; ++g) {
      kboost::TreeModel t;
      t.num_feature = m.num_feature;
      int const shape = (round * 3 + g) % 4;
      int const depth = shape == 0 ? 0 : shape == 1 ? 6 : shape == 2 ? 40 : 1 + rng.below(5);
      grow(t, extra_leaves && round == 5 && g == 1 ? 7 : depth, shape == 2, m.num_feature, rng, -1);
      m.trees.push_back(std::move(t));
      m.tree_info.push_back(g);
      if (dart) m.weight_drop.push_back(0.25f + 0.125f * static_cast<float>(rng.below(9)));
    }
    m.iteration_indptr.push_back(static_cast<int>(m.trees.size()));
  }
  if (dart) m.booster = "dart";
  return m;
}

/// `rows` × `n_features` row-major values on the edges of kQsThresholds: each a threshold, its float
/// neighbours, ±0, ±inf, NaN, `missing` or an ordinary number.
[[maybe_unused]] std::vector<float> synthetic_rows(std::size_t rows, int n_features, float missing, QsRandom& rng) {
  std::vector<float> X(rows * static_cast<std::size_t>(n_features));
  float const inf = std::numeric_limits<float>::infinity();
  for (float& v : X) {
    float const thr = kQsThresholds[rng.below(static_cast<int>(std::size(kQsThresholds)))];
    float const pick[] = {thr, std::nextafter(thr, -inf), std::nextafter(thr, inf), -0.0f, 0.0f, inf, -inf,
                          std::numeric_limits<float>::quiet_NaN(), missing, static_cast<float>(rng.below(200) - 100) / 16.0f};
    v = pick[rng.below(static_cast<int>(std::size(pick)))];
  }
  return X;
}

/// `values` (rows × cols, row-major) as a View in TEST_MEMSPACE.
QsMatrix qs_view(std::vector<float> const& values, std::size_t rows, std::size_t cols) {
  kboost::test::GoldenArray a;
  a.values = values;
  a.rows = rows;
  a.cols = cols;
  return kboost::test::golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(a, "X");
}

/// The predictions of `p` on `X` under `path`, in host memory.
template <class P>
auto predict_on(P& p, kboost::HostPath path, QsMatrix const& X, kboost::PredictOptions const& opt, QsConstMatrix bm) {
  p.set_host_path(path);
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.predict(X, opt, bm));
}

/// QuickScorer's bytes, row by row (kScalar) and in groups (the widest ISA), equal the block walk's
/// and the team kernel's for `p` on `X` (base margins
/// `bm`, or extent 0), margins and outputs, over the whole range and the range's middle rounds.
/// Returns the number of differing results (0 expected).
template <class P>
int quickscorer_mismatches(P& p, QsMatrix const& X, float missing, QsConstMatrix bm = {}) {
  int bad = 0;
  int const rounds = p.model().num_rounds();
  for (int range = 0; range < 2; ++range)
    for (bool margin : {true, false}) {
      kboost::PredictOptions opt;
      opt.missing = missing;
      opt.output_margin = margin;
      if (range == 1 && rounds > 2) opt.iteration_begin = 1, opt.iteration_end = rounds - 1;
      auto const block = predict_on(p, kboost::HostPath::kBlock, X, opt, bm);
      auto const team = predict_on(p, kboost::HostPath::kTeam, X, opt, bm);
      for (kboost::HostIsa isa : {kboost::HostIsa::kScalar, kboost::best_host_isa()}) {
        p.set_host_isa(isa);
        auto const qs = predict_on(p, kboost::HostPath::kQuickScorer, X, opt, bm);
        bad += std::memcmp(qs.data(), block.data(), qs.size() * sizeof(float)) != 0;
        bad += std::memcmp(qs.data(), team.data(), qs.size() * sizeof(float)) != 0;
      }
    }
  return bad;
}

}  // namespace

TEST_CASE("predict_quickscorer " TEST_BACKEND ": synthetic edge forests equal the block walk and team kernel, 1 to 300 rows",
          "[predict][quickscorer]") {
  if constexpr (kQsHost) {
    QsRandom rng{7};
    for (bool dart : {false, true})
      for (float missing : {std::numeric_limits<float>::quiet_NaN(), 0.0f, 1.0f}) {
        kboost::Predictor<TEST_EXECSPACE> p(synthetic_forest(dart, false, 11 + (dart ? 1 : 0)));
        REQUIRE(p.quickscorer_refusal().empty());
        for (std::size_t rows : {1, 2, 7, 64, 65, 300}) {
          QsMatrix const X = qs_view(synthetic_rows(rows, 4, missing, rng), rows, 4);
          INFO((dart ? "dart" : "gbtree") << ", missing " << missing << ", " << rows << " rows");
          CHECK(quickscorer_mismatches(p, X, missing) == 0);
        }
      }
  }
}

TEST_CASE("predict_quickscorer " TEST_BACKEND ": forests of several tree chunks, ranges across their bounds, equal the block walk",
          "[predict][quickscorer]") {
  if constexpr (kQsHost) {
    QsRandom rng{5};
    kboost::Predictor<TEST_EXECSPACE> p(synthetic_forest(false, false, 17, kboost::kQuickScorerChunkTrees / 3 * 2 + 5));
    REQUIRE(p.quickscorer_refusal().empty());
    for (std::size_t rows : {1, 9, 70}) {
      QsMatrix const X = qs_view(synthetic_rows(rows, 4, 0.0f, rng), rows, 4);
      INFO(rows << " rows");
      CHECK(quickscorer_mismatches(p, X, 0.0f) == 0);
    }
  }
}

TEST_CASE("predict_quickscorer " TEST_BACKEND ": eligible golden models equal the block walk and team kernel, also at the splits' edges",
          "[predict][golden][quickscorer]") {
  if constexpr (kQsHost) {
    int served = 0;
    kboost::test::for_each_golden_case(false, [&](kboost::test::GoldenCase const& c) {
      kboost::Predictor<TEST_EXECSPACE> p(c.model_path);
      if (!p.quickscorer_refusal().empty()) {
        CHECK_THROWS_AS(p.set_host_path(kboost::HostPath::kQuickScorer), std::invalid_argument);
        return;
      }
      ++served;
      auto const& x = c.files.at("X");
      std::vector<float> const edges = kboost::test::edge_inputs(p.model(), c.options.missing, 100);
      QsConstMatrix bm;
      if (c.files.count("bm")) bm = qs_view(c.files.at("bm").values, c.files.at("bm").rows, c.files.at("bm").cols);
      QsMatrix const X = qs_view(x.values, x.rows, x.cols);
      std::ostringstream log;
      std::size_t const bad = kboost::test::count_bit_mismatches(predict_on(p, kboost::HostPath::kQuickScorer, X, c.options, bm),
                                                                 c.files.at("pred"), "pred", log);
      INFO(log.str());
      CHECK(bad == 0);
      CHECK(quickscorer_mismatches(p, X, c.options.missing, bm) == 0);
      CHECK(quickscorer_mismatches(p, qs_view(edges, 100, x.cols), c.options.missing) == 0);
    });
    CHECK(served >= 10);
  }
}

TEST_CASE("predict_quickscorer " TEST_BACKEND ": refuses trees of more than 64 leaves, categorical splits and vector leaves",
          "[predict][quickscorer]") {
  if constexpr (kQsHost) {
    kboost::Predictor<TEST_EXECSPACE> wide(synthetic_forest(false, true, 3));
    CHECK_THAT(wide.quickscorer_refusal(), Catch::Matchers::ContainsSubstring("tree 16 has more than 64 leaves"));
    CHECK_THROWS_WITH(wide.set_host_path(kboost::HostPath::kQuickScorer),
                      Catch::Matchers::ContainsSubstring("QuickScorer cannot serve this model: tree 16 has more than 64 leaves"));
    CHECK(wide.host_path() == kboost::HostPath::kBlock);
    kboost::Predictor<TEST_EXECSPACE> categorical(kboost::test::golden_path("models/categorical.ubj"));
    CHECK_THAT(categorical.quickscorer_refusal(), Catch::Matchers::ContainsSubstring("a categorical split"));
    kboost::Predictor<TEST_EXECSPACE> vector_leaf(kboost::test::golden_path("models/vector_leaf.ubj"));
    CHECK(vector_leaf.quickscorer_refusal() == "vector leaves");
    kboost::HostForest const h = kboost::flatten_forest(synthetic_forest(false, true, 3));
    CHECK_THROWS_AS(kboost::build_quickscorer(h, 3), std::invalid_argument);
  } else {
    kboost::Predictor<TEST_EXECSPACE> p(kboost::test::golden_path("models/binary_logistic.json"));
    CHECK_THROWS_AS(p.set_host_path(kboost::HostPath::kQuickScorer), std::invalid_argument);
  }
}
