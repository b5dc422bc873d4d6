#pragma once
/// \file predictor.hpp
/// kboost::Predictor: XGBoost-compatible inference on any Kokkos backend. The ensemble is flattened
/// and uploaded once (kernels/predict_layout.hpp); each predict() call runs one kernel
/// (kernels/predict_kernel.hpp) on device-resident input and returns device-resident output.
/// Results are bit-identical to upstream XGBoost 3.2's CPU predictor (src/predictor/cpu_predictor.cc,
/// src/gbm/gbtree.cc) on every backend: see docs/inference.md.
#include <Kokkos_Core.hpp>

#include <chrono>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kboost/core/compat.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/output_transform.hpp>
#include <kboost/kernels/predict_kernel.hpp>
#include <kboost/kernels/predict_layout.hpp>
#include <kboost/io/model_reader.hpp>

namespace kboost {

/// Options of one predict call (names as upstream's Booster.predict / inplace_predict).
struct PredictOptions {
  bool output_margin = false;  ///< raw margins, no objective transform
  bool pred_leaf = false;      ///< leaf node ids, rows × trees (of the iteration range)
  int iteration_begin = 0;     ///< first boosting round (iteration_range[0])
  int iteration_end = 0;       ///< one past the last round; 0 = all rounds
  float missing = std::numeric_limits<float>::quiet_NaN();  ///< value treated as missing (NaN always is)
};

/// Tree range [first, second) for the rounds [begin, end) (end 0 = all) of `m`, mapped through
/// iteration_indptr as upstream's detail::LayerToTree. \throws std::runtime_error on a bad range.
std::pair<int, int> tree_range(Model const& m, int iteration_begin, int iteration_end);

/// Predictor bound to one execution space. Construction flattens and uploads the model (timed:
/// upload_seconds()). predict() may be called concurrently only with distinct outputs.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
class Predictor {
 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using matrix_type = Kokkos::View<float**, Kokkos::LayoutRight, memory_space>;
  using const_matrix_type = Kokkos::View<const float**, Kokkos::LayoutRight, memory_space>;

  /// From an in-memory model (validated here). \throws std::runtime_error for an invalid model or
  /// an unknown objective.
  explicit Predictor(Model model, ExecutionSpace const& space = ExecutionSpace()) : space_(space), model_(std::move(model)) {
    validate_model(model_, "model");
    transform_ = transform_for_objective(model_.objective);
    auto t0 = std::chrono::steady_clock::now();
    HostForest h = flatten_forest(model_);
    n_dense_ = h.n_dense;
    n_compact_ = h.n_compact;
    forest_ = upload_forest<memory_space>(h);
    base_score_ = detail::upload<memory_space>("kboost::predict::base_score", base_margin_from_score(model_.objective, model_.base_score));
    upload_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  /// From an XGBoost JSON/UBJSON file (io/model_reader.hpp read_model).
  explicit Predictor(std::string const& model_path, ExecutionSpace const& space = ExecutionSpace())
      : Predictor(read_model(model_path), space) {}

  Model const& model() const { return model_; }
  /// Seconds spent flattening and uploading the ensemble (once, at construction).
  double upload_seconds() const { return upload_seconds_; }
  int dense_trees() const { return n_dense_; }
  int compact_trees() const { return n_compact_; }

  /// Columns of the result for `opt`: trees in range (pred_leaf), outputs (margin) or transformed columns.
  int output_columns(PredictOptions const& opt) const {
    if (opt.pred_leaf) {
      auto r = tree_range(model_, opt.iteration_begin, opt.iteration_end);
      return r.second - r.first;
    }
    int k = model_.num_outputs();
    return opt.output_margin ? k : transformed_columns(transform_, k);
  }

  /// Predict X (rows × features, features == the model's num_feature; NaN or opt.missing = missing)
  /// into a new rows × output_columns(opt) View in the same memory space. `base_margin` (rows × outputs,
  /// optional) replaces the base score as upstream's DMatrix base_margin.
  /// \throws std::runtime_error on a feature-count or shape mismatch or a bad iteration range.
  matrix_type predict(const_matrix_type X, PredictOptions const& opt = {}, const_matrix_type base_margin = {}) const {
    matrix_type out(Kokkos::view_alloc(std::string("kboost::predict::out"), Kokkos::WithoutInitializing), X.extent(0),
                    static_cast<std::size_t>(output_columns(opt)));
    predict_into(X, out, opt, base_margin);
    return out;
  }

  /// As predict() into a caller-owned `out` (rows × output_columns(opt)). Asynchronous on device
  /// backends (fence the space before reading out on the host).
  void predict_into(const_matrix_type X, matrix_type out, PredictOptions const& opt = {},
                    const_matrix_type base_margin = {}) const {
    if (model_.num_feature > 0 && static_cast<int>(X.extent(1)) != model_.num_feature)
      throw std::runtime_error("predict: input has " + std::to_string(X.extent(1)) + " features, the model expects " +
                               std::to_string(model_.num_feature));
    if (out.extent(0) != X.extent(0) || static_cast<int>(out.extent(1)) != output_columns(opt))
      throw std::runtime_error("predict: output must be " + std::to_string(X.extent(0)) + " x " +
                               std::to_string(output_columns(opt)));
    if (base_margin.extent(0) != 0 &&
        (base_margin.extent(0) != X.extent(0) || static_cast<int>(base_margin.extent(1)) != model_.num_outputs()))
      throw std::runtime_error("predict: base_margin must be rows x " + std::to_string(model_.num_outputs()));
    auto range = tree_range(model_, opt.iteration_begin, opt.iteration_end);
    PredictKernelParams p;
    p.tree_begin = range.first;
    p.tree_end = range.second;
    p.n_outputs = model_.num_outputs();
    p.pred_leaf = opt.pred_leaf;
    p.output_margin = opt.output_margin;
    p.transform = transform_;
    p.missing = opt.missing;
    default_blocking(space_, X.extent(0), range.second - range.first, p);
    if (p.pred_leaf && range.second == range.first) return;
    predict_forest(space_, forest_, X, base_score_, base_margin, p, out);
  }

 private:
  ExecutionSpace space_;
  Model model_;
  OutputTransform transform_ = OutputTransform::kIdentity;
  DeviceForest<memory_space> forest_;
  Kokkos::View<const float*, memory_space> base_score_;
  double upload_seconds_ = 0;
  int n_dense_ = 0, n_compact_ = 0;
};

}  // namespace kboost
