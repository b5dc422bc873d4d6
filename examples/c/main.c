/* Loads an XGBoost model, predicts a dense CSV (rows of n_features floats, "nan" = missing) through
 * the C ABI and prints one prediction row per line with 9 significant digits (exact float32).
 *   usage: predict_c <model.json|ubj> <x.csv> [--col-major] [--margin] [--keep-model]
 * --col-major hands kboost the matrix in Fortran order, to show that both layouts give the same
 * bits. Kokkos is left to kboost: started by the first call that needs it, finalised at exit. */
#include <kboost/kboost_c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char* what) {
  fprintf(stderr, "predict_c: %s: %s\n", what, kboost_last_error());
  return 1;
}

/* Reads comma-separated floats, `n_features` per line, into a growing row-major array. */
static float* read_csv(const char* path, int64_t n_features, int64_t* n_rows) {
  FILE* f = fopen(path, "r");
  if (!f) return NULL;
  size_t cap = 1024, n = 0;
  float* x = malloc(cap * sizeof(float));
  char token[64];
  int c, len = 0;
  while ((c = fgetc(f)) != EOF) {
    if (c == ',' || c == '\n') {
      token[len] = '\0';
      if (n == cap) x = realloc(x, (cap *= 2) * sizeof(float));
      x[n++] = strtof(token, NULL);
      len = 0;
    } else if (len < 63) {
      token[len++] = (char)c;
    }
  }
  fclose(f);
  *n_rows = (int64_t)n / n_features;
  return x;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: predict_c <model> <x.csv> [--col-major] [--margin] [--keep-model]\n");
    return 2;
  }
  int col_major = 0, flags = 0, keep_model = 0;
  for (int i = 3; i < argc; ++i) {
    if (strcmp(argv[i], "--col-major") == 0) col_major = 1;
    /* left for kboost to free at exit, after checking that kboost_finalize refuses while it lives */
    if (strcmp(argv[i], "--keep-model") == 0) keep_model = 1;
    if (strcmp(argv[i], "--margin") == 0) flags |= KBOOST_OUTPUT_MARGIN;
  }
  /* No kboost_initialize: the first call starts Kokkos, and kboost finalises it at exit. */
  kboost_model* model = NULL;
  if (kboost_model_load(argv[1], &model) != 0) return fail(argv[1]);
  int64_t n_features = 0, n_outputs = 0, n_rows = 0;
  kboost_model_num_features(model, &n_features);
  kboost_model_num_outputs_for(model, flags, &n_outputs);
  float* x = read_csv(argv[2], n_features, &n_rows);
  if (!x) return fprintf(stderr, "predict_c: cannot read %s\n", argv[2]), 1;
  if (col_major) { /* the same matrix in Fortran order */
    float* t = malloc((size_t)(n_rows * n_features) * sizeof(float));
    for (int64_t r = 0; r < n_rows; ++r)
      for (int64_t j = 0; j < n_features; ++j) t[j * n_rows + r] = x[r * n_features + j];
    free(x);
    x = t;
  }
  float* out = malloc((size_t)(n_rows * n_outputs) * sizeof(float));
  if (kboost_predict(model, x, n_rows, n_features, col_major ? KBOOST_COL_MAJOR : KBOOST_ROW_MAJOR, flags, out) != 0)
    return fail("predict");
  for (int64_t r = 0; r < n_rows; ++r)
    for (int64_t k = 0; k < n_outputs; ++k) printf("%.9g%c", out[r * n_outputs + k], k + 1 < n_outputs ? ',' : '\n');
  free(out);
  free(x);
  if (keep_model) {
    /* kboost started Kokkos: it refuses to end it while a model is alive */
    if (kboost_finalize() == 0) return fprintf(stderr, "predict_c: kboost_finalize succeeded with a model alive\n"), 1;
  } else {
    kboost_model_free(model);
  }
  return 0;
}
