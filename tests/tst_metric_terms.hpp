// Stage test of kernels/metric_terms.hpp: a metric's per-row terms computed on the backend, summed
// on the host (metric_from_terms), give the bits of the host metric (evaluate_metric on the
// host-transformed predictions, engine/metrics.cpp), for every metric scored that way; the logloss
// and mlogloss values are also checked against a double-precision evaluation of upstream's formula.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <kboost/core/output_transform.hpp>
#include <kboost/engine/metrics.hpp>
#include <kboost/kernels/metric_terms.hpp>
#include "tests/stage_util.hpp"
#include "tests/test_util.hpp"

namespace {

/// Rows of margins (rows × outputs), labels and weights drawn for one metric.
struct MetricCase {
  std::vector<float> margins, labels, weights;
  std::size_t rows = 0;
  int outputs = 1;
};

/// `rows` margins in [-12, 12] (so sigmoids reach the eps clamps) with labels that suit the
/// transform: class codes for outputs > 1, {0, 1} for the sigmoid, positive values otherwise.
MetricCase draw_case(std::size_t rows, int outputs, kboost::OutputTransform t, bool weighted, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> margin(-12.0f, 12.0f), positive(0.1f, 5.0f), weight(0.0f, 3.0f);
  MetricCase c;
  c.rows = rows;
  c.outputs = outputs;
  for (std::size_t i = 0; i < rows * static_cast<std::size_t>(outputs); ++i)
    c.margins.push_back(t == kboost::OutputTransform::kExp ? margin(rng) / 6.0f : margin(rng));
  for (std::size_t i = 0; i < rows; ++i) {
    if (outputs > 1) c.labels.push_back(static_cast<float>(rng() % static_cast<unsigned>(outputs)));
    else if (t == kboost::OutputTransform::kSigmoid) c.labels.push_back(static_cast<float>(rng() % 2));
    else c.labels.push_back(positive(rng));
    if (weighted) c.weights.push_back(weight(rng));
  }
  return c;
}

/// The host path: predictions transformed row by row as the booster's host scoring does, then
/// evaluate_metric.
double host_metric(std::string const& name, kboost::OutputTransform t, MetricCase const& c) {
  std::vector<float> preds = c.margins;
  for (std::size_t i = 0; i < c.rows; ++i) {
    float* row = preds.data() + i * static_cast<std::size_t>(c.outputs);
    if (c.outputs > 1) kboost::softmax_inplace(row, c.outputs);
    else kboost::apply_transform(t, 1, kboost::detail::FloatRow{row}, kboost::detail::FloatRow{row});
  }
  return kboost::evaluate_metric(name, preds, c.labels, c.weights, c.outputs);
}

/// The terms path: metric_terms on the backend, the terms downloaded and summed on the host.
double terms_metric(std::string const& name, kboost::OutputTransform t, MetricCase const& c) {
  auto const spec = kboost::metric_term_spec(name, t, c.outputs, false);
  REQUIRE(spec.has_value());
  auto const margins = kboost::test::to_device(c.margins, c.rows, static_cast<std::size_t>(c.outputs));
  auto const labels = kboost::test::to_device(c.labels);
  auto const weights = kboost::test::to_device(c.weights);
  Kokkos::View<float*, TEST_MEMSPACE> terms("kboost::test::terms", c.rows);
  kboost::metric_terms(TEST_EXECSPACE(), *spec, Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE>(margins),
                       Kokkos::View<const float*, TEST_MEMSPACE>(labels), Kokkos::View<const float*, TEST_MEMSPACE>(weights),
                       terms);
  std::vector<float> const h = kboost::test::to_vector(terms);
  return kboost::metric_from_terms(name, h.data(), c.rows, c.weights.empty() ? nullptr : c.weights.data());
}

bool metric_bits_equal(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("metric_terms " TEST_BACKEND ": terms summed on the host give the host metric's bits", "[metrics][bits]") {
  using T = kboost::OutputTransform;
  struct Named {
    char const* name;
    T transform;
    int outputs;
  };
  Named const metrics[] = {{"logloss", T::kSigmoid, 1},        {"error", T::kSigmoid, 1},
                           {"error@0.7", T::kSigmoid, 1},      {"rmse", T::kIdentity, 1},
                           {"mae", T::kIdentity, 1},           {"mape", T::kIdentity, 1},
                           {"mphe@1.5", T::kIdentity, 1},      {"gamma-nloglik", T::kExp, 1},
                           {"gamma-deviance", T::kExp, 1},     {"tweedie-nloglik@1.3", T::kExp, 1},
                           {"mlogloss", T::kSoftmax, 5},       {"merror", T::kSoftmax, 5},
                           {"mlogloss", T::kArgmax, 3}};
  unsigned seed = 11;
  for (auto const& m : metrics)
    for (bool weighted : {false, true}) {
      INFO(m.name << (weighted ? " weighted" : "") << " outputs " << m.outputs);
      MetricCase const c = draw_case(3001, m.outputs, m.transform, weighted, seed++);
      double const host = host_metric(m.name, m.transform, c), terms = terms_metric(m.name, m.transform, c);
      CHECK(std::isfinite(host));
      CHECK(host > 0.0);
      CHECK(metric_bits_equal(terms, host));
    }
}

TEST_CASE("metric_terms " TEST_BACKEND ": logloss and mlogloss values follow upstream's formulas", "[metrics]") {
  using T = kboost::OutputTransform;
  MetricCase const b = draw_case(2000, 1, T::kSigmoid, true, 3);
  double esum = 0, wsum = 0;
  for (std::size_t i = 0; i < b.rows; ++i) {
    double const p = std::min(std::max(1.0 / (1.0 + std::exp(-static_cast<double>(b.margins[i]))), 1e-16), 1.0 - 1e-16);
    esum += -(b.labels[i] * std::log(p) + (1.0 - b.labels[i]) * std::log(1.0 - p)) * b.weights[i];
    wsum += b.weights[i];
  }
  CHECK(std::fabs(terms_metric("logloss", T::kSigmoid, b) - esum / wsum) <= 1e-5 * (esum / wsum));

  MetricCase const k = draw_case(2000, 4, T::kSoftmax, false, 4);
  double loss = 0;
  for (std::size_t i = 0; i < k.rows; ++i) {
    float const* x = k.margins.data() + 4 * i;
    double z = 0;
    for (int j = 0; j < 4; ++j) z += std::exp(static_cast<double>(x[j]));
    double const p = std::exp(static_cast<double>(x[static_cast<int>(k.labels[i])])) / z;
    loss += -std::log(std::max(p, 1e-16));
  }
  CHECK(std::fabs(terms_metric("mlogloss", T::kSoftmax, k) - loss / 2000.0) <= 1e-5 * (loss / 2000.0));
}

TEST_CASE("metric_terms " TEST_BACKEND ": metrics without per-row terms are scored on the host", "[metrics]") {
  using T = kboost::OutputTransform;
  for (char const* name : {"auc", "rmsle", "poisson-nloglik", "ndcg", "quantile", "cox-nloglik", "aft-nloglik"}) {
    INFO(name);
    CHECK_FALSE(kboost::metric_term_spec(name, T::kIdentity, 1, false).has_value());
  }
  CHECK_FALSE(kboost::metric_term_spec("rmse", T::kIdentity, 3, true).has_value());  // multi-target labels
  CHECK_FALSE(kboost::metric_term_spec("rmse", T::kSoftmax, 3, false).has_value());  // not for classes
  CHECK(kboost::metric_term_spec("tweedie-nloglik@1.5", T::kExp, 1, false)->argument == 1.5f);
  CHECK_THROWS_WITH(kboost::metric_term_spec("tweedie-nloglik", T::kExp, 1, false),
                    Catch::Matchers::ContainsSubstring("needs @rho"));
}
