// The library entry points beside the batch predictor, each bit-identical to upstream XGBoost 3.2's
// CPU predict on every golden case (tests/golden/predict):
//  - Predictor::predict_into on the caller's execution-space instance from LayoutLeft and
//    LayoutStride (subview) inputs into LayoutLeft outputs;
//  - the device-callable DeviceForest inside a user parallel_for, from an accessor;
//  - the C ABI (kboost_c.h) on host arrays in row- and column-major order;
// and concurrency: host threads predicting with one Predictor / one C model at once; and
// host_dmatrix from Views in the test's memory space.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <thread>
#include <type_traits>
#include <utility>

#include <kboost/core/transfers.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/kboost_c.h>
#include "tests/golden_cases.hpp"

namespace {

using kboost::test::GoldenArray;
using kboost::test::GoldenCase;
using Left = Kokkos::View<float**, Kokkos::LayoutLeft, TEST_MEMSPACE>;
using Right = Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE>;

template <class View>
auto on_host(View v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

/// predict_into from LayoutLeft and from a LayoutStride subview, on a fresh instance.
void check_layouts(GoldenCase const& c, kboost::Predictor<TEST_EXECSPACE> const& p, kboost::PredictOptions opt,
                   GoldenArray const& want, std::ostringstream& log, std::size_t& bad) {
  auto const& x = c.files.at("X");
  auto X_left = kboost::test::golden_view<Kokkos::LayoutLeft, TEST_MEMSPACE>(x, "X_left");
  Right wide("wide", x.rows, x.cols + 2);
  Kokkos::deep_copy(wide, std::nanf(""));
  auto X_strided = Kokkos::subview(wide, Kokkos::ALL(), std::make_pair(std::size_t{1}, x.cols + 1));
  Kokkos::deep_copy(X_strided, X_left);
  Left out_left("out_left", x.rows, want.cols), out_strided("out_strided", x.rows, want.cols);
  TEST_EXECSPACE space;
  p.predict_into(space, X_left, out_left, opt);
  p.predict_into(space, X_strided, out_strided, opt);
  space.fence();
  bad += kboost::test::count_bit_mismatches(on_host(out_left), want, "LayoutLeft", log);
  bad += kboost::test::count_bit_mismatches(on_host(out_strided), want, "LayoutStride", log);
}

/// DeviceForest::predict in a parallel_for, features read through an accessor into a LayoutLeft View.
void check_device_forest(GoldenCase const& c, kboost::Predictor<TEST_EXECSPACE> const& p, kboost::PredictOptions opt,
                         GoldenArray const& want, std::ostringstream& log, std::size_t& bad) {
  auto const X = kboost::test::golden_view<Kokkos::LayoutLeft, TEST_MEMSPACE>(c.files.at("X"), "X_particles");
  auto const forest = p.device_forest(opt);
  REQUIRE(forest.output_columns() == static_cast<int>(want.cols));
  Right scratch("scratch", want.rows, static_cast<std::size_t>(forest.margin_columns()));
  Kokkos::parallel_for(
      "kboost::test::device_forest", Kokkos::RangePolicy<TEST_EXECSPACE>(0, static_cast<int>(want.rows)),
      KOKKOS_LAMBDA(int i) { forest.predict([&](int f) { return X(i, f); }, &scratch(i, 0)); });
  auto h = on_host(scratch);
  auto first = Kokkos::subview(h, Kokkos::ALL(), std::make_pair(std::size_t{0}, want.cols));
  bad += kboost::test::count_bit_mismatches(first, want, "DeviceForest", log);
}

/// DeviceForest::predict_team in a TeamPolicy: each team predicts several rows in turn (one
/// scratch taken per team), at team sizes 1 and the backend's typical width.
void check_device_forest_team(GoldenCase const& c, kboost::Predictor<TEST_EXECSPACE> const& p,
                              kboost::PredictOptions opt, GoldenArray const& want, std::ostringstream& log,
                              std::size_t& bad) {
  auto const X = kboost::test::golden_view<Kokkos::LayoutLeft, TEST_MEMSPACE>(c.files.at("X"), "X_particles");
  auto const forest = p.device_forest(opt);
  int const rows = static_cast<int>(want.rows), cols = forest.margin_columns();
  constexpr int kRowsPerTeam = 3;
  constexpr int kMaxOutputs = 16;
  REQUIRE(cols <= kMaxOutputs);
  bool const host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, TEST_MEMSPACE>::accessible;
  for (int team_size : {1, host ? TEST_EXECSPACE().concurrency() : 96}) {
    Right out("team_out", want.rows, static_cast<std::size_t>(cols));
    Kokkos::TeamPolicy<TEST_EXECSPACE> policy((rows + kRowsPerTeam - 1) / kRowsPerTeam, team_size);
    policy.set_scratch_size(0, Kokkos::PerTeam(forest.team_scratch_bytes(team_size)));
    Kokkos::parallel_for(
        "kboost::test::device_forest_team", policy,
        KOKKOS_LAMBDA(Kokkos::TeamPolicy<TEST_EXECSPACE>::member_type const& team) {
          std::int32_t* const scratch = forest.team_scratch(team);
          for (int i = team.league_rank() * kRowsPerTeam; i < rows && i < (team.league_rank() + 1) * kRowsPerTeam; ++i) {
            float y[kMaxOutputs];
            forest.predict_team(team, [&](int f) { return X(i, f); }, scratch, y);
            if (team.team_rank() == team.team_size() - 1)
              for (int j = 0; j < cols; ++j) out(i, j) = y[j];
          }
        });
    auto h = on_host(out);
    auto first = Kokkos::subview(h, Kokkos::ALL(), std::make_pair(std::size_t{0}, want.cols));
    bad += kboost::test::count_bit_mismatches(first, want, "DeviceForest team " + std::to_string(team_size), log);
  }
}

/// kboost_predict on host arrays, row-major in / row-major out and column-major in / out.
void check_c_api(GoldenCase const& c, bool margin, GoldenArray const& want, std::ostringstream& log, std::size_t& bad) {
  if (c.options.iteration_begin != 0 || c.options.iteration_end != 0 || c.options.missing == c.options.missing)
    return;  // the C ABI predicts every round with NaN as missing
  kboost_model* m = nullptr;
  REQUIRE(kboost_model_load(c.model_path.c_str(), &m) == KBOOST_SUCCESS);
  auto const& x = c.files.at("X");
  int const flags = margin ? KBOOST_OUTPUT_MARGIN : 0;
  std::int64_t k = 0;
  REQUIRE(kboost_model_num_outputs_for(m, flags, &k) == KBOOST_SUCCESS);
  REQUIRE(k == static_cast<std::int64_t>(want.cols));
  auto const n = static_cast<std::int64_t>(x.rows), nf = static_cast<std::int64_t>(x.cols);
  std::vector<float> col_x(x.values.size()), out_row(want.values.size()), out_col(want.values.size());
  for (std::int64_t r = 0; r < n; ++r)
    for (std::int64_t f = 0; f < nf; ++f) col_x[f * n + r] = x.values[r * nf + f];
  REQUIRE(kboost_predict(m, x.values.data(), n, nf, KBOOST_ROW_MAJOR, flags, out_row.data()) == KBOOST_SUCCESS);
  REQUIRE(kboost_predict(m, col_x.data(), n, nf, KBOOST_COL_MAJOR, flags | KBOOST_OUTPUT_COL_MAJOR, out_col.data()) ==
          KBOOST_SUCCESS);
  if (std::is_same<TEST_EXECSPACE, Kokkos::DefaultExecutionSpace>::value) {
    // kboost_predict_device: the same arrays in the default execution space's memory
    Kokkos::View<float*, TEST_MEMSPACE> dx("dx", x.values.size()), dout("dout", want.values.size());
    Kokkos::deep_copy(dx, Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(col_x.data(), col_x.size()));
    REQUIRE(kboost_predict_device(m, dx.data(), n, nf, KBOOST_COL_MAJOR, flags, dout.data()) == KBOOST_SUCCESS);
    auto hout = on_host(dout);
    Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> dev(hout.data(), n, k);
    bad += kboost::test::count_bit_mismatches(dev, want, "C device pointers", log);
  }
  kboost_model_free(m);
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> row(out_row.data(), n, k);
  Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> col(out_col.data(), n, k);
  bad += kboost::test::count_bit_mismatches(row, want, "C row-major", log);
  bad += kboost::test::count_bit_mismatches(col, want, "C column-major", log);
}

void check_library_entry_points(bool shared_models) {
  REQUIRE(kboost_initialize() == KBOOST_SUCCESS);  // Kokkos is up already: nothing happens
  int const n = kboost::test::for_each_golden_case(shared_models, [](GoldenCase const& c) {
    if (c.files.count("bm")) return;  // a per-row base margin is a batch option only
    kboost::Predictor<TEST_EXECSPACE> p(c.model_path);
    for (bool margin : {true, false}) {
      kboost::PredictOptions opt = c.options;
      opt.output_margin = margin;
      GoldenArray const& want = c.files.at(margin ? "margin" : "pred");
      std::ostringstream log;
      std::size_t bad = 0;
      check_layouts(c, p, opt, want, log, bad);
      check_device_forest(c, p, opt, want, log, bad);
      check_device_forest_team(c, p, opt, want, log, bad);
      check_c_api(c, margin, want, log, bad);
      INFO((margin ? "margin\n" : "pred\n") << log.str());
      CHECK(bad == 0);
    }
  });
  CHECK(n >= 10);
  REQUIRE(kboost_finalize() == KBOOST_SUCCESS);  // kboost did not initialise Kokkos: still up
  REQUIRE(Kokkos::is_initialized());
}

}  // namespace

TEST_CASE("library " TEST_BACKEND ": Views of any layout, DeviceForest and the C ABI equal upstream's bits",
          "[predict][library]") {
  check_library_entry_points(false);
}

TEST_CASE("library " TEST_BACKEND ": the same on every shared model", "[predict][library][shared]") {
  check_library_entry_points(true);
}

TEST_CASE("library " TEST_BACKEND ": host threads predict with one Predictor and one C model at once",
          "[predict][library][threads]") {
  std::string const path = kboost::test::golden_path("models/multi_softprob.json");
  kboost::Predictor<TEST_EXECSPACE> p(path);
  kboost_model* m = nullptr;
  REQUIRE(kboost_model_load(path.c_str(), &m) == KBOOST_SUCCESS);
  int const nf = p.model().num_feature, k = p.output_columns({}), rows = 300;
  std::vector<float> x(static_cast<std::size_t>(rows * nf));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = (i % 7 == 3) ? std::nanf("") : static_cast<float>((i * 37) % 101) / 10.0f;
  Right X("X", rows, nf);
  Kokkos::deep_copy(X, Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(x.data(), rows, nf));
  auto const reference = on_host(p.predict(X));

  constexpr int kThreads = 4, kRepeats = 20;
  std::vector<Right> outs;
  std::vector<std::vector<float>> c_outs(kThreads, std::vector<float>(static_cast<std::size_t>(rows * k)));
  for (int t = 0; t < kThreads; ++t) outs.emplace_back("out", rows, k);
  std::vector<int> c_status(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRepeats; ++r) {
        p.predict_into(X, outs[t]);
        c_status[t] |= kboost_predict(m, x.data(), rows, nf, KBOOST_ROW_MAJOR, 0, c_outs[t].data());
      }
    });
  for (auto& th : threads) th.join();
  Kokkos::fence();
  kboost_model_free(m);
  for (int t = 0; t < kThreads; ++t) {
    CHECK(c_status[t] == KBOOST_SUCCESS);
    auto h = on_host(outs[t]);
    CHECK(std::memcmp(h.data(), reference.data(), reference.size() * sizeof(float)) == 0);
    CHECK(std::memcmp(c_outs[t].data(), reference.data(), reference.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("library " TEST_BACKEND ": C ABI errors are status codes with a message naming the cause",
          "[library][c_api]") {
  using Catch::Matchers::ContainsSubstring;
  kboost_model* m = nullptr;
  CHECK(kboost_model_load("/nonexistent/model.json", &m) == KBOOST_ERROR);
  CHECK(m == nullptr);
  CHECK_THAT(std::string(kboost_last_error()), ContainsSubstring("/nonexistent/model.json"));
  std::string const junk = "{\"learner\": 3}";
  CHECK(kboost_model_load_from_memory(junk.data(), junk.size(), &m) == KBOOST_ERROR);
  CHECK_THAT(std::string(kboost_last_error()), ContainsSubstring("<memory>"));
  REQUIRE(kboost_model_load(kboost::test::golden_path("models/binary_logistic.json").c_str(), &m) == KBOOST_SUCCESS);
  std::int64_t nf = 0;
  REQUIRE(kboost_model_num_features(m, &nf) == KBOOST_SUCCESS);
  std::vector<float> x(static_cast<std::size_t>(nf + 1)), out(1);
  CHECK(kboost_predict(m, x.data(), 1, nf + 1, KBOOST_ROW_MAJOR, 0, out.data()) == KBOOST_ERROR);
  CHECK_THAT(std::string(kboost_last_error()), ContainsSubstring("features"));
  CHECK(kboost_predict(m, x.data(), 1, nf, 7, 0, out.data()) == KBOOST_ERROR);
  CHECK_THAT(std::string(kboost_last_error()), ContainsSubstring("layout"));
  CHECK(kboost_predict(m, x.data(), 1, nf, KBOOST_ROW_MAJOR, 0, out.data()) == KBOOST_SUCCESS);
  CHECK(std::string(kboost_last_error()).empty());
  // the message is per thread: another thread's error does not show here
  std::thread([] {
    kboost_model* none = nullptr;
    kboost_model_load("/other/thread.json", &none);
  }).join();
  CHECK(std::string(kboost_last_error()).empty());
  char const* keys[] = {"objective", "max_dpth"};
  char const* values[] = {"binary:logistic", "3"};
  float labels[2] = {0, 1};
  kboost_model* trained = nullptr;
  CHECK(kboost_train(x.data(), 1, nf, KBOOST_ROW_MAJOR, labels, nullptr, keys, values, 2, &trained) == KBOOST_ERROR);
  CHECK_THAT(std::string(kboost_last_error()), ContainsSubstring("max_dpth"));
  // infinities in x and NaN labels are refused, naming the cell or row
  char const* good_keys[] = {"objective", "max_depth"};
  std::vector<float> two(2 * static_cast<std::size_t>(nf), 0.5f);
  two[static_cast<std::size_t>(nf) + 1] = std::numeric_limits<float>::infinity();
  CHECK(kboost_train(two.data(), 2, nf, KBOOST_ROW_MAJOR, labels, nullptr, good_keys, values, 2, &trained) == KBOOST_ERROR);
  CHECK_THAT(std::string(kboost_last_error()), ContainsSubstring("x[1, 1] is +inf"));
  two[static_cast<std::size_t>(nf) + 1] = 0.5f;
  float nan_labels[2] = {0, std::numeric_limits<float>::quiet_NaN()};
  CHECK(kboost_train(two.data(), 2, nf, KBOOST_ROW_MAJOR, nan_labels, nullptr, good_keys, values, 2, &trained) ==
        KBOOST_ERROR);
  CHECK_THAT(std::string(kboost_last_error()), ContainsSubstring("the label of row 2 (1-based) is NaN"));
  kboost_model_free(m);
  kboost_model_free(nullptr);
  CHECK(std::string(kboost_version()) == KBOOST_VERSION);
  CHECK(kboost_abi_version() == KBOOST_C_ABI_VERSION);
}

TEST_CASE("library " TEST_BACKEND ": kboost_train writes the model the Booster writes, and saves it", "[library][c_api]") {
  int const rows = 400, nf = 5;
  std::vector<float> x(static_cast<std::size_t>(rows * nf)), col(x.size()), labels(rows);
  for (int r = 0; r < rows; ++r) {
    for (int f = 0; f < nf; ++f) {
      float const v = (r * 7 + f * 13) % 17 == 0 ? std::nanf("") : static_cast<float>((r * (f + 3)) % 29) / 7.0f;
      x[r * nf + f] = col[f * rows + r] = v;
    }
    labels[r] = static_cast<float>((r * 5) % 3 == 0);
  }
  char const* keys[] = {"objective", "max_depth", "num_round", "eta"};
  char const* values[] = {"binary:logistic", "3", "4", "0.5"};
  kboost_model *a = nullptr, *b = nullptr;
  REQUIRE(kboost_train(x.data(), rows, nf, KBOOST_ROW_MAJOR, labels.data(), nullptr, keys, values, 4, &a) == KBOOST_SUCCESS);
  REQUIRE(kboost_train(col.data(), rows, nf, KBOOST_COL_MAJOR, labels.data(), nullptr, keys, values, 4, &b) == KBOOST_SUCCESS);
  auto const dir = kboost::test::temp_dir("c_train");
  std::string const pa = (dir / "a.json").string(), pb = (dir / "b.json").string(), pc = (dir / "c.json").string();
  REQUIRE(kboost_model_save(a, pa.c_str()) == KBOOST_SUCCESS);
  REQUIRE(kboost_model_save(b, pb.c_str()) == KBOOST_SUCCESS);
  kboost_model_free(a);
  kboost_model_free(b);

  auto const d = kboost::host_dmatrix(x.data(), rows, nf, labels.data());
  kboost::BasicBooster<Kokkos::DefaultExecutionSpace> booster;
  booster.train(kboost::parse_params({{"objective", "binary:logistic"}, {"max_depth", "3"}, {"num_round", "4"}, {"eta", "0.5"}}), d);
  booster.save(pc);
  std::string const bytes = kboost::test::read_file(pc);
  REQUIRE(bytes.size() > 100);
  CHECK(kboost::test::read_file(pa) == bytes);
  CHECK(kboost::test::read_file(pb) == bytes);

  // the same data as the caller's Views in the test's memory space, Fortran order
  Left X("X", rows, nf);
  auto hX = Kokkos::create_mirror_view(X);
  for (int r = 0; r < rows; ++r)
    for (int f = 0; f < nf; ++f) hX(r, f) = x[r * nf + f];
  Kokkos::deep_copy(X, hX);
  Kokkos::View<float*, TEST_MEMSPACE> y("y", rows);
  Kokkos::deep_copy(y, Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(labels.data(), rows));
  kboost::BasicBooster<TEST_EXECSPACE> from_views;
  from_views.train(kboost::parse_params({{"objective", "binary:logistic"}, {"max_depth", "3"}, {"num_round", "4"}, {"eta", "0.5"}}),
                   X, y);
  std::string const pv = (dir / "views.json").string();
  from_views.save(pv);
  CHECK(kboost::test::read_file(pv) == bytes);
}

TEST_CASE("library " TEST_BACKEND ": a fit from X where the execution space has it, in any layout, has the host "
          "matrix's model bytes, and exact_quantile uploads no X",
          "[library][train][exact_sketch][gpu_sketch]") {
  int const rows = 1500, nf = 6, wide = nf + 2;
  // X: rows × nf; the same values in columns 1 .. nf of a wider row-major matrix (a strided subview)
  Kokkos::View<float**, Kokkos::LayoutRight, TEST_MEMSPACE> right("right", rows, nf), padded("padded", rows, wide);
  Left left("left", rows, nf);
  Kokkos::View<float*, TEST_MEMSPACE> y("y", rows), w("w", rows);
  auto hr = Kokkos::create_mirror_view(right);
  auto hp = Kokkos::create_mirror_view(padded);
  auto hl = Kokkos::create_mirror_view(left);
  auto hy = Kokkos::create_mirror_view(y);
  auto hw = Kokkos::create_mirror_view(w);
  for (int r = 0; r < rows; ++r) {
    double target = 0;
    for (int f = 0; f < nf; ++f) {
      float const v = (r * 11 + f * 5) % 23 == 0 ? std::nanf("") : static_cast<float>((r * (2 * f + 3)) % 97) / 9.0f;
      hr(r, f) = hl(r, f) = hp(r, f + 1) = v;
      if (!std::isnan(v)) target += (f + 1) * v;
    }
    hp(r, 0) = hp(r, wide - 1) = -1.0f;
    hy(r) = static_cast<float>(target / 10);
    hw(r) = 0.5f + static_cast<float>(r % 4);
  }
  Kokkos::deep_copy(right, hr);
  Kokkos::deep_copy(padded, hp);
  Kokkos::deep_copy(left, hl);
  Kokkos::deep_copy(y, hy);
  Kokkos::deep_copy(w, hw);
  auto const strided = Kokkos::subview(padded, Kokkos::ALL(), std::make_pair(1, nf + 1));
  Kokkos::View<const float*, TEST_MEMSPACE> const unweighted;

  auto const dir = kboost::test::temp_dir("train_on_space");
  // (the model's bytes, the uploads the fit counted)
  auto const fitted = [&](kboost::TrainParams const& p, auto&& fit) {
    kboost::BasicBooster<TEST_EXECSPACE> b;
    auto const before = kboost::transfer_count();
    fit(b, p);
    auto const uploads = kboost::transfer_count().uploads - before.uploads;
    std::string const path = (dir / "model.json").string();
    b.save(path);
    return std::make_pair(kboost::test::read_file(path), uploads);
  };
  for (char const* method : {"exact_quantile", "upstream_gpu", "upstream_cpu"}) {
    for (bool const weighted : {true, false}) {
      INFO(method << (weighted ? ", weighted" : ", unweighted"));
      kboost::TrainParams const p = kboost::parse_params(
          {{"objective", "reg:squarederror"}, {"max_depth", "4"}, {"num_round", "5"}, {"eta", "0.3"},
           {"kboost_sketch_method", method}, {"max_bin", "32"}});
      auto const host = fitted(p, [&](auto& b, auto const& q) {
        b.train(q, weighted ? kboost::host_dmatrix(hr, hy, hw) : kboost::host_dmatrix(hr, hy));
      });
      REQUIRE(host.first.size() > 100);
      auto const on_space = [&](auto const& X) {
        return fitted(p, [&](auto& b, auto const& q) { weighted ? b.train(q, X, y, w) : b.train(q, X, y, unweighted); });
      };
      for (auto const& [layout, result] : {std::make_pair("LayoutRight", on_space(right)),
                                           std::make_pair("LayoutLeft", on_space(left)),
                                           std::make_pair("LayoutStride", on_space(strided))}) {
        INFO(layout);
        CHECK(result.first == host.first);
        if (std::string(method) != "exact_quantile") continue;
        // on a device the host matrix's fit uploads X; these upload only labels (and weights)
        if constexpr (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, TEST_MEMSPACE>::accessible)
          CHECK(result.second == host.second - 1);
        else
          CHECK(result.second == 0);
      }
    }
  }
}

TEST_CASE("library " TEST_BACKEND ": host_dmatrix copies Views of the test's memory space to the host",
          "[library][host_dmatrix]") {
  Left X("X", 3, 2);
  Kokkos::View<float**, Kokkos::LayoutLeft, TEST_MEMSPACE> y("y", 3, 2);
  Kokkos::View<float*, TEST_MEMSPACE> w("w", 3);
  auto hX = Kokkos::create_mirror_view(X);
  auto hy = Kokkos::create_mirror_view(y);
  auto hw = Kokkos::create_mirror_view(w);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 2; ++c) {
      hX(r, c) = static_cast<float>(10 * r + c);
      hy(r, c) = static_cast<float>(r + 0.5 * c);
    }
    hw(r) = 2.0f * r;
  }
  Kokkos::deep_copy(X, hX);
  Kokkos::deep_copy(y, hy);
  Kokkos::deep_copy(w, hw);
  auto const d = kboost::host_dmatrix(X, y, w);
  REQUIRE(d.n_rows == 3);
  REQUIRE(d.n_features == 2);
  REQUIRE(d.n_targets == 2);
  REQUIRE(d.has_labels());
  REQUIRE(d.has_weights());
  for (std::size_t r = 0; r < 3; ++r) {
    for (std::size_t c = 0; c < 2; ++c) {
      CHECK(d.dense(r, c) == static_cast<float>(10 * r + c));
      CHECK(d.label(r * 2 + c) == static_cast<float>(r + 0.5 * c));
    }
    CHECK(d.weight(r) == 2.0f * r);
  }
  Kokkos::View<float*, TEST_MEMSPACE> short_w("short_w", 2);
  CHECK_THROWS_WITH(kboost::host_dmatrix(X, y, short_w), Catch::Matchers::ContainsSubstring("weights have 2 rows, X has 3"));
}
