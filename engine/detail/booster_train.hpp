#pragma once
/// \file booster_train.hpp
/// BasicBooster::train as named stages (included by engine/booster.hpp; not a header of its own):
/// validate → upload → initial margins → cuts → model header → bins → rounds, as upstream's
/// Learner::UpdateOneIter / GBTree::DoBoost set up a fit (src/learner.cc, src/gbm/gbtree.cc) with
/// the GPU hist method's DMatrix preparation (src/data/ellpack_page.cu: cuts, then bin codes).
#include <cstdint>
#include <type_traits>
#include <utility>

#include <kboost/core/compat.hpp>
#include <kboost/core/device_memory.hpp>
#include <kboost/core/dmatrix.hpp>
#include <kboost/core/memory_meter.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/kernels/binning.hpp>
#include <kboost/kernels/leaves.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/detail/exact_sketch.hpp>
#include <kboost/engine/detail/gpu_sketch.hpp>
#include <kboost/engine/detail/fit_plan.hpp>
#include <kboost/engine/detail/run_params.hpp>
#include <kboost/engine/detail/sketch.hpp>

namespace kboost {

template <class ExecutionSpace>
void BasicBooster<ExecutionSpace>::train_rows(TrainParams const& p, HostDMatrix const& dtrain,
                                              std::vector<std::pair<std::string, HostDMatrix>> const& evals,
                                              std::ostream* log, detail::DenseRows<Mem> const* on_space) {
  compat::ScopedRegion region("kboost::train");
  run_on_all_ranks(*comm_, [&] { detail::check_device_and_threads(p, space_); });
  bool const continuing = std::exchange(has_start_, false);  // a continuation is for one fit
  detail::FitPlan const plan = detail::validate_fit(p, dtrain, evals, *comm_, continuing ? &start_model_ : nullptr,
                                                    static_cast<bool>(custom_gradients_));
  times_ = PhaseTimes{};
  MemoryMeter const meter;
  TransferCount const copies_before = transfer_count();
  history_.clear();

  // the exact sketch and a continued model's margins read the rows on the space; otherwise host
  // rows reach the space only chunk by chunk while they are binned
  FitRows rows = upload_rows(dtrain, on_space, p.sketch_method != "exact_quantile" && !continuing);
  std::vector<float> const base_score = detail::fit_base_score(p, plan, dtrain, start_model_, *comm_);
  FitContext fit{p, dtrain, evals, log, plan};
  fit.base_margin = detail::base_margins(plan, base_score);
  fit.margin = training_margins(rows, dtrain, fit.base_margin, continuing);
  fit.label = rows.label;
  fit.weight = rows.weight;
  fit.query_groups = detail::group_offsets(dtrain);
  fit.cuts = find_cuts(fit, rows);

  model_ = detail::model_header(p, plan, dtrain, base_score, std::move(start_model_));
  state_ = continuing ? std::move(start_state_) : TrainState{};
  start_model_ = Model{};
  rows.host_dense = HostDMatrix::dense_type();  // the float matrices are not needed once binned
  rows.host_csr = CsrArrays<Kokkos::HostSpace>();
  if (bin_code_bytes(fit.cuts.host_ptrs) == 1)
    fit_rounds(fit, bin_rows<std::uint8_t>(fit, rows));
  else
    fit_rounds(fit, bin_rows<std::uint16_t>(fit, rows));
  finish_fit(meter, copies_before, p, log);
}

/// The training rows, labels and weights on the execution space: dense rows (the caller's, when
/// they are already there: `on_space`), or CSR arrays that are binned without a dense copy.
/// `bin_from_host`: dense host rows on a device are not uploaded whole; bin_rows codes them chunk
/// by chunk (bin_host_rows), so the device never holds the float matrix.
template <class ExecutionSpace>
auto BasicBooster<ExecutionSpace>::upload_rows(HostDMatrix const& dtrain, detail::DenseRows<Mem> const* on_space,
                                               bool bin_from_host) -> FitRows {
  FitRows rows;
  if (on_space != nullptr) {
    rows.X = *on_space;
    if constexpr (std::is_same_v<matrix, HostDMatrix::dense_type>)
      rows.host_dense = rows.X;  // host memory space: the rows are the host rows
    else
      rows.host_copy_pending = true;
    PhaseTimer t(times_.upload);
    rows.label = counted_copy_to<Mem>(dtrain.label);
    rows.weight = counted_copy_to<Mem>(dtrain.weight);
    return rows;
  }
  rows.sparse = dtrain.is_sparse();
  if (rows.sparse)
    rows.host_csr = checked_csr(dtrain);
  else
    rows.host_dense = dtrain.dense;
  PhaseTimer t(times_.upload);
  if (rows.sparse) {
    auto const& h = rows.host_csr;
    rows.csr = CsrArrays<Mem>{counted_copy_to<Mem>(h.row_map), counted_copy_to<Mem>(h.entries),
                              counted_copy_to<Mem>(h.values), h.n_features};
  } else if constexpr (std::is_same_v<matrix, HostDMatrix::dense_type>) {
    rows.X = rows.host_dense;  // host memory space: the rows are the training matrix
  } else if (bin_from_host) {
    rows.bin_from_host = true;
  } else {
    rows.X = allocate_view<matrix>("kboost::train::X", false, rows.host_dense.extent(0), rows.host_dense.extent(1));
    staged_upload(space_, rows.X, Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace>(rows.host_dense));
  }
  rows.label = counted_copy_to<Mem>(dtrain.label);
  rows.weight = counted_copy_to<Mem>(dtrain.weight);
  return rows;
}

/// The training rows' margins before the first round: the intercepts, plus a continued model's
/// trees added in the same order as the fit that grew them did, so a resumed fit's margins are
/// that fit's bits.
template <class ExecutionSpace>
auto BasicBooster<ExecutionSpace>::training_margins(FitRows const& rows, HostDMatrix const& dtrain,
                                                    std::vector<float> const& base_margin, bool continuing) const
    -> matrix {
  matrix margin = detail::intercept_margins<Mem>(dtrain.n_rows, base_margin);
  if (!continuing || start_model_.trees.empty()) return margin;
  matrix const X = rows.sparse ? detail::upload_dense<Mem>(dtrain) : rows.X;
  margin = detail::intercept_margins<Mem>(dtrain.n_rows, base_margin);
  for (std::size_t k = 0; k < start_model_.trees.size(); ++k)
    add_tree_margins(space_, detail::ConstRows<Mem>(X), upload_tree<Mem>(start_model_.trees[k]), margin,
                     start_model_.tree_info[k]);
  return margin;
}

/// The histogram cuts (once per fit, the same on every rank): exact weighted quantiles on the
/// execution space, or a replica of upstream's CPU or GPU sketch on the host rows. Rows that are
/// only on the execution space (the caller's device View) are downloaded for the host replicas,
/// except where upstream_gpu's counting on the space (gpu_sketch_cuts_on_space, the same bits)
/// applies; rows that came from the host keep the host radix sort, which is faster than that
/// counting on the GPU machine (docs/training.md).
template <class ExecutionSpace>
HistogramCuts<typename ExecutionSpace::memory_space> BasicBooster<ExecutionSpace>::find_cuts(FitContext const& fit,
                                                                                             FitRows& rows) {
  PhaseTimer t(times_.cuts);
  TrainParams const& p = fit.p;
  auto const& c = rows.csr;
  if (p.sketch_method == "exact_quantile" && rows.sparse)
    return exact_quantile_cuts_csr<Mem>(space_, c.row_map, c.entries, c.values, c.n_features, fit.weight, p.max_bin);
  if (p.sketch_method == "exact_quantile")
    return exact_quantile_cuts<Mem>(space_, detail::ConstRows<Mem>(rows.X), fit.weight, p.max_bin);
  if (rows.host_copy_pending) {  // the caller's rows, on the execution space only
    if (p.sketch_method == "upstream_gpu" && fit.weight.extent(0) == 0 && comm_->size() == 1 &&
        fit.plan.categorical.empty())
      if (auto cuts = gpu_sketch_cuts_on_space<Mem>(space_, detail::ConstRows<Mem>(rows.X), p.max_bin))
        return std::move(*cuts);
    rows.host_dense = HostDMatrix::dense_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::train::host_X"),
                                              rows.X.extent(0), rows.X.extent(1));
    counted_deep_copy(rows.host_dense, rows.X);
    rows.host_copy_pending = false;
  }
  auto const& h = rows.host_csr;
  if (p.sketch_method == "upstream_gpu" && rows.sparse)
    return gpu_sketch_cuts_from_host_csr<Mem>(space_, h.row_map, h.entries, h.values, h.n_features, fit.dtrain.weight,
                                              p.max_bin, *comm_, fit.plan.categorical);
  if (p.sketch_method == "upstream_gpu")
    return gpu_sketch_cuts_from_host<Mem>(space_, rows.host_dense, fit.dtrain.weight, p.max_bin, *comm_,
                                          fit.plan.categorical);
  if (rows.sparse)
    return sketch_cuts_from_host_csr<Mem>(space_, h.row_map, h.entries, h.values, h.n_features, fit.dtrain.weight,
                                          p.max_bin, *comm_, fit.plan.categorical);
  return sketch_cuts_from_host<Mem>(space_, rows.host_dense, fit.dtrain.weight, p.max_bin, *comm_,
                                    fit.plan.categorical);
}

/// The training rows' bin codes (feature-major order), after which their float copies on the
/// execution space are released.
template <class ExecutionSpace>
template <class BinT>
BinCodes<BinT, typename ExecutionSpace::memory_space> BasicBooster<ExecutionSpace>::bin_rows(FitContext const& fit,
                                                                                            FitRows& rows) {
  PhaseTimer t(times_.binning);
  auto const& c = rows.csr;
  auto const& h_ptrs = fit.cuts.host_ptrs;
  auto codes = rows.sparse          ? bin_codes_csr<BinT>(space_, c.row_map, c.entries, c.values, c.n_features, fit.cuts, h_ptrs)
               : rows.bin_from_host ? bin_host_rows<BinT>(space_, fit.dtrain.dense, fit.cuts, h_ptrs)
                                    : bin_codes<BinT>(space_, detail::ConstRows<Mem>(rows.X), fit.cuts, h_ptrs);
  rows.X = matrix();
  rows.csr = CsrArrays<Mem>();
  return with_feature_order(space_, Kokkos::View<const BinT**, Kokkos::LayoutRight, Mem>(codes));
}

/// The fit's copies and memory peaks into phases(); the phase summary to `log` at verbosity >= 1.
template <class ExecutionSpace>
void BasicBooster<ExecutionSpace>::finish_fit(MemoryMeter const& meter, TransferCount const& copies_before,
                                              TrainParams const& p, std::ostream* log) {
  TransferCount const copies_after = transfer_count();
  times_.fit_copies = TransferCount{copies_after.uploads - copies_before.uploads,
                                    copies_after.downloads - copies_before.downloads};
  times_.memory = meter.peaks();
  if (log && p.verbosity >= 1) *log << times_.summary();
}

}  // namespace kboost
