// Every bad-input case of the readers, on small files the test writes itself: each error must name
// the file and the 1-based line (or the HDF5 dataset) and say what is wrong.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>

#include <hdf5.h>

#include <kboost/io/dataset_reader.hpp>
#include "tests/test_util.hpp"

namespace {

using Catch::Matchers::ContainsSubstring;
using kboost::ReadOptions;

ReadOptions with_format(std::string const& f) {
  ReadOptions o;
  o.format = f;
  return o;
}

std::filesystem::path err_dir() { return kboost::test::temp_dir("reader_errors"); }

/// A tiny HDF5 file with a float64 dataset of the given shape at each name.
std::string write_h5(std::string const& name, std::vector<std::pair<std::string, std::vector<hsize_t>>> const& sets) {
  auto p = (err_dir() / name).string();
  hid_t f = H5Fcreate(p.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  for (auto const& [ds_name, dims] : sets) {
    hsize_t n = 1;
    for (auto d : dims) n *= d;
    std::vector<double> v(n, 1.0);
    hid_t s = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    hid_t d = H5Dcreate2(f, ds_name.c_str(), H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Dclose(d);
    H5Sclose(s);
  }
  H5Fclose(f);
  return p;
}

}  // namespace

TEST_CASE("reader errors " TEST_BACKEND ": CSV errors name file, line and column", "[io][readers][errors]") {
  auto dir = err_dir();
  ReadOptions lab;
  lab.label_column = "y";

  auto ragged = kboost::test::write_file(dir, "ragged.csv", "a,b,y\n1,2,0\n3,4\n5,6,1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(ragged, lab),
                      ContainsSubstring(ragged + ":3") && ContainsSubstring("ragged row: 2 fields") &&
                          ContainsSubstring("has 3"));

  // A LibSVM file read as CSV would be one column of text (categories): refused, naming the format.
  auto libsvm = kboost::test::write_file(dir, "libsvm_as.csv", "1 0:0.5 3:2\n0 qid:4 1:1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(libsvm, with_format("csv")),
                      ContainsSubstring(libsvm + ":1") && ContainsSubstring("this is a LibSVM file, not CSV"));

  auto text_label = kboost::test::write_file(dir, "text_label.csv", "a,y\n1,0\n2,1\n3,yes\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(text_label, lab),
                      ContainsSubstring(text_label + ":4") && ContainsSubstring("column 1 ('y')") &&
                          ContainsSubstring("label 'yes' is not a number"));

  auto garbage_label = kboost::test::write_file(dir, "garbage_label.csv", "a,y\n1,0\n2,1.2.3\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(garbage_label, lab),
                      ContainsSubstring(garbage_label + ":3") && ContainsSubstring("'1.2.3' is not a number"));

  // A stray token in a numeric feature column is an error, not a silent switch to category codes;
  // an all-text column is still a category column.
  std::string typo_text = "a,b,y\n";
  for (int i = 0; i < 30; ++i) typo_text += (i == 7 ? std::string("1.2.3") : std::to_string(i)) + ",x,0\n";
  auto typo = kboost::test::write_file(dir, "typo.csv", typo_text);
  REQUIRE_THROWS_WITH(kboost::read_dataset(typo, lab),
                      ContainsSubstring(typo + ":9") && ContainsSubstring("column 0 ('a')") &&
                          ContainsSubstring("'1.2.3' is not a number") && ContainsSubstring("29 numbers, 1 text") &&
                          ContainsSubstring("--categorical 0"));
  ReadOptions forced = lab;
  forced.categorical_columns = {0};
  CHECK(kboost::read_dataset(typo, forced).info.feature_types.at(0) == kboost::FeatureType::kCategorical);
  auto all_text = kboost::test::write_file(dir, "all_text.csv", "b,y\nx,0\ny,1\nx,0\n");
  auto const cats = kboost::read_dataset(all_text, lab);
  REQUIRE(cats.info.feature_types.size() == 1);
  CHECK(cats.info.feature_types[0] == kboost::FeatureType::kCategorical);

  auto inf_label = kboost::test::write_file(dir, "inf_label.csv", "a,y\n1,0\n2,inf\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(inf_label, lab),
                      ContainsSubstring(inf_label + ":3") && ContainsSubstring("label is not finite"));

  auto missing_label = kboost::test::write_file(dir, "missing_label.csv", "a,y\n1,0\n2,NA\n3,1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(missing_label, lab),
                      ContainsSubstring(missing_label + ":3") && ContainsSubstring("missing label"));

  auto empty = kboost::test::write_file(dir, "empty.csv", "");
  REQUIRE_THROWS_WITH(kboost::read_dataset(empty), ContainsSubstring(empty + ":1") && ContainsSubstring("empty file"));
  auto blank = kboost::test::write_file(dir, "blank.csv", "\n  \n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(blank), ContainsSubstring(blank + ":1") && ContainsSubstring("empty file"));

  auto header_only = kboost::test::write_file(dir, "header_only.csv", "a,b,y\n");
  ReadOptions hdr = lab;
  hdr.header = true;
  REQUIRE_THROWS_WITH(kboost::read_dataset(header_only, hdr),
                      ContainsSubstring(header_only + ":2") && ContainsSubstring("no data rows"));
  REQUIRE_THROWS_WITH(kboost::read_dataset(header_only, lab),  // without --header: the same
                      ContainsSubstring(header_only + ":2") && ContainsSubstring("a header but no data rows"));

  // a feature name twice: upstream refuses duplicate feature names
  auto twice = kboost::test::write_file(dir, "twice.csv", "a,b,a,y\n1,2,3,0\n4,5,6,1\n");
  ReadOptions by_name;
  by_name.label_column = "y";
  REQUIRE_THROWS_WITH(kboost::read_dataset(twice, by_name),
                      ContainsSubstring(twice + ":1") && ContainsSubstring("column 0 ('a') and column 2 ('a')") &&
                          ContainsSubstring("must be unique"));

  // a value beyond float32 in a feature: refused as upstream refuses it
  auto huge = kboost::test::write_file(dir, "huge.csv", "a,b,y\n1,2,0\n3,1e40,1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(huge, by_name),
                      ContainsSubstring(huge + ":3: column 1 ('b')") && ContainsSubstring("'1e40' overflows float32"));
  auto huge_first = kboost::test::write_file(dir, "huge_first.csv", "-3.5e38,2,0\n3,1,1\n");
  ReadOptions no_header;
  no_header.label_column = "2";
  REQUIRE_THROWS_WITH(kboost::read_dataset(huge_first, no_header),
                      ContainsSubstring(huge_first + ":1: column 0") && ContainsSubstring("'-3.5e38' overflows float32"));
  // an infinity: refused unless a missing marker spells inf (upstream's missing=inf), which makes
  // +inf cells missing and keeps -inf a value
  auto infinite = kboost::test::write_file(dir, "infinite.csv", "a,b,y\n1,Infinity,0\n3,-inf,1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(infinite, by_name),
                      ContainsSubstring(infinite + ":2: column 1 ('b')") && ContainsSubstring("'Infinity' is infinite") &&
                          ContainsSubstring("--missing inf"));
  ReadOptions missing_inf = by_name;
  missing_inf.missing_markers.push_back("inf");
  auto const with_inf = kboost::read_dataset(infinite, missing_inf);
  CHECK(std::isnan(with_inf.dense(0, 1)));
  CHECK(with_inf.dense(1, 1) == -std::numeric_limits<float>::infinity());
  CHECK(with_inf.info.n_missing == 1);
  // missing=inf applies to features: an upper label bound of inf stays a right-censored row
  auto censored = kboost::test::write_file(dir, "censored.csv", "a,lo,hi\n1,2,inf\ninf,3,3\n");
  ReadOptions bounds;
  bounds.label_lower_bound_column = "lo";
  bounds.label_upper_bound_column = "hi";
  bounds.missing_markers.push_back("inf");
  auto const aft = kboost::read_dataset(censored, bounds);
  CHECK(std::isinf(aft.label_upper_bound(0)));
  CHECK(std::isnan(aft.dense(1, 0)));
  auto inf_svm = kboost::test::write_file(dir, "inf.libsvm", "1 0:1 1:2\n0 0:3 1:+inf\n");
  ReadOptions svm_inf;
  svm_inf.format = "libsvm";
  REQUIRE_THROWS_WITH(kboost::read_dataset(inf_svm, svm_inf),
                      ContainsSubstring(inf_svm + ":2: field 3") && ContainsSubstring("'+inf' is infinite"));
  svm_inf.missing_markers.push_back("inf");
  auto const svm_missing = kboost::read_dataset(inf_svm, svm_inf);
  CHECK(svm_missing.csr.values.extent(0) == 3);  // the +inf entry is not stored: missing
  auto huge_svm = kboost::test::write_file(dir, "huge.libsvm", "1 0:1 1:2\n0 0:3 1:-1e39\n");
  ReadOptions svm;
  svm.format = "libsvm";
  REQUIRE_THROWS_WITH(kboost::read_dataset(huge_svm, svm),
                      ContainsSubstring(huge_svm + ":2: field 3") && ContainsSubstring("'-1e39' overflows float32"));

  auto ok = kboost::test::write_file(dir, "ok.csv", "a,b,y\n1,2,0\n");
  ReadOptions bad_name;
  bad_name.label_column = "target";
  REQUIRE_THROWS_WITH(kboost::read_dataset(ok, bad_name),
                      ContainsSubstring(ok + ":1") && ContainsSubstring("label column 'target'") &&
                          ContainsSubstring("columns: a, b, y"));
  ReadOptions bad_index;
  bad_index.label_column = "7";
  REQUIRE_THROWS_WITH(kboost::read_dataset(ok, bad_index),
                      ContainsSubstring(ok + ":1") && ContainsSubstring("out of range"));

  auto weights = kboost::test::write_file(dir, "weights.csv", "a,w,y\n1,1,0\n2,-1,1\n");
  ReadOptions wopt = lab;
  wopt.weight_column = "w";
  REQUIRE_THROWS_WITH(kboost::read_dataset(weights, wopt),
                      ContainsSubstring(weights + ":3") && ContainsSubstring("column 1 ('w') (weight)"));

  auto qids = kboost::test::write_file(dir, "qids.csv", "q,a,y\n1,1,0\n1,2,1\n2,3,0\n1,4,1\n");
  ReadOptions qopt = lab;
  qopt.qid_column = "q";
  REQUIRE_THROWS_WITH(kboost::read_dataset(qids, qopt),
                      ContainsSubstring(qids + ":5") && ContainsSubstring("query id '1' reappears"));

  ReadOptions narrow = lab;
  narrow.num_features = 1;
  REQUIRE_THROWS_WITH(kboost::read_dataset(ok, narrow),
                      ContainsSubstring(ok + ":1") && ContainsSubstring("more than num_features = 1"));
  ReadOptions cat = lab;
  cat.categorical_columns = {5};
  REQUIRE_THROWS_WITH(kboost::read_dataset(ok, cat),
                      ContainsSubstring(ok) && ContainsSubstring("categorical column 5") && ContainsSubstring("out of range"));
}

TEST_CASE("reader errors " TEST_BACKEND ": LibSVM errors name file, line and field", "[io][readers][errors]") {
  auto dir = err_dir();
  auto no_colon = kboost::test::write_file(dir, "no_colon.svm", "1 0:1 2:3\n0 1:2 5\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(no_colon),
                      ContainsSubstring(no_colon + ":2") && ContainsSubstring("field 3") &&
                          ContainsSubstring("'5' is not idx:value"));
  auto bad_value = kboost::test::write_file(dir, "bad_value.svm", "1 0:1\n\n0 1:x\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(bad_value),
                      ContainsSubstring(bad_value + ":3") && ContainsSubstring("field 2") &&
                          ContainsSubstring("value is not a number"));
  auto bad_index = kboost::test::write_file(dir, "bad_index.svm", "1 a:1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(bad_index, with_format("libsvm")),
                      ContainsSubstring(bad_index + ":1") && ContainsSubstring("feature index is not an integer"));
  auto negative = kboost::test::write_file(dir, "negative.svm", "1 0:1\n0 -3:1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(negative),
                      ContainsSubstring(negative + ":2") && ContainsSubstring("negative feature index -3"));
  auto wide = kboost::test::write_file(dir, "wide.svm", "1 0:1\n0 1:1\n1 9:1\n");
  ReadOptions narrow;
  narrow.num_features = 5;
  REQUIRE_THROWS_WITH(kboost::read_dataset(wide, narrow),
                      ContainsSubstring(wide + ":3") && ContainsSubstring("feature index 9") &&
                          ContainsSubstring("num_features = 5"));
  auto text_label = kboost::test::write_file(dir, "text_label.svm", "1 0:1\nyes 1:1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(text_label),
                      ContainsSubstring(text_label + ":2") && ContainsSubstring("field 1 (label)"));
  auto nan_label = kboost::test::write_file(dir, "nan_label.svm", "1 0:1\nnan 1:1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(nan_label),
                      ContainsSubstring(nan_label + ":2") && ContainsSubstring("label is not finite"));
  auto zero = kboost::test::write_file(dir, "zero.svm", "1 1:1\n0 0:1\n");
  ReadOptions one;
  one.index_base = 1;
  REQUIRE_THROWS_WITH(kboost::read_dataset(zero, one),
                      ContainsSubstring(zero + ":2") && ContainsSubstring("index 0 in a 1-based file"));
  auto dup = kboost::test::write_file(dir, "dup.svm", "1 1:1 1:2\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(dup),
                      ContainsSubstring(dup + ":1") && ContainsSubstring("appears twice"));
  auto qid = kboost::test::write_file(dir, "qid.svm", "1 qid:1 1:1\n0 2:1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(qid), ContainsSubstring(qid + ":2") && ContainsSubstring("no qid"));
  auto empty = kboost::test::write_file(dir, "empty.svm", "# only a comment\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(empty, with_format("libsvm")),
                      ContainsSubstring(empty + ":1") && ContainsSubstring("empty file"));
}

TEST_CASE("reader errors " TEST_BACKEND ": missing files, directories and bad side files", "[io][readers][errors]") {
  auto dir = err_dir();
  auto missing = (dir / "does_not_exist.csv").string();
  REQUIRE_THROWS_WITH(kboost::read_dataset(missing), ContainsSubstring(missing) && ContainsSubstring("no such file"));
  auto missing_svm = (dir / "does_not_exist.train").string();
  REQUIRE_THROWS_WITH(kboost::read_dataset(missing_svm), ContainsSubstring(missing_svm) && ContainsSubstring("no such file"));
  REQUIRE_THROWS_WITH(kboost::read_dataset(dir.string(), with_format("csv")),
                      ContainsSubstring(dir.string()) && ContainsSubstring("directory"));

  auto data = kboost::test::write_file(dir, "side.svm", "1 0:1\n0 1:1\n1 2:1\n");
  ReadOptions g;
  g.group_file = kboost::test::write_file(dir, "side.svm.group", "2\n2\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(data, g),
                      ContainsSubstring(g.group_file + ":2") && ContainsSubstring("groups cover 4 rows but the data has 3"));
  g.group_file = kboost::test::write_file(dir, "bad.group", "2\nx\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(data, g),
                      ContainsSubstring(g.group_file + ":2") && ContainsSubstring("not a positive integer"));
  ReadOptions w;
  w.weight_file = kboost::test::write_file(dir, "side.svm.weight", "1\n2\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(data, w),
                      ContainsSubstring(w.weight_file) && ContainsSubstring("2 weights for 3 rows"));
  w.weight_file = kboost::test::write_file(dir, "neg.weight", "1\n-2\n1\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(data, w),
                      ContainsSubstring(w.weight_file + ":2") && ContainsSubstring("non-negative"));
  REQUIRE_THROWS_WITH(kboost::read_dataset(data, with_format("parquet")),
                      ContainsSubstring(data) && ContainsSubstring("unknown format 'parquet'"));
}

TEST_CASE("reader errors " TEST_BACKEND ": HDF5 errors name file and dataset", "[io][readers][errors]") {
  auto no_x = write_h5("no_x.h5", {{"data", {3, 2}}});
  REQUIRE_THROWS_WITH(kboost::read_dataset(no_x),
                      ContainsSubstring(no_x) && ContainsSubstring("dataset 'X'") && ContainsSubstring("not found"));
  auto rank1 = write_h5("rank1.h5", {{"X", {6}}});
  REQUIRE_THROWS_WITH(kboost::read_dataset(rank1),
                      ContainsSubstring(rank1) && ContainsSubstring("dataset 'X'") && ContainsSubstring("wrong rank 1"));
  auto short_y = write_h5("short_y.h5", {{"X", {3, 2}}, {"y", {2}}});
  REQUIRE_THROWS_WITH(kboost::read_dataset(short_y),
                      ContainsSubstring(short_y) && ContainsSubstring("dataset 'y'") && ContainsSubstring("wrong shape (2)"));
  ReadOptions named;
  named.label_dataset = "target";
  auto ok = write_h5("ok.h5", {{"X", {3, 2}}});
  REQUIRE_THROWS_WITH(kboost::read_dataset(ok, named),
                      ContainsSubstring(ok) && ContainsSubstring("dataset 'target'") && ContainsSubstring("not found"));
  auto not_h5 = kboost::test::write_file(err_dir(), "not_really.h5", "1,2,3\n");
  REQUIRE_THROWS_WITH(kboost::read_dataset(not_h5), ContainsSubstring(not_h5) && ContainsSubstring("not an HDF5 file"));
}
