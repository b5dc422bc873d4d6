#pragma once
/// \file tree_grower.hpp
/// Grows one regression tree on the device from quantised gradients, level at a time, as upstream's
/// GPU hist updater (src/tree/updater_gpu_hist.cu GPUHistMakerDevice::UpdateTree). Which nodes
/// expand next (grow_policy depthwise or lossguide, max_depth, max_leaves) is the driver's choice
/// (engine/detail/tree_driver.hpp, upstream src/tree/driver.h Driver). Node ids as upstream: root 0;
/// nodes popped in one batch are expanded in pop order, left child = next id, right = next + 1.
/// A device step prepares the children of a batch of nodes (partition, histograms, splits); a popped
/// node's prepared children then get their ids. lossguide prepares ahead of the pops
/// (lookahead_nodes) without changing their order, so the tree is the one-at-a-time tree.
/// Histogram storage is a pool of slots allocated once and grown by doubling, never per node.
/// Internal to the booster (engine/booster.hpp).
/// On device memory a step waits for the device once: the partition's row counts stay on the
/// device for the histogram kernels and reach the host with the evaluated splits, and the child
/// whose histogram is built is the one with the smaller hessian sum, as upstream's GPU hist chooses
/// (host backends have the counts at once and choose by rows).
/// On a job of several ranks (core/collective.hpp) each rank holds a shard of the rows: the root
/// sum, the row counts that choose which child's histogram is built (host memory), and the built
/// histograms are summed over the ranks (int64, exact), so every rank evaluates the same global histograms and
/// grows the same tree as one process on all rows (upstream's distributed hist reduces its
/// histograms the same way: src/tree/updater_gpu_hist.cu AllReduceHist on the quantised sums,
/// src/tree/hist/histogram.h on the CPU's double sums).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cfloat>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <kboost/core/collective.hpp>
#include <kboost/core/compat.hpp>
#include <kboost/core/model.hpp>
#include <kboost/core/transfers.hpp>
#include <kboost/core/upload_arena.hpp>
#include <kboost/kernels/binning.hpp>
#include <kboost/kernels/evaluate_splits.hpp>
#include <kboost/kernels/hist_cuts.hpp>
#include <kboost/kernels/histogram.hpp>
#include <kboost/kernels/leaves.hpp>
#include <kboost/kernels/quantiser.hpp>
#include <kboost/kernels/row_partitioner.hpp>
#include <kboost/kernels/column_sampler.hpp>
#include <kboost/kernels/integer_sum.hpp>

#include <kboost/engine/params.hpp>
#include <kboost/engine/phase_times.hpp>
#include <kboost/engine/detail/tree_driver.hpp>

namespace kboost {

/// Re-estimates leaf values before they reach the margins (the adaptive objectives: upstream's
/// ObjFunction::UpdateTreeLeaf). Given the partitioner's row order and the tree's non-empty leaves
/// (values with eta applied), it replaces the values in place.
template <class Mem>
using LeafRefit = std::function<void(Kokkos::View<const std::int32_t*, Mem> ridx, std::vector<LeafSegment>& leaves)>;

/// Grows trees for one training matrix (bins fixed for the whole fit). BinT: the bin code width
/// (std::uint8_t or std::uint16_t, kernels/binning.hpp bin_code_bytes).
template <class ExecutionSpace, class Mem, class BinT>
class TreeGrower {
 public:
  /// bins: the fit's codes (kernels/binning.hpp) of this rank's rows; cuts: their cuts (the same
  /// on every rank); p: the tree booster's parameters (its min_shared and tile_rows pick the
  /// histogram kernel); comm: the job's ranks (must outlive the grower).
  TreeGrower(BinCodes<BinT, Mem> const& bins, HistogramCuts<Mem> const& cuts, TreeParams const& p,
             Collective& comm = local_collective())
      : comm_(comm), p_(p), lossguide_(p.grow_policy == "lossguide"), bins_(bins), cuts_(cuts), n_rows_(bins.n_rows()),
        n_features_(static_cast<int>(bins.n_features())),
        total_bins_(cuts.total_bins), h_ptrs_(cuts.host_ptrs), hist_builder_(h_ptrs_, p.min_shared, p.tile_rows),
        partitioner_(bins.n_rows()) {
    check_constraints();
    hist_builder_.use_present_codes(ExecutionSpace(), bins.by_row, kPresentCodesMissingShare);
    if (cuts_.has_categorical()) {
      std::uint32_t widest = 0;
      std::vector<std::uint32_t> base(static_cast<std::size_t>(n_features_), 0);
      for (std::size_t f = 0; f + 1 < h_ptrs_.size(); ++f) {
        if (!cuts_.is_categorical(f)) continue;
        base[f] = n_cat_bins_;
        n_cat_bins_ += h_ptrs_[f + 1] - h_ptrs_[f];
        widest = std::max(widest, h_ptrs_[f + 1] - h_ptrs_[f]);
      }
      n_cat_words_ = (widest + 31) / 32;
      cat_eval_.categorical = cuts_.categorical;
      Kokkos::View<std::uint32_t*, Mem> d("kboost::grow::cat_base", base.size());
      counted_deep_copy(d, Kokkos::View<const std::uint32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(base.data(), base.size()));
      cat_eval_.base = d;
    }
    if (!p_.monotone_constraints.empty()) {
      Kokkos::View<std::int8_t*, Mem> m("kboost::grow::monotone", static_cast<std::size_t>(n_features_));
      auto h = Kokkos::create_mirror_view(m);
      auto const& monotone = p_.monotone_constraints;
      for (std::size_t f = 0; f < h.extent(0); ++f) h(f) = static_cast<std::int8_t>(f < monotone.size() ? monotone[f] : 0);
      counted_deep_copy(m, h);
      monotone_ = m;
    }
  }

  /// Grow one tree from gq (rows, quantised with q), each node on the features `columns` draws for
  /// it (started for this tree: ColumnSampler::start_tree). Adds the tree's leaf values
  /// to margin(·, group) (rows × groups) and returns the tree (leaf values × eta). `refit`, when
  /// set, re-estimates the leaf values first (they then go to both the tree and the margins).
  TreeModel grow(ExecutionSpace const& space, Kokkos::View<const GradientPairInt64*, Mem> gq,
                 GradientQuantiser const& q, ColumnSampler& columns,
                 Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin, int group, PhaseTimes& times,
                 LeafRefit<Mem> const& refit = {});

  /// Exact (grad, hess) sum of gq over every rank's rows (public: CUDA extended lambdas may not
  /// live in private members).
  GradientPairInt64 to_host_sum(ExecutionSpace const& space, Kokkos::View<const GradientPairInt64*, Mem> gq);
  /// hist_(s, ·) = Σ over ranks of hist_(s, ·) for every slot s in `slots` (no-op on one rank);
  /// its time and bytes go to `times`.
  void allreduce_slots(ExecutionSpace const& space, std::vector<int> const& slots, PhaseTimes& times);

 private:
  struct Node {
    std::int32_t begin = 0, end = 0, depth = 0, slot = -1;
    GradientPairInt64 sum{};
    SplitCandidate split;
    float lower = -FLT_MAX, upper = FLT_MAX;  ///< monotone bounds of the node's weight
    std::vector<int> path_features;           ///< features split on from the root to here (sorted)
    std::vector<std::uint32_t> cat_words;     ///< categorical split: its right-going category words
    int prepared = -1;       ///< its children, built before it expands: an index of prepared_ (-1: none)
    bool evaluated = false;  ///< its histogram was built and its split evaluated
  };

  /// On device memory the partition is only queued: the counts arrive with the step's one wait,
  /// and the smaller child is chosen by its hessian sum instead (child_to_build).
  static constexpr bool kQueuedPartition = !Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible;
  /// On host memory a sibling's histogram is made by the split search, feature by feature right
  /// before it searches them (EvalNode::parent_slot), instead of by a pass of its own: the node's
  /// bins are then read once while in the core's cache. Devices keep HistogramBuilder::subtract.
  static constexpr bool kSubtractWhileEvaluating = !kQueuedPartition;
  /// A batch's rows on each side of its splits.
  struct SplitRows {
    std::vector<std::int32_t> left;     ///< this rank's rows going left, per batch node (when not queued)
    std::vector<std::int64_t> sides;    ///< the job's rows going left and right, two per batch node (when not queued)
    std::vector<std::int32_t> segment;  ///< per batch node: its index in the partitioner's counts, −1 when it has no rows
  };
  /// The histogram work of a batch's children (upstream IsChildValid decides which get any).
  struct ChildHistograms {
    std::vector<HistNode> build;          ///< the smaller child of each pair
    std::vector<HistSubtraction> subs;    ///< its sibling = parent − built
    std::vector<Node*> evaluate;          ///< the children whose splits are evaluated, in order
  };

  /// The part of the parameters split evaluation reads (copied to the device by evaluate_splits).
  SplitParams const& split_params() const { return p_; }
  static double grad_of(GradientPairInt64 const& s, GradientQuantiser const& q) {
    return static_cast<double>(s.grad) * q.to_floating[0];
  }
  static double hess_of(GradientPairInt64 const& s, GradientQuantiser const& q) {
    return static_cast<double>(s.hess) * q.to_floating[1];
  }
  /// Node id's evaluated split, as the driver queues it.
  ExpandEntry expand_entry(int id) const {
    Node const& nd = nodes_[id];
    return ExpandEntry{id, nd.depth, nd.split.loss_chg, split_is_valid(nd.split, split_params())};
  }

  // The stages of grow(), in order.
  /// Resets the node list, the slot pool and the row partition; the tree holds the root alone
  /// (every row, their exact sum over the ranks, upstream's InitRoot).
  TreeModel start_tree(ExecutionSpace const& space, Kokkos::View<const GradientPairInt64*, Mem> gq,
                       GradientQuantiser const& q, PhaseTimes& times);
  /// Builds the root's histogram, evaluates its split and queues it in `driver`.
  void split_root(ExecutionSpace const& space, Kokkos::View<const GradientPairInt64*, Mem> gq, GradientQuantiser const& q,
                  ColumnSampler& columns, TreeDriver& driver, PhaseTimes& times);
  /// Builds the histograms of hn (summed over the ranks), then the siblings by subtraction.
  void build_histograms(ExecutionSpace const& space, Kokkos::View<const GradientPairInt64*, Mem> gq,
                        std::vector<HistNode> const& hn, std::vector<HistSubtraction> const& subs, PhaseTimes& times);
  /// One device step: the children of `ids` (nodes with evaluated splits, in expansion order) as
  /// their rows, sums and bounds, the histograms of those that may split further and their splits,
  /// kept in prepared_ until each parent expands (commit_children). The parents' histogram slots are
  /// freed. Column samples are drawn per child in this order.
  void prepare_children(ExecutionSpace const& space, Kokkos::View<const GradientPairInt64*, Mem> gq,
                        GradientQuantiser const& q, std::vector<Node*> const& parents, ColumnSampler& columns,
                        TreeDriver const& driver, PhaseTimes& times);
  /// The nodes one look-ahead step prepares: the waiting nodes and the evaluated children of
  /// prepared ones (which may expand later, after their parent), ranked by the loss change bounded
  /// by their ancestors' (a child pops after its parent), those of rank below the leaves left that
  /// are unprepared. The driver's next node ranks first.
  std::vector<Node*> lookahead_nodes(TreeDriver const& driver);
  /// How far down the ranking a look-ahead step prepares, given the leaves left (a leaf budget ends
  /// trees with prepared nodes never expanded): every node without a budget; else half the leaves
  /// left on a device, where a step's launches and downloads cost more than the extra nodes, and a
  /// quarter on host backends, where evaluating the extra nodes is the cost.
  static std::size_t lookahead_reach(std::size_t leaves_left) {
    if (leaves_left == static_cast<std::size_t>(-1)) return leaves_left;
    std::size_t const share = Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible ? 4 : 2;
    return (leaves_left + share - 1) / share;
  }
  /// The partition of node nd's rows by its split; a categorical split's words appended to words.
  PartitionSplit partition_split(Node const& nd, std::vector<std::uint32_t>& words) const;
  /// Moves each batch node's rows to its children's segments; the rows on each side.
  SplitRows partition_rows(ExecutionSpace const& space, std::vector<Node*> const& batch,
                           std::vector<PartitionSplit> const& psplits, std::vector<std::uint32_t> const& level_words,
                           PhaseTimes& times);
  /// prepare_children's host part: the child nodes (rows, sums, monotone bounds, interaction paths)
  /// in prepared_, and their histogram slots when the driver lets them split.
  ChildHistograms add_children(std::vector<Node*> const& parents, SplitRows const& rows, GradientQuantiser const& q,
                               TreeDriver const& driver);
  /// The histogram to build of parent nd's children ln and rn: the side with fewer of the job's rows,
  /// or, while the counts are on the device, with the smaller quantised hessian sum (upstream's GPU
  /// hist: BuildHistLeftRight's fewer_right); the choice never changes a sum.
  HistNode child_to_build(Node const& nd, Node const& ln, Node const& rn, SplitRows const& rows, std::size_t i) const;
  /// After the step's wait: the children's row ranges from the partitioner's counts (queued only).
  void set_child_rows(std::vector<Node*> const& parents, SplitRows const& rows);
  /// Expands the popped `batch` (prepared), in order (upstream RegTree::ExpandNode): its splits into
  /// t, its children as the next node ids, queued in `driver` when they may split (else their slots
  /// are freed); categorical nodes appended to cat_nodes.
  void commit_children(TreeModel& t, std::vector<int> const& batch, GradientQuantiser const& q, TreeDriver& driver,
                       std::vector<int>& cat_nodes);
  /// Writes node id's split into t and adds its two leaves (the next ids).
  void write_split(TreeModel& t, int id, GradientQuantiser const& q, std::vector<int>& cat_nodes);
  /// A node that stays a leaf: its histogram slot and its prepared descendants' slots are freed.
  void discard(Node& nd);
  /// The non-empty leaves' values (refit first, when set) into t and onto margin(·, group).
  void finish_leaves(ExecutionSpace const& space, TreeModel& t, Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin,
                     int group, PhaseTimes& times, LeafRefit<Mem> const& refit);

  /// Throws std::runtime_error when a constraint names a feature the data does not have.
  void check_constraints() const;
  /// Whether interaction constraints let node `nd` split on f (upstream
  /// FeatureInteractionConstraintHost: the root may use any feature; below it, the features on
  /// its path and those of every constraint set holding all of them).
  bool interaction_allows(Node const& nd, int f) const;
  /// The children's monotone bounds (upstream TreeEvaluator::AddSplit): the parent's, with the
  /// midpoint of the children's weights as the shared bound on the constrained feature's side.
  void set_child_bounds(Node const& parent, float left_weight, float right_weight, Node& left, Node& right) const {
    left.lower = right.lower = parent.lower;
    left.upper = right.upper = parent.upper;
    auto const& monotone = p_.monotone_constraints;
    if (monotone.empty()) return;
    int const c = static_cast<std::size_t>(parent.split.feature) < monotone.size() ? monotone[parent.split.feature] : 0;
    float const mid = (left_weight + right_weight) / 2;
    if (c < 0) {
      left.lower = mid;
      right.upper = mid;
    } else if (c > 0) {
      left.upper = mid;
      right.lower = mid;
    }
  }
  /// A child's weight: calc_weight clamped to its parent's monotone bounds.
  float child_weight(Node const& parent, GradientPairInt64 const& sum, GradientQuantiser const& q) const;

  int alloc_slot();
  void free_slot(int& slot) {
    if (slot >= 0) free_slots_.push_back(slot);
    slot = -1;
  }
  /// Evaluate `nodes` (root, or children in expansion order, each drawing its feature sample in
  /// that order; all with built histograms but the siblings of `made`, whose histograms the search
  /// makes by subtraction); fills their split.
  void evaluate(ExecutionSpace const& space, GradientQuantiser const& q, std::vector<Node*> const& nodes,
                ColumnSampler& columns, std::vector<HistSubtraction> const& made = {});
  void add_node(TreeModel& t, int parent, float base_weight, double hess);
  /// Sizes the categorical scratch of evaluate_splits for n nodes (no-op without categorical features).
  void reserve_categorical(std::size_t n);
  /// Stores the right-going categories of the categorical nodes `cat_nodes` (ids) in t, in node
  /// order as upstream's RegTree::SaveCategoricalSplit.
  void write_categories(TreeModel& t, std::vector<int> cat_nodes) const;

  Collective& comm_;
  TreeParams p_;
  bool lossguide_;  ///< grow_policy = lossguide
  BinCodes<BinT, Mem> bins_;
  HistogramCuts<Mem> cuts_;
  std::size_t n_rows_;
  int n_features_;
  std::uint32_t total_bins_;
  std::vector<std::uint32_t> h_ptrs_;
  HistogramBuilder<ExecutionSpace, Mem, BinT> hist_builder_;
  RowPartitioner<ExecutionSpace, Mem> partitioner_;
  IntegerSums<2, ExecutionSpace, Mem> sums_;
  UploadArena<ExecutionSpace, Mem> uploads_;  ///< per-level work lists; released after each download
  Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, Mem> hist_;
  std::vector<int> free_slots_;
  int n_slots_ = 0;
  std::vector<Node> nodes_;
  /// Children built ahead of their parent's expansion (a deque: Node pointers stay valid as it grows).
  std::deque<std::array<Node, 2>> prepared_;
  // evaluation buffers, grown on demand
  Kokkos::View<SplitCandidate**, Kokkos::LayoutRight, Mem> eval_scratch_;
  Kokkos::View<SplitCandidate*, Mem> eval_out_;
  Kokkos::View<const std::int8_t*, Mem> monotone_;  ///< per feature; extent 0 without monotone constraints
  CategoricalEval<Mem> cat_eval_;                  ///< categorical scratch (empty without categorical features)
  std::size_t n_cat_words_ = 0;                    ///< words of a node's category set (widest categorical feature)
  HostLanding<SplitCandidate, ExecutionSpace, Mem> eval_landing_;  ///< the evaluated splits, downloaded
  HostLanding<std::uint32_t, ExecutionSpace, Mem> words_landing_;  ///< their category words
  Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, Mem> allreduce_buffer_;  ///< several ranks only
  Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, HostPinnedSpace> allreduce_host_;  ///< its host side (device memory)
  std::uint32_t n_cat_bins_ = 0;                   ///< categories of all categorical features
};

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::check_constraints() const {
  if (p_.monotone_constraints.size() > static_cast<std::size_t>(n_features_))
    throw std::runtime_error("parameter monotone_constraints: " + std::to_string(p_.monotone_constraints.size()) +
                             " constraints for " + std::to_string(n_features_) + " features");
  for (auto const& set : p_.interaction_constraints)
    for (int f : set)
      if (f >= n_features_)
        throw std::runtime_error("parameter interaction_constraints: feature " + std::to_string(f) +
                                 " is not one of the data's " + std::to_string(n_features_) + " features");
}

template <class ExecutionSpace, class Mem, class BinT>
bool TreeGrower<ExecutionSpace, Mem, BinT>::interaction_allows(Node const& nd, int f) const {
  if (p_.interaction_constraints.empty() || nd.path_features.empty()) return true;
  if (std::binary_search(nd.path_features.begin(), nd.path_features.end(), f)) return true;
  for (auto const& set : p_.interaction_constraints) {
    auto const has = [&set](int g) { return std::find(set.begin(), set.end(), g) != set.end(); };
    if (has(f) && std::all_of(nd.path_features.begin(), nd.path_features.end(), has)) return true;
  }
  return false;
}

template <class ExecutionSpace, class Mem, class BinT>
float TreeGrower<ExecutionSpace, Mem, BinT>::child_weight(Node const& parent, GradientPairInt64 const& sum,
                                                          GradientQuantiser const& q) const {
  float const w = calc_weight(split_params(), static_cast<double>(sum.grad) * q.to_floating[0],
                              static_cast<double>(sum.hess) * q.to_floating[1]);
  return p_.monotone_constraints.empty() ? w : clamp_weight(w, parent.lower, parent.upper);
}

// ---------------------------------------------------------------------------------------------

template <class ExecutionSpace, class Mem, class BinT>
int TreeGrower<ExecutionSpace, Mem, BinT>::alloc_slot() {
  if (free_slots_.empty()) {
    int const grow = std::max(8, n_slots_);
    if (n_slots_ == 0) {
      hist_ = Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, Mem>("kboost::hist::storage", grow,
                                                                           std::max<std::uint32_t>(total_bins_, 1));
    } else {
      Kokkos::resize(hist_, n_slots_ + grow, hist_.extent(1));
    }
    for (int s = n_slots_ + grow - 1; s >= n_slots_; --s) free_slots_.push_back(s);
    n_slots_ += grow;
  }
  int const s = free_slots_.back();
  free_slots_.pop_back();
  return s;
}

template <class ExecutionSpace, class Mem, class BinT>
GradientPairInt64 TreeGrower<ExecutionSpace, Mem, BinT>::to_host_sum(ExecutionSpace const& space,
                                                               Kokkos::View<const GradientPairInt64*, Mem> gq) {
  auto const s = sums_(space, "kboost::grow::root_sum", gq.extent(0), KOKKOS_LAMBDA(std::size_t i, std::int64_t(&acc)[2]) {
    acc[0] += gq(i).grad;
    acc[1] += gq(i).hess;
  });
  std::int64_t total[2] = {s[0], s[1]};
  comm_.allreduce_sum(total, 2);
  GradientPairInt64 r{};
  r.grad = total[0];
  r.hess = total[1];
  return r;
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::allreduce_slots(ExecutionSpace const& space, std::vector<int> const& slots,
                                                            PhaseTimes& times) {
  times.ranks = comm_.size();
  if (comm_.size() == 1 || slots.empty()) return;
  compat::ScopedRegion region("kboost::hist::allreduce");
  PhaseTimer timer(times.comm);
  std::size_t const k = slots.size(), bins = hist_.extent(1);
  auto const d_slots = uploads_.put(space, slots);
  if (allreduce_buffer_.extent(0) < k)
    allreduce_buffer_ = Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, Mem>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::hist::allreduce_buffer"), 2 * k, bins);
  auto const buf = Kokkos::subview(allreduce_buffer_, std::make_pair(std::size_t(0), k), Kokkos::ALL);
  auto hist = hist_;
  Kokkos::parallel_for("kboost::hist::gather_slots", Kokkos::RangePolicy<ExecutionSpace>(space, 0, k * bins),
                       KOKKOS_LAMBDA(std::size_t i) { buf(i / bins, i % bins) = hist(d_slots(i / bins), i % bins); });
  static_assert(sizeof(GradientPairInt64) == 2 * sizeof(std::int64_t), "a histogram bin is two int64");
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) {
    space.fence();
    comm_.allreduce_sum(reinterpret_cast<std::int64_t*>(buf.data()), 2 * k * bins);
  } else {
    if (allreduce_host_.extent(0) < k)
      allreduce_host_ = Kokkos::View<GradientPairInt64**, Kokkos::LayoutRight, HostPinnedSpace>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::hist::allreduce_host"), 2 * k, bins);
    auto const h = Kokkos::subview(allreduce_host_, std::make_pair(std::size_t(0), k), Kokkos::ALL);
    detail::count_copy<decltype(h), decltype(buf)>();
    Kokkos::deep_copy(space, h, buf);
    space.fence();
    comm_.allreduce_sum(reinterpret_cast<std::int64_t*>(h.data()), 2 * k * bins);
    detail::count_copy<decltype(buf), decltype(h)>();
    Kokkos::deep_copy(space, buf, h);
  }
  uploads_.release();  // the host waited for the device
  times.comm_bytes += static_cast<std::int64_t>(sizeof(GradientPairInt64) * k * bins);
  ++times.comm_calls;
  auto const d_slots2 = uploads_.put(space, slots);
  Kokkos::parallel_for("kboost::hist::scatter_slots", Kokkos::RangePolicy<ExecutionSpace>(space, 0, k * bins),
                       KOKKOS_LAMBDA(std::size_t i) { hist(d_slots2(i / bins), i % bins) = buf(i / bins, i % bins); });
  space.fence();
  uploads_.release();
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::add_node(TreeModel& t, int parent, float base_weight, double hess) {
  t.left_children.push_back(-1);
  t.right_children.push_back(-1);
  t.parents.push_back(parent < 0 ? 2147483647 : parent);
  t.split_indices.push_back(0);
  t.split_conditions.push_back(base_weight * p_.eta);
  t.default_left.push_back(0);
  t.split_type.push_back(0);
  t.loss_changes.push_back(0.0f);
  t.sum_hessian.push_back(static_cast<float>(hess));
  // upstream's RegTree::ExpandNode stores a new leaf's base weight with the learning rate applied
  // (the root's, from InitRoot, without); expanding a node sets its unscaled weight again
  t.base_weights.push_back(parent < 0 ? base_weight : base_weight * p_.eta);
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::reserve_categorical(std::size_t n) {
  if (n_cat_words_ == 0 || cat_eval_.words.extent(0) >= n) return;
  std::size_t const cap = 2 * n;
  cat_eval_.order = Kokkos::View<std::int32_t**, Kokkos::LayoutRight, Mem>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::splits::cat_order"), cap, n_cat_bins_);
  cat_eval_.weight = Kokkos::View<float**, Kokkos::LayoutRight, Mem>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kboost::splits::cat_weight"), cap, n_cat_bins_);
  cat_eval_.words = Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, Mem>("kboost::splits::cat_words", cap, n_cat_words_);
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::write_categories(TreeModel& t, std::vector<int> cat_nodes) const {
  std::sort(cat_nodes.begin(), cat_nodes.end());
  for (int id : cat_nodes) {
    t.categories_nodes.push_back(id);
    t.categories_segments.push_back(static_cast<std::int64_t>(t.categories.size()));
    auto const& words = nodes_[static_cast<std::size_t>(id)].cat_words;
    for (std::size_t w = 0; w < words.size(); ++w)
      for (int b = 0; b < 32; ++b)
        if ((words[w] >> b) & 1u) t.categories.push_back(static_cast<std::int32_t>(32 * w + static_cast<std::size_t>(b)));
    t.categories_sizes.push_back(static_cast<std::int64_t>(t.categories.size()) - t.categories_segments.back());
  }
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::evaluate(ExecutionSpace const& space, GradientQuantiser const& q,
                                               std::vector<Node*> const& nodes, ColumnSampler& columns,
                                               std::vector<HistSubtraction> const& made) {
  if (nodes.empty()) return;
  std::size_t const n = nodes.size();
  if (eval_out_.extent(0) < n) {
    std::size_t const cap = 2 * n;
    eval_scratch_ = Kokkos::View<SplitCandidate**, Kokkos::LayoutRight, Mem>("kboost::splits::scratch", cap, n_features_);
    eval_out_ = Kokkos::View<SplitCandidate*, Mem>("kboost::splits::out", cap);
  }
  std::vector<EvalNode> hn(n);
  std::vector<std::uint8_t> hm(n * static_cast<std::size_t>(n_features_), 0);
  std::map<std::int32_t, HistSubtraction const*> made_at;  // by the made sibling's slot
  for (HistSubtraction const& sub : made) made_at[sub.sibling] = &sub;
  for (std::size_t k = 0; k < n; ++k) {
    Node const& nd = *nodes[k];
    hn[k].slot = nd.slot;
    hn[k].sum = nd.sum;
    hn[k].lower = nd.lower;
    hn[k].upper = nd.upper;
    if (auto const it = made_at.find(nd.slot); it != made_at.end()) {
      hn[k].parent_slot = it->second->parent;
      hn[k].built_slot = it->second->built;
    }
    for (int f : columns.node_features(nd.depth))
      if (interaction_allows(nd, f)) hm[k * n_features_ + f] = 1;
  }
  reserve_categorical(n);
  auto const d_nodes = uploads_.put(space, hn);
  auto const d_mask = uploads_.put(space, hm);
  evaluate_splits(space, split_params(), q, hist_,
                  Kokkos::View<const std::uint32_t*, Mem>(cuts_.ptrs), Kokkos::View<const float*, Mem>(cuts_.values),
                  Kokkos::View<const float*, Mem>(cuts_.min_vals), Kokkos::View<const EvalNode*, Mem>(d_nodes),
                  Kokkos::View<const std::uint8_t**, Kokkos::LayoutRight, Mem>(
                      Kokkos::View<const std::uint8_t**, Kokkos::LayoutRight, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                          d_mask.data(), n, static_cast<std::size_t>(n_features_))),
                  monotone_, eval_scratch_, eval_out_, static_cast<int>(n), cat_eval_);
  auto const ho = eval_landing_.fetch(space, Kokkos::subview(eval_out_, std::make_pair(std::size_t(0), n)));
  uploads_.release();  // the download waited for the device
  for (std::size_t k = 0; k < n; ++k) nodes[k]->split = ho(k);
  if (n_cat_words_ == 0) return;
  auto const hw = words_landing_.fetch(space, Kokkos::subview(cat_eval_.words, std::make_pair(std::size_t(0), n), Kokkos::ALL));
  for (std::size_t k = 0; k < n; ++k) {
    Node& nd = *nodes[k];
    nd.cat_words.clear();
    if (nd.split.kind != kNumericalSplit)
      for (std::size_t w = 0; w < n_cat_words_; ++w) nd.cat_words.push_back(hw(k * n_cat_words_ + w));
  }
}

template <class ExecutionSpace, class Mem, class BinT>
TreeModel TreeGrower<ExecutionSpace, Mem, BinT>::grow(ExecutionSpace const& space,
                                                Kokkos::View<const GradientPairInt64*, Mem> gq,
                                                GradientQuantiser const& q, ColumnSampler& columns,
                                                Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin, int group,
                                                PhaseTimes& times, LeafRefit<Mem> const& refit) {
  compat::ScopedRegion region("kboost::grow");
  TransferCount const copies0 = transfer_count();
  struct CountCopies {  // adds this tree's copies to the phase log on every exit
    TransferCount c0;
    PhaseTimes& t;
    ~CountCopies() {
      TransferCount const c1 = transfer_count();
      t.grow_copies.uploads += c1.uploads - c0.uploads;
      t.grow_copies.downloads += c1.downloads - c0.downloads;
      ++t.trees;
    }
  } count_copies{copies0, times};
  TreeModel t = start_tree(space, gq, q, times);
  TreeDriver driver(p_.max_depth, p_.max_leaves, lossguide_);
  if (driver.splits_root()) split_root(space, gq, q, columns, driver, times);
  // lossguide prepares the children of several waiting nodes per step (the order of expansion, and
  // so the tree, stays the driver's); not when each evaluation draws columns in expansion order
  bool const lookahead = lossguide_ && p_.lossguide_lookahead && !columns.draws_per_node();
  auto const prepared = [this](int id) { return nodes_[static_cast<std::size_t>(id)].prepared >= 0; };
  std::vector<int> cat_nodes;  // nodes with categorical splits
  while (!driver.finished()) {
    if (lookahead && driver.next_needs_preparation(prepared)) {
      prepare_children(space, gq, q, lookahead_nodes(driver), columns, driver, times);
      continue;
    }
    ExpandBatch const batch = driver.pop();
    for (int id : batch.dropped) discard(nodes_[id]);
    std::vector<Node*> unprepared;
    for (int id : batch.expand)
      if (!prepared(id)) unprepared.push_back(&nodes_[id]);
    if (!unprepared.empty()) prepare_children(space, gq, q, unprepared, columns, driver, times);
    commit_children(t, batch.expand, q, driver, cat_nodes);
  }
  for (int id : driver.drain()) discard(nodes_[id]);
  write_categories(t, cat_nodes);
  finish_leaves(space, t, margin, group, times, refit);
  return t;
}

template <class ExecutionSpace, class Mem, class BinT>
TreeModel TreeGrower<ExecutionSpace, Mem, BinT>::start_tree(ExecutionSpace const& space,
                                                            Kokkos::View<const GradientPairInt64*, Mem> gq,
                                                            GradientQuantiser const& q, PhaseTimes& times) {
  TreeModel t;
  t.num_feature = n_features_;
  nodes_.clear();
  prepared_.clear();
  free_slots_.clear();
  for (int s = n_slots_ - 1; s >= 0; --s) free_slots_.push_back(s);
  {
    PhaseTimer timer(times.partition);
    partitioner_.reset(space);
  }
  Node root;
  root.end = static_cast<std::int32_t>(n_rows_);
  root.sum = to_host_sum(space, gq);
  nodes_.push_back(root);
  add_node(t, -1, calc_weight(split_params(), grad_of(root.sum, q), hess_of(root.sum, q)), hess_of(root.sum, q));
  return t;
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::split_root(ExecutionSpace const& space,
                                                       Kokkos::View<const GradientPairInt64*, Mem> gq,
                                                       GradientQuantiser const& q, ColumnSampler& columns,
                                                       TreeDriver& driver, PhaseTimes& times) {
  ++times.levels;  // the root level
  nodes_[0].slot = alloc_slot();
  nodes_[0].evaluated = true;
  build_histograms(space, gq, {HistNode{nodes_[0].slot, 0, nodes_[0].end}}, {}, times);
  PhaseTimer timer(times.splits);
  evaluate(space, q, {&nodes_[0]}, columns);
  driver.push(expand_entry(0));
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::build_histograms(ExecutionSpace const& space,
                                                             Kokkos::View<const GradientPairInt64*, Mem> gq,
                                                             std::vector<HistNode> const& hn,
                                                             std::vector<HistSubtraction> const& subs, PhaseTimes& times) {
  PhaseTimer timer(times.histograms);
  hist_builder_.build(space, uploads_, bins_, partitioner_.ridx(), gq, hn, hist_, partitioner_.left_counts());
  std::vector<int> built;
  for (auto const& h : hn) built.push_back(h.slot);
  allreduce_slots(space, built, times);
  hist_builder_.subtract(space, uploads_, subs, hist_);
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::prepare_children(ExecutionSpace const& space,
                                                             Kokkos::View<const GradientPairInt64*, Mem> gq,
                                                             GradientQuantiser const& q,
                                                             std::vector<Node*> const& parents, ColumnSampler& columns,
                                                             TreeDriver const& driver, PhaseTimes& times) {
  ++times.levels;
  std::vector<std::uint32_t> words;
  std::vector<PartitionSplit> psplits;
  for (Node const* nd : parents) psplits.push_back(partition_split(*nd, words));
  SplitRows const rows = partition_rows(space, parents, psplits, words, times);
  ChildHistograms const plan = add_children(parents, rows, q, driver);
  std::vector<HistSubtraction> const none;
  auto const& separate_subs = kSubtractWhileEvaluating ? none : plan.subs;
  if (!plan.build.empty()) build_histograms(space, gq, plan.build, separate_subs, times);
  for (Node* nd : parents) free_slot(nd->slot);  // (no slot is handed out again before the search)
  {
    PhaseTimer timer(times.splits);
    evaluate(space, q, plan.evaluate, columns, kSubtractWhileEvaluating ? plan.subs : none);  // the step's wait, when it evaluates
  }
  if constexpr (!kQueuedPartition) return;
  if (plan.evaluate.empty()) {
    PhaseTimer timer(times.partition);
    space.fence();
    uploads_.release();
  }
  set_child_rows(parents, rows);
}

template <class ExecutionSpace, class Mem, class BinT>
PartitionSplit TreeGrower<ExecutionSpace, Mem, BinT>::partition_split(Node const& nd,
                                                                      std::vector<std::uint32_t>& words) const {
  auto const f = static_cast<std::size_t>(nd.split.feature);
  std::int32_t const first = static_cast<std::int32_t>(h_ptrs_[f]);
  std::int32_t const n_bins = static_cast<std::int32_t>(h_ptrs_[f + 1]) - first;
  PartitionSplit ps{nd.begin, nd.end, nd.split.feature, nd.split.split_bin - first, nd.split.default_left, n_bins};
  if (nd.split.kind != kNumericalSplit) {
    ps.cat_begin = static_cast<std::int32_t>(words.size());
    ps.cat_words = static_cast<std::int32_t>(nd.cat_words.size());
    words.insert(words.end(), nd.cat_words.begin(), nd.cat_words.end());
  }
  return ps;
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::commit_children(TreeModel& t, std::vector<int> const& batch,
                                                            GradientQuantiser const& q, TreeDriver& driver,
                                                            std::vector<int>& cat_nodes) {
  for (int id : batch) {
    write_split(t, id, q, cat_nodes);
    auto const& children = prepared_[static_cast<std::size_t>(nodes_[id].prepared)];
    nodes_[id].prepared = -1;
    int const l = t.left_children[id], r = t.right_children[id];
    nodes_.push_back(children[0]);
    nodes_.push_back(children[1]);
    if (!nodes_[l].evaluated) continue;  // below max_depth: no histograms were built
    if (driver.children_may_split(nodes_[id].depth)) {
      driver.push(expand_entry(l));
      driver.push(expand_entry(r));
    } else {
      discard(nodes_[l]);
      discard(nodes_[r]);
    }
  }
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::write_split(TreeModel& t, int id, GradientQuantiser const& q,
                                                        std::vector<int>& cat_nodes) {
  Node const& nd = nodes_[id];
  int const l = static_cast<int>(t.num_nodes()), r = l + 1;
  bool const categorical = nd.split.kind != kNumericalSplit;
  t.left_children[id] = l;
  t.right_children[id] = r;
  t.split_indices[id] = nd.split.feature;
  // upstream's RegTree::ExpandCategorical stores the smallest denormal as the condition
  t.split_conditions[id] = categorical ? std::numeric_limits<float>::denorm_min() : nd.split.fvalue;
  t.split_type[id] = categorical ? 1 : 0;
  if (categorical) cat_nodes.push_back(id);
  t.default_left[id] = static_cast<std::uint8_t>(nd.split.default_left);
  t.loss_changes[id] = nd.split.loss_chg;
  // upstream's candidate weights (GPUHistEvaluator::EvaluateSplits): the node's own and its
  // children's, clamped to the node's monotone bounds
  t.base_weights[id] = child_weight(nd, nd.sum, q);
  add_node(t, id, child_weight(nd, nd.split.left_sum, q), hess_of(nd.split.left_sum, q));
  add_node(t, id, child_weight(nd, nd.split.right_sum, q), hess_of(nd.split.right_sum, q));
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::discard(Node& nd) {
  free_slot(nd.slot);
  if (nd.prepared < 0) return;
  for (Node& child : prepared_[static_cast<std::size_t>(nd.prepared)]) discard(child);
  nd.prepared = -1;
}

template <class ExecutionSpace, class Mem, class BinT>
std::vector<typename TreeGrower<ExecutionSpace, Mem, BinT>::Node*> TreeGrower<ExecutionSpace, Mem, BinT>::lookahead_nodes(
    TreeDriver const& driver) {
  struct Ranked {
    float key;  // the loss change, at most the parent's key
    Node* node;
    std::size_t order;  // position in the list below: equal keys rank in this order
  };
  std::vector<Ranked> ranked;
  for (ExpandEntry const& e : driver.expandable()) ranked.push_back(Ranked{e.loss_chg, &nodes_[e.nid], ranked.size()});
  for (std::size_t i = 0; i < ranked.size(); ++i) {  // grows: the prepared nodes' children follow
    if (ranked[i].node->prepared < 0) continue;
    for (Node& child : prepared_[static_cast<std::size_t>(ranked[i].node->prepared)]) {
      float const gain = child.split.loss_chg;
      if (child.evaluated && split_is_valid(child.split, split_params()) && gain == gain)
        ranked.push_back(Ranked{std::min(gain, ranked[i].key), &child, ranked.size()});
    }
  }
  // Equal keys rank in the order above (the driver's pop order first), so its next node ranks
  // first; only the ranks within reach are ordered.
  auto const before = [](Ranked const& a, Ranked const& b) {
    return a.key > b.key || (a.key == b.key && a.order < b.order);
  };
  std::size_t const reach = std::min(lookahead_reach(driver.leaves_left()), ranked.size());
  auto const last = ranked.begin() + static_cast<std::ptrdiff_t>(reach);
  std::nth_element(ranked.begin(), last, ranked.end(), before);
  std::sort(ranked.begin(), last, before);
  std::vector<Node*> out;
  for (auto r = ranked.begin(); r != last; ++r)
    if (r->node->prepared < 0) out.push_back(r->node);
  return out;
}

template <class ExecutionSpace, class Mem, class BinT>
typename TreeGrower<ExecutionSpace, Mem, BinT>::SplitRows TreeGrower<ExecutionSpace, Mem, BinT>::partition_rows(
    ExecutionSpace const& space, std::vector<Node*> const& batch, std::vector<PartitionSplit> const& psplits,
    std::vector<std::uint32_t> const& level_words, PhaseTimes& times) {
  // The partitioner takes non-empty segments in position order. A node can hold none of this
  // rank's rows (on several ranks); it shares its begin with a neighbour, so it is left out.
  std::vector<int> order;
  for (std::size_t i = 0; i < batch.size(); ++i)
    if (psplits[i].end > psplits[i].begin) order.push_back(static_cast<int>(i));
  std::sort(order.begin(), order.end(), [&](int a, int b) { return psplits[a].begin < psplits[b].begin; });
  std::vector<PartitionSplit> sorted;
  for (int i : order) sorted.push_back(psplits[i]);
  SplitRows rows;
  rows.segment.assign(batch.size(), -1);
  for (std::size_t i = 0; i < order.size(); ++i) rows.segment[order[i]] = static_cast<std::int32_t>(i);
  if constexpr (kQueuedPartition) {
    PhaseTimer timer(times.partition);
    partitioner_.split_queued(space, uploads_, bins_.by_feature, sorted, level_words);
    return rows;
  }
  std::vector<std::int32_t> n_left;
  {
    PhaseTimer timer(times.partition);
    n_left = partitioner_.split(space, uploads_, bins_.by_feature, sorted, level_words);
    uploads_.release();  // split() waited for the device
  }
  rows.left.assign(batch.size(), 0);
  for (std::size_t i = 0; i < order.size(); ++i) rows.left[order[i]] = n_left[i];
  // The job's rows on each side (this rank's alone on one rank): every rank must build the same
  // child's histogram, so the smaller child is chosen by global counts.
  rows.sides.resize(2 * batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    Node const& nd = *batch[i];
    rows.sides[2 * i] = rows.left[i];
    rows.sides[2 * i + 1] = (nd.end - nd.begin) - rows.left[i];
  }
  comm_.allreduce_sum(rows.sides.data(), rows.sides.size());
  return rows;
}

template <class ExecutionSpace, class Mem, class BinT>
typename TreeGrower<ExecutionSpace, Mem, BinT>::ChildHistograms TreeGrower<ExecutionSpace, Mem, BinT>::add_children(
    std::vector<Node*> const& parents, SplitRows const& rows, GradientQuantiser const& q, TreeDriver const& driver) {
  ChildHistograms plan;
  for (std::size_t i = 0; i < parents.size(); ++i) {
    Node& nd = *parents[i];
    nd.prepared = static_cast<int>(prepared_.size());
    prepared_.emplace_back();
    Node& ln = prepared_.back()[0];
    Node& rn = prepared_.back()[1];
    ln.begin = rn.begin = nd.begin;  // queued: set_child_rows sets them after the wait
    ln.end = rn.end = nd.begin;
    if (!kQueuedPartition) {
      ln.end = rn.begin = nd.begin + rows.left[i];
      rn.end = nd.end;
    }
    ln.depth = rn.depth = nd.depth + 1;
    ln.sum = nd.split.left_sum;
    rn.sum = nd.split.right_sum;
    set_child_bounds(nd, child_weight(nd, ln.sum, q), child_weight(nd, rn.sum, q), ln, rn);
    if (!p_.interaction_constraints.empty()) {
      ln.path_features = nd.path_features;
      auto const at = std::lower_bound(ln.path_features.begin(), ln.path_features.end(), nd.split.feature);
      if (at == ln.path_features.end() || *at != nd.split.feature) ln.path_features.insert(at, nd.split.feature);
      rn.path_features = ln.path_features;
    }
    // ahead of a pop the leaf count is below max_leaves and only the depth refuses; commit_children
    // asks again once the parent has expanded
    if (!driver.children_may_split(nd.depth)) continue;
    ln.slot = alloc_slot();
    rn.slot = alloc_slot();
    ln.evaluated = rn.evaluated = true;
    HistNode const built = child_to_build(nd, ln, rn, rows, i);
    plan.build.push_back(built);
    plan.subs.push_back(HistSubtraction{nd.slot, built.slot, built.slot == ln.slot ? rn.slot : ln.slot});
    plan.evaluate.push_back(&ln);
    plan.evaluate.push_back(&rn);
  }
  return plan;
}

template <class ExecutionSpace, class Mem, class BinT>
HistNode TreeGrower<ExecutionSpace, Mem, BinT>::child_to_build(Node const& nd, Node const& ln, Node const& rn,
                                                               SplitRows const& rows, std::size_t i) const {
  if (!kQueuedPartition) {
    Node const& small = rows.sides[2 * i + 1] < rows.sides[2 * i] ? rn : ln;
    return HistNode{small.slot, small.begin, small.end};
  }
  bool const right = rn.sum.hess < ln.sum.hess;  // global sums: every rank builds the same side
  if (rows.segment[i] < 0) return HistNode{right ? rn.slot : ln.slot, nd.begin, nd.begin};  // none of this rank's rows
  double const share = nd.sum.hess > 0 ? static_cast<double>((right ? rn : ln).sum.hess) / static_cast<double>(nd.sum.hess) : 0.5;
  auto const expected = static_cast<std::int32_t>(share * (nd.end - nd.begin));
  return HistNode{right ? rn.slot : ln.slot, nd.begin, nd.end, rows.segment[i], right ? 1 : 0, expected};
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::set_child_rows(std::vector<Node*> const& parents, SplitRows const& rows) {
  for (std::size_t i = 0; i < parents.size(); ++i) {
    Node const& nd = *parents[i];
    auto& children = prepared_[static_cast<std::size_t>(nd.prepared)];
    std::int32_t const left = rows.segment[i] < 0 ? 0 : partitioner_.left_count_on_host(static_cast<std::size_t>(rows.segment[i]));
    children[0].begin = nd.begin;
    children[0].end = children[1].begin = nd.begin + left;
    children[1].end = nd.end;
  }
}

template <class ExecutionSpace, class Mem, class BinT>
void TreeGrower<ExecutionSpace, Mem, BinT>::finish_leaves(ExecutionSpace const& space, TreeModel& t,
                                                          Kokkos::View<float**, Kokkos::LayoutRight, Mem> margin,
                                                          int group, PhaseTimes& times, LeafRefit<Mem> const& refit) {
  PhaseTimer timer(times.leaves);
  std::vector<LeafSegment> leaves;
  for (std::size_t id = 0; id < t.num_nodes(); ++id) {
    if (!t.is_leaf(id) || nodes_[id].end == nodes_[id].begin) continue;
    leaves.push_back(LeafSegment{nodes_[id].begin, nodes_[id].end, t.split_conditions[id], static_cast<std::int32_t>(id)});
  }
  std::sort(leaves.begin(), leaves.end(), [](LeafSegment const& a, LeafSegment const& b) { return a.begin < b.begin; });
  if (refit) {
    refit(partitioner_.ridx(), leaves);
    for (auto const& l : leaves) t.split_conditions[static_cast<std::size_t>(l.node)] = l.value;
  }
  // queued: the next tree's first download waits for it before the arena is released
  if (!leaves.empty()) add_leaf_values(space, uploads_, partitioner_.ridx(), leaves, margin, group);
}

}  // namespace kboost
