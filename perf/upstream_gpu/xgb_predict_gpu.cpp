/// \file xgb_predict_gpu.cpp
/// Upstream XGBoost's GPU prediction through its C API, the peer of kboost's perf/bench_predict_gpu
/// in the GPU prediction suite (perf/predict_suite_gpu.sh). Loads a model file (XGBoosterLoadModel),
/// sets "device" (default cuda:0) and, per batch size, predicts perf/predict_input.hpp's rows (the
/// same bytes kboost's benchmark predicts: uniform in [-2, 2), a fraction --missing of NaN, default
/// 0.02) from pinned host memory:
///   end to end per call = cudaMemcpy H2D into a device buffer, XGBoosterPredictFromCudaArray on that
///   buffer (__cuda_array_interface__ v3 JSON; config type 0, training false, all iterations,
///   strict_shape false, missing NaN), cudaMemcpy D2H of the result (a device pointer: upstream's
///   InplacePreidctCUDA returns the prediction's ConstDevicePointer; copied with cudaMemcpyDefault, so a
///   host pointer would do too, and the first call logs which it was), cudaDeviceSynchronize; timed on
///   the host clock. Upstream runs its kernels on the per-thread default stream (it is built with
///   --default-stream per-thread); the legacy-stream cudaMemcpy calls here synchronise with it.
/// Timing as kboost's benchmark (predict_input.hpp measure_point): one untimed call, one timed probe,
/// warm-up calls, --trials timed calls (fewer for slow calls: max(5, 2000 ms / call)), p50 and p99;
/// then max(5, trials / 2) calls split with cudaDeviceSynchronize after each stage into H2D, the
/// predict call alone on device-resident input, and D2H (medians).
/// --api dense instead: XGBoosterPredictFromDense on the pinned host rows themselves (no H2D of ours;
/// the D2H column is the copy of upstream's result into the pinned output). That call takes host
/// arrays only (a device pointer would be read from the host); a CUDA booster serves host input
/// through a DMatrix, with a warning. With --device cpu it is upstream's CPU inplace prediction, which
/// runs on a machine without a GPU (a check of the driver and of kboost's checksums there).
///   xgb_predict_gpu --model FILE [--batches 1,10,100,1000,10000,100000] [--trials 50] [--missing 0.02]
///       [--csv FILE] [--model-name NAME] [--trees N] [--machine h200] [--device cuda:0]
///       [--api cuda|dense] [--tool xgboost_gpu]
/// --csv: the suite's columns machine,tool,model,trees,batch,trials,p50_ms,p99_ms,h2d_p50_ms,kernel_p50_ms,
/// d2h_p50_ms,check with tool --tool (default "xgboost_gpu"; model: the file name without extension unless given;
/// trees: gbtree_model_param.num_trees of the booster's saved config unless given; check:
/// checksum=<sum of the outputs>), rewritten, one row per batch, flushed as measured. stdout: one line
/// per batch and a line "check tool=<tool> model=... batch=... sum=... wsum=... bits=..." as
/// kboost's benchmark prints.
/// Built against upstream's C API and the CUDA runtime by perf/upstream_gpu/run.sh build.
#include <cuda_runtime_api.h>
#include <xgboost/c_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../predict_input.hpp"

namespace {

void check(int rc, char const* what) {
  if (rc != 0) throw std::runtime_error(std::string(what) + ": " + XGBGetLastError());
}

void cuda_check(cudaError_t e, char const* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// Trees in the loaded booster: gbtree_model_param.num_trees of its JSON config, or -1.
long long booster_trees(BoosterHandle b) {
  bst_ulong len = 0;
  char const* cfg = nullptr;
  if (XGBoosterSaveJsonConfig(b, &len, &cfg) != 0 || cfg == nullptr) return -1;
  std::string const s(cfg, len);
  std::string const key = "\"num_trees\":\"";
  std::size_t const at = s.find(key);
  if (at == std::string::npos) return -1;
  return std::atoll(s.c_str() + at + key.size());
}

/// RAII pinned host and device buffers of floats.
struct HostBuffer {
  float* p = nullptr;
  explicit HostBuffer(std::size_t n) {
    void* v = nullptr;
    cuda_check(cudaMallocHost(&v, std::max<std::size_t>(n, 1) * sizeof(float)), "cudaMallocHost");
    p = static_cast<float*>(v);
  }
  ~HostBuffer() { cudaFreeHost(p); }
  HostBuffer(HostBuffer const&) = delete;
  HostBuffer& operator=(HostBuffer const&) = delete;
};

struct DeviceBuffer {
  float* p = nullptr;
  explicit DeviceBuffer(std::size_t n) {
    void* v = nullptr;
    cuda_check(cudaMalloc(&v, std::max<std::size_t>(n, 1) * sizeof(float)), "cudaMalloc");
    p = static_cast<float*>(v);
  }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(DeviceBuffer const&) = delete;
  DeviceBuffer& operator=(DeviceBuffer const&) = delete;
};

char const* kUsage =
    "usage: xgb_predict_gpu --model FILE [--batches 1,10,100] [--trials 50] [--missing 0.02] [--csv FILE]\n"
    "       [--model-name NAME] [--trees N] [--machine h200] [--device cuda:0] [--api cuda|dense]\n"
    "       [--tool xgboost_gpu]\n";

}  // namespace

int main(int argc, char** argv) {
  std::string model, batches = "1,10,100,1000,10000,100000", csv_path, model_name, machine = "h200", device = "cuda:0";
  std::string api = "cuda", tool = "xgboost_gpu";
  int trials = 50;
  long long trees = -1;
  double missing = 0.02;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string const k = argv[i];
      if (k == "-h" || k == "--help") {
        std::fputs(kUsage, stdout);
        return 0;
      }
      if (i + 1 >= argc) throw std::runtime_error("missing value after " + k);
      std::string const v = argv[++i];
      if (k == "--model") model = v;
      else if (k == "--batches") batches = v;
      else if (k == "--trials" || k == "--iters") trials = std::stoi(v);
      else if (k == "--missing") missing = std::stod(v);
      else if (k == "--csv") csv_path = v;
      else if (k == "--model-name") model_name = v;
      else if (k == "--trees") trees = std::stoll(v);
      else if (k == "--machine") machine = v;
      else if (k == "--device") device = v;
      else if (k == "--api") api = v;
      else if (k == "--tool") tool = v;
      else throw std::runtime_error("unknown option " + k);
    }
    if (model.empty()) throw std::runtime_error("--model is required");
    if (api != "cuda" && api != "dense") throw std::runtime_error("--api must be cuda or dense");
  } catch (std::exception const& e) {
    std::fprintf(stderr, "xgb_predict_gpu: %s\n%s", e.what(), kUsage);
    return 2;
  }
  if (model_name.empty()) model_name = kboost_bench::model_name_from_path(model);
  try {
    BoosterHandle b = nullptr;
    check(XGBoosterCreate(nullptr, 0, &b), "XGBoosterCreate");
    check(XGBoosterLoadModel(b, model.c_str()), "XGBoosterLoadModel");
    check(XGBoosterSetParam(b, "device", device.c_str()), "XGBoosterSetParam(device)");
    bst_ulong nf_u = 0;
    check(XGBoosterGetNumFeature(b, &nf_u), "XGBoosterGetNumFeature");
    int const nf = static_cast<int>(nf_u);
    int rounds = 0;
    check(XGBoosterBoostedRounds(b, &rounds), "XGBoosterBoostedRounds");
    if (trees < 0) trees = booster_trees(b);
    int major = 0, minor = 0, patch = 0;
    XGBoostVersion(&major, &minor, &patch);
    std::printf("xgboost %d.%d.%d on %s (api %s): model %s, %lld trees, %d rounds, %d features, missing fraction %.3f\n",
                major, minor, patch, device.c_str(), api.c_str(), model.c_str(), trees, rounds, nf, missing);
    char const* config =
        "{\"type\": 0, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": false, "
        "\"missing\": NaN}";
    std::ofstream csv;
    if (!csv_path.empty()) {
      csv.open(csv_path);
      csv << kboost_bench::suite_csv_header() << std::flush;
    }
    bool logged_pointer = false;
    std::stringstream bs(batches);
    std::string tok;
    while (std::getline(bs, tok, ',')) {
      long long const batch = std::stoll(tok);
      std::size_t const n_in = static_cast<std::size_t>(batch) * static_cast<std::size_t>(nf);
      HostBuffer hx(n_in);
      DeviceBuffer dx(n_in);
      kboost_bench::fill_predict_input(hx.p, batch, nf, missing);
      bool const dense = api == "dense";
      std::string const array = "{\"data\": [" + std::to_string(reinterpret_cast<std::uintptr_t>(dense ? hx.p : dx.p)) +
                                ", false], \"shape\": [" + std::to_string(batch) + ", " + std::to_string(nf) +
                                "], \"typestr\": \"<f4\", \"version\": 3}";
      float const* result = nullptr;
      std::size_t n_out = 0;
      auto upload = [&] {
        if (!dense) cuda_check(cudaMemcpy(dx.p, hx.p, n_in * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy H2D");
      };
      auto predict = [&] {
        bst_ulong const* shape = nullptr;
        bst_ulong dim = 0;
        if (dense)
          check(XGBoosterPredictFromDense(b, array.c_str(), config, nullptr, &shape, &dim, &result),
                "XGBoosterPredictFromDense");
        else
          check(XGBoosterPredictFromCudaArray(b, array.c_str(), config, nullptr, &shape, &dim, &result),
                "XGBoosterPredictFromCudaArray");
        std::size_t n = 1;
        for (bst_ulong d = 0; d < dim; ++d) n *= static_cast<std::size_t>(shape[d]);
        n_out = n;
      };
      auto fence = [] { cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); };
      // The output's size is known after a first call.
      upload();
      predict();
      fence();
      if (!logged_pointer) {
        cudaPointerAttributes attr{};
        cuda_check(cudaPointerGetAttributes(&attr, result), "cudaPointerGetAttributes");
        std::printf("result pointer of XGBoosterPredictFrom%s: %s memory (%zu floats for %lld rows)\n",
                    dense ? "Dense" : "CudaArray",
                    attr.type == cudaMemoryTypeDevice    ? "device"
                    : attr.type == cudaMemoryTypeManaged ? "managed"
                    : attr.type == cudaMemoryTypeHost    ? "pinned host"
                                                         : "pageable host",
                    n_out, batch);
        logged_pointer = true;
      }
      std::size_t const capacity = n_out;
      HostBuffer hout(capacity);
      auto download = [&] {
        if (n_out != capacity) throw std::runtime_error("output size changed between calls");
        cuda_check(cudaMemcpy(hout.p, result, n_out * sizeof(float), cudaMemcpyDefault), "cudaMemcpy D2H");
      };
      auto const p = kboost_bench::measure_point(trials, upload, predict, download, fence);
      using kboost_bench::percentile;
      auto const chk = kboost_bench::check_output(hout.p, n_out);
      double const p50 = percentile(p.e2e, 0.5), p99 = percentile(p.e2e, 0.99), h2d = percentile(p.h2d, 0.5),
                   ker = percentile(p.kernel, 0.5), d2h = percentile(p.d2h, 0.5);
      std::printf("%s batch %7lld: end-to-end p50 %.4f ms p99 %.4f ms (H2D %.4f, predict %.4f, D2H %.4f ms; %d "
                  "trials, %d warm-up) checksum %.6f\n",
                  tool.c_str(), batch, p50, p99, h2d, ker, d2h, p.plan.trials, p.plan.warmup, chk.sum);
      std::printf("check tool=%s model=%s batch=%lld sum=%.9g wsum=%.9g bits=%016llx\n", tool.c_str(), model_name.c_str(),
                  batch, chk.sum, chk.weighted, static_cast<unsigned long long>(chk.bits));
      std::fflush(stdout);
      if (csv)
        csv << kboost_bench::suite_csv_row(machine, tool, model_name, trees, batch, p.plan.trials, p50, p99, h2d,
                                           ker, d2h, chk.sum)
            << std::flush;
    }
    XGBoosterFree(b);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "xgb_predict_gpu: %s\n", e.what());
    return 1;
  }
  return 0;
}
