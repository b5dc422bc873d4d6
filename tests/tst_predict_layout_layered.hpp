// Every kernel mapping (the (tree, row) blocking, (tree, row) pairs, one thread per row) over every
// forest layout (flatten_forest's dense/compact trees, flatten_forest_layered's interleaved groups)
// writes upstream XGBoost 3.2's bits on every golden model (dense, compact lossguide, categorical,
// DART, multiclass, vector leaves, missing markers, base margins) at odd batch sizes; the layered
// layout interleaves a group's levels; and the prediction tuner (engine/predict_tuner.hpp) measures,
// stores and reads back its choice, and refuses a bad KBOOST_PREDICT_TUNE.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <kboost/engine/predictor.hpp>
#include <kboost/engine/tune_store.hpp>
#include <kboost/kernels/predict_layout_layered.hpp>
#include "tests/golden_cases.hpp"

namespace {

using DevMatrix = Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE>;
using kboost::PredictChoice;
using kboost::PredictMapping;

/// Every forced choice: each mapping over the standard layout and layered groups of 1, 8 and 32 trees
/// (`few_groups`: the standard layout and groups of 8 only, for the larger shared models).
std::vector<PredictChoice> all_choices(bool few_groups = false) {
  std::vector<PredictChoice> out;
  for (auto m : {PredictMapping::kDefault, PredictMapping::kBlocking, PredictMapping::kPairs, PredictMapping::kRows})
    for (int g : {0, 1, 8, 32})
      if (!few_groups || g == 0 || g == 8) out.push_back({m, g});
  return out;
}

/// Rows [0, n) of a golden array, and of X as a device matrix.
kboost::test::GoldenArray first_rows(kboost::test::GoldenArray const& a, std::size_t n) {
  kboost::test::GoldenArray b;
  b.rows = n;
  b.cols = a.cols;
  b.values.assign(a.values.begin(), a.values.begin() + static_cast<std::ptrdiff_t>(n * a.cols));
  return b;
}

/// Bit mismatches of `predictor` against case `c`'s margins, outputs (first `n` rows) and leaf ids.
std::size_t mismatches(kboost::Predictor<TEST_EXECSPACE> const& predictor, kboost::test::GoldenCase const& c,
                       std::size_t n, std::ostringstream& log) {
  using kboost::test::count_bit_mismatches;
  auto const X = kboost::test::golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(first_rows(c.files.at("X"), n), "X");
  DevMatrix bm;
  if (c.files.count("bm"))
    bm = kboost::test::golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(first_rows(c.files.at("bm"), n), "bm");
  auto host = [](DevMatrix m) { return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m); };
  kboost::PredictOptions opt = c.options;
  std::size_t bad = 0;
  for (bool margin : {true, false}) {
    opt.output_margin = margin;
    char const* what = margin ? "margin" : "pred";
    bad += count_bit_mismatches(host(predictor.predict(X, opt, bm)), first_rows(c.files.at(what), n), what, log);
  }
  if (c.files.count("leaf") && n >= c.files.at("leaf").rows) {
    auto const& want = c.files.at("leaf");
    opt.pred_leaf = true;
    opt.output_margin = false;
    auto const Xl = kboost::test::golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(first_rows(c.files.at("X"), want.rows), "Xl");
    bad += count_bit_mismatches(host(predictor.predict(Xl, opt)), want, "leaf", log);
  }
  return bad;
}

/// Every forced choice on every golden case (of the repository's or the shared models), at the
/// whole batch and at odd batch sizes (1, 7, 33, 65 rows); the shared models with fewer layouts.
void check_all_choices(bool shared_models) {
  int const checked = kboost::test::for_each_golden_case(shared_models, [&](kboost::test::GoldenCase const& c) {
    for (PredictChoice const choice : all_choices(shared_models)) {
      kboost::PredictorConfig cfg;
      cfg.mapping = choice;
      cfg.tune = kboost::PredictorConfig::Tune::kOff;
      kboost::Predictor<TEST_EXECSPACE> const predictor(c.model_path, cfg);
      std::size_t const rows = c.files.at("X").rows;
      for (std::size_t n : {rows, std::size_t{1}, std::size_t{7}, std::size_t{33}, std::size_t{65}}) {
        if (n > rows) continue;
        std::ostringstream log;
        std::size_t const bad = mismatches(predictor, c, n, log);
        INFO("choice " << choice.name() << ", " << n << " rows\n" << log.str());
        CHECK(bad == 0);
      }
    }
  });
  CHECK(checked >= 10);
}

/// Runs f with environment variable `name` set to `value` (nullopt: unset), then restores it.
void with_env(char const* name, std::optional<std::string> const& value, std::function<void()> const& f) {
  char const* old = std::getenv(name);
  std::optional<std::string> const saved = old ? std::optional<std::string>(old) : std::nullopt;
  auto set = [name](std::optional<std::string> const& v) {
    if (v) ::setenv(name, v->c_str(), 1);
    else ::unsetenv(name);
  };
  set(value);
  try {
    f();
  } catch (...) {
    set(saved);
    throw;
  }
  set(saved);
}

}  // namespace

TEST_CASE("predict_layout_layered " TEST_BACKEND ": every mapping and layout is bit-identical to XGBoost 3.2 on the golden models",
          "[predict][golden][layout]") {
  check_all_choices(false);
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": every mapping and layout is bit-identical to XGBoost 3.2 on every shared model",
          "[predict][golden][layout][shared]") {
  check_all_choices(true);
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": a group's trees are interleaved level by level", "[predict][layout]") {
  auto const m = kboost::read_model(kboost::test::golden_path("models/binary_logistic.json"));
  auto const c = kboost::flatten_forest(m, -1);
  auto const h = kboost::flatten_forest_layered(m, 8);
  int const n_trees = static_cast<int>(m.trees.size());
  REQUIRE(n_trees == 8);
  REQUIRE(h.nodes.size() == c.nodes.size());
  for (int t = 0; t < n_trees; ++t) {
    INFO("tree " << t);
    CHECK(h.tree_begin[t] == t);  // the roots first, side by side
    CHECK(h.tree_dense[t] == 0);
    // the root's children follow every root: tree t's pair after those of trees 0 .. t-1
    auto const& root = h.nodes[h.tree_begin[t]];
    if (!(root.flags & kboost::PredictNode::kLeaf)) {
      CHECK(h.tree_begin[t] + root.child >= n_trees);
      CHECK(h.node_ids[h.tree_begin[t] + root.child] == m.trees[t].left_children[0]);
      CHECK(h.node_ids[h.tree_begin[t] + root.child + 1] == m.trees[t].right_children[0]);
    }
  }
  CHECK(h.tree_begin[n_trees] == static_cast<std::int32_t>(h.nodes.size()));
  CHECK_THROWS_WITH(kboost::flatten_forest_layered(m, 0), Catch::Matchers::ContainsSubstring("group_size"));
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": the tuner measures a choice, stores it, and a second Predictor reads it back",
          "[predict][tune]") {
  namespace fs = std::filesystem;
  auto const dir = kboost::test::temp_dir("predict_tune");
  fs::remove_all(dir);
  bool seen = false;
  kboost::test::for_each_golden_case(false, [&](kboost::test::GoldenCase const& c) {
    if (c.name != "trained_multi_softprob") return;
    seen = true;
    kboost::PredictorConfig cfg;
    cfg.tune = kboost::PredictorConfig::Tune::kOn;
    cfg.tune_dir = (dir / "store").string();
    cfg.tune_options.rounds = 1;
    kboost::Predictor<TEST_EXECSPACE> const a(c.model_path, cfg);
    CHECK(a.tuning());
    auto const X = kboost::test::golden_view<Kokkos::LayoutRight, TEST_MEMSPACE>(c.files.at("X"), "X");
    DevMatrix out("out", X.extent(0), static_cast<std::size_t>(a.output_columns(c.options)));
    auto const r = a.tuned_choice(TEST_EXECSPACE(), X, out, c.options);
    INFO(r.describe());
    CHECK(r.source == kboost::PredictTuneResult::Source::kMeasured);
    CHECK(r.timings.size() == 9);  // blocking, pairs, rows × standard, layered8, layered32
    CHECK(r.choice.mapping != PredictMapping::kDefault);
    REQUIRE_FALSE(r.store_file.empty());
    CHECK(fs::exists(r.store_file));
    std::string const device = kboost::predict_tune_device_key(TEST_EXECSPACE());
    CHECK(kboost::TuneStore(device, (dir / "store").string()).get(r.key) == r.choice.encode());
    std::ostringstream log;
    CHECK(mismatches(a, c, c.files.at("X").rows, log) == 0);  // tuned calls: upstream's bits
    // a second Predictor of the same model reads the stored choice back instead of measuring
    kboost::Predictor<TEST_EXECSPACE> const b(c.model_path, cfg);
    auto const rb = b.tuned_choice(TEST_EXECSPACE(), X, out, c.options);
    CHECK(rb.source == kboost::PredictTuneResult::Source::kStore);
    CHECK(rb.key == r.key);
    CHECK(rb.choice == r.choice);
    // whatever the store holds is what a new Predictor uses (still upstream's bits)
    PredictChoice const other{r.choice.mapping == PredictMapping::kRows ? PredictMapping::kPairs : PredictMapping::kRows, 32};
    kboost::TuneStore(device, (dir / "store").string()).put(r.key, other.encode());
    kboost::Predictor<TEST_EXECSPACE> const d(c.model_path, cfg);
    CHECK(d.tuned_choice(TEST_EXECSPACE(), X, out, c.options).choice == other);
    CHECK(mismatches(d, c, c.files.at("X").rows, log) == 0);
    INFO(log.str());
    // another batch class is measured afresh
    auto const X7 = Kokkos::subview(X, std::make_pair(std::size_t{0}, std::size_t{7}), Kokkos::ALL());
    auto const out7 = Kokkos::subview(out, std::make_pair(std::size_t{0}, std::size_t{7}), Kokkos::ALL());
    auto const r7 = d.tuned_choice(TEST_EXECSPACE(), X7, out7, c.options);
    CHECK(r7.key != r.key);
    CHECK(r7.source == kboost::PredictTuneResult::Source::kMeasured);
  });
  CHECK(seen);
  fs::remove_all(dir);
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": KBOOST_PREDICT_TUNE is 0, 1 or unset; anything else is an error",
          "[predict][tune]") {
  auto const path = kboost::test::golden_path("models/binary_logistic.json");
  with_env("KBOOST_PREDICT_TUNE", std::nullopt, [&] { CHECK_FALSE(kboost::Predictor<TEST_EXECSPACE>(path).tuning()); });
  with_env("KBOOST_PREDICT_TUNE", std::string("0"), [&] { CHECK_FALSE(kboost::Predictor<TEST_EXECSPACE>(path).tuning()); });
  with_env("KBOOST_PREDICT_TUNE", std::string("1"), [&] {
    CHECK(kboost::Predictor<TEST_EXECSPACE>(path).tuning());
    kboost::PredictorConfig forced;
    forced.mapping = PredictChoice{PredictMapping::kPairs, 0};
    CHECK_FALSE(kboost::Predictor<TEST_EXECSPACE>(path, forced).tuning());  // a forced mapping wins
  });
  for (char const* bad : {"yes", "2", "true", ""}) {
    with_env("KBOOST_PREDICT_TUNE", std::string(bad), [&] {
      INFO("KBOOST_PREDICT_TUNE='" << bad << "'");
      CHECK_THROWS_WITH(kboost::Predictor<TEST_EXECSPACE>(path), Catch::Matchers::ContainsSubstring("KBOOST_PREDICT_TUNE"));
      kboost::PredictorConfig off;
      off.tune = kboost::PredictorConfig::Tune::kOff;
      CHECK_NOTHROW(kboost::Predictor<TEST_EXECSPACE>(path, off));  // the config decides, the variable is not read
    });
  }
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": choices encode to the store and back; batch classes are powers of 4",
          "[predict][tune]") {
  for (PredictChoice const c : all_choices()) CHECK(PredictChoice::decode(c.encode()) == c);
  CHECK_FALSE(PredictChoice::decode(-1).has_value());
  CHECK_FALSE(PredictChoice::decode(7).has_value());
  CHECK(kboost::predict_batch_class(1) == 0);
  CHECK(kboost::predict_batch_class(3) == 0);
  CHECK(kboost::predict_batch_class(4) == 1);
  CHECK(kboost::predict_batch_class(1000) == 4);
  CHECK(kboost::predict_batch_class(1024) == 5);
  CHECK(kboost::predict_batch_class(1000000) == 9);
}
