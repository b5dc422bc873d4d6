/// bench_read FILE [REPEATS] [--label-column C] [--format F]: time kboost::read_dataset on one file.
/// Prints one JSON line: file, rows, features, bytes, best and median seconds over the repeats.
/// perf/bench_read.py runs it beside pandas / sklearn / xgboost on the same files.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/io/dataset_reader.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: bench_read FILE [REPEATS] [--label-column C] [--format F]\n";
    return 2;
  }
  kboost::compat::initialize(0);
  int rc = 0;
  {
    std::string file = argv[1];
    int repeats = argc > 2 && argv[2][0] != '-' ? std::atoi(argv[2]) : 5;
    kboost::ReadOptions opt;
    for (int i = 2; i + 1 < argc; ++i) {
      std::string a = argv[i];
      if (a == "--label-column") opt.label_column = argv[++i];
      else if (a == "--format") opt.format = argv[++i];
    }
    std::vector<double> secs;
    std::size_t rows = 0, features = 0;
    try {
      for (int r = 0; r < repeats; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        auto m = kboost::read_dataset(file, opt);
        secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        rows = m.n_rows;
        features = m.n_features;
      }
      std::sort(secs.begin(), secs.end());
      std::cout << "{\"file\": \"" << file << "\", \"rows\": " << rows << ", \"features\": " << features
                << ", \"bytes\": " << std::filesystem::file_size(file) << ", \"best_s\": " << secs.front()
                << ", \"median_s\": " << secs[secs.size() / 2] << "}\n";
    } catch (std::exception const& e) {
      std::cerr << "bench_read: " << e.what() << "\n";
      rc = 1;
    }
  }
  Kokkos::finalize();
  return rc;
}
