// Every kernel mapping (the (tree, row) blocking, (tree, row) pairs, one thread per row) over every
// forest layout (flatten_forest's dense/compact trees, flatten_forest_layered's interleaved groups)
// writes upstream XGBoost 3.2's bits on every golden model (dense, compact lossguide, categorical,
// DART, multiclass, vector leaves, missing markers, base margins) at odd batch sizes; the layered
// layout interleaves a group's levels; the blocking with the top levels of its trees staged in team
// scratch (kernels/predict_staged.hpp) keeps the bits on the golden models and on a deep unbalanced
// forest; and the prediction tuner (engine/predict_tuner.hpp) measures, stores and reads back its
// choice, and refuses a bad KBOOST_PREDICT_TUNE.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <kboost/engine/predictor.hpp>
#include <kboost/engine/tune_store.hpp>
#include <kboost/kernels/predict_layout_layered.hpp>
#include <kboost/kernels/predict_staged.hpp>
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

/// The blocking with staged levels 1, 3 and 7 (deeper than the golden trees) over the standard layout
/// and layered groups of 8.
std::vector<PredictChoice> staged_choices() {
  std::vector<PredictChoice> out;
  for (int g : {0, 8})
    for (int k : {1, 3, 7}) out.push_back({PredictMapping::kBlocking, g, k});
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

/// Every forced choice of `choices` on every golden case (of the repository's or the shared models),
/// at the whole batch and at odd batch sizes (1, 7, 33, 65 rows).
void check_all_choices(bool shared_models, std::vector<PredictChoice> const& choices) {
  int const checked = kboost::test::for_each_golden_case(shared_models, [&](kboost::test::GoldenCase const& c) {
    for (PredictChoice const choice : choices) {
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

/// A deep unbalanced forest as lossguide grows one: each tree splits one leaf at a time, mostly the
/// newest (so chains reach the depth limit of 8 to 10 levels below the root), 40 splits per tree;
/// random features of `n_feat`, thresholds in [0, 1), mixed default directions.
kboost::Model deep_forest(int n_trees, int n_feat, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  kboost::Model m;
  m.base_score = {0.5f};
  m.num_feature = n_feat;
  m.iteration_indptr = {0};
  for (int t = 0; t < n_trees; ++t) {
    kboost::TreeModel tr;
    tr.num_feature = n_feat;
    std::vector<int> depth;
    auto add_node = [&](int parent, int d) {
      tr.left_children.push_back(-1);
      tr.right_children.push_back(-1);
      tr.split_indices.push_back(0);
      tr.parents.push_back(parent);
      tr.split_conditions.push_back(u(rng) - 0.5f);
      tr.default_left.push_back(0);
      for (auto* v : {&tr.loss_changes, &tr.sum_hessian, &tr.base_weights}) v->push_back(0.0f);
      depth.push_back(d);
    };
    add_node(-1, 0);
    int const limit = 8 + t % 3;
    for (int split = 0, newest = 0; split < 40; ++split) {
      std::vector<int> open;
      for (int i = 0; i < static_cast<int>(depth.size()); ++i)
        if (tr.left_children[i] == -1 && depth[i] < limit) open.push_back(i);
      if (open.empty()) break;
      bool const chain = rng() % 4 != 0 && tr.left_children[newest] == -1 && depth[newest] < limit;
      int const i = chain ? newest : open[rng() % open.size()];
      tr.left_children[i] = static_cast<int>(depth.size());
      tr.right_children[i] = tr.left_children[i] + 1;
      tr.split_indices[i] = static_cast<int>(rng() % static_cast<unsigned>(n_feat));
      tr.split_conditions[i] = u(rng);
      tr.default_left[i] = static_cast<std::uint8_t>(rng() & 1u);
      add_node(i, depth[i] + 1);
      add_node(i, depth[i] + 1);
      newest = tr.left_children[i] + static_cast<int>(rng() & 1u);
    }
    m.trees.push_back(std::move(tr));
    m.tree_info.push_back(0);
    m.iteration_indptr.push_back(t + 1);
  }
  return m;
}

/// `n` rows of `n_feat` features in [0, 1), about 5% missing (NaN), as a device matrix.
DevMatrix random_rows(std::size_t n, int n_feat, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  DevMatrix X("X", n, static_cast<std::size_t>(n_feat));
  auto h = Kokkos::create_mirror_view(X);
  for (std::size_t r = 0; r < n; ++r)
    for (int j = 0; j < n_feat; ++j) h(r, j) = u(rng) < 0.05f ? std::nanf("") : u(rng);
  Kokkos::deep_copy(X, h);
  return X;
}

/// Whether two host copies of device matrices hold the same bytes.
bool same_bits(DevMatrix const& a, DevMatrix const& b) {
  auto const ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto const hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  return ha.extent(0) == hb.extent(0) && ha.extent(1) == hb.extent(1) &&
         std::memcmp(ha.data(), hb.data(), ha.size() * sizeof(float)) == 0;
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
  check_all_choices(false, all_choices());
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": every mapping and layout is bit-identical to XGBoost 3.2 on every shared model",
          "[predict][golden][layout][shared]") {
  std::vector<PredictChoice> choices = all_choices(true);
  for (int g : {0, 8}) choices.push_back({PredictMapping::kBlocking, g, 4});
  check_all_choices(true, choices);
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
    CHECK(r.timings.size() == 10);  // blocking, pairs, rows × standard, layered8, layered32; blocking/staged3
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

TEST_CASE("predict_layout_layered " TEST_BACKEND ": the blocking with staged top levels is bit-identical to XGBoost 3.2 on the golden models",
          "[predict][golden][layout]") {
  check_all_choices(false, staged_choices());
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": staged top levels give the default predictor's bits on a deep unbalanced forest",
          "[predict][layout]") {
  int const n_feat = 6;
  auto const m = deep_forest(24, n_feat, 7u);
  REQUIRE(kboost::flatten_forest(m).max_depth >= 8);
  auto const X = random_rows(300, n_feat, 11u);
  auto const X1 = Kokkos::subview(X, std::make_pair(std::size_t{0}, std::size_t{1}), Kokkos::ALL());
  kboost::PredictorConfig off;
  off.tune = kboost::PredictorConfig::Tune::kOff;
  kboost::Predictor<TEST_EXECSPACE> const reference(m, off);
  kboost::PredictOptions leaf;
  leaf.pred_leaf = true;
  for (int g : {0, 8})
    for (int k : {1, 3, 10, 12}) {
      kboost::PredictorConfig cfg = off;
      cfg.mapping = PredictChoice{PredictMapping::kBlocking, g, k};
      kboost::Predictor<TEST_EXECSPACE> const staged(m, cfg);
      INFO(cfg.mapping.name());
      CHECK(same_bits(staged.predict(X), reference.predict(X)));
      CHECK(same_bits(staged.predict(X1), reference.predict(X1)));
      CHECK(same_bits(staged.predict(X, leaf), reference.predict(X, leaf)));
    }
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": the pairs' sum over many tiles of trees keeps the blocking's bits at small batches",
          "[predict][layout]") {
  int const n_feat = 5;
  auto const m = deep_forest(1100, n_feat, 3u);  // 1,100 trees: up to three tiles of leaf words at 16 rows
  auto const X = random_rows(40, n_feat, 5u);
  kboost::PredictorConfig blocking;
  blocking.tune = kboost::PredictorConfig::Tune::kOff;
  blocking.mapping = PredictChoice{PredictMapping::kBlocking, 0};
  kboost::PredictorConfig pairs;  // built, not copied: GCC 12 warns (wrongly) of an uninitialised copy of tune_dir
  pairs.tune = kboost::PredictorConfig::Tune::kOff;
  pairs.mapping = PredictChoice{PredictMapping::kPairs, 0};
  kboost::Predictor<TEST_EXECSPACE> const reference(m, blocking);
  kboost::Predictor<TEST_EXECSPACE> const tiled(m, pairs);
  for (std::size_t n : std::vector<std::size_t>{1, 2, 9, 16, 17, 40}) {
    auto const Xn = Kokkos::subview(X, std::make_pair(std::size_t{0}, n), Kokkos::ALL());
    INFO(n << " rows");
    CHECK(same_bits(tiled.predict(Xn), reference.predict(Xn)));
  }
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": a walk through a staged heap reaches traverse_tree's leaf at any depth",
          "[predict][layout]") {
  int const n_feat = 6;
  auto const m = deep_forest(12, n_feat, 3u);
  auto const X = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), random_rows(100, n_feat, 5u));
  for (int g : {0, 8}) {
    auto const f = kboost::upload_forest<Kokkos::HostSpace>(g == 0 ? kboost::flatten_forest(m) : kboost::flatten_forest_layered(m, g));
    for (int k : {1, 2, 3, 12}) {
      int const slots = kboost::staged_slots(k);
      std::size_t bad = 0;
      for (int t = 0; t < f.n_trees; ++t) {
        std::vector<kboost::PredictNode> nodes(static_cast<std::size_t>(slots));
        std::vector<std::int32_t> pos(static_cast<std::size_t>(slots), 0);
        nodes[0] = f.nodes(f.tree_begin(t));
        for (int h = 1; h < slots; ++h) kboost::stage_heap_entry(f, t, h, nodes.data(), pos.data());
        for (std::size_t r = 0; r < X.extent(0); ++r) {
          float const* x = &X(r, 0);
          bad += kboost::traverse_staged(f, t, x, std::nanf(""), nodes.data(), pos.data(), k) !=
                 kboost::traverse_tree(f, t, x, std::nanf(""));
        }
      }
      INFO("layered " << g << ", " << k << " levels");
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": staged levels are clamped to what fits, shortening the chunks",
          "[predict][layout]") {
  auto const bytes = [](int trees, int slots) { return std::size_t{1000} + static_cast<std::size_t>(trees) * (4 + 20 * static_cast<std::size_t>(slots)); };
  auto const fit = [&](int levels, int trees) {
    auto const r = kboost::staged_fit(levels, trees, bytes, 32768);
    return std::make_pair(r.levels, r.trees);
  };
  CHECK(fit(3, 64) == std::make_pair(3, 64));   // 64 trees of 7 entries: 10 KiB
  CHECK(fit(5, 64) == std::make_pair(5, 50));   // 31 entries: 624 bytes a tree, 50 trees fit
  CHECK(fit(12, 64) == std::make_pair(7, 12));  // 8 trees of 127 entries fit, of 255 not
  CHECK(fit(12, 4) == std::make_pair(8, 4));    // fewer trees than kStagedMinTrees: all of them
  CHECK(fit(0, 64) == std::make_pair(0, 64));
  CHECK(kboost::staged_fit(3, 64, bytes, 900).levels == 0);  // not even the rest fits
}

TEST_CASE("predict_layout_layered " TEST_BACKEND ": choices are named, parsed and stored with their staged levels",
          "[predict][tune]") {
  std::vector<PredictChoice> choices = all_choices();
  for (PredictChoice const c : staged_choices()) choices.push_back(c);
  choices.push_back({PredictMapping::kBlocking, 0, kboost::kMaxStagedLevels});
  for (PredictChoice const c : choices) {
    INFO(c.name());
    CHECK(PredictChoice::decode(c.encode()) == c);
    CHECK(PredictChoice::parse(c.name()) == c);
  }
  CHECK(PredictChoice{PredictMapping::kBlocking, 8, 4}.name() == "blocking/layered8/staged4");
  CHECK(PredictChoice{PredictMapping::kBlocking, 8, 0}.encode() == 1 + 16 * 8);  // codes stored before staging
  for (char const* bad : {"pairs/staged3", "blocking/staged0", "blocking/staged13", "blocking/layered", "blocking/staged3/layered8",
                          "blocking/x", "block", "blocking/layered8/staged4/staged4", ""}) {
    INFO(bad);
    CHECK_FALSE(PredictChoice::parse(bad).has_value());
  }
  CHECK_FALSE(PredictChoice::decode(PredictChoice::kStagedUnit * 3 + 2).has_value());  // pairs with staged levels
  kboost::PredictorConfig cfg;
  cfg.mapping = PredictChoice{PredictMapping::kRows, 0, 3};
  CHECK_THROWS_WITH(kboost::Predictor<TEST_EXECSPACE>(kboost::test::golden_path("models/binary_logistic.json"), cfg),
                    Catch::Matchers::ContainsSubstring("rows/staged3"));
}
