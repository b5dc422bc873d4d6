#pragma once
/// \file fit_context.hpp
/// What the stages of BasicBooster::train hand each other (engine/detail/booster_train.hpp and
/// booster_rounds.hpp): the training rows on the execution space, the fit's fixed inputs and the
/// margins its rounds update, and the eval sets. Upstream keeps the same state in its Learner
/// (src/learner.cc: the DMatrix cache, PredictionContainer) and GBTree (src/gbm/gbtree.cc).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <type_traits>
#include <vector>

#include <kboost/core/dmatrix.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/densify.hpp>
#include <kboost/kernels/hist_cuts.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/engine/detail/fit_plan.hpp>

namespace kboost::detail {

/// Rows × outputs margins on Mem.
template <class Mem>
using Margins = Kokkos::View<float**, Kokkos::LayoutRight, Mem>;

/// Rows × features float matrix on Mem (NaN = missing).
template <class Mem>
using DenseRows = Kokkos::View<float**, Kokkos::LayoutRight, Mem>;

/// Read-only view of DenseRows, as the kernels take them.
template <class Mem>
using ConstRows = Kokkos::View<const float**, Kokkos::LayoutRight, Mem>;

/// `m`'s rows, densified on the host (missing = NaN) and copied to Mem.
template <class Mem>
DenseRows<Mem> upload_dense(HostDMatrix const& m) {
  auto hd = densify(Kokkos::DefaultHostExecutionSpace(), m);
  auto d = allocate_view<DenseRows<Mem>>("kboost::train::X", false, hd.extent(0), hd.extent(1));
  counted_deep_copy(d, hd);
  return d;
}

/// One value of a rows × features View copied into a row-major matrix (rows_on_space's kernel).
template <class Src, class Dst>
struct CopyToRowMajor {
  Src src;
  Dst dst;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i, std::size_t j) const { dst(i, j) = src(i, j); }
};

/// Whether a fit can read the caller's X where it is: the execution space reads its memory.
template <class ExecutionSpace, class XView>
constexpr bool reads_rows_on_space() {
  return Kokkos::SpaceAccessibility<ExecutionSpace, typename XView::memory_space>::accessible;
}

/// The caller's X (rows × features float, any layout, in memory the execution space reads) as a
/// fit's row-major rows on the space's memory: X itself when it already is such a matrix (LayoutRight
/// in that memory space, rows without padding; the fit only reads it, and X outlives the fit as the
/// caller's argument does), else one copy made on the execution space, never through the host.
template <class ExecutionSpace, class XView>
DenseRows<typename ExecutionSpace::memory_space> rows_on_space(ExecutionSpace const& space, XView const& X) {
  static_assert(XView::rank == 2, "X must be a rows x features View");
  static_assert(std::is_same_v<typename XView::non_const_value_type, float>, "X must hold float");
  using Mem = typename ExecutionSpace::memory_space;
  std::size_t const rows = X.extent(0), features = X.extent(1);
  if constexpr (std::is_same_v<typename XView::memory_space, Mem> &&
                std::is_same_v<typename XView::array_layout, Kokkos::LayoutRight>) {
    if (rows < 2 || X.stride(0) == features) return DenseRows<Mem>(const_cast<float*>(X.data()), rows, features);
  }
  auto out = allocate_view<DenseRows<Mem>>("kboost::train::X", false, rows, features);
  using Policy = Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<2>, Kokkos::IndexType<std::size_t>>;
  Kokkos::parallel_for("kboost::train::caller_rows", Policy(space, {0, 0}, {rows, features}),
                       CopyToRowMajor<XView, DenseRows<Mem>>{X, out});
  return out;
}

/// A HostDMatrix of the caller's labels and weights (copied to the host, as host_dmatrix does)
/// whose rows stay on the execution space: n_rows and n_features are X's, dense and csr are
/// empty, so only a fit given the rows (rows_on_space) may read it.
template <class XView, class LabelView, class WeightView>
HostDMatrix dmatrix_without_rows(XView const& X, LabelView const& labels, WeightView const& weights) {
  HostDMatrix d;
  d.n_rows = X.extent(0);
  d.n_features = X.extent(1);
  set_host_labels(d, labels);
  set_host_weights(d, weights);
  return d;
}

/// `rows` × outputs margins holding every output's intercept (`base_margin`, one per output).
template <class Mem>
Margins<Mem> intercept_margins(std::size_t rows, std::vector<float> const& base_margin) {
  std::size_t const outputs = base_margin.size();
  Margins<Mem> m(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::train::margin"), rows, outputs);
  auto h = Kokkos::create_mirror_view(m);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t g = 0; g < outputs; ++g) h(i, g) = base_margin[g];
  counted_deep_copy(m, h);
  return m;
}

/// The training rows of a fit: the host arrays the sketch reads, and their copies on Mem (dense
/// rows, or CSR arrays binned without a dense copy) with labels and weights.
template <class Mem>
struct FitRows {
  bool sparse = false;
  HostDMatrix::dense_type host_dense;      ///< dense: rows × features on the host
  CsrArrays<Kokkos::HostSpace> host_csr;   ///< sparse: the CSR arrays on the host
  DenseRows<Mem> X;                        ///< dense: rows × features on Mem
  bool host_copy_pending = false;          ///< dense rows given on Mem only: host_dense made on demand
  bool bin_from_host = false;              ///< dense host rows not uploaded: binned chunk by chunk
  CsrArrays<Mem> csr;                      ///< sparse: the CSR arrays on Mem
  Kokkos::View<float*, Mem> label, weight; ///< rows (× targets, row-major); weight empty: all 1
};

/// A fit's fixed inputs and the training margins its rounds update.
template <class Mem>
struct FitContext {
  FitContext(TrainParams const& params, HostDMatrix const& train, EvalSetList const& eval_sets, std::ostream* out,
             FitPlan const& fit_plan)
      : p(params), dtrain(train), evals(eval_sets), log(out), plan(fit_plan) {}

  TrainParams const& p;
  HostDMatrix const& dtrain;
  EvalSetList const& evals;
  std::ostream* log;
  FitPlan const& plan;
  HistogramCuts<Mem> cuts;
  std::vector<float> base_margin;         ///< the intercepts as margins, one per output
  Margins<Mem> margin;                    ///< this rank's rows × outputs
  Kokkos::View<const float*, Mem> label, weight;
  std::vector<std::uint32_t> query_groups;  ///< row offsets of dtrain's query groups (empty: none)
  std::vector<std::string> metrics;         ///< scored on every eval set after every round
};

/// The eval sets on Mem, whole on every rank (the same metrics, so the same early stopping,
/// everywhere): their rows and margins, in the order the fit was given them.
template <class Mem>
struct EvalSets {
  /// A set's labels and weights on Mem for the metrics scored from per-row terms, uploaded on the
  /// first such metric, and the terms' buffer (rows).
  struct MetricData {
    Kokkos::View<float*, Mem> label, weight, terms;
    bool class_labels_checked = false;
  };
  std::vector<DenseRows<Mem>> X;
  std::vector<Margins<Mem>> margin;
  std::vector<MetricData> metric_data;  ///< one per set
};

}  // namespace kboost::detail
