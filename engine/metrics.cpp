/// \file metrics.cpp
/// Upstream formulas (3.2): src/metric/elementwise_metric.cu (EvalRowRMSE, EvalRowRMSLE,
/// EvalRowMAE, EvalRowMAPE, EvalRowLogLoss, EvalError, EvalPoissonNegLogLik, EvalGammaDeviance,
/// EvalGammaNLogLik, EvalTweedieNLogLik, PseudoErrorLoss), multiclass_metric.cu
/// (EvalMultiLogLoss, EvalMatchError), auc.cc (BinaryROCAUC with TrapezoidArea).
/// Float logarithms and exponentials are kboost's (core/portable_math.hpp: the bits of glibc's
/// x86-64 FMA build on every machine), so early stopping does not follow the host's libm; still
/// libm's: lgamma (poisson-nloglik), log1p (rmsle: kboost's log1pf is not glibc's bits, and
/// upstream's values are the reference) and the double logarithms of cox-nloglik.
#include <kboost/engine/metrics.hpp>

#include <kboost/core/objective.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/engine/objective/aft.hpp>
#include <kboost/engine/objective/cox.hpp>
#include <kboost/engine/objective/lambdarank.hpp>
#include <kboost/engine/objective/objective.hpp>
#include <kboost/kernels/metric_terms.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace kboost {
namespace {

constexpr float kRtEps = 1e-6f;

// ---- element-wise metrics (upstream EvalEWiseBase<Loss>): a float loss per (label, prediction),
// times the row's weight, summed in double in row order, then the metric's reduction

/// A host-only loss (libm's functions, whose bits other backends do not have): label y,
/// (transformed) prediction p, the metric's argument.
using HostRowLoss = float (*)(float y, float p, float arg);

float squared_log_error(float y, float p, float) {  // EvalRowRMSLE
  float d = std::log1p(y) - std::log1p(p);
  return d * d;
}

float poisson_nloglik(float y, float py, float) {  // EvalPoissonNegLogLik
  float const eps = 1e-16f;
  if (py < eps) py = eps;
  return std::lgamma(y + 1.0f) + py - pmath::logf(py) * y;
}

/// How a metric turns (Σ loss·w, Σ w) into its value (upstream's GetFinal).
enum class Reduction {
  kMean,           ///< Σ/Σw (Σ itself when Σw = 0)
  kRootMean,       ///< sqrt of kMean
  kGammaDeviance,  ///< 2·Σ/Σw, Σw ≤ 0 taken as kRtEps
};

/// Whether a metric takes an @argument.
enum class Argument { kNone, kOptional, kRequired };

struct ElementWiseMetric {
  char const* name;
  MetricLoss loss;            ///< kernels/metric_terms.hpp's loss (unless host_loss)
  Reduction reduction;
  Argument argument;
  float default_argument;     ///< kOptional's value without @
  HostRowLoss host_loss;      ///< a loss of libm's (host only), or null
};

/// Every element-wise metric (upstream src/metric/elementwise_metric.cu) and the multi-class
/// ones (multiclass_metric.cu: a row of class probabilities each). Multi-target labels take the
/// element-wise metrics only.
constexpr ElementWiseMetric kElementWiseMetrics[] = {
    {"rmse", MetricLoss::kSquaredError, Reduction::kRootMean, Argument::kNone, 0, nullptr},
    {"rmsle", MetricLoss::kSquaredError, Reduction::kRootMean, Argument::kNone, 0, squared_log_error},
    {"mae", MetricLoss::kAbsoluteError, Reduction::kMean, Argument::kNone, 0, nullptr},
    {"mape", MetricLoss::kAbsolutePercentageError, Reduction::kMean, Argument::kNone, 0, nullptr},
    {"mphe", MetricLoss::kPseudoHuberError, Reduction::kMean, Argument::kOptional, 1.0f, nullptr},
    {"logloss", MetricLoss::kLogLoss, Reduction::kMean, Argument::kNone, 0, nullptr},
    {"error", MetricLoss::kClassificationError, Reduction::kMean, Argument::kOptional, 0.5f, nullptr},
    {"poisson-nloglik", MetricLoss::kSquaredError, Reduction::kMean, Argument::kNone, 0, poisson_nloglik},
    {"gamma-nloglik", MetricLoss::kGammaNLogLik, Reduction::kMean, Argument::kNone, 0, nullptr},
    {"gamma-deviance", MetricLoss::kGammaDeviance, Reduction::kGammaDeviance, Argument::kNone, 0, nullptr},
    {"tweedie-nloglik", MetricLoss::kTweedieNLogLik, Reduction::kMean, Argument::kRequired, 0, nullptr},
};
constexpr ElementWiseMetric kClassMetrics[] = {
    {"mlogloss", MetricLoss::kMultiLogLoss, Reduction::kMean, Argument::kNone, 0, nullptr},
    {"merror", MetricLoss::kMultiError, Reduction::kMean, Argument::kNone, 0, nullptr},
};

template <std::size_t N>
ElementWiseMetric const* find_metric(ElementWiseMetric const (&table)[N], std::string const& base) {
  for (auto const& m : table)
    if (base == m.name) return &m;
  return nullptr;
}

ElementWiseMetric const* find_element_wise(std::string const& base) { return find_metric(kElementWiseMetrics, base); }

double reduce(Reduction r, double esum, double wsum) {
  switch (r) {
    case Reduction::kRootMean: return wsum == 0 ? std::sqrt(esum) : std::sqrt(esum / wsum);
    case Reduction::kGammaDeviance: {
      double const w = wsum <= 0 ? kRtEps : wsum;
      return 2 * esum / w;
    }
    case Reduction::kMean: break;
  }
  return wsum == 0 ? esum : esum / wsum;
}

/// Metric `m`'s argument: the text after '@' (`arg`), or its default. `name`: the whole name.
float metric_argument(ElementWiseMetric const& m, std::string const& name, std::string const& arg) {
  if (m.argument == Argument::kRequired && arg.empty())
    throw std::runtime_error("metric " + name + ": " + m.name + " needs @rho");
  if (m.argument == Argument::kNone) return 0;
  return arg.empty() ? m.default_argument : std::stof(arg);
}

/// The metric of `name` (base name before '@', argument after it) from `table`, or null.
template <std::size_t N>
ElementWiseMetric const* split_name(ElementWiseMetric const (&table)[N], std::string const& name, std::string& arg) {
  auto const at = name.find('@');
  arg = at == std::string::npos ? std::string() : name.substr(at + 1);
  return find_metric(table, name.substr(0, at));
}

/// Σ terms in double in row order and Σ weights (rows; null: all 1), then m's reduction.
double reduce_terms(ElementWiseMetric const& m, float const* terms, std::size_t rows, float const* weights) {
  double esum = 0, wsum = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    esum += terms[i];
    wsum += weights == nullptr ? 1.0f : weights[i];
  }
  return reduce(m.reduction, esum, wsum);
}

/// Element-wise metric `m` over rows (one output per row); `arg`: the text after '@', or empty.
double evaluate_element_wise(ElementWiseMetric const& m, std::string const& name, std::string const& arg,
                             std::vector<float> const& preds, std::vector<float> const& labels,
                             std::vector<float> const& weights) {
  float const argument = metric_argument(m, name, arg);
  std::vector<float> terms(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    float const w = weights.empty() ? 1.0f : weights[i];
    float const loss = m.host_loss ? m.host_loss(labels[i], preds[i], argument) : metric_loss(m.loss, labels[i], preds[i], argument);
    terms[i] = loss * w;
  }
  return reduce_terms(m, terms.data(), terms.size(), weights.empty() ? nullptr : weights.data());
}

}  // namespace

void check_class_labels(std::string const& name, std::vector<float> const& labels, int n_classes) {
  for (std::size_t i = 0; i < labels.size(); ++i) {
    int const label = static_cast<int>(labels[i]);
    if (label < 0 || label >= n_classes)
      throw std::runtime_error("metric " + name + ": label " + std::to_string(labels[i]) + " of row " +
                               std::to_string(i) + " is not in [0, num_class)");
  }
}

std::optional<MetricTermSpec> metric_term_spec(std::string const& name, OutputTransform transform, int outputs,
                                               bool multi_target) {
  std::string arg;
  if (multi_target) return std::nullopt;
  if (outputs > 1) {
    ElementWiseMetric const* m = split_name(kClassMetrics, name, arg);
    if (m == nullptr) return std::nullopt;
    return MetricTermSpec{m->loss, 0.0f, transform};
  }
  ElementWiseMetric const* m = split_name(kElementWiseMetrics, name, arg);
  if (m == nullptr || m->host_loss != nullptr) return std::nullopt;
  return MetricTermSpec{m->loss, metric_argument(*m, name, arg), transform};
}

double metric_from_terms(std::string const& name, float const* terms, std::size_t rows, float const* weights) {
  std::string arg;
  ElementWiseMetric const* m = split_name(kElementWiseMetrics, name, arg);
  if (m == nullptr) m = split_name(kClassMetrics, name, arg);
  if (m == nullptr) throw std::runtime_error("metric " + name + ": not scored from per-row terms");
  return reduce_terms(*m, terms, rows, weights);
}

namespace {

/// Multi-class metric `m` over rows of n_groups class probabilities.
double evaluate_class_metric(ElementWiseMetric const& m, std::string const& name, std::vector<float> const& preds,
                             std::vector<float> const& labels, std::vector<float> const& weights, int n_groups) {
  check_class_labels(name, labels, n_groups);
  std::vector<float> terms(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    float const w = weights.empty() ? 1.0f : weights[i];
    detail::ConstFloatRow const row{preds.data() + i * static_cast<std::size_t>(n_groups)};
    terms[i] = class_metric_loss(m.loss, row, static_cast<int>(labels[i]), n_groups) * w;
  }
  return reduce_terms(m, terms.data(), terms.size(), weights.empty() ? nullptr : weights.data());
}

// ---- metrics over the whole set

double binary_auc(std::vector<float> const& preds, std::vector<float> const& labels, std::vector<float> const& weights) {
  std::size_t const n = labels.size();
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();
  std::vector<std::size_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return preds[a] > preds[b]; });
  auto wt = [&](std::size_t i) { return weights.empty() ? 1.0f : weights[i]; };
  auto area = [](double x0, double x1, double y0, double y1) { return std::abs(x0 - x1) * (y0 + y1) / 2.0; };
  double auc = 0;
  float label = labels[idx[0]];
  float w = wt(idx[0]);
  double fp = (1.0 - label) * w, tp = label * w;
  double tp_prev = 0, fp_prev = 0;
  for (std::size_t i = 1; i < n; ++i) {
    if (preds[idx[i]] != preds[idx[i - 1]]) {
      auc += area(fp_prev, fp, tp_prev, tp);
      tp_prev = tp;
      fp_prev = fp;
    }
    label = labels[idx[i]];
    float const wi = wt(idx[i]);
    fp += (1.0f - label) * wi;
    tp += label * wi;
  }
  auc += area(fp_prev, fp, tp_prev, tp);
  if (fp <= 0.0f || tp <= 0.0f) return std::numeric_limits<double>::quiet_NaN();
  return auc / (fp * tp);
}

/// QuantileError: the mean pinball loss over rows and quantile_alpha, one output group per alpha.
double quantile_metric(std::vector<float> const& preds, std::vector<float> const& labels,
                       std::vector<float> const& weights, int n_groups, std::vector<float> const& quantile_alpha) {
  if (quantile_alpha.empty() || static_cast<int>(quantile_alpha.size()) != n_groups)
    throw std::runtime_error("metric quantile: needs one quantile_alpha per output (" +
                             std::to_string(quantile_alpha.size()) + " alphas, " + std::to_string(n_groups) + " outputs)");
  double esum = 0, wsum = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    float const w = weights.empty() ? 1.0f : weights[i];
    for (int q = 0; q < n_groups; ++q) {
      float const a = quantile_alpha[static_cast<std::size_t>(q)];
      float const d = labels[i] - preds[i * static_cast<std::size_t>(n_groups) + q];
      float const sign = d >= 0.0f;
      float const loss = (a * sign * d) - (1.0f - a) * (1.0f - sign) * d;
      esum += loss * w;
      wsum += w;
    }
  }
  return esum / wsum;
}

/// EvalCox (rank_metric.cc): preds are exp(margin), |label| sorts the times.
double cox_nloglik(std::vector<float> const& preds, std::vector<float> const& labels) {
  std::size_t const n = labels.size();
  auto const order = detail::label_abs_order(labels.data(), n);
  double exp_p_sum = 0;
  for (std::size_t i = 0; i < n; ++i) exp_p_sum += preds[i];
  double out = 0, accumulated_sum = 0;
  std::size_t events = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t const ind = order[i];
    float const label = labels[ind];
    if (label > 0) {
      out -= std::log(preds[ind]) - std::log(exp_p_sum);
      ++events;
    }
    accumulated_sum += preds[ind];
    if (i == n - 1 || std::fabs(label) < std::fabs(labels[order[i + 1]])) {
      exp_p_sum -= accumulated_sum;
      accumulated_sum = 0;
    }
  }
  return out / static_cast<double>(events);
}

/// An element-wise metric over rows × targets labels (upstream's EvalEWiseBase: every (row,
/// target) element a sample with its row's weight).
double multi_target_metric(std::string const& name, std::vector<float> const& preds, std::vector<float> const& labels,
                           std::vector<float> const& weights, int n_targets) {
  if (find_element_wise(name.substr(0, name.find('@'))) == nullptr)
    throw std::runtime_error("metric " + name + ": not available for " + std::to_string(n_targets) +
                             " label columns (multi-target takes the element-wise metrics)");
  std::size_t const targets = static_cast<std::size_t>(n_targets), rows = labels.size() / targets;
  if (!weights.empty() && weights.size() != rows)
    throw std::runtime_error("metric " + name + ": " + std::to_string(weights.size()) + " weights for " +
                             std::to_string(rows) + " rows");
  std::vector<float> element_weights;
  if (!weights.empty())
    for (std::size_t k = 0; k < labels.size(); ++k) element_weights.push_back(weights[k / targets]);
  return evaluate_metric(name, preds, labels, element_weights, 1, {});
}

}  // namespace

double evaluate_metric(std::string const& name, std::vector<float> const& preds, std::vector<float> const& labels,
                       std::vector<float> const& weights, int n_groups, std::vector<float> const& quantile_alpha) {
  if (n_groups > 1 && labels.size() == preds.size()) return multi_target_metric(name, preds, labels, weights, n_groups);
  std::size_t const n = labels.size();
  if (n_groups < 1 || preds.size() != n * static_cast<std::size_t>(n_groups) || (!weights.empty() && weights.size() != n))
    throw std::runtime_error("metric " + name + ": " + std::to_string(preds.size()) + " predictions, " +
                             std::to_string(n) + " labels, " + std::to_string(weights.size()) + " weights, " +
                             std::to_string(n_groups) + " groups do not match");
  auto const at = name.find('@');
  std::string const base = name.substr(0, at);
  std::string const arg = at == std::string::npos ? std::string() : name.substr(at + 1);
  if (base == "quantile") return quantile_metric(preds, labels, weights, n_groups, quantile_alpha);
  if (base == "cox-nloglik") return cox_nloglik(preds, labels);
  if (n_groups > 1) {
    if (ElementWiseMetric const* m = find_metric(kClassMetrics, base))
      return evaluate_class_metric(*m, name, preds, labels, weights, n_groups);
    throw std::runtime_error("metric " + name + ": not supported for " + std::to_string(n_groups) + " outputs");
  }
  if (base == "auc") return binary_auc(preds, labels, weights);
  if (ElementWiseMetric const* m = find_element_wise(base))
    return evaluate_element_wise(*m, name, arg, preds, labels, weights);
  throw std::runtime_error("unknown metric '" + name + "'");
}

std::string default_metric(std::string const& objective, float tweedie_variance_power) {
  ObjectiveParams p;
  p.objective = objective;
  p.tweedie_variance_power = tweedie_variance_power;
  return objective_family(objective).default_metric(p);
}

bool is_interval_metric(std::string const& name) {
  return name == "aft-nloglik" || name == "interval-regression-accuracy";
}

double evaluate_interval_metric(std::string const& name, std::vector<float> const& margin,
                                std::vector<float> const& lower, std::vector<float> const& upper,
                                std::vector<float> const& weights, std::string const& distribution, float scale) {
  std::size_t const n = margin.size();
  if (lower.size() != n || upper.size() != n || (!weights.empty() && weights.size() != n))
    throw std::runtime_error("metric " + name + ": " + std::to_string(n) + " predictions, " + std::to_string(lower.size()) +
                             " lower and " + std::to_string(upper.size()) + " upper bounds, " +
                             std::to_string(weights.size()) + " weights do not match");
  if (!is_interval_metric(name)) throw std::runtime_error("unknown survival metric '" + name + "'");
  auto const dist = detail::aft_distribution(distribution);
  double esum = 0, wsum = 0;  // ElementWiseSurvivalMetricsReduction, in row order
  for (std::size_t i = 0; i < n; ++i) {
    double const w = weights.empty() ? 1.0 : static_cast<double>(weights[i]);
    double const lo = lower[i], hi = upper[i], p = margin[i];
    double row;
    if (name == "aft-nloglik") {
      row = detail::aft_loss(dist, lo, hi, p, scale);
    } else {
      double const t = std::exp(p);
      row = t >= lo && t <= hi ? 1.0 : 0.0;
    }
    esum += row * w;
    wsum += w;
  }
  return wsum == 0 ? esum : esum / wsum;
}

std::string default_metric(ObjectiveParams const& obj) { return objective_family(obj.objective).configured_metric(obj); }

std::size_t rank_default_k(ObjectiveParams const& obj) { return objective_family(obj.objective).default_metric_k(obj); }

namespace {

struct RankMetricName {
  std::string base;                                   // ndcg, map or pre
  std::size_t topk = 32;                              // without @k: upstream's LambdaRankParam default
  bool minus = false;                                 // a group without relevant rows scores 0
};

/// ltr::ParseMetricName: "name", "name@k", "name@k-" or "name@-".
bool parse_rank_metric(std::string const& name, RankMetricName* out) {
  auto const at = name.find('@');
  RankMetricName r = out != nullptr ? *out : RankMetricName{};
  r.base = name.substr(0, at);
  if (r.base != "ndcg" && r.base != "map" && r.base != "pre") return false;
  if (at != std::string::npos) {
    std::string arg = name.substr(at + 1);
    if (!arg.empty() && arg.back() == '-') {
      r.minus = true;
      arg.pop_back();
    }
    if (!arg.empty()) {
      if (arg.find_first_not_of("0123456789") != std::string::npos || arg.size() > 9 || std::stoul(arg) == 0)
        throw std::runtime_error("metric " + name + ": @k must be a positive integer (e.g. ndcg@10)");
      r.topk = std::stoul(arg);
    } else if (!r.minus) {
      throw std::runtime_error("metric " + name + ": expected name@k, name@k- or name@-");
    }
  }
  if (out != nullptr) *out = r;
  return true;
}

/// rank_metric.cc's Finalize: the weighted mean over groups, at most 1.
double finalize_rank_score(double score, double sw) {
  if (sw > 0.0) score /= sw;
  return std::min(1.0, score);
}

}  // namespace

bool is_rank_metric(std::string const& name) {
  try {
    return parse_rank_metric(name, nullptr);
  } catch (std::exception const&) {
    return true;  // a ranking metric with a bad @k: evaluate_rank_metric says what is wrong
  }
}

double evaluate_rank_metric(std::string const& name, std::vector<float> const& preds, std::vector<float> const& labels,
                            std::vector<std::uint32_t> const& group_ptr_in, bool ndcg_exp_gain, std::size_t default_k) {
  RankMetricName m;
  m.topk = default_k;
  if (!parse_rank_metric(name, &m)) throw std::runtime_error("unknown ranking metric '" + name + "'");
  std::size_t const n = labels.size();
  if (preds.size() != n)
    throw std::runtime_error("metric " + name + ": " + std::to_string(preds.size()) + " scores for " + std::to_string(n) +
                             " labels (ranking metrics take one output)");
  auto const gptr = detail::query_groups(group_ptr_in, n);
  std::size_t const n_groups = gptr.size() - 1;
  double sum = 0;
  if (m.base == "ndcg") {  // EvalNDCG: the metric's own NDCGCache (its k, its gain)
    if (ndcg_exp_gain) detail::check_ndcg_labels(labels.data(), n, "metric " + name);
    auto const discount = detail::dcg_discounts(detail::max_group_size(gptr));
    auto const inv_idcg = detail::inverse_ideal_dcg(labels.data(), gptr, m.topk, ndcg_exp_gain, discount);
    for (std::size_t g = 0; g < n_groups; ++g) {
      std::size_t const begin = gptr[g], cnt = gptr[g + 1] - begin;
      if (inv_idcg[g] <= 0.0) {
        sum += m.minus ? 0.0 : 1.0;
        continue;
      }
      auto const rank = detail::rank_descending(preds.data() + begin, cnt);
      double ndcg = 0;
      for (std::size_t i = 0; i < std::min(cnt, m.topk); ++i)
        ndcg += discount[i] * detail::label_gain(labels[begin + rank[i]], ndcg_exp_gain) * inv_idcg[g];
      sum += ndcg;
    }
  } else {  // EvalMAPScore / EvalPrecision over binary relevance
    detail::check_binary_labels(labels.data(), n, "metric " + name);
    for (std::size_t g = 0; g < n_groups; ++g) {
      std::size_t const begin = gptr[g], cnt = gptr[g + 1] - begin;
      auto const rank = detail::rank_descending(preds.data() + begin, cnt);
      std::size_t const k = std::min(m.topk, cnt);
      double hits = 0, score = 0;
      for (std::size_t i = 0; i < k; ++i) {
        double const rel = labels[begin + rank[i]];
        hits += rel;
        if (m.base == "map") score += hits / static_cast<double>(i + 1) * rel;
      }
      if (m.base == "pre") {
        sum += hits / static_cast<double>(k);
        continue;
      }
      for (std::size_t i = k; i < cnt; ++i) hits += labels[begin + rank[i]];
      sum += hits > 0.0 ? score / std::min(hits, static_cast<double>(m.topk)) : (m.minus ? 0.0 : 1.0);
    }
  }
  return finalize_rank_score(sum, static_cast<double>(n_groups));
}

namespace {

/// One metric kboost evaluates, by its name before any '@'.
struct MetricName {
  char const* name;
  bool maximize;  ///< larger is better (upstream callback.py EarlyStopping's maximize_metrics)
};

/// Every metric, in the order "did you mean" hints list them.
constexpr MetricName kMetricNames[] = {
    {"rmse", false},         {"rmsle", false},         {"mae", false},         {"mape", false},
    {"mphe", false},         {"logloss", false},       {"error", false},       {"auc", true},
    {"mlogloss", false},     {"merror", false},        {"poisson-nloglik", false},
    {"gamma-nloglik", false}, {"gamma-deviance", false}, {"tweedie-nloglik", false},
    {"quantile", false},     {"cox-nloglik", false},   {"aft-nloglik", false},
    {"interval-regression-accuracy", false},           {"ndcg", true},         {"map", true},
    {"pre", true},
};

}  // namespace

std::vector<std::string> known_metric_names() {
  std::vector<std::string> out;
  for (auto const& m : kMetricNames) out.emplace_back(m.name);
  return out;
}

bool metric_maximize(std::string const& name) {
  std::string const base = name.substr(0, name.find('@'));
  for (auto const& m : kMetricNames)
    if (base == m.name) return m.maximize;
  return false;
}

bool is_known_metric(std::string const& name) {
  if (is_interval_metric(name)) return true;
  RankMetricName rank;
  try {
    if (parse_rank_metric(name, &rank)) return true;
  } catch (std::exception const&) {
    return false;  // ndcg@x and the like: a ranking metric with a @k that is not one
  }
  auto const at = name.find('@');
  std::string const base = name.substr(0, at);
  auto const names = known_metric_names();
  if (std::find(names.begin(), names.end(), base) == names.end()) return false;
  if (at == std::string::npos) return base != "tweedie-nloglik";  // tweedie-nloglik needs its @rho
  if (base != "error" && base != "tweedie-nloglik" && base != "mphe") return false;
  std::string const arg = name.substr(at + 1);
  char* end = nullptr;
  float const v = std::strtof(arg.c_str(), &end);
  return !arg.empty() && end == arg.c_str() + arg.size() && std::isfinite(v);
}

}  // namespace kboost
