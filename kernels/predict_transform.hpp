#pragma once
/// \file predict_transform.hpp
/// Objective -> output transform (margin -> prediction) and base_score -> margin, with upstream
/// XGBoost 3.2's float arithmetic so results are bit-identical to its CPU predict:
/// src/common/math.h (Sigmoid, Softmax, FindMaxIndex, Logit), src/objective/regression_loss.h,
/// regression_obj.cu (Poisson/Cox/Tweedie/Gamma expf, ProbToMargin log), multiclass_obj.cu,
/// hinge.cu, aft_obj.cu. expf/logf come from core/portable_math.hpp (glibc's bits on every backend).
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

#include "core/portable_math.hpp"

namespace kboost {

/// How margins become outputs.
enum class OutputTransform : int {
  kIdentity = 0,  ///< reg:squarederror, binary:logitraw, rank:*, reg:absoluteerror, ...
  kSigmoid,       ///< binary:logistic, reg:logistic (common::Sigmoid)
  kExp,           ///< count:poisson, reg:gamma, reg:tweedie, survival:cox, survival:aft (expf)
  kHinge,         ///< binary:hinge: margin > 0 ? 1 : 0
  kSoftmax,       ///< multi:softprob (common::Softmax, double sum)
  kArgmax,        ///< multi:softmax: index of the first maximum, one output column
};

/// Transform for an objective name. \throws std::runtime_error for an unknown objective.
OutputTransform transform_for_objective(std::string const& objective);

/// Margin-space base score from the file's output-space base_score, one per output
/// (upstream ObjFunction::ProbToMargin: logit for the logistic objectives, log for the log-link ones).
std::vector<float> base_margin_from_score(std::string const& objective, std::vector<float> const& base_score);

/// Number of output columns per row: 1 for argmax, else `n_outputs`.
inline int transformed_columns(OutputTransform t, int n_outputs) {
  return t == OutputTransform::kArgmax ? 1 : n_outputs;
}

namespace detail {
/// upstream common::Sigmoid(float): std::min(-x, 88.7f) keeps NaN (min(a,b) = b < a ? b : a).
KOKKOS_INLINE_FUNCTION float upstream_sigmoid(float x) {
  float constexpr kEps = 1e-16f;
  float nx = -x;
  nx = (88.7f < nx) ? 88.7f : nx;
  float const denom = pmath::expf(nx) + 1.0f + kEps;
  return 1.0f / denom;
}
}  // namespace detail

/// Apply `t` to one row's margins `in[0..k)` writing `out` (k values, or 1 for argmax).
/// `in` and `out` may alias. Same operation order as upstream (softmax: fmaxf scan, expf, double sum,
/// divide by the float-rounded sum).
template <class In, class Out>
KOKKOS_INLINE_FUNCTION void apply_transform(OutputTransform t, int k, In const& in, Out const& out) {
  switch (t) {
    case OutputTransform::kIdentity:
      for (int j = 0; j < k; ++j) out(j) = in(j);
      break;
    case OutputTransform::kSigmoid:
      for (int j = 0; j < k; ++j) out(j) = detail::upstream_sigmoid(in(j));
      break;
    case OutputTransform::kExp:
      for (int j = 0; j < k; ++j) out(j) = pmath::expf(in(j));
      break;
    case OutputTransform::kHinge:
      for (int j = 0; j < k; ++j) out(j) = in(j) > 0.0f ? 1.0f : 0.0f;
      break;
    case OutputTransform::kSoftmax: {
      float wmax = in(0);
      for (int j = 1; j < k; ++j) {
        float const v = in(j);
        wmax = (v > wmax || wmax != wmax) ? v : wmax;  // fmaxf
      }
      double wsum = 0.0;
      for (int j = 0; j < k; ++j) {
        float const e = pmath::expf(in(j) - wmax);
        out(j) = e;
        wsum += e;
      }
      float const s = static_cast<float>(wsum);
      for (int j = 0; j < k; ++j) out(j) = out(j) / s;
      break;
    }
    case OutputTransform::kArgmax: {
      int best = 0;
      for (int j = 1; j < k; ++j)
        if (in(j) > in(best)) best = j;
      out(0) = static_cast<float>(best);
      break;
    }
  }
}

}  // namespace kboost
