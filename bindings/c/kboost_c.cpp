/// \file kboost_c.cpp
/// The C ABI (kboost_c.h) over the engine: models are read by io/model_reader, predicted with the
/// Predictor's device-callable forest (row by row on the calling thread for host arrays, one batch
/// kernel for device arrays) and trained with the Booster. No C++ exception crosses the ABI: each
/// entry point catches and stores the message in a thread-local buffer.
#include <kboost/kboost_c.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <kboost/core/compat.hpp>
#if defined(KBOOST_HAVE_MPI)
#include <kboost/core/mpi_collective.hpp>
#endif
#include <kboost/core/version.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/engine/predictor.hpp>
#include <kboost/engine/train_job.hpp>
#include <kboost/io/model_reader.hpp>
#include <kboost/io/model_writer.hpp>

using HostSpace = Kokkos::DefaultHostExecutionSpace;
using DeviceSpace = Kokkos::DefaultExecutionSpace;

/// A loaded or trained model: the host predictor is built at load time; the device one on first use.
struct kboost_model {
  explicit kboost_model(kboost::Model m) : host(std::move(m)) {}
  kboost::Predictor<HostSpace> host;
  mutable std::once_flag device_once;
  mutable std::unique_ptr<kboost::Predictor<DeviceSpace>> device;
};

namespace {

thread_local std::string last_error;

/// Kokkos as the C ABI manages it: started by kboost_initialize or by the first call that needs it
/// (when the program has not started it), finalised by kboost_finalize or at exit, after the models
/// still alive are freed.
std::mutex kokkos_mutex;
bool kboost_initialized_kokkos = false;
bool kboost_finalized_kokkos = false;
std::set<kboost_model*> live_models;

/// Frees the models the program left and finalises Kokkos, if kboost started it (std::atexit).
void finalize_at_exit() {
  std::lock_guard<std::mutex> lock(kokkos_mutex);
  if (!kboost_initialized_kokkos) return;
  for (kboost_model* m : live_models) delete m;
  live_models.clear();
  Kokkos::finalize();
  kboost_initialized_kokkos = false;
  kboost_finalized_kokkos = true;
}

/// Runs `f`, turning any exception into KBOOST_ERROR and this thread's message.
template <class F>
int guarded(char const* what, F&& f) {
  try {
    last_error.clear();
    f();
    return KBOOST_SUCCESS;
  } catch (std::exception const& e) {
    last_error = std::string(what) + ": " + e.what();
  } catch (...) {
    last_error = std::string(what) + ": unknown error";
  }
  return KBOOST_ERROR;
}

void require(bool ok, std::string const& msg) {
  if (!ok) throw std::invalid_argument(msg);
}

/// Starts Kokkos with its defaults (OMP_NUM_THREADS; Kokkos' warnings off) unless the program has,
/// and arranges its finalisation at exit.
/// \throws std::invalid_argument once Kokkos has been finalised (it cannot start again).
void ensure_kokkos() {
  std::lock_guard<std::mutex> lock(kokkos_mutex);
  if (kboost::compat::is_initialized()) return;
  require(!kboost_finalized_kokkos && !kboost::compat::is_finalized(),
          "Kokkos has been finalised (kboost_finalize or Kokkos::finalize); it cannot start again in this process");
  kboost::compat::initialize(0);
  kboost_initialized_kokkos = true;
  static bool const at_exit = std::atexit(finalize_at_exit) == 0;
  (void)at_exit;
}

/// A new model handle, tracked so that an at-exit finalisation frees it first.
kboost_model* new_model(kboost::Model m) {
  auto* handle = new kboost_model(std::move(m));
  std::lock_guard<std::mutex> lock(kokkos_mutex);
  live_models.insert(handle);
  return handle;
}

void require_matrix(float const* x, std::int64_t n_rows, std::int64_t n_features, int layout) {
  require(n_rows >= 0 && n_features >= 0, "n_rows and n_features must be >= 0");
  require(x != nullptr || n_rows == 0, "x is NULL");
  require(layout == KBOOST_ROW_MAJOR || layout == KBOOST_COL_MAJOR,
          "layout must be KBOOST_ROW_MAJOR (0) or KBOOST_COL_MAJOR (1), got " + std::to_string(layout));
}

kboost::PredictOptions options_of(int flags) {
  require((flags & ~(KBOOST_OUTPUT_MARGIN | KBOOST_OUTPUT_COL_MAJOR)) == 0,
          "unknown bits in flags " + std::to_string(flags));
  kboost::PredictOptions opt;
  opt.output_margin = (flags & KBOOST_OUTPUT_MARGIN) != 0;
  return opt;
}

/// Column-major row accessor: feature f of row r at x[f * n_rows + r].
struct ColumnMajorRow {
  float const* x;
  std::int64_t n_rows, row;
  KOKKOS_INLINE_FUNCTION float operator()(int f) const { return x[f * n_rows + row]; }
};

/// Row-major row accessor: feature f of row r at x[r * n_features + f].
struct RowMajorRow {
  float const* row;
  KOKKOS_INLINE_FUNCTION float operator()(int f) const { return row[f]; }
};

/// The keys and values as a map, each checked not NULL.
std::map<std::string, std::string> key_values(const char* const* keys, const char* const* values, int64_t n) {
  require(n >= 0 && (n == 0 || (keys != nullptr && values != nullptr)), "bad parameter arrays");
  std::map<std::string, std::string> kv;
  for (std::int64_t i = 0; i < n; ++i) {
    require(keys[i] != nullptr && values[i] != nullptr, "parameter " + std::to_string(i) + " is NULL");
    kv[keys[i]] = values[i];
  }
  return kv;
}

/// MPI_COMM_WORLD when the library has MPI and the caller initialised it, else this process alone.
std::unique_ptr<kboost::Collective> mpi_world_if_initialised() {
#if defined(KBOOST_HAVE_MPI)
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (initialised && !finalised) return kboost::make_mpi_collective(MPI_COMM_WORLD);
#endif
  return nullptr;
}

}  // namespace

extern "C" {

const char* kboost_version(void) { return kboost::version(); }
int kboost_abi_version(void) { return KBOOST_C_ABI_VERSION; }
const char* kboost_last_error(void) { return last_error.c_str(); }

int kboost_initialize(void) {
  return guarded("kboost_initialize", [] { ensure_kokkos(); });
}

int kboost_finalize(void) {
  return guarded("kboost_finalize", [] {
    std::lock_guard<std::mutex> lock(kokkos_mutex);
    if (!kboost_initialized_kokkos) return;
    // A model holds Views and an execution space, which must not outlive Kokkos (Kokkos 5.1
    // enforces it for execution spaces).
    if (!live_models.empty())
      throw std::runtime_error(std::to_string(live_models.size()) +
                               " model(s) still alive: free them (kboost_model_free) before kboost_finalize");
    Kokkos::finalize();
    kboost_initialized_kokkos = false;
    kboost_finalized_kokkos = true;
  });
}

int kboost_model_load(const char* path, kboost_model** out) {
  return guarded("kboost_model_load", [&] {
    require(path != nullptr && out != nullptr, "path and out must not be NULL");
    ensure_kokkos();
    *out = nullptr;
    *out = new_model(kboost::read_model(path));
  });
}

int kboost_model_load_from_memory(const void* data, size_t len, kboost_model** out) {
  return guarded("kboost_model_load_from_memory", [&] {
    require(data != nullptr && out != nullptr, "data and out must not be NULL");
    ensure_kokkos();
    *out = nullptr;
    std::string bytes(static_cast<char const*>(data), len);
    *out = new_model(kboost::parse_model(bytes, "<memory>"));
  });
}

void kboost_model_free(kboost_model* model) {
  if (model == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(kokkos_mutex);
    live_models.erase(model);
  }
  delete model;
}

int kboost_model_save(const kboost_model* model, const char* path) {
  return guarded("kboost_model_save", [&] {
    require(model != nullptr && path != nullptr, "model and path must not be NULL");
    kboost::save_model(model->host.model(), path);
  });
}

int kboost_model_num_features(const kboost_model* model, int64_t* out) {
  return guarded("kboost_model_num_features", [&] {
    require(model != nullptr && out != nullptr, "model and out must not be NULL");
    *out = model->host.model().num_feature;
  });
}

int kboost_model_num_outputs(const kboost_model* model, int64_t* out) {
  return kboost_model_num_outputs_for(model, 0, out);
}

int kboost_model_num_outputs_for(const kboost_model* model, int flags, int64_t* out) {
  return guarded("kboost_model_num_outputs", [&] {
    require(model != nullptr && out != nullptr, "model and out must not be NULL");
    *out = model->host.output_columns(options_of(flags));
  });
}

int kboost_predict(const kboost_model* model, const float* x, int64_t n_rows, int64_t n_features, int layout,
                   int flags, float* out) {
  return guarded("kboost_predict", [&] {
    require(model != nullptr, "model is NULL");
    require_matrix(x, n_rows, n_features, layout);
    require(out != nullptr || n_rows == 0, "out is NULL");
    auto const opt = options_of(flags);
    auto const& m = model->host.model();
    require(m.num_feature == 0 || n_features == m.num_feature,
            "x has " + std::to_string(n_features) + " features, the model expects " + std::to_string(m.num_feature));
    auto const forest = model->host.device_forest(opt);
    int const k = model->host.output_columns(opt);
    bool const col_out = (flags & KBOOST_OUTPUT_COL_MAJOR) != 0;
    std::vector<float> row_out(static_cast<std::size_t>(forest.margin_columns()));
    for (std::int64_t r = 0; r < n_rows; ++r) {
      if (layout == KBOOST_ROW_MAJOR)
        forest.predict(RowMajorRow{x + r * n_features}, row_out.data());
      else
        forest.predict(ColumnMajorRow{x, n_rows, r}, row_out.data());
      for (int j = 0; j < k; ++j) (col_out ? out[j * n_rows + r] : out[r * k + j]) = row_out[j];
    }
  });
}

int kboost_predict_device(const kboost_model* model, const float* x, int64_t n_rows, int64_t n_features,
                          int layout, int flags, float* out) {
  return guarded("kboost_predict_device", [&] {
    require(model != nullptr, "model is NULL");
    require_matrix(x, n_rows, n_features, layout);
    require(out != nullptr || n_rows == 0, "out is NULL");
    auto const opt = options_of(flags);
    std::call_once(model->device_once, [&] {
      model->device = std::make_unique<kboost::Predictor<DeviceSpace>>(model->host.model());
    });
    using mem = DeviceSpace::memory_space;
    using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    auto const rows = static_cast<std::size_t>(n_rows), feats = static_cast<std::size_t>(n_features);
    auto const cols = static_cast<std::size_t>(model->device->output_columns(opt));
    DeviceSpace space;
    auto run = [&](auto X) {
      if ((flags & KBOOST_OUTPUT_COL_MAJOR) != 0) {
        Kokkos::View<float**, Kokkos::LayoutLeft, mem, unmanaged> o(out, rows, cols);
        model->device->predict_into(space, X, o, opt);
      } else {
        Kokkos::View<float**, Kokkos::LayoutRight, mem, unmanaged> o(out, rows, cols);
        model->device->predict_into(space, X, o, opt);
      }
    };
    if (layout == KBOOST_ROW_MAJOR)
      run(Kokkos::View<const float**, Kokkos::LayoutRight, mem, unmanaged>(x, rows, feats));
    else
      run(Kokkos::View<const float**, Kokkos::LayoutLeft, mem, unmanaged>(x, rows, feats));
    space.fence();
  });
}

namespace {

/// Upstream's rule for training data (its data adapters): an infinity is refused, since NaN alone
/// marks a missing value here (the CLI's --missing inf has no counterpart in this call).
void refuse_infinite_features(const float* x, std::size_t rows, std::size_t feats, int layout) {
  for (std::size_t k = 0; k < rows * feats; ++k)
    if (std::isinf(x[k])) {
      std::size_t const row = layout == KBOOST_ROW_MAJOR ? k / feats : k % rows;
      std::size_t const col = layout == KBOOST_ROW_MAJOR ? k % feats : k / rows;
      throw std::runtime_error("x[" + std::to_string(row) + ", " + std::to_string(col) + "] is " +
                               (x[k] > 0 ? "+inf" : "-inf") + ": upstream XGBoost refuses infinities in training "
                               "data (NaN marks a missing value)");
    }
}

}  // namespace

int kboost_train(const float* x, int64_t n_rows, int64_t n_features, int layout, const float* labels,
                 const float* weights, const char* const* keys, const char* const* values, int64_t n_params,
                 kboost_model** out) {
  return guarded("kboost_train", [&] {
    require_matrix(x, n_rows, n_features, layout);
    require(labels != nullptr && out != nullptr, "labels and out must not be NULL");
    auto const kv = key_values(keys, values, n_params);
    ensure_kokkos();
    *out = nullptr;
    auto const params = kboost::parse_params(kv);
    auto const rows = static_cast<std::size_t>(n_rows), feats = static_cast<std::size_t>(n_features);
    using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    using ColumnMajor = Kokkos::View<const float**, Kokkos::LayoutLeft, Kokkos::HostSpace, unmanaged>;
    using RowMajor = Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace, unmanaged>;
    using HostArray = Kokkos::View<const float*, Kokkos::HostSpace, unmanaged>;
    HostArray const y(labels, rows), w(weights, weights != nullptr ? rows : 0);
    refuse_infinite_features(x, rows, feats, layout);
    // a row-major x is read in place for the whole (synchronous) fit; column-major is copied once
    kboost::HostDMatrix const d = layout == KBOOST_ROW_MAJOR
                                      ? kboost::host_dmatrix_borrowing(RowMajor(x, rows, feats), y, w)
                                      : kboost::host_dmatrix(ColumnMajor(x, rows, feats), y, w);
    kboost::Booster booster;
    booster.train(params, d);
    *out = new_model(booster.model());
  });
}

int kboost_train_job(const char* data, const char* const* keys, const char* const* values, int64_t n_params,
                     kboost_model** out) {
  return guarded("kboost_train_job", [&] {
    require(data != nullptr && out != nullptr, "data and out must not be NULL");
    auto kv = key_values(keys, values, n_params);
    ensure_kokkos();
    *out = nullptr;
    kboost::TrainJob const job = kboost::train_job_from_keys(data, kv);
    auto const params = kboost::parse_params(kv);
    auto const world = mpi_world_if_initialised();
    kboost::Collective& comm = world ? *world : kboost::local_collective();
    *out = new_model(kboost::run_train_job(job, params, comm, nullptr, nullptr));
  });
}

}  // extern "C"
