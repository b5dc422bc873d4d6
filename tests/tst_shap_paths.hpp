// The path-parallel TreeSHAP kernel (kernels/tree_shap_paths.hpp, ShapKernel::kPathParallel)
// against upstream XGBoost 3.2.0's CPU pred_contribs goldens (tests/golden/make_shap_goldens.py)
// and the per-row kernel: BIT-identical on every SHAP case, in any row and tree chunks.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <sstream>
#include <string>

#include <kboost/engine/explainer.hpp>
#include <kboost/kernels/shap_paths.hpp>
#include <kboost/kernels/tree_shap_paths.hpp>
#include "tests/golden_cases.hpp"
#include "tests/shap_cases.hpp"

namespace {

using kboost::test::ShapCase;
using kboost::test::flat_host;
using kboost::test::for_each_shap_case;

/// Bytes of two host results that differ (same shapes required).
template <class A, class B>
std::size_t differing_floats(A const& a, B const& b) {
  REQUIRE(a.size() == b.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += std::memcmp(a.data() + i, b.data() + i, sizeof(float)) != 0;
  return n;
}

/// Every case's contributions from the path kernel (whole, one row and one tree per launch, and a
/// few rows and trees per launch) equal upstream's bits and the per-row kernel's.
void check_path_kernel(bool shared_models) {
  int deepest = 0;
  int const checked = for_each_shap_case(shared_models, [&](ShapCase const& c) {
    if (!c.error.empty()) return;
    INFO("case " << c.name);
    kboost::Explainer<TEST_EXECSPACE> explainer(c.model_path);
    deepest = std::max(deepest, kboost::flatten_shap_forest(explainer.model()).max_depth);
    kboost::ShapOptions per_row = c.options, paths = c.options;
    per_row.kernel = kboost::ShapKernel::kPerRow;
    paths.kernel = kboost::ShapKernel::kPathParallel;
    auto const want = flat_host(explainer.contributions(c.X, per_row, c.bm));
    std::ostringstream log;
    CHECK(kboost::test::count_bit_mismatches(want, c.want.at("contribs"), "contribs per row", log) == 0);
    for (std::size_t limit : {std::size_t{256} << 20, std::size_t{1}, std::size_t{6000}}) {
      INFO("scratch limit " << limit);
      explainer.set_scratch_limit(limit);
      auto const got = flat_host(explainer.contributions(c.X, paths, c.bm));
      CHECK(kboost::test::count_bit_mismatches(got, c.want.at("contribs"), "contribs by paths", log) == 0);
      CHECK(differing_floats(got, want) == 0);
    }
    INFO(log.str());
  });
  CHECK(checked >= (shared_models ? 9 : 20));
  if (!shared_models) CHECK(deepest >= 6);
}

/// A repository model's SHAP layout and its paths.
struct ModelPaths {
  kboost::HostShapForest forest;
  kboost::HostShapPaths paths;
  int n_trees;
  explicit ModelPaths(std::string const& model)
      : forest(kboost::flatten_shap_forest(kboost::Explainer<TEST_EXECSPACE>(kboost::test::golden_path("models/" + model)).model())),
        paths(kboost::extract_shap_paths(forest)),
        n_trees(static_cast<int>(forest.tree_begin.size()) - 1) {}
};

}  // namespace

TEST_CASE("shap_paths " TEST_BACKEND ": path-parallel TreeSHAP bit-identical to XGBoost 3.2 CPU and the per-row kernel",
          "[shap][paths][golden]") {
  check_path_kernel(false);
}

TEST_CASE("shap_paths " TEST_BACKEND ": path-parallel TreeSHAP bit-identical on every shared model",
          "[shap][paths][golden][shared]") {
  check_path_kernel(true);
}

TEST_CASE("shap_paths " TEST_BACKEND ": one path per leaf, each with its distinct split features as terms",
          "[shap][paths]") {
  ModelPaths const m("categorical.ubj");
  auto const& h = m.forest;
  auto const& p = m.paths;
  int const n_trees = m.n_trees;
  REQUIRE(static_cast<int>(p.tree_path_begin.size()) == n_trees + 1);
  for (int t = 0; t < n_trees; ++t) {
    int leaves = 0;
    for (int s = h.tree_begin[t]; s < h.tree_begin[t + 1]; ++s) leaves += (h.nodes[s].split.flags & kboost::PredictNode::kLeaf) != 0;
    CHECK(p.tree_path_begin[t + 1] - p.tree_path_begin[t] == leaves);
    for (int q = p.tree_path_begin[t]; q < p.tree_path_begin[t + 1]; ++q) {
      CHECK(p.path_tree[q] == t);
      CHECK(p.steps[p.step_begin[q]].node == h.tree_begin[t]);
      CHECK((h.nodes[p.steps[p.step_begin[q + 1] - 1].node].split.flags & kboost::PredictNode::kLeaf) != 0);
      std::vector<int> features;
      for (int s = p.step_begin[q]; s + 1 < p.step_begin[q + 1]; ++s) features.push_back(h.nodes[p.steps[s].node].split.feature);
      std::sort(features.begin(), features.end());
      features.erase(std::unique(features.begin(), features.end()), features.end());
      CHECK(p.term_begin[q + 1] - p.term_begin[q] == static_cast<int>(features.size()));
    }
  }
}

TEST_CASE("shap_paths " TEST_BACKEND ": chunk plans cover every tree once and stay within the scratch limit",
          "[shap][paths]") {
  ModelPaths const m("multi_softprob.json");
  for (std::size_t limit : {std::size_t{1}, std::size_t{3000}, std::size_t{20000}, std::size_t{1} << 30}) {
    INFO("limit " << limit);
    auto const plan = kboost::plan_shap_paths(m.paths, m.forest.tree_features_begin, m.n_trees, 500, limit);
    int next = 0;
    for (auto const& c : plan.chunks) {
      CHECK(c.tree0 == next);
      CHECK(c.tree1 > c.tree0);
      next = c.tree1;
    }
    CHECK(next == m.n_trees);
    CHECK(plan.rows >= 1);
    CHECK(plan.rows <= 500);
    if (limit >= std::size_t{1} << 30) CHECK((plan.rows == 500 && plan.chunks.size() == 1));
    if (plan.rows > 1) CHECK(plan.bytes() <= limit);
    if (limit == 1) CHECK((plan.rows == 1 && static_cast<int>(plan.chunks.size()) == m.n_trees));
  }
}

TEST_CASE("shap_paths " TEST_BACKEND ": the path-parallel kernel refuses what it does not compute", "[shap][paths]") {
  kboost::Explainer<TEST_EXECSPACE> explainer(kboost::test::golden_path("models/binary_logistic.json"));
  kboost::test::DevMatrix X("X", 3, static_cast<std::size_t>(explainer.model().num_feature));
  kboost::ShapOptions opt;
  opt.kernel = kboost::ShapKernel::kPathParallel;
  opt.approx_contribs = true;
  CHECK_THROWS_WITH(explainer.contributions(X, opt), Catch::Matchers::ContainsSubstring("approx_contribs"));
  opt.approx_contribs = false;
  CHECK_THROWS_WITH(explainer.interactions(X, opt), Catch::Matchers::ContainsSubstring("interaction values"));
  opt.kernel = kboost::ShapKernel::kAuto;
  CHECK_NOTHROW(explainer.interactions(X, opt));
}
