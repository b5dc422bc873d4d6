#pragma once
/// \file boosting_rounds.hpp
/// How a boosting round treats the trees before it: gbtree keeps every tree at weight 1 (upstream's
/// GBTree), DART drops some of them while the round's trees are fitted and re-weights the forest
/// afterwards (upstream's Dart, src/gbm/gbtree.cc DropTrees, PredictBatchImpl, NormalizeTrees).
/// BasicBooster::fit_rounds runs the same round for both through this interface.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include <kboost/core/model.hpp>
#include <kboost/kernels/leaves.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/engine/detail/dart.hpp>
#include <kboost/engine/detail/fit_context.hpp>

namespace kboost::detail {

/// One booster's round, around the trees grown in it.
template <class ExecutionSpace>
class BoostingRounds {
 public:
  using Mem = typename ExecutionSpace::memory_space;
  virtual ~BoostingRounds() = default;
  /// Before round `round`'s gradients: sets `margin` (the training rows') to what the round's trees
  /// are fitted to.
  virtual void begin_round(int round, Margins<Mem>& margin) = 0;
  /// Tree `tree` of output group `group` was grown (and is about to join the model).
  virtual void add_tree(TreeModel const& tree, int group, EvalSets<Mem>& sets) = 0;
  /// After every output group's tree of the round: the eval sets' margins under the new forest.
  virtual void end_round(EvalSets<Mem>& sets) = 0;
};

/// gbtree: the eval sets' margins grow by each new tree.
template <class ExecutionSpace>
class GbtreeRounds final : public BoostingRounds<ExecutionSpace> {
 public:
  using Mem = typename ExecutionSpace::memory_space;
  explicit GbtreeRounds(ExecutionSpace const& space) : space_(space) {}
  void begin_round(int, Margins<Mem>&) override {}
  void add_tree(TreeModel const& tree, int group, EvalSets<Mem>& sets) override {
    if (sets.X.empty()) return;
    auto const t = upload_tree<Mem>(tree);
    for (std::size_t e = 0; e < sets.X.size(); ++e)
      add_tree_margins(space_, ConstRows<Mem>(sets.X[e]), t, sets.margin[e], group);
  }
  void end_round(EvalSets<Mem>&) override {}

 private:
  ExecutionSpace space_;
};

/// DART: drops from upstream's generator; the training rows' margins are recomputed each round
/// from their features (hence a dense copy of them) without the dropped trees.
template <class ExecutionSpace>
class DartRounds final : public BoostingRounds<ExecutionSpace> {
 public:
  using Mem = typename ExecutionSpace::memory_space;
  /// model: the model being fitted (its weight_drop and tree_info are read and extended);
  /// X: the training rows; base_margin: the intercepts as margins, one per output.
  DartRounds(ExecutionSpace const& space, TrainParams const& p, Model& model, DenseRows<Mem> X,
             std::vector<float> base_margin)
      : space_(space), params_(p), eta_(p.eta),
        random_(p.seed), model_(model), X_(std::move(X)), base_margin_(std::move(base_margin)) {}

  void begin_round(int round, Margins<Mem>& margin) override {
    dropped_ = dart_drop_trees(params_, model_.weight_drop, random_);
    if (round == 0) (void)random_.next();  // upstream's column sampler takes its seed here
    margin = margins(X_, dropped_);
  }
  void add_tree(TreeModel const& tree, int, EvalSets<Mem>&) override { trees_.push_back(upload_tree<Mem>(tree)); }
  void end_round(EvalSets<Mem>& sets) override {
    dart_normalize(params_, eta_, base_margin_.size(), dropped_, model_.weight_drop);
    for (std::size_t e = 0; e < sets.X.size(); ++e) sets.margin[e] = margins(sets.X[e], {});
  }

 private:
  /// Dart::PredictBatchImpl: the intercepts plus, tree by tree in order, each tree's leaf times
  /// its weight_drop, the trees in `dropped` (sorted) left out.
  Margins<Mem> margins(DenseRows<Mem> const& X, std::vector<std::size_t> const& dropped) const {
    Margins<Mem> m = intercept_margins<Mem>(X.extent(0), base_margin_);
    for (std::size_t k = 0; k < trees_.size(); ++k)
      if (!std::binary_search(dropped.begin(), dropped.end(), k))
        add_tree_margins(space_, ConstRows<Mem>(X), trees_[k], m, model_.tree_info[k], model_.weight_drop[k]);
    return m;
  }

  ExecutionSpace space_;
  DartParams params_;
  float eta_;
  UpstreamRandom random_;
  Model& model_;
  DenseRows<Mem> X_;
  std::vector<float> base_margin_;
  std::vector<DeviceTree<Mem>> trees_;
  std::vector<std::size_t> dropped_;  ///< this round's dropped trees (sorted)
};

/// The rounds of booster `p.booster` ("gbtree" or "dart") for a fit of `model` on the training
/// rows `dtrain` (DART keeps a dense copy of them on Mem).
template <class ExecutionSpace>
std::unique_ptr<BoostingRounds<ExecutionSpace>> make_boosting_rounds(ExecutionSpace const& space, TrainParams const& p,
                                                                      Model& model, HostDMatrix const& dtrain,
                                                                      std::vector<float> const& base_margin) {
  using Mem = typename ExecutionSpace::memory_space;
  if (p.booster == "dart")
    return std::make_unique<DartRounds<ExecutionSpace>>(space, p, model, upload_dense<Mem>(dtrain), base_margin);
  return std::make_unique<GbtreeRounds<ExecutionSpace>>(space);
}

}  // namespace kboost::detail
