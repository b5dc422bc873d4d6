/// Fuzz target: bytes -> kboost::parse_model (XGBoost JSON or UBJSON, detected from the content)
/// -> Predictor on the Serial backend -> predictions and leaf indices for a few rows with missing
/// values, as tests/tst_model_reader_fuzz.hpp does for its fixed mutants. A model the reader
/// accepts must be safe to predict with: validate_model is what stands between the bytes and
/// the predictor's unchecked tree walks.
#include <cmath>

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  kboost::fuzz::start_kokkos();
  kboost::fuzz::refusals_only([&] {
    kboost::Model model = kboost::parse_model(std::string(reinterpret_cast<char const*>(data), size), "fuzz-input");
    // A valid model may name a million features; predicting on that width would only time out.
    if (model.num_feature > 4096) return;
    kboost::Predictor<Kokkos::Serial> predictor(std::move(model));
    auto const X = rows(5, predictor.model().num_feature);
    auto values = predictor.predict(X);
    kboost::PredictOptions leaf;
    leaf.pred_leaf = true;
    auto leaves = predictor.predict(X, leaf);
    kboost::PredictOptions margin;
    margin.output_margin = true;
    auto margins = predictor.predict(X, margin);
  });
  return 0;
}
