/// Fuzz target: bytes -> kboost::parse_model (XGBoost JSON or UBJSON, detected from the content)
/// -> Predictor on the Serial backend -> predictions and leaf indices for a few rows with missing
/// values, as tests/tst_model_reader_fuzz.hpp does for its fixed mutants, then the Explainer's SHAP
/// values (TreeSHAP by both kernels, which must agree byte for byte, Saabas' approximation, and
/// interaction values for narrow models). A model the
/// reader accepts must be safe to predict with and to explain: validate_model is what stands
/// between the bytes and the kernels' unchecked tree walks.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <kboost/engine/explainer.hpp>
#include <kboost/engine/predictor.hpp>
#include <kboost/io/model_reader.hpp>

#include "fuzz_support.hpp"

namespace {

/// Rows × features input for the predictor: a fixed pattern of values and NaN (missing).
Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> rows(int n_rows, int n_features) {
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> X("fuzz_X", n_rows, n_features);
  for (int i = 0; i < n_rows; ++i)
    for (int k = 0; k < n_features; ++k)
      X(i, k) = (i + k) % 4 == 0 ? std::nanf("") : static_cast<float>((i * 7 + k * 3) % 11) - 3.0f;
  return X;
}

using Rows = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace>;

/// Values, leaf indices and margins of `X` under `model`.
void predict(kboost::Model const& model, Rows const& X) {
  kboost::Predictor<Kokkos::Serial> predictor(model);
  auto values = predictor.predict(X);
  kboost::PredictOptions leaf;
  leaf.pred_leaf = true;
  auto leaves = predictor.predict(X, leaf);
  kboost::PredictOptions margin;
  margin.output_margin = true;
  auto margins = predictor.predict(X, margin);
}

/// SHAP values of `X` under `model`. Vector-leaf models are refused (upstream defines no SHAP
/// values for them); interaction values, rows × (F + 1)², only up to 32 features.
void explain(kboost::Model const& model, Rows const& X) {
  kboost::Explainer<Kokkos::Serial> explainer(model);
  auto contributions = explainer.contributions(X);
  kboost::ShapOptions paths;
  paths.kernel = kboost::ShapKernel::kPathParallel;
  auto const by_paths = explainer.contributions(X, paths);  // refused beyond kShapPathMaxDepth
  if (std::memcmp(by_paths.data(), contributions.data(), contributions.size() * sizeof(float)) != 0) {
    std::fprintf(stderr, "kboost fuzz: path-parallel SHAP contributions differ from the per-row kernel's\n");
    std::abort();
  }
  kboost::ShapOptions approx;
  approx.approx_contribs = true;
  auto approximate = explainer.contributions(X, approx);
  if (model.num_feature <= 32) auto interactions = explainer.interactions(X);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  kboost::fuzz::start_kokkos();
  auto const model = kboost::fuzz::accepted([&] { return kboost::parse_model(kboost::fuzz::bytes(data, size), "fuzz-input"); });
  // A valid model may name a million features; predicting on that width would only time out.
  if (!model || model->num_feature > 4096) return 0;
  Rows const X = rows(5, model->num_feature);
  kboost::fuzz::refusals_only([&] { predict(*model, X); });
  kboost::fuzz::refusals_only([&] { explain(*model, X); });
  return 0;
}
