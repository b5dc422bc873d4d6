// Predictor semantics on a hand-written model (values follow upstream 3.2's rules: left iff x < cond,
// missing -> default child, categories in the stored set go right, DART leaf x weight, base_margin
// replaces base_score), options (pred_leaf, iteration range, missing marker), input checks, and
// batch-size independence of the bits (one row at a time == whole batch) on a golden model.
#include <catch2/catch_test_macros.hpp>
#include <nlohmann/json.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include <kboost/engine/predictor.hpp>
#include <kboost/kernels/leaves.hpp>
#include "tests/predict_test_models.hpp"
#include "tests/test_util.hpp"

namespace {
using kboost::test::kNaN;

using Mat = Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE>;

Mat make_rows(std::vector<std::vector<float>> const& rows) {
  Mat d("rows", rows.size(), rows.empty() ? 0 : rows[0].size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < rows[i].size(); ++j) h(i, j) = rows[i][j];
  Kokkos::deep_copy(d, h);
  return d;
}

std::vector<float> column(Mat m, std::size_t col = 0) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
  std::vector<float> v(h.extent(0));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = h(i, col);
  return v;
}

kboost::Predictor<TEST_EXECSPACE> tiny(nlohmann::json const& j) {
  return kboost::Predictor<TEST_EXECSPACE>(kboost::parse_model(j.dump(), "tiny.json"));
}

/// Makes node 2 of the tiny model categorical on x1 with the right-going set {1, 3, 40}, and the rows
/// that probe it: in the set, truncated into it (3.7), beyond it, negative, >= 2^24, NaN (default:
/// right) and 0.
Mat categorical_node2(nlohmann::json& j) {
  auto& t = j["learner"]["gradient_booster"]["model"]["trees"][0];
  t["split_type"][2] = 1;
  t["split_conditions"][2] = nullptr;  // XGBoost 1.4-3.0 write NaN there
  t["categories_nodes"] = {2};
  t["categories_segments"] = {0};
  t["categories_sizes"] = {3};
  t["categories"] = {1, 3, 40};
  return make_rows({{1.f, 1.f}, {1.f, 2.f}, {1.f, 3.f}, {1.f, 3.7f}, {1.f, 40.f}, {1.f, 41.f}, {1.f, 100.f},
                    {1.f, -1.f}, {1.f, 16777216.f}, {1.f, kNaN}, {1.f, 0.f}});
}

}  // namespace

TEST_CASE("predict options " TEST_BACKEND ": numerical, missing, categorical routing", "[predict]") {
  auto j = kboost::test::tiny_model_json();
  auto p = tiny(j);
  auto X = make_rows({{0.2f, 0.f}, {0.5f, 1.0f}, {0.7f, 1.5f}, {kNaN, 9.f}, {0.9f, kNaN}, {0.9f, -999.f}});
  CHECK(column(p.predict(X)) == std::vector<float>{-0.5f, 2.5f, 3.5f, -0.5f, 3.5f, 2.5f});
  kboost::PredictOptions missing;
  missing.missing = -999.f;  // row 5: x1 missing -> default right
  CHECK(column(p.predict(X, missing)) == std::vector<float>{-0.5f, 2.5f, 3.5f, -0.5f, 3.5f, 3.5f});
  kboost::PredictOptions leaf;
  leaf.pred_leaf = true;
  CHECK(column(p.predict(X, leaf)) == std::vector<float>{1, 3, 4, 1, 4, 3});

  auto Xc = categorical_node2(j);
  auto c = tiny(j);
  // 3.7 truncates to category 3 (right); beyond the set, negative and >= 2^24 go left; NaN -> default (right).
  CHECK(column(c.predict(Xc)) == std::vector<float>{3.5f, 2.5f, 3.5f, 3.5f, 3.5f, 2.5f, 2.5f, 2.5f, 2.5f, 3.5f, 2.5f});
}

TEST_CASE("predict options " TEST_BACKEND ": eval-set margins route rows as the predictor", "[predict][eval]") {
  // kernels/leaves.hpp add_tree_margins (training's eval sets, DART, continued fits): margin += leaf
  // times the weight, through the same split rule; NaN is the only missing value there.
  auto j = kboost::test::tiny_model_json();
  auto margins = [&](Mat X, float weight) {
    auto const dt = kboost::upload_tree<TEST_MEMSPACE>(kboost::parse_model(j.dump(), "tiny.json").trees[0]);
    Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE> m("margin", X.extent(0), 1);
    Kokkos::deep_copy(m, 0.25f);
    kboost::add_tree_margins(TEST_EXECSPACE(), Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE>(X), dt, m,
                             0, weight);
    return column(m);
  };
  auto X = make_rows({{0.2f, 0.f}, {0.5f, 1.0f}, {0.7f, 1.5f}, {kNaN, 9.f}, {0.9f, kNaN}, {0.9f, -999.f}});
  CHECK(margins(X, 1.0f) == std::vector<float>{-0.75f, 2.25f, 3.25f, -0.75f, 3.25f, 2.25f});
  CHECK(margins(X, 0.5f) == std::vector<float>{-0.25f, 1.25f, 1.75f, -0.25f, 1.75f, 1.25f});

  auto Xc = categorical_node2(j);
  CHECK(margins(Xc, 1.0f) ==
        std::vector<float>{3.25f, 2.25f, 3.25f, 3.25f, 3.25f, 2.25f, 2.25f, 2.25f, 2.25f, 3.25f, 2.25f});
}

TEST_CASE("predict options " TEST_BACKEND ": DART weights, base_margin, iteration range, transforms", "[predict]") {
  auto j = kboost::test::tiny_model_json();
  auto& model = j["learner"]["gradient_booster"]["model"];
  model["trees"].push_back(model["trees"][0]);
  model["tree_info"] = {0, 0};
  model["iteration_indptr"] = {0, 1, 2};
  model["gbtree_model_param"]["num_trees"] = "2";
  auto X = make_rows({{0.2f, 0.f}, {0.7f, 1.5f}});
  CHECK(column(tiny(j).predict(X)) == std::vector<float>{-1.5f, 6.5f});
  kboost::PredictOptions second;
  second.iteration_begin = 1;
  second.iteration_end = 2;
  CHECK(column(tiny(j).predict(X, second)) == std::vector<float>{-0.5f, 3.5f});
  kboost::PredictOptions bad;
  bad.iteration_end = 3;
  CHECK_THROWS_WITH(tiny(j).predict(X, bad), Catch::Matchers::ContainsSubstring("iteration_range"));

  auto bm = make_rows({{10.f}, {20.f}});
  CHECK(column(tiny(j).predict(X, {}, bm)) == std::vector<float>{8.f, 26.f});

  // 3.3 layout: "gbtree" + weight_drop beside "model"; 3.4: inside "model"; old: {"name":"dart",...}.
  auto d33 = j;
  d33["learner"]["gradient_booster"]["weight_drop"] = {0.5, 0.25};
  CHECK(column(tiny(d33).predict(X)) == std::vector<float>{0.5f - 0.5f - 0.25f, 0.5f + 1.5f + 0.75f});
  auto d34 = j;
  d34["learner"]["gradient_booster"]["model"]["weight_drop"] = {0.5, 0.25};
  CHECK(column(tiny(d34).predict(X)) == std::vector<float>{-0.25f, 2.75f});
  auto dold = j;
  dold["learner"]["gradient_booster"] = {{"name", "dart"},
                                         {"gbtree", {{"name", "gbtree"}, {"model", model}}},
                                         {"weight_drop", {0.5, 0.25}}};
  CHECK(column(tiny(dold).predict(X)) == std::vector<float>{-0.25f, 2.75f});

  // binary:logistic: base_score 0.5 -> margin 0; output = upstream Sigmoid; hinge; poisson exp.
  auto lg = j;
  lg["learner"]["objective"]["name"] = "binary:logistic";
  kboost::PredictOptions margin;
  margin.output_margin = true;
  CHECK(column(tiny(lg).predict(X, margin)) == std::vector<float>{-2.0f, 6.0f});
  auto prob = column(tiny(lg).predict(X));
  CHECK(prob[0] == 1.0f / (kboost::pmath::expf(2.0f) + 1.0f + 1e-16f));
  auto hinge = lg;
  hinge["learner"]["objective"]["name"] = "binary:hinge";
  CHECK(column(tiny(hinge).predict(X)) == std::vector<float>{0.f, 1.f});
}

TEST_CASE("predict options " TEST_BACKEND ": input checks", "[predict]") {
  auto p = tiny(kboost::test::tiny_model_json());
  CHECK_THROWS_WITH(p.predict(make_rows({{1.f, 2.f, 3.f}})), Catch::Matchers::ContainsSubstring("expects 2"));
  Mat wrong("out", 1, 3);
  CHECK_THROWS(p.predict_into(make_rows({{1.f, 2.f}}), wrong));
  CHECK(p.predict(Mat("empty", 0, 2)).extent(0) == 0);
}

TEST_CASE("predict options " TEST_BACKEND ": bits do not depend on the batch size", "[predict]") {
  kboost::Predictor<TEST_EXECSPACE> p(kboost::test::golden_path("models/multi_softprob.json"));
  int const f = p.model().num_feature;
  std::vector<std::vector<float>> rows;
  for (int i = 0; i < 150; ++i) {
    rows.emplace_back();
    for (int k = 0; k < f; ++k) rows.back().push_back(((i * 31 + k * 17) % 23 == 0) ? kNaN : std::sin(0.37f * i + k));
  }
  auto all = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.predict(make_rows(rows)));
  for (int i : {0, 1, 63, 64, 149}) {
    auto one = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.predict(make_rows({rows[i]})));
    for (std::size_t k = 0; k < one.extent(1); ++k) {
      INFO("row " << i << " output " << k);
      CHECK(std::memcmp(&one(0, k), &all(i, k), 4) == 0);
    }
  }
}
