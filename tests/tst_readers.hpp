// Dataset readers on the real files in ../shared/data: read on the host, copy to TEST_MEMSPACE,
// densify there, check counts, cells and sums. Expected numbers come from pandas.read_csv and
// sklearn's load_svmlight_file (scripts/reader_reference.py prints them); sums are row-major
// sequential double sums of the float32 cells, so they must match exactly.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstring>

#include <kboost/kernels/densify.hpp>
#include <kboost/io/dataset_reader.hpp>
#include "tests/test_util.hpp"

namespace {

using kboost::HostDMatrix;
using kboost::ReadOptions;
using HostDense = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace>;

/// The matrix after a round trip through the device: copy_to<TEST_MEMSPACE>, densify there, back.
HostDense dense_via_device(HostDMatrix const& h) {
  auto d = kboost::copy_to<TEST_MEMSPACE>(h);
  auto dense = kboost::densify(TEST_EXECSPACE(), d);
  TEST_EXECSPACE().fence();
  HostDense out("out", dense.extent(0), dense.extent(1));
  Kokkos::deep_copy(out, dense);
  return out;
}

struct Totals {
  double sum = 0;       // row-major sequential sum of non-missing cells
  std::size_t nan = 0;  // missing cells
  std::size_t inf = 0;
};

Totals totals(HostDense const& x) {
  Totals t;
  for (std::size_t i = 0; i < x.extent(0); ++i)
    for (std::size_t j = 0; j < x.extent(1); ++j) {
      float v = x(i, j);
      if (std::isnan(v)) ++t.nan;
      else t.sum += v;
      if (std::isinf(v)) ++t.inf;
    }
  return t;
}

double label_sum(HostDMatrix const& m) {
  double s = 0;
  for (std::size_t i = 0; i < m.label.extent(0); ++i) s += m.label(i);
  return s;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::string data(std::string const& rel) { return kboost::test::shared_path("data/" + rel); }

}  // namespace

TEST_CASE("readers " TEST_BACKEND ": california_housing, header, empty fields missing, string column categorical",
          "[io][readers][shared]") {
  ReadOptions opt;
  opt.label_column = "median_house_value";
  auto m = kboost::read_dataset(data("california_housing/housing.csv"), opt);
  REQUIRE(m.n_rows == 20640);
  REQUIRE(m.n_features == 9);
  REQUIRE_FALSE(m.is_sparse());
  REQUIRE(m.info.n_missing == 207);
  REQUIRE(m.info.label_name == "median_house_value");
  REQUIRE(m.info.feature_names.size() == 9);
  REQUIRE(m.info.feature_names[0] == "longitude");
  REQUIRE(m.info.feature_names[8] == "ocean_proximity");
  REQUIRE(m.info.feature_types.size() == 9);
  REQUIRE(m.info.feature_types[8] == kboost::FeatureType::kCategorical);
  REQUIRE(m.info.feature_types[4] == kboost::FeatureType::kNumerical);
  REQUIRE(m.info.categories.at(8) == std::vector<std::string>{"<1H OCEAN", "INLAND", "ISLAND", "NEAR BAY", "NEAR OCEAN"});
  auto x = dense_via_device(m);
  float const row0[9] = {-122.23f, 37.88f, 41.0f, 880.0f, 129.0f, 322.0f, 126.0f, 8.3252f, 3.0f};
  for (int j = 0; j < 9; ++j) REQUIRE(same_bits(x(0, j), row0[j]));
  REQUIRE(std::isnan(x(290, 4)));  // first empty total_bedrooms (pandas row 290)
  REQUIRE(m.label(0) == 452600.0f);
  auto t = totals(x);
  REQUIRE(t.nan == 207);
  REQUIRE(t.sum == 104087393.56961906);
  REQUIRE(label_sum(m) == 4269504061.0);
}

TEST_CASE("readers " TEST_BACKEND ": adult, ', ' delimiters trimmed, '?' missing, string label classes",
          "[io][readers][shared]") {
  ReadOptions opt;
  opt.label_column = "-1";  // income, the last column
  auto m = kboost::read_dataset(data("adult/adult.data"), opt);
  REQUIRE(m.n_rows == 32561);
  REQUIRE(m.n_features == 14);
  REQUIRE(m.info.feature_names.empty());  // no header detected
  REQUIRE(m.info.n_missing == 4262);
  REQUIRE(m.info.label_classes == std::vector<std::string>{"<=50K", ">50K"});
  REQUIRE(m.info.categories.size() == 8);  // workclass, education, marital, occupation, relationship, race, sex, country
  REQUIRE(m.info.categories.at(1).size() == 8);
  REQUIRE(m.info.categories.at(1)[6] == "State-gov");
  REQUIRE(m.info.categories.at(13).size() == 41);
  auto x = dense_via_device(m);
  float const row0[14] = {39, 6, 77516, 9, 13, 4, 0, 1, 4, 1, 2174, 0, 40, 38};
  for (int j = 0; j < 14; ++j) REQUIRE(x(0, j) == row0[j]);
  REQUIRE(std::isnan(x(27, 1)));  // " ?" workclass
  REQUIRE(std::isnan(x(27, 6)));  // " ?" occupation
  REQUIRE(x(27, 13) == 34.0f);
  auto t = totals(x);
  REQUIRE(t.nan == 4262);
  REQUIRE(t.sum == 6222257379.0);
  REQUIRE(label_sum(m) == 7841.0);
}

TEST_CASE("readers " TEST_BACKEND ": dermatology, '?' in the age column, label last", "[io][readers][shared]") {
  ReadOptions opt;
  opt.label_column = "34";
  auto m = kboost::read_dataset(data("dermatology/dermatology.data"), opt);
  REQUIRE(m.n_rows == 366);
  REQUIRE(m.n_features == 34);
  REQUIRE(m.info.n_missing == 8);
  REQUIRE(m.info.feature_types.empty());  // all numeric
  auto x = dense_via_device(m);
  for (int r : {33, 34, 35, 36, 262, 263, 264, 265}) REQUIRE(std::isnan(x(r, 33)));
  REQUIRE(x(0, 33) == 55.0f);
  REQUIRE(m.label(0) == 2.0f);
  auto t = totals(x);
  REQUIRE(t.sum == 21976.0);
  REQUIRE(label_sum(m) == 1026.0);
}

TEST_CASE("readers " TEST_BACKEND ": diamonds, three string columns become sorted categorical codes",
          "[io][readers][shared]") {
  ReadOptions opt;
  opt.label_column = "price";
  auto m = kboost::read_dataset(data("diamonds/diamonds.csv"), opt);
  REQUIRE(m.n_rows == 53940);
  REQUIRE(m.n_features == 9);
  REQUIRE(m.info.n_missing == 0);
  REQUIRE(m.info.categories.at(1) == std::vector<std::string>{"Fair", "Good", "Ideal", "Premium", "Very Good"});
  REQUIRE(m.info.categories.at(2).size() == 7);
  REQUIRE(m.info.categories.at(3).size() == 8);
  auto x = dense_via_device(m);
  float const row0[9] = {0.23f, 2, 1, 3, 61.5f, 55, 3.95f, 3.98f, 2.43f};
  for (int j = 0; j < 9; ++j) REQUIRE(same_bits(x(0, j), row0[j]));
  REQUIRE(totals(x).sum == 7766890.520562947);
  REQUIRE(label_sum(m) == 212135217.0);
}

TEST_CASE("readers " TEST_BACKEND ": LightGBM TSV examples, tab detected, label column 0", "[io][readers][shared]") {
  ReadOptions opt;
  opt.label_column = "0";
  auto b = kboost::read_dataset(data("lightgbm_binary/binary.train"), opt);
  std::string const binary_train = data("lightgbm_binary/binary.train");
  REQUIRE(kboost::resolve_format(binary_train, opt) == "csv");
  REQUIRE(b.n_rows == 7000);
  REQUIRE(b.n_features == 28);
  REQUIRE(b.info.n_missing == 0);
  auto x = dense_via_device(b);
  REQUIRE(same_bits(x(0, 0), 0.869f));
  REQUIRE(same_bits(x(0, 1), -0.635f));
  REQUIRE(same_bits(x(6999, 27), 1.018f));
  REQUIRE(totals(x).sum == 118709.32831886306);
  REQUIRE(label_sum(b) == 3716.0);

  auto mc = kboost::read_dataset(data("lightgbm_multiclass/multiclass.train"), opt);
  REQUIRE(mc.n_rows == 7000);
  REQUIRE(mc.n_features == 28);
  auto xm = dense_via_device(mc);
  REQUIRE(same_bits(xm(0, 0), -1.047f));
  REQUIRE(totals(xm).sum == 105.52000892558135);
  REQUIRE(label_sum(mc) == 13953.0);
}

TEST_CASE("readers " TEST_BACKEND ": machine, vendor and model name columns categorical, label PRP",
          "[io][readers][shared]") {
  ReadOptions opt;
  opt.label_column = "8";
  auto m = kboost::read_dataset(data("machine/machine.data"), opt);
  REQUIRE(m.n_rows == 209);
  REQUIRE(m.n_features == 9);
  REQUIRE(m.info.categories.at(0).size() == 30);
  REQUIRE(m.info.categories.at(1).size() == 209);  // model names; "100" is one of them, read as text
  REQUIRE(m.info.categories.at(1)[0] == "100");
  auto x = dense_via_device(m);
  float const row0[9] = {0, 29, 125, 256, 6000, 256, 16, 128, 199};
  for (int j = 0; j < 9; ++j) REQUIRE(x(0, j) == row0[j]);
  REQUIRE(totals(x).sum == 3163298.0);
  REQUIRE(label_sum(m) == 22075.0);

  // As XGBoost's demo uses it: without the model name (column 1) and the article's estimate ERP (9).
  opt.ignore_columns = {"1", "9"};
  auto d = kboost::read_dataset(data("machine/machine.data"), opt);
  REQUIRE(d.n_features == 7);
  REQUIRE(d.info.categories.size() == 1);
  REQUIRE(d.info.categories.at(0).size() == 30);
  auto xd = dense_via_device(d);
  float const drow0[7] = {0, 125, 256, 6000, 256, 16, 128};
  for (int j = 0; j < 7; ++j) REQUIRE(xd(0, j) == drow0[j]);
}

TEST_CASE("readers " TEST_BACKEND ": veterans_lung_cancer, header, 'inf' upper bounds refused as a feature or missing",
          "[io][readers][shared]") {
  ReadOptions opt;
  opt.label_column = "Survival_label_lower_bound";
  std::string const path = data("veterans_lung_cancer/veterans_lung_cancer.csv");
  REQUIRE_THROWS_WITH(kboost::read_dataset(path, opt),
                      Catch::Matchers::ContainsSubstring("veterans_lung_cancer.csv:11: column 1 ('Survival_label_upper_bound')") &&
                          Catch::Matchers::ContainsSubstring("'inf' is infinite"));
  opt.missing_markers.push_back("inf");
  auto m = kboost::read_dataset(path, opt);
  REQUIRE(m.n_rows == 137);
  REQUIRE(m.n_features == 12);
  REQUIRE(m.info.feature_names[0] == "Survival_label_upper_bound");
  auto t = totals(dense_via_device(m));
  REQUIRE(t.inf == 0);
  REQUIRE(t.nan == 9);
  REQUIRE(label_sum(m) == 16663.0);
}

TEST_CASE("readers " TEST_BACKEND ": agaricus LibSVM, CSR, indices as-is (127 columns as XGBoost), densified on device",
          "[io][readers]") {
  auto m = kboost::read_dataset(data("agaricus/agaricus.txt.train"));
  REQUIRE(m.is_sparse());
  REQUIRE(m.n_rows == 6513);
  REQUIRE(m.n_features == 127);
  REQUIRE(m.csr.nnz() == 143286);
  REQUIRE(m.info.n_missing == 6513u * 127u - 143286u);
  int const row0[] = {3, 10, 11, 21, 30, 34, 36, 40, 41, 53, 58, 65, 69, 77, 86, 88, 92, 95, 102, 105, 117, 124};
  REQUIRE(m.csr.graph.row_map(1) == 22);
  for (int k = 0; k < 22; ++k) REQUIRE(m.csr.graph.entries(k) == row0[k]);
  auto x = dense_via_device(m);
  REQUIRE(x(0, 3) == 1.0f);
  REQUIRE(std::isnan(x(0, 0)));
  REQUIRE(std::isnan(x(0, 4)));
  auto t = totals(x);
  REQUIRE(t.sum == 143286.0);
  REQUIRE(t.nan == 6513u * 127u - 143286u);
  REQUIRE(label_sum(m) == 3140.0);
  // The declared densify(m) (explicit instantiation, host memory) gives the same matrix.
  auto xh = kboost::densify(m);
  REQUIRE(totals(xh).sum == 143286.0);

  auto test = kboost::read_dataset(data("agaricus/agaricus.txt.test"));
  REQUIRE(test.n_rows == 1611);
  REQUIRE(test.n_features == 127);
  REQUIRE(test.csr.nnz() == 35442);
  REQUIRE(label_sum(test) == 776.0);
  std::string const agaricus_train = data("agaricus/agaricus.txt.train");
  REQUIRE(kboost::resolve_format(agaricus_train, ReadOptions{}) == "libsvm");
}

TEST_CASE("readers " TEST_BACKEND ": a1a LibSVM, '+1' labels, 1-based indices detected or forced width",
          "[io][readers][shared]") {
  auto as_is = kboost::read_dataset(data("a1a/a1a.svmlight"));
  REQUIRE(as_is.n_rows == 1605);
  REQUIRE(as_is.n_features == 120);
  REQUIRE(as_is.csr.nnz() == 22249);
  REQUIRE(label_sum(as_is) == -815.0);
  REQUIRE(as_is.label(0) == -1.0f);

  ReadOptions detect;
  detect.index_base = -1;
  auto m = kboost::read_dataset(data("a1a/a1a.svmlight"), detect);
  REQUIRE(m.n_features == 119);  // sklearn load_svmlight_file(zero_based="auto")
  int const row0[] = {2, 10, 13, 18, 38, 41, 54, 63, 66, 72, 74, 75, 79, 82};
  for (int k = 0; k < 14; ++k) REQUIRE(m.csr.graph.entries(k) == row0[k]);

  ReadOptions wide = detect;
  wide.num_features = 123;  // the LIBSVM a1a feature space
  auto w = kboost::read_dataset(data("a1a/a1a.svmlight"), wide);
  REQUIRE(w.n_features == 123);
  REQUIRE(w.info.n_missing == 1605u * 123u - 22249u);
  auto x = dense_via_device(w);
  REQUIRE(x.extent(1) == 123);
  REQUIRE(totals(x).sum == 22249.0);
}

TEST_CASE("readers " TEST_BACKEND ": lambdarank LibSVM with a LightGBM .query group file", "[io][readers][shared]") {
  ReadOptions opt;
  opt.group_file = data("lightgbm_lambdarank/rank.train.query");
  auto m = kboost::read_dataset(data("lightgbm_lambdarank/rank.train"), opt);
  REQUIRE(m.n_rows == 3005);
  REQUIRE(m.n_features == 301);
  REQUIRE(m.csr.nnz() == 284736);
  REQUIRE(m.group_ptr.extent(0) == 202);
  REQUIRE(m.group_ptr(1) == 1);
  REQUIRE(m.group_ptr(2) == 14);
  REQUIRE(m.group_ptr(3) == 19);
  REQUIRE(m.group_ptr(201) == 3005);
  REQUIRE(m.csr.graph.entries(0) == 10);
  REQUIRE(same_bits(m.csr.values(2), 0.01f));
  REQUIRE(totals(dense_via_device(m)).sum == 185036.32019442506);
  REQUIRE(label_sum(m) == 3869.0);

  // Not loaded unless asked (as XGBoost 3.2); picked up beside the data with auto_side_files.
  auto plain = kboost::read_dataset(data("lightgbm_lambdarank/rank.test"));
  REQUIRE(plain.group_ptr.extent(0) == 0);
  ReadOptions side;
  side.auto_side_files = true;
  auto t = kboost::read_dataset(data("lightgbm_lambdarank/rank.test"), side);
  REQUIRE(t.n_rows == 768);
  REQUIRE(t.group_ptr.extent(0) == 51);
  REQUIRE(t.group_ptr(50) == 768);
}

TEST_CASE("readers " TEST_BACKEND ": format detection by extension and content", "[io][readers][shared]") {
  ReadOptions opt;
  std::string const a1a = data("a1a/a1a.svmlight"), adult = data("adult/adult.data");
  std::string const machine = data("machine/machine.data"), rank = data("lightgbm_lambdarank/rank.test");
  REQUIRE(kboost::resolve_format(a1a, opt) == "libsvm");
  REQUIRE(kboost::resolve_format(adult, opt) == "csv");
  REQUIRE(kboost::resolve_format(machine, opt) == "csv");
  REQUIRE(kboost::resolve_format(rank, opt) == "libsvm");
  REQUIRE(kboost::resolve_format("x.h5", opt) == "hdf5");
}
