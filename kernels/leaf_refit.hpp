#pragma once
/// \file leaf_refit.hpp
/// Leaf values re-estimated from residual quantiles, as upstream's adaptive objectives
/// (reg:absoluteerror at alpha 0.5, reg:quantileerror at each quantile_alpha; src/objective/adaptive.cc
/// UpdateTreeLeaf, adaptive.h UpdateLeafValues, src/common/stats.h Quantile/WeightedQuantile).
/// The residuals label − margin of a leaf's rows are gathered on the device, then each leaf's
/// quantile is taken on the host over its rows sorted by (residual, row): the order of upstream's
/// stable sort of rows in ascending row order, so the weighted cumulative sums, and hence the
/// quantiles, are upstream's bits on every backend.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/gradients.hpp>
#include <kboost/kernels/leaves.hpp>

namespace kboost {

/// Upstream's common::Quantile (no weights: linear interpolation between order statistics) or
/// common::WeightedQuantile (weights: the first value whose float weight prefix sum reaches
/// alpha × total, no interpolation) of `values` (n), visited in the order `order` (indices sorted
/// by value, ties in upstream's order). weights: n values or nullptr. NaN when n = 0.
inline float upstream_quantile(double alpha, float const* values, float const* weights, std::size_t const* order,
                               std::size_t n) {
  if (n == 0) return std::numeric_limits<float>::quiet_NaN();
  auto val = [&](std::size_t i) { return values[order[i]]; };
  if (weights == nullptr) {
    double const nd = static_cast<double>(n);
    if (alpha <= 1 / (nd + 1)) return val(0);
    if (alpha >= nd / (nd + 1)) return val(n - 1);
    double const x = alpha * (nd + 1);
    double const k = std::floor(x) - 1;
    double const d = (x - 1) - k;
    float const v0 = val(static_cast<std::size_t>(k)), v1 = val(static_cast<std::size_t>(k) + 1);
    return static_cast<float>(v0 + d * (v1 - v0));
  }
  std::vector<float> cdf(n);
  cdf[0] = weights[order[0]];
  for (std::size_t i = 1; i < n; ++i) cdf[i] = cdf[i - 1] + weights[order[i]];
  float const thresh = static_cast<float>(cdf.back() * alpha);
  std::size_t k = static_cast<std::size_t>(std::lower_bound(cdf.begin(), cdf.end(), thresh) - cdf.begin());
  return val(std::min(k, n - 1));
}

/// Per leaf in `leaves` (segments of positions of `ridx`), the alpha-quantile of label(r) −
/// margin(r, group) over its rows r whose hessian gpair(group, r) is not 0 (upstream leaves
/// rows out of the refit that subsampling or a zero weight removed: SamplePosition); NaN for a
/// leaf with no such row. label: rows, or rows × groups (multi-target: the group's own column, as
/// upstream's IdxY); weight: rows (extent 0 = unweighted); margin: rows × groups, the margins
/// before the new tree; gpair: groups × rows.
template <class ExecutionSpace, class Mem>
std::vector<float> leaf_residual_quantiles(ExecutionSpace const& space, Kokkos::View<const std::int32_t*, Mem> ridx,
                                           std::vector<LeafSegment> const& leaves, Kokkos::View<const float*, Mem> label,
                                           Kokkos::View<const float**, Kokkos::LayoutRight, Mem> margin, int group,
                                           Kokkos::View<const float*, Mem> weight,
                                           Kokkos::View<const GradientPair**, Kokkos::LayoutRight, Mem> gpair, double alpha) {
  compat::ScopedRegion region("kboost::leaves::refit_quantile");
  std::size_t const n = ridx.extent(0);
  bool const weighted = weight.extent(0) != 0;
  std::size_t const label_stride = label.extent(0) == margin.extent(0) ? 1 : margin.extent(1);
  std::size_t const label_col = label_stride == 1 ? 0 : static_cast<std::size_t>(group);
  Kokkos::View<float*, Mem> residual(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::refit::residual"), n);
  Kokkos::View<float*, Mem> w(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::refit::weight"), weighted ? n : 0);
  Kokkos::View<std::uint8_t*, Mem> valid(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::refit::valid"), n);
  Kokkos::parallel_for(
      "kboost::leaves::gather_residuals", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n), KOKKOS_LAMBDA(std::size_t p) {
        std::int32_t const r = ridx(p);
        residual(p) = label(static_cast<std::size_t>(r) * label_stride + label_col) - margin(r, group);
        if (weighted) w(p) = weight(r);
        valid(p) = gpair(group, r).hess - 0.0f == 0.0f ? 0 : 1;
      });
  auto const h_res = counted_to_host(residual);
  auto const h_w = counted_to_host(w);
  auto const h_valid = counted_to_host(valid);
  auto const h_ridx = counted_to_host(ridx);
  std::vector<float> out(leaves.size());
  Kokkos::parallel_for(
      "kboost::leaves::leaf_quantiles", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, leaves.size()),
      [&](std::size_t k) {
        std::vector<std::size_t> order;
        for (std::int32_t p = leaves[k].begin; p < leaves[k].end; ++p)
          if (h_valid(p)) order.push_back(static_cast<std::size_t>(p));
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
          return h_res(a) < h_res(b) || (!(h_res(b) < h_res(a)) && h_ridx(a) < h_ridx(b));
        });
        out[k] = upstream_quantile(alpha, h_res.data(), weighted ? h_w.data() : nullptr, order.data(), order.size());
      });
  Kokkos::DefaultHostExecutionSpace().fence();
  return out;
}

}  // namespace kboost
