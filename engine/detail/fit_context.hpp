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
  std::vector<DenseRows<Mem>> X;
  std::vector<Margins<Mem>> margin;
};

}  // namespace kboost::detail
