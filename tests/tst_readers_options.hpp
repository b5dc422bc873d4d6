// Reader options and side information on small files written here: weights and query ids from
// columns, side files, delimiters, headers, markers, quoting, forced width/categoricals, HDF5.
#include <catch2/catch_test_macros.hpp>

#include <hdf5.h>

#include <cmath>
#include <cstring>

#include <kboost/kernels/densify.hpp>
#include <kboost/io/dataset_reader.hpp>
#include "tests/test_util.hpp"

namespace {
using kboost::test::bits_equal;

using kboost::ReadOptions;

std::filesystem::path opt_dir() { return kboost::test::temp_dir("reader_options"); }

std::vector<float> row_of(kboost::HostDMatrix const& h, std::size_t r) {
  auto d = kboost::copy_to<TEST_MEMSPACE>(h);
  auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kboost::densify(TEST_EXECSPACE(), d));
  std::vector<float> out(x.extent(1));
  for (std::size_t j = 0; j < out.size(); ++j) out[j] = x(r, j);
  return out;
}


}  // namespace

TEST_CASE("reader options " TEST_BACKEND ": CSV weight and qid columns are taken out of the features",
          "[io][readers][options]") {
  auto p = kboost::test::write_file(opt_dir(), "wq.csv", "qid,f0,w,f1,y\nA,1,0.5,2,0\nA,3,1,4,1\nB,5,2,6,0\nC,7,0,8,1\n");
  ReadOptions opt;
  opt.label_column = "y";
  opt.weight_column = "w";
  opt.qid_column = "0";
  auto m = kboost::read_dataset(p, opt);
  REQUIRE(m.n_rows == 4);
  REQUIRE(m.n_features == 2);
  REQUIRE(m.info.feature_names == std::vector<std::string>{"f0", "f1"});
  REQUIRE(m.has_weights());
  REQUIRE(m.weight(0) == 0.5f);
  REQUIRE(m.weight(3) == 0.0f);
  REQUIRE(m.group_ptr.extent(0) == 4);
  REQUIRE(m.group_ptr(1) == 2);
  REQUIRE(m.group_ptr(2) == 3);
  REQUIRE(m.group_ptr(3) == 4);
  REQUIRE(row_of(m, 2) == std::vector<float>{5, 6});
}

TEST_CASE("reader options " TEST_BACKEND ": LibSVM label:weight, qid, comments, explicit NaN, CRLF",
          "[io][readers][options]") {
  auto p = kboost::test::write_file(opt_dir(), "q.svm",
                                    "+1:2 qid:3 1:0.5 0:-1e-3 # comment\r\n0:1 qid:3 2:nan\r\n\r\n-2.5:0 qid:7 2:4\r\n");
  auto m = kboost::read_dataset(p);
  REQUIRE(m.n_rows == 3);
  REQUIRE(m.n_features == 3);
  REQUIRE(m.csr.nnz() == 3);  // the NaN entry is not stored
  REQUIRE(m.info.n_missing == 6);
  REQUIRE(m.label(0) == 1.0f);
  REQUIRE(m.label(2) == -2.5f);
  REQUIRE(m.weight(0) == 2.0f);
  REQUIRE(m.weight(2) == 0.0f);
  REQUIRE(m.group_ptr.extent(0) == 3);
  REQUIRE(m.group_ptr(1) == 2);
  REQUIRE(m.csr.graph.entries(0) == 0);  // columns sorted within the row
  REQUIRE(bits_equal(m.csr.values(0), -1e-3f));
  auto r0 = row_of(m, 0);
  REQUIRE(bits_equal(r0[0], -1e-3f));
  REQUIRE(r0[1] == 0.5f);
  REQUIRE(std::isnan(r0[2]));
  REQUIRE(std::isnan(row_of(m, 1)[2]));
}

TEST_CASE("reader options " TEST_BACKEND ": side files, named or beside the data when asked",
          "[io][readers][options]") {
  auto dir = opt_dir();
  auto p = kboost::test::write_file(dir, "side.txt", "1 0:1\n0 1:1\n1 2:1\n");
  kboost::test::write_file(dir, "side.txt.weight", "0.25\n1\n4\n");
  kboost::test::write_file(dir, "side.txt.group", "1\n2\n");
  auto plain = kboost::read_dataset(p);
  REQUIRE_FALSE(plain.has_weights());
  REQUIRE(plain.group_ptr.extent(0) == 0);
  ReadOptions side;
  side.auto_side_files = true;
  auto m = kboost::read_dataset(p, side);
  REQUIRE(m.weight(0) == 0.25f);
  REQUIRE(m.weight(2) == 4.0f);
  REQUIRE(m.group_ptr.extent(0) == 3);
  REQUIRE(m.group_ptr(1) == 1);
  ReadOptions named;
  named.weight_file = kboost::test::write_file(dir, "other.w", "1\n2\n3\n");
  auto n = kboost::read_dataset(p, named);
  REQUIRE(n.weight(1) == 2.0f);
}

TEST_CASE("reader options " TEST_BACKEND ": CSV header detection, delimiters, markers, quotes",
          "[io][readers][options]") {
  auto dir = opt_dir();
  // Text in a numeric column's first row = header; text columns alone are no evidence.
  auto no_hdr = kboost::test::write_file(dir, "nohdr.csv", "red,1\nblue,2\n");
  auto m = kboost::read_dataset(no_hdr);
  REQUIRE(m.n_rows == 2);
  REQUIRE(m.info.feature_names.empty());
  REQUIRE(m.info.categories.at(0) == std::vector<std::string>{"blue", "red"});
  REQUIRE(row_of(m, 0) == std::vector<float>{1, 1});
  ReadOptions hdr;
  hdr.header = true;
  auto h = kboost::read_dataset(no_hdr, hdr);
  REQUIRE(h.n_rows == 1);
  REQUIRE(h.info.feature_names == std::vector<std::string>{"red", "1"});

  auto semi = kboost::test::write_file(dir, "semi.txt", "a;b;label\n1;-;3\n4;5;6\n");
  ReadOptions s;
  s.delimiter = ';';
  s.label_column = "label";
  s.missing_markers.push_back("-");
  auto sm = kboost::read_dataset(semi, s);
  REQUIRE(sm.n_features == 2);
  REQUIRE(sm.info.n_missing == 1);
  REQUIRE(std::isnan(row_of(sm, 0)[1]));
  REQUIRE(sm.label(1) == 6.0f);

  auto bom = kboost::test::write_file(dir, "bom.csv", "\xEF\xBB\xBFid,v\n1,2\n");
  REQUIRE(kboost::read_dataset(bom).info.feature_names == std::vector<std::string>{"id", "v"});

  auto quoted = kboost::test::write_file(dir, "quoted.csv", "\"name\",\"x\"\n\"a, b\",1.5\n \"c\" ,NaN\n");
  auto q = kboost::read_dataset(quoted);
  REQUIRE(q.info.feature_names == std::vector<std::string>{"name", "x"});
  REQUIRE(q.info.categories.at(0) == std::vector<std::string>{"a, b", "c"});
  REQUIRE(q.info.n_missing == 1);

  // Without a label column every column is a feature; --no-header keeps row 1 as data.
  auto nums = kboost::test::write_file(dir, "nums.csv", "x,y\n1,2\n");
  ReadOptions nh;
  nh.header = false;
  auto n = kboost::read_dataset(nums, nh);
  REQUIRE(n.n_rows == 2);
  REQUIRE(n.info.categories.size() == 2);  // "x" and "y" make both columns text
}

TEST_CASE("reader options " TEST_BACKEND ": forced width and categorical columns", "[io][readers][options]") {
  auto p = kboost::test::write_file(opt_dir(), "w.csv", "1,2,0\n3,4,1\n");
  ReadOptions opt;
  opt.label_column = "-1";
  opt.num_features = 4;
  opt.categorical_columns = {1};
  auto m = kboost::read_dataset(p, opt);
  REQUIRE(m.n_features == 4);
  REQUIRE(m.info.n_missing == 4);
  REQUIRE(m.info.feature_types.size() == 4);
  REQUIRE(m.info.feature_types[1] == kboost::FeatureType::kCategorical);
  auto r = row_of(m, 1);
  REQUIRE(r[0] == 3.0f);
  REQUIRE(r[1] == 4.0f);
  REQUIRE(std::isnan(r[3]));
}

TEST_CASE("reader options " TEST_BACKEND ": HDF5 X converted to float32, y, weights, NaN missing",
          "[io][readers][options]") {
  auto p = (opt_dir() / "small.h5").string();
  {
    hid_t f = H5Fcreate(p.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t xd[2] = {3, 2}, yd[1] = {3};
    double x[6] = {0.1, NAN, 2.5, -3.0, 1e-8, 7.0};
    std::int64_t y[3] = {1, 0, 2};
    float w[3] = {1.f, 2.f, 0.5f};
    hid_t xs = H5Screate_simple(2, xd, nullptr), ys = H5Screate_simple(1, yd, nullptr);
    hid_t g = H5Gcreate2(f, "data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t xds = H5Dcreate2(f, "data/features", H5T_IEEE_F64LE, xs, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(xds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
    hid_t yds = H5Dcreate2(f, "y", H5T_STD_I64LE, ys, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(yds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, y);
    hid_t wds = H5Dcreate2(f, "w", H5T_IEEE_F32LE, ys, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(wds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, w);
    std::int64_t q[3] = {100000001, 100000001, 100000002};  // differ below float32 resolution
    hid_t qds = H5Dcreate2(f, "qid", H5T_STD_I64LE, ys, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(qds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, q);
    for (hid_t id : {xds, yds, wds, qds}) H5Dclose(id);
    H5Gclose(g);
    H5Sclose(xs);
    H5Sclose(ys);
    H5Fclose(f);
  }
  ReadOptions opt;
  opt.features_dataset = "data/features";
  opt.weight_column = "w";
  REQUIRE(kboost::resolve_format(p, opt) == "hdf5");
  auto m = kboost::read_dataset(p, opt);
  REQUIRE(m.n_rows == 3);
  REQUIRE(m.n_features == 2);
  REQUIRE_FALSE(m.is_sparse());
  REQUIRE(m.info.n_missing == 1);
  auto r0 = row_of(m, 0);
  REQUIRE(bits_equal(r0[0], static_cast<float>(0.1)));
  REQUIRE(std::isnan(r0[1]));
  REQUIRE(bits_equal(row_of(m, 2)[0], static_cast<float>(1e-8)));
  REQUIRE(m.label(2) == 2.0f);
  REQUIRE(m.weight(2) == 0.5f);
  REQUIRE(m.group_ptr.extent(0) == 0);
  ReadOptions grouped = opt;
  grouped.qid_column = "qid";
  auto g = kboost::read_dataset(p, grouped);
  REQUIRE(g.group_ptr.extent(0) == 3);
  REQUIRE(g.group_ptr(1) == 2);
  ReadOptions unlabelled = opt;
  unlabelled.label_dataset = "";
  REQUIRE_FALSE(kboost::read_dataset(p, unlabelled).has_labels());
}
