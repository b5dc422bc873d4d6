// kboost::CsrMatrix (core/csr_matrix.hpp), the CSR container of a sparse DMatrix: the sizes it
// reports over the arrays it is given (no copy), and the errors for arrays that do not match the
// counts given with them.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdint>
#include <stdexcept>

#include <kboost/core/csr_matrix.hpp>

namespace {

using HostCsr = kboost::CsrMatrix<Kokkos::HostSpace>;

/// A 3 × 5 matrix with 4 stored values: row 0 {1: 0.5, 4: 1.5}, row 1 empty, row 2 {0: -2}, {3: 7}.
struct Arrays {
  HostCsr::row_map_type row_map{"row_map", 4};
  HostCsr::entries_type entries{"entries", 4};
  HostCsr::values_type values{"values", 4};
  Arrays() {
    std::int64_t const rm[] = {0, 2, 2, 4};
    std::int32_t const cols[] = {1, 4, 0, 3};
    float const vals[] = {0.5f, 1.5f, -2.0f, 7.0f};
    for (int i = 0; i < 4; ++i) row_map(i) = rm[i];
    for (int k = 0; k < 4; ++k) {
      entries(k) = cols[k];
      values(k) = vals[k];
    }
  }
};

}  // namespace

TEST_CASE("CsrMatrix " TEST_BACKEND ": sizes over the given arrays, shared not copied", "[data][csr]") {
  Arrays a;
  HostCsr const m("m", 3, 5, 4, a.values, a.row_map, a.entries);
  CHECK(m.numRows() == 3);
  CHECK(m.numCols() == 5);
  CHECK(m.nnz() == 4);
  CHECK(m.graph.row_map.data() == a.row_map.data());
  CHECK(m.graph.entries.data() == a.entries.data());
  CHECK(m.values.data() == a.values.data());
  CHECK(m.graph.entries(3) == 3);
  CHECK(m.values(2) == -2.0f);

  HostCsr const empty;
  CHECK(empty.numRows() == 0);
  CHECK(empty.numCols() == 0);
  CHECK(empty.nnz() == 0);
  HostCsr const no_rows("none", 0, 5, 0, HostCsr::values_type(), HostCsr::row_map_type(), HostCsr::entries_type());
  CHECK(no_rows.numRows() == 0);
  CHECK(no_rows.numCols() == 5);
}

TEST_CASE("CsrMatrix " TEST_BACKEND ": counts that do not match the arrays are errors naming both", "[data][csr]") {
  using Catch::Matchers::ContainsSubstring;
  Arrays a;
  // row_map holds 4 offsets: 3 rows, not 4
  REQUIRE_THROWS_WITH(HostCsr("m", 4, 5, 4, a.values, a.row_map, a.entries),
                      ContainsSubstring("4 rows") && ContainsSubstring("row_map(4)"));
  // 4 values stored, not 5
  REQUIRE_THROWS_WITH(HostCsr("m", 3, 5, 5, a.values, a.row_map, a.entries),
                      ContainsSubstring("5 entries") && ContainsSubstring("values(4)"));
  HostCsr::values_type const short_values("values", 3);
  REQUIRE_THROWS_AS(HostCsr("m", 3, 5, 4, short_values, a.row_map, a.entries), std::invalid_argument);
  REQUIRE_THROWS_AS(HostCsr("m", 3, -1, 4, a.values, a.row_map, a.entries), std::invalid_argument);
  REQUIRE_THROWS_AS(HostCsr("m", -1, 5, 4, a.values, a.row_map, a.entries), std::invalid_argument);
}
