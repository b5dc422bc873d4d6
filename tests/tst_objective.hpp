// Gradients on the backend vs upstream 3.2's formulas evaluated on the host with glibc expf (as
// upstream's CPU build computes them): bit equality. Plus transforms and prob_to_margin.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <kboost/core/objective.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/engine/objective/gradients.hpp>
#include "tests/test_util.hpp"

#include <cmath>
#include <cstring>
#include <random>
#include <limits>

namespace {
using kboost::test::bits_equal;

struct Ref {
  float g, h;
};

/// Upstream's host formulas (regression_loss.h, regression_obj.cu, multiclass_obj.cu) with glibc.
std::vector<Ref> reference(kboost::ObjectiveParams const& p, std::vector<float> const& m, int groups,
                           std::vector<float> const& y, std::vector<float> const& wv) {
  std::size_t const n = y.size();
  std::vector<Ref> out(n * groups);
  auto sigmoid = [](float x) { return 1.0f / (::expf(std::min(-x, 88.7f)) + 1.0f + 1e-16f); };
  for (std::size_t i = 0; i < n; ++i) {
    float w = wv.empty() ? 1.0f : wv[i];
    float const lab = y[i];
    float const x = m[i * groups];
    std::string const& o = p.objective;
    if (o == "reg:squarederror") {
      if (lab == 1.0f) w *= p.scale_pos_weight;
      out[i] = {(x - lab) * w, 1.0f * w};
    } else if (o == "binary:logistic" || o == "binary:logitraw") {
      if (lab == 1.0f) w *= p.scale_pos_weight;
      float const pr = sigmoid(x);
      out[i] = {(pr - lab) * w, std::max(pr * (1.0f - pr), 1e-16f) * w};
    } else if (o == "count:poisson") {
      out[i] = {(::expf(x) - lab) * w, ::expf(x + p.poisson_max_delta_step) * w};
    } else if (o == "reg:gamma") {
      float const pr = ::expf(x);
      out[i] = {(1.0f - lab / pr) * w, (lab / pr) * w};
    } else if (o == "reg:tweedie") {
      float const rho = p.tweedie_variance_power;
      float const g = -lab * ::expf((1 - rho) * x) + ::expf((2 - rho) * x);
      float const h = -lab * (1 - rho) * std::exp((1 - rho) * x) + (2 - rho) * ::expf((2 - rho) * x);
      out[i] = {g * w, h * w};
    } else if (o == "reg:pseudohubererror") {
      float const z = x - lab;
      float const slope = p.huber_slope;
      float const scale_sqrt = std::sqrt(1 + (z * z) / (slope * slope));
      float const scale = slope * slope + z * z;
      out[i] = {z / scale_sqrt * w, slope * slope / (scale * scale_sqrt) * w};
    } else if (o == "multi:softprob") {
      float wmax = std::numeric_limits<float>::min();
      for (int k = 0; k < groups; ++k) wmax = fmaxf(m[i * groups + k], wmax);
      double wsum = 0.0f;
      for (int k = 0; k < groups; ++k) wsum += ::expf(m[i * groups + k] - wmax);
      for (int k = 0; k < groups; ++k) {
        float pk = ::expf(m[i * groups + k] - wmax) / static_cast<float>(wsum);
        float const h = fmaxf(2.0f * pk * (1.0f - pk) * w, 1e-16f);
        pk = lab == k ? pk - 1.0f : pk;
        out[k * n + i] = {pk * w, h};
      }
    }
  }
  return out;
}

std::vector<kboost::GradientPair> run(kboost::ObjectiveParams const& p, std::vector<float> const& m, int groups,
                                      std::vector<float> const& y, std::vector<float> const& w) {
  std::size_t const n = y.size();
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> hm("hm", n, groups);
  std::memcpy(hm.data(), m.data(), m.size() * 4);
  Kokkos::View<float*, Kokkos::HostSpace> hy("hy", n), hw("hw", w.size());
  std::memcpy(hy.data(), y.data(), n * 4);
  if (!w.empty()) std::memcpy(hw.data(), w.data(), n * 4);
  auto dm = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hm);
  auto dy = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hy);
  auto dw = Kokkos::create_mirror_view_and_copy(TEST_MEMSPACE(), hw);
  Kokkos::View<kboost::GradientPair**, Kokkos::LayoutRight, TEST_MEMSPACE> g("g", groups, n);
  kboost::compute_gradients(TEST_EXECSPACE(), p, Kokkos::View<const float**, Kokkos::LayoutRight, TEST_MEMSPACE>(dm),
                            Kokkos::View<const float*, TEST_MEMSPACE>(dy), Kokkos::View<const float*, TEST_MEMSPACE>(dw), g);
  auto hg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g);
  return std::vector<kboost::GradientPair>(hg.data(), hg.data() + hg.size());
}


}  // namespace

TEST_CASE("gradients " TEST_BACKEND ": upstream formulas, bit for bit", "[objective]") {
  std::mt19937 rng(7);
  std::normal_distribution<float> nd(0.0f, 3.0f);
  std::uniform_real_distribution<float> ud(0.0f, 1.0f);
  std::size_t const n = 5000;
  struct Case {
    std::string name;
    int groups;
    float spw;
  };
  for (Case c : {Case{"reg:squarederror", 1, 1.0f}, Case{"reg:squarederror", 1, 3.0f}, Case{"binary:logistic", 1, 1.0f},
                 Case{"binary:logistic", 1, 2.5f}, Case{"binary:logitraw", 1, 1.0f}, Case{"count:poisson", 1, 1.0f},
                 Case{"reg:gamma", 1, 1.0f}, Case{"reg:tweedie", 1, 1.0f}, Case{"reg:pseudohubererror", 1, 1.0f},
                 Case{"multi:softprob", 4, 1.0f}}) {
    for (bool weighted : {false, true}) {
      kboost::ObjectiveParams p;
      p.objective = c.name;
      p.math_functions = "upstream_cpu";  // the reference is upstream's CPU build: glibc's expf
      p.num_class = c.groups > 1 ? c.groups : 0;
      p.scale_pos_weight = c.spw;
      p.tweedie_variance_power = 1.3f;
      p.huber_slope = 0.75f;
      std::vector<float> m(n * c.groups), y(n), w;
      for (auto& v : m) v = nd(rng);
      if (c.name == "reg:gamma" || c.name == "count:poisson" || c.name == "reg:tweedie")
        for (auto& v : m) v *= 0.3f;  // keep exp() finite
      for (std::size_t i = 0; i < n; ++i) {
        if (c.groups > 1) y[i] = static_cast<float>(i % c.groups);
        else if (c.name.rfind("binary", 0) == 0) y[i] = (i % 3 == 0) ? 1.0f : 0.0f;
        else if (c.name == "reg:gamma") y[i] = 0.1f + 5 * ud(rng);
        else if (c.name == "count:poisson" || c.name == "reg:tweedie") y[i] = static_cast<float>(i % 5);
        else y[i] = (i % 10 == 0) ? 1.0f : nd(rng);
      }
      if (weighted)
        for (std::size_t i = 0; i < n; ++i) w.push_back(0.25f + ud(rng));
      auto got = run(p, m, c.groups, y, w);
      auto ref = reference(p, m, c.groups, y, w);
      REQUIRE(got.size() == ref.size());
      std::size_t bad = 0;
      for (std::size_t i = 0; i < got.size(); ++i)
        bad += !(bits_equal(got[i].grad, ref[i].g) && bits_equal(got[i].hess, ref[i].h));
      INFO(c.name << " spw " << c.spw << (weighted ? " weighted" : ""));
      CHECK(bad == 0);
    }
  }
}

#ifdef KBOOST_HOST_FMA
TEST_CASE("gradients " TEST_BACKEND ": the FMA build of the host kernel gives the plain build's bits", "[objective]") {
  if (!kboost::compat::host_has_fma()) SKIP("this core has no FMA");
  // compute_gradients takes the FMA build on this core (the case above checks it against glibc);
  // the plain build runs on cores without FMA. Both must give the same bits.
  std::mt19937 rng(5);
  std::normal_distribution<float> nd(0.0f, 4.0f);
  std::size_t const n = 20000;
  using Host = Kokkos::HostSpace;
  kboost::ObjectiveParams params;
  params.tweedie_variance_power = 1.3f;
  Kokkos::View<float**, Kokkos::LayoutRight, Host> m("m", n, 3);
  Kokkos::View<float*, Host> y("y", n), w("w", 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) m(i, k) = nd(rng);
    y(i) = static_cast<float>(i % 3);
  }
  m(0, 0) = 88.8f;  // expf overflow region, underflow, and a NaN margin
  m(1, 0) = -104.0f;
  m(2, 0) = std::numeric_limits<float>::quiet_NaN();
  auto const both = [&](auto functor) {
    auto plain = functor, fast = functor;
    plain.gpair = Kokkos::View<kboost::GradientPair**, Kokkos::LayoutRight, Host>("plain", functor.gpair.extent(0), n);
    fast.gpair = Kokkos::View<kboost::GradientPair**, Kokkos::LayoutRight, Host>("fast", functor.gpair.extent(0), n);
    for (std::size_t i = 0; i < n; ++i) plain(i);
    kboost::detail::gradient_rows_fma(fast, 0, n);
    return std::memcmp(plain.gpair.data(), fast.gpair.data(), plain.gpair.size() * sizeof(kboost::GradientPair)) == 0;
  };
  Kokkos::View<kboost::GradientPair**, Kokkos::LayoutRight, Host> g1("g1", 1, n), g3("g3", 3, n);
  Kokkos::View<int, Host> bad("bad");
  Kokkos::View<float*, Host> y01("y01", n);
  for (std::size_t i = 0; i < n; ++i) y01(i) = static_cast<float>(i % 2);
  using kboost::detail::GradientFunctor;
  using kboost::make_loss;
  Kokkos::DefaultHostExecutionSpace const host;
  for (char const* math : {"upstream_cpu", "upstream_gpu"}) {
    INFO("kboost_math_functions " << math);
    params.math_functions = math;
    CHECK(both(GradientFunctor<kboost::LogisticLoss, Host>{make_loss<kboost::LogisticLoss>(host, params), 1, m, y01, w,
                                                           g1, bad}));
    CHECK(both(GradientFunctor<kboost::PoissonLoss, Host>{make_loss<kboost::PoissonLoss>(host, params), 1, m, y, w, g1,
                                                          bad}));
    CHECK(both(GradientFunctor<kboost::TweedieLoss, Host>{make_loss<kboost::TweedieLoss>(host, params), 1, m, y, w, g1,
                                                          bad}));
    CHECK(both(GradientFunctor<kboost::SoftmaxLoss, Host>{make_loss<kboost::SoftmaxLoss>(host, params), 3, m, y, w, g3,
                                                          bad}));
  }
}
#endif

TEST_CASE("gradients " TEST_BACKEND ": reg:squaredlogerror as upstream's formula", "[objective]") {
  // upstream SquaredLogError (src/objective/regression_loss.h) with the host's log1p; kboost's
  // portable log1pf is within 3 ulp of it, so the pairs agree to a few ulp, not bit for bit
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> ud(-0.9f, 6.0f);
  std::size_t const n = 4000;
  std::vector<float> m(n), y(n), w(n);
  for (std::size_t i = 0; i < n; ++i) m[i] = ud(rng), y[i] = ud(rng), w[i] = 0.5f + 0.25f * static_cast<float>(i % 4);
  m[0] = -3.0f;  // below the floor -1 + 1e-6
  kboost::ObjectiveParams p;
  p.objective = "reg:squaredlogerror";
  auto const got = run(p, m, 1, y, w);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    float const pr = std::fmax(m[i], static_cast<float>(-1 + 1e-6));
    float const g = (std::log1p(pr) - std::log1p(y[i])) / (pr + 1);
    float const h = std::fmax(static_cast<float>((-std::log1p(pr) + std::log1p(y[i]) + 1) / std::pow(pr + 1, 2)), 1e-6f);
    // both are differences of log1p values: a few ulp of each, not of their difference
    float const scale = (std::fabs(std::log1p(pr)) + std::fabs(std::log1p(y[i]))) / (pr + 1) * w[i];
    bool const ok = std::fabs(got[i].grad - g * w[i]) <= 1e-6f * scale + 1e-5f * std::fabs(g * w[i]) &&
                    std::fabs(got[i].hess - h * w[i]) <= 1e-6f * (scale + w[i]) / (pr + 1) + 1e-5f * std::fabs(h * w[i]);
    if (!ok && bad < 5)
      UNSCOPED_INFO("row " << i << ": margin " << m[i] << " label " << y[i] << " grad " << got[i].grad << " vs "
                           << g * w[i] << ", hess " << got[i].hess << " vs " << h * w[i]);
    bad += ok ? 0 : 1;
  }
  CHECK(bad == 0);
  y[5] = -1.0f;
  CHECK_THROWS_WITH(run(p, m, 1, y, w), Catch::Matchers::ContainsSubstring("label must be greater than -1 for rmsle"));
}

TEST_CASE("gradients " TEST_BACKEND ": invalid labels throw naming the objective", "[objective]") {
  kboost::ObjectiveParams p;
  p.objective = "binary:logistic";
  CHECK_THROWS_WITH(run(p, {0.0f, 0.0f}, 1, {0.0f, 2.0f}, {}), Catch::Matchers::ContainsSubstring("[0,1]"));
  p.objective = "reg:gamma";
  CHECK_THROWS_AS(run(p, {0.0f}, 1, {0.0f}, {}), std::runtime_error);
  p.objective = "multi:softprob";
  p.num_class = 2;
  CHECK_THROWS_AS(run(p, {0.0f, 0.0f}, 2, {2.0f}, {}), std::runtime_error);
  CHECK_THROWS_AS(kboost::objective_kind("reg:nonsense"), std::runtime_error);
}

TEST_CASE("gradients " TEST_BACKEND ": survival:cox by hand (Breslow risk sets, a censored row)", "[objective]") {
  // times 1 (event), 2 (censored), 3 (event) at margin 0: the risk sets hold 3, 2 and 1 rows, so
  // r = 1/3, 1/3, 4/3 and s = 1/9, 1/9, 10/9; g = exp(m)·r − event, h = exp(m)·r − exp(m)²·s.
  kboost::ObjectiveParams p;
  p.objective = "survival:cox";
  auto const g = run(p, {0.0f, 0.0f, 0.0f}, 1, {3.0f, -2.0f, 1.0f}, {1.0f, 2.0f, 1.0f});
  REQUIRE(g.size() == 3);
  CHECK(g[2].grad == static_cast<float>(1.0 / 3 - 1));
  CHECK(g[1].grad == static_cast<float>(1.0 / 3 * 2));
  CHECK(g[0].grad == static_cast<float>(4.0 / 3 - 1));
  CHECK(g[2].hess == static_cast<float>(1.0 / 3 - 1.0 / 9));
  CHECK(g[1].hess == static_cast<float>((1.0 / 3 - 1.0 / 9) * 2));
  CHECK(g[0].hess == static_cast<float>(4.0 / 3 - 10.0 / 9));
}

TEST_CASE("objective " TEST_BACKEND ": transforms and prob_to_margin", "[objective]") {
  using kboost::ObjectiveKind;
  CHECK(kboost::pred_transform(ObjectiveKind::kSquaredError, 1.5f) == 1.5f);
  CHECK(kboost::pred_transform(ObjectiveKind::kLogistic, 0.0f) == 0.5f);
  CHECK(kboost::pred_transform(ObjectiveKind::kPoisson, 0.0f) == 1.0f);
  CHECK(kboost::pred_transform(ObjectiveKind::kLogitRaw, -3.0f) == -3.0f);
  // logistic: -logf(1/p - 1); 0.5 -> 0
  CHECK(kboost::prob_to_margin(ObjectiveKind::kLogistic, 0.5f) == 0.0f);
  float const p = 0.4821127f;
  CHECK(kboost::prob_to_margin(ObjectiveKind::kLogistic, p) == -::logf(1.0f / p - 1.0f));
  CHECK(kboost::prob_to_margin(ObjectiveKind::kPoisson, 2.0f) == ::logf(2.0f));
  CHECK(kboost::prob_to_margin(ObjectiveKind::kSquaredError, 7.0f) == 7.0f);
  CHECK_THROWS_AS(kboost::prob_to_margin(ObjectiveKind::kLogistic, 1.0f), std::runtime_error);
  CHECK_THROWS_AS(kboost::prob_to_margin(ObjectiveKind::kGamma, 0.0f), std::runtime_error);
  float x[3] = {1.0f, 2.0f, 0.5f};
  kboost::softmax_inplace(x, 3);
  CHECK(std::abs(x[0] + x[1] + x[2] - 1.0f) < 1e-6f);
  CHECK(kboost::argmax(x, 3) == 1);
}

TEST_CASE("objective " TEST_BACKEND ": one registry for training and prediction", "[objective]") {
  using kboost::ObjectiveKind;
  using kboost::OutputTransform;
  // The tables the registry replaced: prediction's name -> transform and name -> ProbToMargin
  // link (logit 'g', log 'l', identity '-'), and the training names (all but binary:hinge).
  struct Old {
    char const* name;
    OutputTransform transform;
    char link;
    bool trainable_name;
  };
  Old const old[] = {
      {"reg:squarederror", OutputTransform::kIdentity, '-', true}, {"reg:linear", OutputTransform::kIdentity, '-', true},
      {"reg:squaredlogerror", OutputTransform::kIdentity, '-', true}, {"reg:logistic", OutputTransform::kSigmoid, 'g', true},
      {"reg:pseudohubererror", OutputTransform::kIdentity, '-', true}, {"reg:absoluteerror", OutputTransform::kIdentity, '-', true},
      {"reg:quantileerror", OutputTransform::kIdentity, '-', true}, {"reg:gamma", OutputTransform::kExp, 'l', true},
      {"reg:tweedie", OutputTransform::kExp, 'l', true}, {"binary:logistic", OutputTransform::kSigmoid, 'g', true},
      {"binary:logitraw", OutputTransform::kIdentity, '-', true}, {"binary:hinge", OutputTransform::kHinge, '-', false},
      {"multi:softmax", OutputTransform::kArgmax, '-', true}, {"multi:softprob", OutputTransform::kSoftmax, '-', true},
      {"count:poisson", OutputTransform::kExp, 'l', true}, {"survival:cox", OutputTransform::kExp, 'l', true},
      {"survival:aft", OutputTransform::kExp, 'l', true}, {"rank:pairwise", OutputTransform::kIdentity, '-', true},
      {"rank:ndcg", OutputTransform::kIdentity, '-', true}, {"rank:map", OutputTransform::kIdentity, '-', true},
  };
  for (auto const& o : old) {
    INFO(o.name);
    CHECK(kboost::is_known_objective(o.name));
    CHECK(kboost::transform_for_objective(o.name) == o.transform);
    float const b = 0.25f;
    float const margin = kboost::base_margin_from_score(o.name, {b})[0];
    float const expect = o.link == 'g' ? -::logf(1.0f / b - 1.0f) : o.link == 'l' ? ::logf(b) : b;
    CHECK(margin == expect);
    if (o.trainable_name) {
      auto const k = kboost::objective_kind(o.name);
      CHECK(kboost::output_transform(k) == o.transform);
      CHECK(kboost::prob_to_margin(k, b) == expect);
    } else {
      CHECK_THROWS_WITH(kboost::objective_kind(o.name), Catch::Matchers::ContainsSubstring("unknown objective"));
    }
  }
  CHECK_FALSE(kboost::is_known_objective("reg:nonsense"));
  CHECK_THROWS_WITH(kboost::transform_for_objective("reg:nonsense"), "unknown objective 'reg:nonsense'");
  CHECK(kboost::base_margin_from_score("reg:nonsense", {0.0f})[0] == 0.0f);
  // ProbToMargin's two modes: training rejects what a stored model's base_score is clamped or passed.
  using kboost::BaseScoreMode;
  CHECK(kboost::prob_to_margin(ObjectiveKind::kLogistic, 1.0f, BaseScoreMode::kModel) ==
        -::logf(1.0f / (1.0f - 1e-6f) - 1.0f));
  CHECK(kboost::prob_to_margin(ObjectiveKind::kLogistic, 0.0f, BaseScoreMode::kModel) == -::logf(1.0f / 1e-6f - 1.0f));
  CHECK(std::isinf(kboost::prob_to_margin(ObjectiveKind::kGamma, 0.0f, BaseScoreMode::kModel)));
  CHECK_THROWS_AS(kboost::prob_to_margin(ObjectiveKind::kLogistic, 0.0f, BaseScoreMode::kTraining), std::runtime_error);
  CHECK(kboost::pred_transform(ObjectiveKind::kSoftmax, 2.5f) == 2.5f);  // multi-class: whole rows only
}
