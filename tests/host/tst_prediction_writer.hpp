// write_predictions: CSV and HDF5 round trips keep every float's bits; writes are atomic.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <limits>

#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/prediction_writer.hpp>
#include "tests/test_util.hpp"

namespace {
using kboost::test::bits_equal;

using Preds = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace>;

/// Values that need all 9 significant digits, tiny and huge ones, subnormals, -0.
Preds tricky_predictions() {
  std::vector<float> v = {0.1f, 1.0f / 3.0f, -2.0f / 3.0f, 16777217.0f, 3.4028235e38f, 1.17549435e-38f,
                          1.4e-45f, -0.0f, 0.0f, 0.99999994f, 1e-7f, 123456.789f,
                          std::nextafter(1.0f, 2.0f), std::nextafter(0.5f, 0.0f), 7.0f, -1e30f};
  Preds p("preds", v.size() / 2, 2);
  for (std::size_t i = 0; i < v.size(); ++i) p.data()[i] = v[i];
  return p;
}


std::filesystem::path pw_dir() { return kboost::test::temp_dir("prediction_writer"); }

}  // namespace

TEST_CASE("prediction writer " TEST_BACKEND ": CSV round-trips every bit", "[io][prediction_writer]") {
  auto p = tricky_predictions();
  auto path = (pw_dir() / "preds.csv").string();
  kboost::write_predictions(path, p, {"class0", "class1"});
  kboost::ReadOptions opt;  // header detected from the names
  auto back = kboost::read_dataset(path, opt);
  REQUIRE(back.info.feature_names == std::vector<std::string>{"class0", "class1"});
  REQUIRE(back.n_rows == p.extent(0));
  REQUIRE(back.n_features == 2);
  for (std::size_t i = 0; i < p.extent(0); ++i)
    for (std::size_t j = 0; j < 2; ++j) {
      INFO("row " << i << " col " << j << " value " << p(i, j));
      REQUIRE(bits_equal(back.dense(i, j), p(i, j)));
    }
  // No header without names; a single column; NaN written as nan and read back as missing.
  Preds one("one", 3, 1);
  one(0, 0) = 0.5f;
  one(1, 0) = std::numeric_limits<float>::quiet_NaN();
  one(2, 0) = 2.0f;
  auto path1 = (pw_dir() / "one.csv").string();
  kboost::write_predictions(path1, one);
  std::ifstream in(path1);
  std::string first;
  std::getline(in, first);
  REQUIRE(first == "0.5");
  auto b1 = kboost::read_dataset(path1);
  REQUIRE(b1.n_rows == 3);
  REQUIRE(std::isnan(b1.dense(1, 0)));
  REQUIRE(b1.dense(2, 0) == 2.0f);
}

TEST_CASE("prediction writer " TEST_BACKEND ": HDF5 round-trips every bit, with column names",
          "[io][prediction_writer]") {
  auto p = tricky_predictions();
  auto path = (pw_dir() / "preds.h5").string();
  kboost::write_predictions(path, p, {"a", "b"});
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  hid_t ds = H5Dopen2(f, "predictions", H5P_DEFAULT);
  REQUIRE(ds >= 0);
  hid_t sp = H5Dget_space(ds);
  hsize_t dims[2] = {0, 0};
  REQUIRE(H5Sget_simple_extent_ndims(sp) == 2);
  H5Sget_simple_extent_dims(sp, dims, nullptr);
  REQUIRE(dims[0] == p.extent(0));
  REQUIRE(dims[1] == 2);
  hid_t type = H5Dget_type(ds);
  REQUIRE(H5Tequal(type, H5T_IEEE_F32LE) > 0);
  std::vector<float> back(p.size());
  REQUIRE(H5Dread(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, back.data()) >= 0);
  for (std::size_t i = 0; i < p.size(); ++i) REQUIRE(bits_equal(back[i], p.data()[i]));
  hid_t attr = H5Aopen(ds, "columns", H5P_DEFAULT);
  REQUIRE(attr >= 0);
  hid_t st = H5Tcopy(H5T_C_S1);
  H5Tset_size(st, H5T_VARIABLE);
  H5Tset_cset(st, H5T_CSET_UTF8);
  char* names[2] = {nullptr, nullptr};
  REQUIRE(H5Aread(attr, st, names) >= 0);
  REQUIRE(std::string(names[0]) == "a");
  REQUIRE(std::string(names[1]) == "b");
  hid_t asp = H5Aget_space(attr);
  H5Dvlen_reclaim(st, asp, H5P_DEFAULT, names);
  for (hid_t id : {asp, sp}) H5Sclose(id);
  H5Tclose(st);
  H5Tclose(type);
  H5Aclose(attr);
  H5Dclose(ds);
  H5Fclose(f);
  // Read back through the dataset reader too.
  kboost::ReadOptions opt;
  opt.features_dataset = "predictions";
  auto m = kboost::read_dataset(path, opt);
  REQUIRE(bits_equal(m.dense(0, 1), p(0, 1)));
}

TEST_CASE("prediction writer " TEST_BACKEND ": writes are atomic and report errors", "[io][prediction_writer]") {
  using Catch::Matchers::ContainsSubstring;
  auto dir = pw_dir() / "atomic";
  std::filesystem::create_directories(dir);
  auto path = (dir / "p.csv").string();
  Preds p("p", 2, 1);
  p(0, 0) = 1;
  p(1, 0) = 2;
  kboost::write_predictions(path, p);
  kboost::write_predictions(path, p);  // overwrite in place
  std::size_t files = 0;
  for (auto const& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file() ? 1 : 0;
  REQUIRE(files == 1);  // no temp file left behind
  auto bad = (dir / "no_such_dir" / "p.csv").string();
  REQUIRE_THROWS_WITH(kboost::write_predictions(bad, p), ContainsSubstring(bad));
  REQUIRE_THROWS_WITH(kboost::write_predictions(path, p, {"a", "b"}),
                      ContainsSubstring(path) && ContainsSubstring("2 column names for 1 prediction columns"));
  REQUIRE_FALSE(std::filesystem::exists(dir / "no_such_dir"));
}
