#pragma once
/// \file lambdarank.hpp
/// rank:pairwise, rank:ndcg and rank:map: learning to rank on the host, as upstream XGBoost 3.2's CPU path: LambdaMART gradients of
/// rank:ndcg, rank:pairwise and rank:map (src/objective/lambdarank_obj.{h,cc} LambdaGrad,
/// DeltaNDCG, DeltaMAP, MakePairs, CalcLambdaForGroup) and the caches they read
/// (src/common/ranking_utils.{h,cc}: discounts, inverse ideal DCG, model rank lists). A query group's
/// pairs are visited in one fixed order and their float sums taken in it, so the bytes do not
/// depend on the backend or the thread count; the work runs on the host for every backend (the
/// sorts per group dominate it), as survival:cox's risk sets do.
#include <kboost/core/compat.hpp>
#include <kboost/core/objective.hpp>
#include <kboost/core/portable_math.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/engine/objective/gradient_inputs.hpp>
#include <kboost/engine/objective/objective.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace kboost::detail {

/// Stable order of a query group's rows by descending score (common::ArgSort with std::greater:
/// ties keep row order). `score`: the group's n values.
inline std::vector<std::size_t> rank_descending(float const* score, std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
  return order;
}

/// ltr::CalcDCGGain: 2^rel − 1 of the relevance degree (the label as an unsigned integer).
inline double dcg_gain(float label) { return static_cast<double>((1u << static_cast<std::uint32_t>(label)) - 1u); }

/// Gain of a label: 2^rel − 1 with ndcg_exp_gain, else the label itself.
inline double label_gain(float label, bool exp_gain) { return exp_gain ? dcg_gain(label) : static_cast<double>(label); }

/// ltr::CalcDCGDiscount for positions 0 .. n−1: 1 / log2(position + 2), in double with the host's
/// log2 (on the host for every backend).
inline std::vector<double> dcg_discounts(std::size_t n) {
  std::vector<double> d(n);
  for (std::size_t i = 0; i < n; ++i) d[i] = 1.0 / std::log2(static_cast<double>(i) + 2.0);
  return d;
}

/// The largest query group of group_ptr (n_groups + 1 offsets).
inline std::size_t max_group_size(std::vector<std::uint32_t> const& group_ptr) {
  std::size_t m = 0;
  for (std::size_t g = 0; g + 1 < group_ptr.size(); ++g) m = std::max<std::size_t>(m, group_ptr[g + 1] - group_ptr[g]);
  return m;
}

/// NDCGCache::InitOnCPU's 1 / IDCG per query group: the ideal DCG over the first `topk` positions
/// of the labels in stable descending order; 0 for a group without relevant rows.
inline std::vector<double> inverse_ideal_dcg(float const* label, std::vector<std::uint32_t> const& group_ptr,
                                             std::size_t topk, bool exp_gain, std::vector<double> const& discount) {
  std::vector<double> inv(group_ptr.size() - 1);
  for (std::size_t g = 0; g + 1 < group_ptr.size(); ++g) {
    std::size_t const begin = group_ptr[g], cnt = group_ptr[g + 1] - begin;
    auto const order = rank_descending(label + begin, cnt);
    double idcg = 0;
    for (std::size_t i = 0; i < std::min(cnt, topk); ++i)
      idcg += exp_gain ? discount[i] * dcg_gain(label[begin + order[i]])
                       : discount[i] * static_cast<double>(label[begin + order[i]]);
    inv[g] = idcg == 0.0 ? 0.0 : 1.0 / idcg;
  }
  return inv;
}

/// ltr::CheckNDCGLabels (with exponential gain: integers in [0, 31]) and CheckPreLabels (rank:map,
/// map and pre metrics: 0 or 1). Throws std::runtime_error naming `what`, the row and the label.
inline void check_ndcg_labels(float const* label, std::size_t n, std::string const& what) {
  for (std::size_t i = 0; i < n; ++i) {
    float const v = label[i];
    if (std::fabs(std::floor(v) - v) > 1e-6f || v < 0.0f || !(v <= 31.0f))
      throw std::runtime_error(what + ": label " + std::to_string(v) + " of row " + std::to_string(i + 1) +
                               " (1-based): with ndcg_exp_gain the relevance degree must be an integer in [0, 31]");
  }
}
inline void check_binary_labels(float const* label, std::size_t n, std::string const& what) {
  for (std::size_t i = 0; i < n; ++i) {
    float const v = label[i];
    if (!(std::fabs(v - 1.0f) < 1e-6f || std::fabs(v) < 1e-6f))
      throw std::runtime_error(what + ": label " + std::to_string(v) + " of row " + std::to_string(i + 1) +
                               " (1-based) is not 0 or 1 (binary relevance only)");
  }
}

/// LambdaRankParam::NumPair: pairs per sample (mean) or the truncation level (topk).
inline std::size_t lambdarank_num_pair(ObjectiveParams const& p) {
  if (p.lambdarank_num_pair_per_sample > 0) return static_cast<std::size_t>(p.lambdarank_num_pair_per_sample);
  return p.lambdarank_pair_method == "mean" ? 1 : 32;
}

/// Query groups of `n` rows: group_ptr itself, or one group of every row when it is empty
/// (RankingCache::InitOnCPU). Throws when the offsets do not cover the rows.
inline std::vector<std::uint32_t> query_groups(std::vector<std::uint32_t> const& group_ptr, std::size_t n) {
  if (group_ptr.empty()) return {0u, static_cast<std::uint32_t>(n)};
  if (group_ptr.front() != 0 || group_ptr.back() != n)
    throw std::runtime_error("ranking: the query groups cover " + std::to_string(group_ptr.back()) + " rows, the data has " +
                             std::to_string(n));
  return group_ptr;
}

/// std::minstd_rand (the C++ standard's Park–Miller generator: x ← 48271·x mod 2^31 − 1) and
/// libstdc++'s std::uniform_int_distribution<std::size_t> reduction for it (the generator's range
/// is not 2^32, so libstdc++ rejects draws past the largest multiple of the range and divides):
/// upstream 3.2's pair draws, the same numbers on any machine.
class MinstdUniform {
 public:
  explicit MinstdUniform(std::uint32_t seed) : x_(seed % kModulus == 0 ? 1 : seed % kModulus) {}
  /// A uniform integer in [0, n − 1] (n ≥ 1).
  std::size_t operator()(std::size_t n) {
    std::uint64_t const range = kModulus - 2;  // max − min of the generator
    std::uint64_t const scaling = range / n, past = n * scaling;
    std::uint64_t r;
    do {
      x_ = x_ * 48271u % kModulus;
      r = x_ - 1;
    } while (r >= past);
    return static_cast<std::size_t>(r / scaling);
  }

 private:
  static constexpr std::uint64_t kModulus = 2147483647u;
  std::uint64_t x_;
};

/// One group's LambdaMART gradients into grad/hess (the group's cnt rows, zeroed first), before
/// the group weight; `rank`: the group's rows by descending prediction; `seed`: the group's
/// generator seed for the mean method's draws.
/// delta(y_high, y_low, rank_high, rank_low) is the change of the metric when the two swap.
template <class Delta>
void lambdarank_group(ObjectiveParams const& p, float const* predt, float const* label, std::size_t cnt,
                      std::vector<std::size_t> const& rank, Delta const& delta, std::uint32_t seed, float* grad,
                      float* hess) {
  std::fill(grad, grad + cnt, 0.0f);
  std::fill(hess, hess + cnt, 0.0f);
  if (cnt == 0) return;
  float const best = predt[rank.front()], worst = predt[rank.back()];
  double sum_lambda = 0;
  auto const pair = [&](std::size_t rank_high, std::size_t rank_low) {  // LambdaGrad for one pair
    if (label[rank[rank_high]] == label[rank[rank_low]]) return;
    if (label[rank[rank_high]] < label[rank[rank_low]]) std::swap(rank_high, rank_low);
    std::size_t const idx_high = rank[rank_high], idx_low = rank[rank_low];
    float const s_high = predt[idx_high], s_low = predt[idx_low];
    double const delta_score = std::fabs(s_high - s_low);
    double const sigmoid = pmath::sigmoid(s_high - s_low);
    double delta_metric = std::fabs(delta(label[idx_high], label[idx_low], rank_high, rank_low));
    if (p.lambdarank_score_normalization && best != worst) delta_metric /= (delta_score + 0.01);
    double const lambda = (sigmoid - 1.0) * delta_metric;
    double const hessian = std::max(sigmoid * (1.0 - sigmoid), 1e-16) * delta_metric * 2.0;
    float const g = static_cast<float>(lambda), h = static_cast<float>(hessian);
    grad[idx_high] += g;
    hess[idx_high] += h;
    grad[idx_low] += -g;
    hess[idx_low] += h;
    sum_lambda += -2.0 * static_cast<double>(g);
  };
  std::size_t const n_pair = lambdarank_num_pair(p);
  if (p.lambdarank_pair_method != "mean") {  // MakePairs, top-k: each of the first k against every lower one
    for (std::size_t i = 0, n = std::min(cnt, n_pair); i < n; ++i)
      for (std::size_t j = i + 1; j < cnt; ++j) pair(i, j);
  } else {  // MakePairs, mean: per document, n_pair partners drawn outside its label bucket
    std::vector<std::size_t> by_label(cnt);  // ranked positions in stable descending label order
    std::iota(by_label.begin(), by_label.end(), 0);
    std::stable_sort(by_label.begin(), by_label.end(),
                     [&](std::size_t a, std::size_t b) { return label[rank[a]] > label[rank[b]]; });
    MinstdUniform draw(seed);
    for (std::size_t i = 0; i < cnt;) {
      std::size_t j = i + 1;
      while (j < cnt && label[rank[by_label[i]]] == label[rank[by_label[j]]]) ++j;
      std::size_t const n_lefts = i, n_rights = cnt - j;
      for (std::size_t s = 0; n_lefts + n_rights > 0 && s < n_pair; ++s) {
        for (std::size_t k = i; k < j; ++k) {
          std::size_t r = draw(n_lefts + n_rights);
          if (r >= n_lefts) r = r - i + j;  // past the bucket
          pair(by_label[k], by_label[r]);
        }
      }
      i = j;
    }
  }
  if (p.lambdarank_normalization) {
    double norm = 1.0;
    if (p.lambdarank_pair_method == "mean")
      norm = 1.0 / static_cast<double>(n_pair);
    else if (sum_lambda > 0.0)
      norm = std::log2(1.0 + sum_lambda) / sum_lambda;
    if (norm != 1.0) {  // GradientPair::operator*(float): the factor is rounded to float first
      float const f = static_cast<float>(norm);
      for (std::size_t i = 0; i < cnt; ++i) grad[i] *= f, hess[i] *= f;
    }
  }
}

/// LambdaMART gradients of rank:ndcg / rank:pairwise / rank:map (p.objective) at margins `predt` (n)
/// for labels (n; relevance degrees), query groups (n_groups + 1 offsets; empty = one group) and
/// group weights (n_groups, or empty = 1; upstream's per-group weights, scaled by groups / Σ
/// weights), into grad/hess (n each). `iteration` (the boosting round; 0 for the intercept) seeds
/// the pair draws of lambdarank_pair_method = mean as upstream 3.2's MakePairs does,
/// (iteration + 1) · n_groups + group in 32-bit arithmetic. Throws std::runtime_error on labels the
/// objective does not take (rank:ndcg with exponential gain: integers in [0, 31]; rank:map: 0 or 1).
inline void lambdarank_gradients(ObjectiveParams const& p, float const* predt, float const* label, std::size_t n,
                                 std::vector<std::uint32_t> const& group_ptr_in,
                                 std::vector<float> const& group_weight, std::uint32_t iteration, float* grad,
                                 float* hess) {
  auto const gptr = query_groups(group_ptr_in, n);
  std::size_t const n_groups = gptr.size() - 1;
  if (!group_weight.empty() && group_weight.size() != n_groups)
    throw std::runtime_error(p.objective + ": " + std::to_string(group_weight.size()) + " weights for " +
                             std::to_string(n_groups) + " query groups (ranking takes one weight per group)");
  double sum_weights = 0;
  for (std::size_t g = 0; g < n_groups; ++g) sum_weights += group_weight.empty() ? 1.0f : group_weight[g];
  double const weight_norm = static_cast<double>(n_groups) / sum_weights;  // RankingCache::WeightNorm
  std::size_t const topk = p.lambdarank_pair_method == "mean" ? static_cast<std::size_t>(-1) : lambdarank_num_pair(p);
  bool const ndcg = p.objective == "rank:ndcg", map = p.objective == "rank:map";
  std::vector<double> discount, inv_idcg;
  if (ndcg) {
    if (p.ndcg_exp_gain) check_ndcg_labels(label, n, p.objective);
    discount = dcg_discounts(max_group_size(gptr));
    inv_idcg = inverse_ideal_dcg(label, gptr, topk, p.ndcg_exp_gain, discount);
  }
  if (map) check_binary_labels(label, n, p.objective);
  std::vector<double> n_rel, acc;  // rank:map's MAPStat of one group
  for (std::size_t g = 0; g < n_groups; ++g) {
    std::size_t const begin = gptr[g], cnt = gptr[g + 1] - begin;
    float const* gp = predt + begin;
    float const* gl = label + begin;
    auto const rank = rank_descending(gp, cnt);
    auto run = [&](auto const& delta) {
      std::uint32_t const seed = (iteration + 1u) * static_cast<std::uint32_t>(n_groups) + static_cast<std::uint32_t>(g);
      lambdarank_group(p, gp, gl, cnt, rank, delta, seed, grad + begin, hess + begin);
      // gpair * w * w_norm: two float multiplications, as upstream's GradientPair::operator*(float)
      float const wf = group_weight.empty() ? 1.0f : group_weight[g], nf = static_cast<float>(weight_norm);
      for (std::size_t i = 0; i < cnt; ++i) {
        grad[begin + i] = grad[begin + i] * wf * nf;
        hess[begin + i] = hess[begin + i] * wf * nf;
      }
    };
    if (ndcg) {
      double const inv = inv_idcg[g];
      bool const exp_gain = p.ndcg_exp_gain;
      run([&](float y_high, float y_low, std::size_t r_high, std::size_t r_low) {  // DeltaNDCG
        double const gain_high = label_gain(y_high, exp_gain), gain_low = label_gain(y_low, exp_gain);
        double const original = gain_high * discount[r_high] + gain_low * discount[r_low];
        double const changed = gain_low * discount[r_high] + gain_high * discount[r_low];
        return (original - changed) * inv;
      });
    } else if (map) {
      n_rel.assign(cnt, 0.0);
      acc.assign(cnt, 0.0);
      if (cnt > 0) {
        n_rel[0] = gl[rank[0]];
        acc[0] = gl[rank[0]] / 1.0;
        for (std::size_t k = 1; k < cnt; ++k) {
          n_rel[k] = n_rel[k - 1] + gl[rank[k]];
          acc[k] = acc[k - 1] + (gl[rank[k]] / static_cast<double>(k + 1));
        }
      }
      run([&](float y_high, float y_low, std::size_t r_high, std::size_t r_low) {  // DeltaMAP
        if (r_high > r_low) std::swap(r_high, r_low), std::swap(y_high, y_low);
        double const rh = static_cast<double>(r_high) + 1.0, rl = static_cast<double>(r_low) + 1.0;
        double const total = n_rel.back();
        double const m = n_rel[r_low], nh = n_rel[r_high];
        double const b = acc[r_low - 1] - acc[r_high];
        return y_high < y_low ? (m / rl - (nh + 1.0) / rh - b) / total : (nh / rh - m / rl + b) / total;
      });
    } else {
      run([](float, float, std::size_t, std::size_t) { return 1.0; });
    }
  }
}

}  // namespace kboost::detail

namespace kboost {

/// LambdaMART gradients of rank:ndcg / rank:pairwise / rank:map (upstream 3.2's CPU objective,
/// detail::lambdarank_gradients above) at `margin` (rows × 1) for relevance labels (rows) and query
/// groups (`group_ptr`: n_groups + 1 row offsets on the host; empty = one group), into `gpair`
/// (1 × rows). Margins and labels go to the host, the pairs come back. `iteration` (the boosting
/// round) seeds the draws of lambdarank_pair_method = mean as upstream 3.2's. Throws std::runtime_error on labels the objective does
/// not take, or offsets that do not cover the rows.
template <class Mem>
void lambdarank_gradients(ObjectiveParams const& params, Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin,
                          Kokkos::View<const float*, Mem> label, std::vector<std::uint32_t> const& group_ptr,
                          std::uint32_t iteration, Kokkos::View<GradientPair**, Kokkos::LayoutRight, Mem> gpair) {
  compat::ScopedRegion region("kboost::objective::lambdarank_gradients");
  if (margin.extent(1) != 1) throw std::runtime_error(params.objective + " has one output, not " + std::to_string(margin.extent(1)));
  auto const hm = counted_to_host(margin);
  auto const hl = counted_to_host(label);
  std::size_t const n = hm.extent(0);
  if (hl.extent(0) != n || gpair.extent(1) != n)
    throw std::runtime_error("lambdarank_gradients: " + std::to_string(n) + " margins, " + std::to_string(hl.extent(0)) +
                             " labels");
  std::vector<float> g(n), h(n);
  detail::lambdarank_gradients(params, hm.data(), hl.data(), n, group_ptr, {}, iteration, g.data(), h.data());
  upload_single_output(g, h, gpair);
}

/// The rank:* family: relevance labels over query groups, one output, no row weights (host facts
/// in lambdarank.cpp).
struct LambdaRankObjective {
  static bool handles(ObjectiveKind k) { return k == ObjectiveKind::kRank; }

  /// lambdarank_gradients over in's query groups. \throws std::runtime_error when none are given.
  template <class ExecutionSpace, class Mem>
  static void gradients(ExecutionSpace const&, ObjectiveParams const& p, GradientInputs<Mem> const& in,
                        GradientPairs<Mem> gpair) {
    if (in.group_ptr == nullptr) {
      check_gradient_shapes(in.margin, in.label, in.weight, gpair, 1);
      throw std::runtime_error("compute_gradients: " + p.objective + " needs query groups: use lambdarank_gradients");
    }
    lambdarank_gradients(p, in.margin, in.label, *in.group_ptr, in.iteration, gpair);
  }

  static Objective const& host();
};

}  // namespace kboost
