/* kboost C ABI: load, predict, train and save XGBoost-compatible models from C, Fortran or any
 * language with a C FFI. Installed as <kboost/kboost_c.h>; link kboost::kboost (CMake).
 *
 * Conventions
 *  - Every handle is opaque; every function returns int status (KBOOST_SUCCESS = 0, else
 *    KBOOST_ERROR) except the free/getter functions noted. On an error, kboost_last_error() returns
 *    this thread's message (valid until this thread's next kboost call).
 *  - Matrices are float32, n_rows x n_features, NaN = missing, in KBOOST_ROW_MAJOR (C order) or
 *    KBOOST_COL_MAJOR (Fortran order) as `layout` says. Outputs are n_rows x num_outputs, row-major
 *    unless KBOOST_OUTPUT_COL_MAJOR is in `flags`.
 *  - Prediction on host arrays runs on the calling thread (no thread pool, no Kokkos dispatch) and is
 *    bit-identical to `kboost predict` and to upstream XGBoost's CPU predict. One model may be used
 *    by any number of threads at once.
 *  - Kokkos: nothing to do. The first call that needs Kokkos starts it with its defaults
 *    (OMP_NUM_THREADS) when the program has not, and kboost finalises it at exit, after freeing the
 *    models still alive. A program that manages Kokkos itself starts it before its first kboost
 *    call (kboost then leaves it alone), or calls kboost_initialize() / kboost_finalize() to choose
 *    when kboost starts and ends it; free every model before kboost_finalize(), which fails
 *    (KBOOST_ERROR, Kokkos left running) while one is alive. No kboost call works after Kokkos is
 *    finalised.
 *
 * ABI compatibility rule: within one KBOOST_C_ABI_VERSION, functions and enum values are only ever
 * added, never changed or removed, and no struct is exposed; a program built against an older
 * header of the same ABI version runs against any newer library. kboost_abi_version() reports the
 * library's; an incompatible change increments KBOOST_C_ABI_VERSION (and the library's soname).
 */
#ifndef KBOOST_C_H
#define KBOOST_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KBOOST_C_ABI_VERSION 1

typedef struct kboost_model kboost_model;

enum { KBOOST_SUCCESS = 0, KBOOST_ERROR = -1 };
enum { KBOOST_ROW_MAJOR = 0, KBOOST_COL_MAJOR = 1 };
enum { KBOOST_OUTPUT_MARGIN = 1, KBOOST_OUTPUT_COL_MAJOR = 2 };

/* Library version ("0.1.0") and C ABI version (KBOOST_C_ABI_VERSION of the built library). */
const char* kboost_version(void);
int kboost_abi_version(void);

/* This thread's last error message ("" when none). */
const char* kboost_last_error(void);

/* Initialise Kokkos with its defaults unless it is already initialised (then: nothing, success).
 * Optional: the first call that needs Kokkos does the same. Fails once Kokkos has been finalised. */
int kboost_initialize(void);
/* Finalise Kokkos now if kboost initialised it (kboost_initialize or a first call); otherwise
 * nothing. Optional: kboost finalises what it initialised at exit. */
int kboost_finalize(void);

/* Load an XGBoost JSON or UBJSON model (1.x..3.x), from a file or from memory (`len` bytes). */
int kboost_model_load(const char* path, kboost_model** out);
int kboost_model_load_from_memory(const void* data, size_t len, kboost_model** out);
/* Free a model (NULL is allowed). */
void kboost_model_free(kboost_model* model);
/* Save as XGBoost 3.x JSON, or UBJSON when `path` ends in ".ubj"; atomic (a temporary, then rename). */
int kboost_model_save(const kboost_model* model, const char* path);

/* Features the model expects, and the columns kboost_predict writes per row (transformed outputs:
 * 1 for multi:softmax, else the number of classes/targets; margins: classes/targets). */
int kboost_model_num_features(const kboost_model* model, int64_t* out);
int kboost_model_num_outputs(const kboost_model* model, int64_t* out);
int kboost_model_num_outputs_for(const kboost_model* model, int flags, int64_t* out);

/* x: n_rows x n_features float32 (NaN = missing) in `layout`; out: n_rows x num_outputs, row-major
   (column-major with KBOOST_OUTPUT_COL_MAJOR, Fortran's order); transformed outputs unless flags has
   KBOOST_OUTPUT_MARGIN. n_features must equal kboost_model_num_features. Thread-safe on one model. */
int kboost_predict(const kboost_model* model, const float* x, int64_t n_rows, int64_t n_features,
                   int layout, int flags, float* out);

/* As kboost_predict with `x` and `out` in the memory of Kokkos' default execution space (device
 * pointers in a CUDA/HIP build; host pointers otherwise). Runs on that space's default instance and
 * fences before returning. */
int kboost_predict_device(const kboost_model* model, const float* x, int64_t n_rows, int64_t n_features,
                          int layout, int flags, float* out);

/* Train a model on host arrays with XGBoost's parameter names as strings (e.g. "objective" =
 * "binary:logistic", "max_depth" = "6", "num_round" = "10"); an unknown or invalid parameter is an
 * error naming it. x: n_rows x n_features in `layout` (NaN = missing; an infinity is an error naming
 * its cell, as upstream refuses infinities in training data); labels: n_rows (a NaN label is an error
 * naming its row); weights: n_rows or NULL. Training runs on Kokkos' default execution space (the
 * data is copied there). */
int kboost_train(const float* x, int64_t n_rows, int64_t n_features, int layout, const float* labels,
                 const float* weights, const char* const* keys, const char* const* values, int64_t n_params,
                 kboost_model** out);

/* Train from files as `kboost train` does: `data` is a CSV, LibSVM or HDF5 file (with "{rank}" in
 * it: one file per rank). When the library was built with MPI and MPI is initialised, the job runs
 * on every rank of MPI_COMM_WORLD (call it on every rank with the same arguments; each rank reads
 * its own rows; rank 0 writes the checkpoints), else in this process; the model is the same bytes
 * on any number of ranks and after any resume. `keys`/`values` hold XGBoost's training parameters
 * and these job keys: "label_column" (CSV column name or index), "format" (csv, libsvm, hdf5 or
 * auto), "header" ("1"/"0"), "weight_column", "qid_column", "group_file", "eval:<name>" (a file
 * scored after every round), "model_in" (a model to continue), "checkpoint_dir",
 * "checkpoint_every" (rounds) and "resume" ("1": continue from the newest checkpoint in
 * checkpoint_dir, which must have been written by the same job), "unseen_category" ("error", the
 * default, or "missing": what an eval file's category value that the training file lacks becomes).
 * `out` receives the model on
 * every rank. */
int kboost_train_job(const char* data, const char* const* keys, const char* const* values, int64_t n_params,
                     kboost_model** out);

#ifdef __cplusplus
}
#endif

#endif /* KBOOST_C_H */
