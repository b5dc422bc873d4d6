// host_dmatrix (core/dmatrix.hpp), the HostDMatrix of a caller's data: from host Views in
// LayoutRight, LayoutLeft and LayoutStride (subviews), with rows or rows × targets labels and
// optional weights, and from C arrays; every field checked value by value, and the errors that name
// the labels or the weights; host_dmatrix_borrowing reads a row-major host X in place.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include <kboost/core/dmatrix.hpp>

namespace {

float const kNaN = std::numeric_limits<float>::quiet_NaN();

/// Value of row r, feature f in the cases below (feature 1 of row 1 is missing).
float x_at(std::size_t r, std::size_t f) { return r == 1 && f == 1 ? kNaN : static_cast<float>(10 * r + f); }

template <class Layout>
Kokkos::View<float**, Layout, Kokkos::HostSpace> x_view(std::size_t rows, std::size_t features) {
  Kokkos::View<float**, Layout, Kokkos::HostSpace> X("X", rows, features);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t f = 0; f < features; ++f) X(r, f) = x_at(r, f);
  return X;
}

/// d holds rows × features values x_at, row-major.
void check_features(kboost::HostDMatrix const& d, std::size_t rows, std::size_t features) {
  REQUIRE(d.n_rows == rows);
  REQUIRE(d.n_features == features);
  REQUIRE(!d.is_sparse());
  REQUIRE(d.dense.extent(0) == rows);
  REQUIRE(d.dense.extent(1) == features);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t f = 0; f < features; ++f) {
      INFO("row " << r << " feature " << f);
      float const stored = d.dense.data()[r * features + f];  // row-major storage
      if (std::isnan(x_at(r, f)))
        CHECK(std::isnan(stored));
      else
        CHECK(stored == x_at(r, f));
    }
}

template <class Layout>
void check_layout() {
  auto const X = x_view<Layout>(3, 2);
  Kokkos::View<float*, Kokkos::HostSpace> y("y", 3), w("w", 3);
  for (int r = 0; r < 3; ++r) {
    y(r) = 0.5f * r;
    w(r) = 1.0f + r;
  }
  auto const d = kboost::host_dmatrix(X, y, w);
  check_features(d, 3, 2);
  CHECK(d.n_targets == 1);
  REQUIRE(d.has_labels());
  REQUIRE(d.has_weights());
  CHECK(d.label(0) == 0.0f);
  CHECK(d.label(1) == 0.5f);
  CHECK(d.label(2) == 1.0f);
  CHECK(d.weight(0) == 1.0f);
  CHECK(d.weight(2) == 3.0f);
  X(0, 0) = 99;  // the matrix holds copies
  y(0) = 99;
  CHECK(d.dense(0, 0) == 0.0f);
  CHECK(d.label(0) == 0.0f);
}

}  // namespace

TEST_CASE("host_dmatrix " TEST_BACKEND ": LayoutRight and LayoutLeft Views become row-major copies",
          "[data][host_dmatrix]") {
  SECTION("LayoutRight") { check_layout<Kokkos::LayoutRight>(); }
  SECTION("LayoutLeft") { check_layout<Kokkos::LayoutLeft>(); }
  SECTION("no labels, no weights") {
    auto const d = kboost::host_dmatrix(x_view<Kokkos::LayoutLeft>(2, 3));
    check_features(d, 2, 3);
    CHECK(!d.has_labels());
    CHECK(d.label.extent(0) == 0);
    CHECK(d.weight.extent(0) == 0);
  }
  SECTION("an empty weights View: all 1") {
    Kokkos::View<float*, Kokkos::HostSpace> y("y", 3);
    auto const d = kboost::host_dmatrix(x_view<Kokkos::LayoutRight>(3, 2), y, Kokkos::View<float*, Kokkos::HostSpace>());
    CHECK(d.has_labels());
    CHECK(!d.has_weights());
    CHECK(d.weight.extent(0) == 0);
  }
}

TEST_CASE("host_dmatrix " TEST_BACKEND ": strided Views of X and of a label column", "[data][host_dmatrix]") {
  // X: rows 0, 2, 4 and features 0, 2 of a 6 × 4 row-major matrix; the labels: column 3 of another.
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> big("big", 6, 4), table("table", 3, 4);
  for (int r = 0; r < 6; ++r)
    for (int f = 0; f < 4; ++f) big(r, f) = static_cast<float>(100 * r + f);
  for (int r = 0; r < 3; ++r) table(r, 3) = 7.0f * r;
  Kokkos::View<const float**, Kokkos::LayoutStride, Kokkos::HostSpace> const X(big.data(),
                                                                              Kokkos::LayoutStride(3, 8, 2, 2));
  auto const y = Kokkos::subview(table, Kokkos::ALL, 3);
  static_assert(std::is_same_v<typename decltype(y)::array_layout, Kokkos::LayoutStride>);
  auto const d = kboost::host_dmatrix(X, y);
  REQUIRE(d.n_rows == 3);
  REQUIRE(d.n_features == 2);
  for (int r = 0; r < 3; ++r) {
    CHECK(d.dense(r, 0) == static_cast<float>(200 * r));
    CHECK(d.dense(r, 1) == static_cast<float>(200 * r + 2));
    CHECK(d.label(r) == 7.0f * r);
  }
  CHECK(d.n_targets == 1);
  // A subview of rows and features: the same values as the matrix it views.
  auto const sub = kboost::host_dmatrix(Kokkos::subview(big, std::make_pair(1, 4), std::make_pair(1, 3)));
  REQUIRE(sub.n_rows == 3);
  REQUIRE(sub.n_features == 2);
  for (int r = 0; r < 3; ++r)
    for (int f = 0; f < 2; ++f) CHECK(sub.dense(r, f) == big(r + 1, f + 1));
}

TEST_CASE("host_dmatrix " TEST_BACKEND ": rows x targets labels are stored row-major", "[data][host_dmatrix]") {
  auto const X = x_view<Kokkos::LayoutRight>(3, 2);
  auto check = [&](auto const& labels) {
    for (int r = 0; r < 3; ++r)
      for (int t = 0; t < 2; ++t) labels(r, t) = static_cast<float>(r + 0.25 * t);
    auto const d = kboost::host_dmatrix(X, labels);
    CHECK(d.n_targets == 2);
    REQUIRE(d.label.extent(0) == 6);
    CHECK(d.has_labels());
    std::vector<float> const want{0.0f, 0.25f, 1.0f, 1.25f, 2.0f, 2.25f};
    for (std::size_t k = 0; k < want.size(); ++k) CHECK(d.label(k) == want[k]);
  };
  SECTION("LayoutLeft labels") { check(Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::HostSpace>("y", 3, 2)); }
  SECTION("LayoutRight labels") { check(Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace>("y", 3, 2)); }
}

TEST_CASE("host_dmatrix " TEST_BACKEND ": C arrays, row-major, NaN missing", "[data][host_dmatrix]") {
  std::vector<float> x;
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t f = 0; f < 2; ++f) x.push_back(x_at(r, f));
  std::vector<float> const y{1, 0, 1}, w{0.5f, 2, 4}, yy{1, 2, 3, 4, 5, 6};
  SECTION("labels and weights") {
    auto const d = kboost::host_dmatrix(x.data(), 3, 2, y.data(), w.data());
    check_features(d, 3, 2);
    CHECK(d.n_targets == 1);
    REQUIRE(d.has_labels());
    REQUIRE(d.has_weights());
    for (std::size_t r = 0; r < 3; ++r) {
      CHECK(d.label(r) == y[r]);
      CHECK(d.weight(r) == w[r]);
    }
    CHECK(d.dense.data() != x.data());  // copied
  }
  SECTION("two targets, no weights") {
    auto const d = kboost::host_dmatrix(x.data(), 3, 2, yy.data(), nullptr, 2);
    CHECK(d.n_targets == 2);
    REQUIRE(d.label.extent(0) == 6);
    for (std::size_t k = 0; k < 6; ++k) CHECK(d.label(k) == yy[k]);
    CHECK(!d.has_weights());
  }
  SECTION("features only") {
    auto const d = kboost::host_dmatrix(x.data(), 3, 2);
    check_features(d, 3, 2);
    CHECK(!d.has_labels());
    CHECK(d.weight.extent(0) == 0);
  }
  SECTION("no rows") {
    auto const d = kboost::host_dmatrix(nullptr, 0, 4);
    CHECK(d.n_rows == 0);
    CHECK(d.n_features == 4);
  }
}

TEST_CASE("host_dmatrix " TEST_BACKEND ": labels or weights without X's rows are errors naming them",
          "[data][host_dmatrix][errors]") {
  using Catch::Matchers::ContainsSubstring;
  auto const X = x_view<Kokkos::LayoutRight>(3, 2);
  Kokkos::View<float*, Kokkos::HostSpace> y3("y3", 3), y2("y2", 2), w4("w4", 4);
  CHECK_THROWS_AS(kboost::host_dmatrix(X, y2), std::runtime_error);
  CHECK_THROWS_WITH(kboost::host_dmatrix(X, y2), ContainsSubstring("labels have 2 rows, X has 3"));
  CHECK_THROWS_WITH(kboost::host_dmatrix(X, y3, w4), ContainsSubstring("weights have 4 rows, X has 3"));
  CHECK_THROWS_WITH(kboost::host_dmatrix(X, Kokkos::View<float**, Kokkos::HostSpace>("none", 3, 0)),
                    ContainsSubstring("labels have 0 targets"));
  CHECK_THROWS_WITH(kboost::host_dmatrix(nullptr, 3, 2), ContainsSubstring("X is NULL"));
  float const y[3] = {1, 2, 3};
  CHECK_THROWS_WITH(kboost::host_dmatrix(y, 3, 1, y, nullptr, 0), ContainsSubstring("labels have 0 targets"));
}

TEST_CASE("host_dmatrix " TEST_BACKEND ": the borrowing form reads a row-major host X in place and copies any other",
          "[data][host_dmatrix]") {
  Kokkos::View<float*, Kokkos::HostSpace> y("y", 4), w("w", 4);
  for (int r = 0; r < 4; ++r) {
    y(r) = 2.0f * r;
    w(r) = 0.5f + r;
  }
  auto const right = x_view<Kokkos::LayoutRight>(4, 3);
  auto const borrowed = kboost::host_dmatrix_borrowing(right, y, w);
  CHECK(kboost::is_host_row_major(right));
  CHECK(borrowed.dense.data() == right.data());  // no copy of X
  check_features(borrowed, 4, 3);
  REQUIRE(borrowed.label.extent(0) == 4);
  REQUIRE(borrowed.weight.extent(0) == 4);
  CHECK(borrowed.label.data() != y.data());  // labels and weights are copies
  CHECK(borrowed.label(3) == 6.0f);
  CHECK(borrowed.weight(2) == 2.5f);

  auto const rows = Kokkos::subview(right, std::make_pair(1, 3), Kokkos::ALL());  // a row range stays row-major
  CHECK(kboost::is_host_row_major(rows));
  CHECK(kboost::host_dmatrix_borrowing(rows, Kokkos::subview(y, std::make_pair(1, 3))).dense.data() == &right(1, 0));

  auto const left = x_view<Kokkos::LayoutLeft>(4, 3);
  auto const columns = Kokkos::subview(right, Kokkos::ALL(), std::make_pair(0, 2));  // LayoutStride
  CHECK_FALSE(kboost::is_host_row_major(left));
  CHECK_FALSE(kboost::is_host_row_major(columns));
  auto const copied = kboost::host_dmatrix_borrowing(left, y, w);
  CHECK(copied.dense.data() != left.data());
  check_features(copied, 4, 3);
  auto const two = kboost::host_dmatrix_borrowing(columns, y);
  CHECK(two.dense.data() != right.data());
  check_features(two, 4, 2);
  CHECK_THROWS_WITH(kboost::host_dmatrix_borrowing(right, Kokkos::subview(y, std::make_pair(0, 2))),
                    Catch::Matchers::ContainsSubstring("labels have 2 rows, X has 4"));
}
