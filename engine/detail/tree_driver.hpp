#pragma once
/// \file tree_driver.hpp
/// Which nodes of a growing tree expand next, as upstream's src/tree/driver.h Driver with the
/// validity rules of src/tree/gpu_hist/expand_entry.cuh GPUExpandEntry (IsValid, ChildIsValid).
/// grow_policy depthwise pops every waiting node of the shallowest depth, in id order; lossguide
/// pops the one with the largest loss change, ties to the smaller id, and ends the tree when that
/// one may not split. Host-only bookkeeping: the tree grower (engine/detail/tree_grower.hpp) pushes
/// nodes once their best split is known and expands what it pops.
#include <algorithm>
#include <vector>

namespace kboost {

/// A node whose best split has been evaluated (upstream GPUExpandEntry).
struct ExpandEntry {
  int nid = 0;               ///< node id (root 0)
  int depth = 0;             ///< the root's is 0
  float loss_chg = 0.0f;     ///< the best split's loss change (lossguide's priority)
  bool split_valid = false;  ///< the best split passes split_is_valid (kernels/evaluate_splits.hpp)
};

/// One pop: the nodes to expand, in expansion order, and the popped nodes that stay leaves (their
/// histograms are no longer needed).
struct ExpandBatch {
  std::vector<int> expand;
  std::vector<int> dropped;
};

/// The expansion queue of one tree (upstream src/tree/driver.h Driver). It counts the tree's
/// leaves: a popped node that expands turns one leaf into two.
class TreeDriver {
 public:
  /// max_depth, max_leaves: 0 for unlimited (upstream TrainParam); lossguide: grow_policy=lossguide
  /// (else depthwise). A new driver counts one leaf, the root.
  TreeDriver(int max_depth, int max_leaves, bool lossguide)
      : max_depth_(max_depth), max_leaves_(max_leaves), lossguide_(lossguide) {}

  /// Whether the root may split at all (both limits 0 make a single-leaf tree).
  bool splits_root() const { return max_depth_ != 0 || max_leaves_ != 0; }

  /// Queues a node (upstream Driver::Push).
  void push(ExpandEntry const& e) { queue_.push_back(e); }

  /// Whether nothing is left to pop: the queue is empty, or lossguide met a node that may not split.
  bool finished() const { return stopped_ || queue_.empty(); }

  /// The next nodes to expand (upstream Driver::Pop). Each node that expands adds one leaf, so a
  /// later node of the same batch sees the count grow. Call only while !finished().
  ExpandBatch pop() { return lossguide_ ? pop_best() : pop_level(); }

  /// Whether the children of an expanded node at parent_depth may split in turn, given the leaves
  /// counted so far (upstream GPUExpandEntry::ChildIsValid): if not, no histogram is built for them.
  bool children_may_split(int parent_depth) const {
    if (max_depth_ > 0 && parent_depth + 1 >= max_depth_) return false;
    if (max_leaves_ > 0 && num_leaves_ >= max_leaves_) return false;
    return true;
  }

  /// lossguide look-ahead: whether the node pop() takes next may expand but its children are not
  /// prepared yet (`prepared(nid)` false), so a preparation step comes first. pop() keeps upstream's
  /// order whatever was prepared: preparing ahead never changes the tree.
  template <class Prepared>
  bool next_needs_preparation(Prepared const& prepared) const {
    if (!lossguide_ || finished()) return false;
    ExpandEntry const& next = *best();
    return may_expand(next) && !prepared(next.nid);
  }

  /// The waiting nodes that may expand now, in pop order (lossguide's order; NaN loss changes left
  /// out, as no order holds them).
  std::vector<ExpandEntry> expandable() const {
    std::vector<ExpandEntry> out;
    for (auto const& e : queue_)
      if (may_expand(e) && e.loss_chg == e.loss_chg) out.push_back(e);
    std::sort(out.begin(), out.end(), pops_before);
    return out;
  }

  /// How many more nodes may expand (max_leaves minus the leaves; the largest size_t when unlimited).
  std::size_t leaves_left() const {
    if (max_leaves_ <= 0) return static_cast<std::size_t>(-1);
    return static_cast<std::size_t>(max_leaves_ - num_leaves_);
  }

  /// Empties the queue: the ids still waiting, in queue order (the tree is done; they stay leaves).
  std::vector<int> drain() {
    std::vector<int> ids;
    for (auto const& e : queue_) ids.push_back(e.nid);
    queue_.clear();
    return ids;
  }

  /// The tree's leaves so far.
  int num_leaves() const { return num_leaves_; }

 private:
  /// Whether a popped node may split now (upstream GPUExpandEntry::IsValid).
  bool may_expand(ExpandEntry const& e) const {
    if (!e.split_valid) return false;
    if (max_depth_ > 0 && e.depth == max_depth_) return false;
    if (max_leaves_ > 0 && num_leaves_ == max_leaves_) return false;
    return true;
  }

  /// lossguide's order: the larger loss change first, ties to the smaller id.
  static bool pops_before(ExpandEntry const& a, ExpandEntry const& b) {
    return a.loss_chg > b.loss_chg || (a.loss_chg == b.loss_chg && a.nid < b.nid);
  }

  /// lossguide's next node, scanned in queue order, so the choice among NaN loss changes is the
  /// first one met. The queue must not be empty.
  std::vector<ExpandEntry>::const_iterator best() const {
    auto best = queue_.begin();
    for (auto it = queue_.begin(); it != queue_.end(); ++it)
      if (pops_before(*it, *best)) best = it;
    return best;
  }

  /// lossguide: the largest loss change, ties to the smaller id (best()).
  ExpandBatch pop_best() {
    auto const at = best();
    ExpandEntry const e = *at;
    queue_.erase(at);
    ExpandBatch batch;
    if (!may_expand(e)) {
      stopped_ = true;
      batch.dropped.push_back(e.nid);
      return batch;
    }
    ++num_leaves_;
    batch.expand.push_back(e.nid);
    return batch;
  }

  /// depthwise: every node at the depth of the smallest id, in id order; the others stay queued.
  ExpandBatch pop_level() {
    std::sort(queue_.begin(), queue_.end(), [](ExpandEntry const& a, ExpandEntry const& b) { return a.nid < b.nid; });
    int const depth = queue_.front().depth;
    std::vector<ExpandEntry> rest;
    ExpandBatch batch;
    for (auto const& e : queue_) {
      if (e.depth != depth) {
        rest.push_back(e);
      } else if (may_expand(e)) {
        ++num_leaves_;
        batch.expand.push_back(e.nid);
      } else {
        batch.dropped.push_back(e.nid);
      }
    }
    queue_ = rest;
    return batch;
  }

  int max_depth_, max_leaves_;
  bool lossguide_;
  bool stopped_ = false;
  int num_leaves_ = 1;
  std::vector<ExpandEntry> queue_;
};

}  // namespace kboost
