/// \file bench_predict_gpu.cpp
/// Inference latency on the default execution space (CUDA in a CUDA build) for the
/// benchmark and the GPU prediction suite (perf/predict_suite_gpu.sh): a model file (e.g. 999 trees,
/// depth 6) predicted at several batch sizes from host input to host output.
/// Input per batch: perf/predict_input.hpp's rows (uniform in [-2, 2), a fraction --missing of NaN,
/// default 0.02; the same bytes upstream's driver perf/upstream_gpu/xgb_predict_gpu.cpp predicts),
/// in pinned host buffers where the backend has them.
/// End to end per call = H2D copy of the batch + the prediction + D2H copy of the result + fence,
/// timed on the host clock. Per batch and path: one untimed call, one timed probe call, warm-up calls
/// (about 0.5 s, 1 to 20), then --trials timed calls (fewer for slow calls: max(5, 2000 ms / call);
/// predict_input.hpp plan_trials): median and p99. A second loop of max(5, trials / 2) calls fences
/// between the stages to split the time into H2D / kernel / D2H (medians; the fences add their own
/// cost).
/// Paths (--paths, comma-separated):
///   batch          Predictor::predict_into, one kboost kernel per call (tool "kboost");
///   device_forest  the caller's own parallel_for over the rows, each calling the DeviceForest handle
///                  of Predictor::device_forest() (tool "kboost_device_forest"; the in-user-kernel path
///                  of perf/device_forest), its result compared bit for bit with the batch path's when
///                  both run.
///   pairs          kernels/predict_pairs.hpp called directly (tool "kboost_pairs": (tree, row) pairs over
///                  the whole device, then the ordered sum), its result compared bit for bit with the
///                  batch path's when both run;
///   pinned         Predictor::predict_into reading X from and writing the result to the pinned host
///                  buffers themselves (no copies: the kernel reads host memory over the bus; tool
///                  "kboost_pinned"), for small batches; its bits compared with the batch path's;
///   rows<T>        kernels/predict_rows.hpp called directly with teams of T rows (tool "kboost_rows<T>"),
///                  to measure where one thread per row overtakes the small-batch blocking.
///   map:<choice>   Predictor::predict_into with a forced mapping and layout (engine/predict_tuner.hpp
///                  PredictorConfig::mapping; kernels/predict_mapping.hpp): <choice> is blocking, pairs
///                  or rows, optionally followed by /layered<G> (the trees interleaved level by level in
///                  groups of G, kernels/predict_layout_layered.hpp), e.g. map:blocking/layered8 (tool
///                  "kboost_map_blocking_layered8"), and for blocking by /staged<K> (the top K levels of
///                  a chunk's trees in team scratch, kernels/predict_staged.hpp), e.g.
///                  map:blocking/staged4 or map:blocking/layered8/staged4; batches the mapping cannot serve (pairs beyond
///                  kDevicePairMaxWords leaf words) are skipped; bits compared with the batch path's.
///   map:all        every map:<choice> the tuner tries (3 mappings × the standard layout and kLayeredGroups,
///                  and blocking/staged<K> for each kStagedLevelCandidates).
///   tuned          Predictor::predict_into with the tuned mapping (PredictorConfig::Tune::kOn; the tune
///                  store of TuneStore::default_dir(), KBOOST_TUNE_DIR); the first call of each batch
///                  class measures (untimed here), the line "predict tune ..." says what was chosen.
///   bench_predict_gpu --model FILE [--batches 1,10,100,1000,10000,100000] [--trials 50] [--missing 0.02]
///       [--paths batch] [--csv FILE] [--suite-csv FILE] [--model-name NAME] [--trees N] [--machine h200]
/// --iters is another name of --trials. --csv: tool,space,batch,iters,p50_ms,p99_ms,mean_ms,h2d_p50_ms,
/// kernel_p50_ms,d2h_p50_ms,checksum. --suite-csv: the suite's columns machine,tool,model,trees,batch,
/// trials,p50_ms,p99_ms,h2d_p50_ms,kernel_p50_ms,d2h_p50_ms,check (model: --model-name, default the file
/// name without extension; trees: --trees, default the model's; check: checksum=<sum of the outputs>).
/// Both files are rewritten, one row per path and batch, flushed as measured. stdout: one line per
/// path and batch, then a line "check tool=... model=... batch=... sum=... wsum=... bits=..." (plain
/// and position-weighted sums, FNV-1a hash of the output bytes) that the suite compares across tools.
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/engine/predictor.hpp>
#include <kboost/engine/predict_tuner.hpp>
#include <kboost/kernels/predict_mapping.hpp>

#include "predict_input.hpp"

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
#if defined(KOKKOS_ENABLE_CUDA)
using PinnedSpace = Kokkos::CudaHostPinnedSpace;
#else
using PinnedSpace = Kokkos::HostSpace;
#endif

/// A memory space as a value, for generic lambdas.
template <class S>
struct SpaceTag {
  using type = S;
};

/// Outputs a DeviceForest row may need (margin columns) in the user kernel's local array.
constexpr int kMaxOutputs = 16;

/// The in-user-kernel path: the caller's parallel_for over rows, one DeviceForest::predict per row
/// from the row's contiguous features.
/// `k`: the result's columns (Predictor::output_columns, the handle's output_columns()).
template <class Forest, class XView, class OutView>
void predict_in_user_kernel(Forest const& forest, int k, XView const& X, OutView const& out) {
  Kokkos::parallel_for(
      "bench::user_kernel", Kokkos::RangePolicy<Space>(std::int64_t{0}, static_cast<std::int64_t>(X.extent(0))),
      KOKKOS_LAMBDA(std::int64_t i) {
        float o[kMaxOutputs];
        forest.predict(&X(i, 0), o);
        for (int j = 0; j < k; ++j) out(i, j) = o[j];
      });
}

/// The PredictChoice of a map:<choice> path ("blocking", "pairs/layered8", "blocking/layered8/staged4",
/// ...: PredictChoice::parse, the default mapping excluded), or nothing.
std::optional<kboost::PredictChoice> parse_choice(std::string const& text) {
  auto const c = kboost::PredictChoice::parse(text);
  return c && c->mapping != kboost::PredictMapping::kDefault ? c : std::nullopt;
}

/// Tool name of a choice: "kboost_map_" + its name with '/' as '_'.
std::string choice_tool(kboost::PredictChoice const& c) {
  std::string n = "kboost_map_" + c.name();
  std::replace(n.begin(), n.end(), '/', '_');
  return n;
}

/// Adds the choices a map: path names (map:all: every candidate the tuner tries) to `out`; false for
/// a path that is not one.
bool add_map_path(std::string const& tok, std::vector<kboost::PredictChoice>& out) {
  if (tok == "map:all") {
    for (auto const& c : kboost::mapping_candidates(1, 1, false)) out.push_back(c);
    return true;
  }
  auto const c = tok.rfind("map:", 0) == 0 ? parse_choice(tok.substr(4)) : std::nullopt;
  if (c) out.push_back(*c);
  return c.has_value();
}

}  // namespace

int main(int argc, char* argv[]) {
  std::string model, batches = "1,10,100,1000,10000,100000", csv_path, suite_path, model_name, machine = "h200";
  std::string paths = "batch";
  int trials = 50;
  long long trees = -1;
  double missing = 0.02;
  CLI::App app{"kboost GPU inference benchmark"};
  app.add_option("--model", model, "model file (XGBoost JSON or UBJSON)")->required();
  app.add_option("--batches", batches, "comma-separated batch sizes")->default_val(batches);
  app.add_option("--trials,--iters", trials, "timed calls per point (fewer for slow calls)")->default_val(trials);
  app.add_option("--missing", missing, "fraction of NaN in the input")->default_val(missing);
  app.add_option("--paths", paths, "batch, device_forest, pairs, pinned, rows<T>, map:<mapping>[/layered<G>], map:all, tuned: comma-separated")->default_val(paths);
  app.add_option("--csv", csv_path, "CSV: tool,space,batch,iters,p50_ms,...,checksum");
  app.add_option("--suite-csv", suite_path, "CSV in the prediction suite's columns");
  app.add_option("--model-name", model_name, "suite CSV model column (default: file name without extension)");
  app.add_option("--trees", trees, "suite CSV trees column (default: the model's tree count)");
  app.add_option("--machine", machine, "suite CSV machine column")->default_val(machine);
  CLI11_PARSE(app, argc, argv);
  bool run_batch = false, run_forest = false, run_pairs = false, run_pinned = false, run_tuned = false;
  std::vector<int> row_teams;
  std::vector<kboost::PredictChoice> forced;
  {
    std::stringstream ps(paths);
    std::string tok;
    while (std::getline(ps, tok, ',')) {
      if (tok == "batch") run_batch = true;
      else if (tok == "device_forest") run_forest = true;
      else if (tok == "pairs") run_pairs = true;
      else if (tok == "pinned") run_pinned = true;
      else if (tok == "tuned") run_tuned = true;
      else if (add_map_path(tok, forced)) continue;
      else if (tok.rfind("rows", 0) == 0 && tok.size() > 4 && tok.find_first_not_of("0123456789", 4) == std::string::npos)
        row_teams.push_back(std::stoi(tok.substr(4)));
      else {
        std::fprintf(stderr, "bench_predict_gpu: unknown path '%s' (batch, device_forest, pairs, pinned, rows<T>, map:<mapping>[/layered<G>][/staged<K>], map:all, tuned)\n", tok.c_str());
        return 2;
      }
    }
  }
  if (model_name.empty()) model_name = kboost_bench::model_name_from_path(model);
  kboost::compat::initialize(0);
  int rc = 0;
  {
    kboost::Predictor<Space> pred(model);
    int const nf = pred.model().num_feature;
    kboost::PredictOptions opt;
    int const cols = pred.output_columns(opt);
    if (trees < 0) trees = static_cast<long long>(pred.model().trees.size());
    std::printf("%s: model %s, %zu trees, %d features, %d outputs per row (upload %.3f s), missing fraction %.3f\n",
                Space::name(), model.c_str(), pred.model().trees.size(), nf, cols, pred.upload_seconds(), missing);
    auto const forest = pred.device_forest(opt);
    // the forced and tuned Predictors of the map: and tuned paths (same model, other mapping policies)
    std::vector<std::pair<std::string, kboost::Predictor<Space>>> mapped;
    for (auto const& c : forced) {
      kboost::PredictorConfig cfg;
      cfg.mapping = c;
      cfg.tune = kboost::PredictorConfig::Tune::kOff;
      mapped.emplace_back(choice_tool(c), kboost::Predictor<Space>(pred.model(), cfg));
    }
    if (run_tuned) {
      kboost::PredictorConfig cfg;
      cfg.tune = kboost::PredictorConfig::Tune::kOn;
      mapped.emplace_back("kboost_tuned", kboost::Predictor<Space>(pred.model(), cfg));
    }
    if (run_forest && forest.margin_columns() > kMaxOutputs) {
      std::fprintf(stderr, "bench_predict_gpu: device_forest path skipped: more than %d outputs\n", kMaxOutputs);
      run_forest = false;
    }
    std::ofstream csv, suite;
    if (!csv_path.empty()) {
      csv.open(csv_path);
      csv << "tool,space,batch,iters,p50_ms,p99_ms,mean_ms,h2d_p50_ms,kernel_p50_ms,d2h_p50_ms,checksum\n" << std::flush;
    }
    if (!suite_path.empty()) {
      suite.open(suite_path);
      suite << kboost_bench::suite_csv_header() << std::flush;
    }
    std::stringstream bs(batches);
    std::string tok;
    while (std::getline(bs, tok, ',')) {
      long long const batch = std::stoll(tok);
      Kokkos::View<float**, Kokkos::LayoutRight, PinnedSpace> hx("bench::hx", batch, nf), hout("bench::hout", batch, cols),
          hout_forest("bench::hout_forest", run_forest ? batch : 0, cols),
          hout_pairs("bench::hout_pairs", run_pairs || run_pinned || !mapped.empty() ? batch : 0, cols);
      Kokkos::View<float**, Kokkos::LayoutRight, Mem> dx("bench::dx", batch, nf), dout("bench::dout", batch, cols);
      kboost_bench::fill_predict_input(hx.data(), batch, nf, missing);
      kboost::Predictor<Space>::const_matrix_type cdx(dx);
      auto report = [&](char const* tool, kboost_bench::Point const& p, float const* out) {
        using kboost_bench::percentile;
        double mean = 0;
        for (double v : p.e2e) mean += v;
        mean /= static_cast<double>(p.e2e.size());
        auto const chk = kboost_bench::check_output(out, static_cast<std::size_t>(batch) * static_cast<std::size_t>(cols));
        double const p50 = percentile(p.e2e, 0.5), p99 = percentile(p.e2e, 0.99), h2d = percentile(p.h2d, 0.5),
                     ker = percentile(p.kernel, 0.5), d2h = percentile(p.d2h, 0.5);
        std::printf("%s batch %7lld: end-to-end p50 %.4f ms p99 %.4f ms (H2D %.4f, kernel %.4f, D2H %.4f ms; %d trials, "
                    "%d warm-up) checksum %.6f\n",
                    tool, batch, p50, p99, h2d, ker, d2h, p.plan.trials, p.plan.warmup, chk.sum);
        std::printf("check tool=%s model=%s batch=%lld sum=%.9g wsum=%.9g bits=%016llx\n", tool, model_name.c_str(), batch,
                    chk.sum, chk.weighted, static_cast<unsigned long long>(chk.bits));
        std::fflush(stdout);
        if (csv) {
          char buf[320];
          std::snprintf(buf, sizeof buf, "%s,%s,%lld,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.6f\n", tool, Space::name(), batch,
                        p.plan.trials, p50, p99, mean, h2d, ker, d2h, chk.sum);
          csv << buf << std::flush;
        }
        if (suite)
          suite << kboost_bench::suite_csv_row(machine, tool, model_name, trees, batch, p.plan.trials, p50, p99, h2d, ker,
                                               d2h, chk.sum)
                << std::flush;
      };
      // A path's output against the batch path's, bit for bit (when the batch path ran).
      auto compare_with_batch = [&](char const* path, float const* h) {
        if (!run_batch) return;
        bool const same = std::memcmp(hout.data(), h, hout.size() * sizeof(float)) == 0;
        std::printf("%s batch %lld: bits equal to the batch path: %s\n", path, batch, same ? "yes" : "NO");
        if (!same) rc = 1;
      };
      auto upload = [&] { Kokkos::deep_copy(dx, hx); };
      auto fence = [] { Kokkos::fence(); };
      if (run_batch) {
        auto const p = kboost_bench::measure_point(
            trials, upload, [&] { pred.predict_into(cdx, dout, opt); }, [&] { Kokkos::deep_copy(hout, dout); }, fence);
        report("kboost", p, hout.data());
      }
      for (int T : row_teams) {
        auto const p = kboost_bench::measure_point(
            trials, upload, [&] { kboost::predict_rows(Space(), forest, cdx, {}, T, dout); },
            [&] { Kokkos::deep_copy(hout, dout); }, fence);
        report(("kboost_rows" + std::to_string(T)).c_str(), p, hout.data());
      }
      if (run_pinned) {
        // a generic lambda, so that the branch a backend cannot compile (its host memory not
        // accessible from its execution space, e.g. HIP's HostSpace) is discarded
        auto const pinned_path = [&](auto space_tag) {
          using PS = typename decltype(space_tag)::type;
          if constexpr (Kokkos::SpaceAccessibility<Space, PS>::accessible) {
            Kokkos::View<const float**, Kokkos::LayoutRight, PS> const chx(hx);
            auto const p = kboost_bench::measure_point(
                trials, [] {}, [&] { pred.predict_into(Space(), chx, hout_pairs, opt); }, [] {}, fence);
            report("kboost_pinned", p, hout_pairs.data());
            compare_with_batch("pinned", hout_pairs.data());
          } else {
            std::fprintf(stderr, "bench_predict_gpu: pinned path skipped: %s cannot read the host buffers\n", Space::name());
          }
        };
        pinned_path(SpaceTag<PinnedSpace>{});
      }
      if (run_pairs) {
        Kokkos::View<std::int32_t*, Mem> words(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::pair_words"),
                                               kboost::pair_words(static_cast<std::size_t>(batch), forest.last_tree - forest.first_tree));
        auto const p = kboost_bench::measure_point(
            trials, upload, [&] { kboost::predict_pairs(Space(), forest, cdx, {}, words, dout); },
            [&] { Kokkos::deep_copy(hout_pairs, dout); }, fence);
        report("kboost_pairs", p, hout_pairs.data());
        compare_with_batch("pairs", hout_pairs.data());
      }
      for (auto& entry : mapped) {
        std::string const& tool = entry.first;
        auto const& mp = entry.second;  // a reference, not a structured binding: lambdas capture it
        kboost::PredictChoice const c = mp.config().mapping;
        if (!kboost::mapping_applies(c.mapping, static_cast<std::size_t>(batch), forest.last_tree - forest.first_tree, false)) {
          std::printf("%s batch %lld: skipped (the mapping cannot serve this batch)\n", tool.c_str(), batch);
          continue;
        }
        if (mp.tuning()) {
          upload();
          std::printf("%s\n", mp.tuned_choice(Space(), cdx, dout, opt).describe().c_str());
        }
        auto const p = kboost_bench::measure_point(
            trials, upload, [&] { mp.predict_into(cdx, dout, opt); }, [&] { Kokkos::deep_copy(hout_pairs, dout); }, fence);
        report(tool.c_str(), p, hout_pairs.data());
        compare_with_batch(tool.c_str(), hout_pairs.data());
      }
      if (run_forest) {
        auto const p = kboost_bench::measure_point(
            trials, upload, [&] { predict_in_user_kernel(forest, cols, dx, dout); },
            [&] { Kokkos::deep_copy(hout_forest, dout); }, fence);
        report("kboost_device_forest", p, hout_forest.data());
        compare_with_batch("device_forest", hout_forest.data());
      }
    }
  }
  Kokkos::finalize();
  return rc;
}
