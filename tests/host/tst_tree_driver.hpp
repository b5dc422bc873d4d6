// engine/detail/tree_driver.hpp, the choice of which nodes expand next, against hand-worked
// queues: depthwise pops whole levels in id order and drops the nodes that may not split,
// lossguide pops the largest loss change (ties to the smaller id) and ends the tree at the first
// node that may not split; max_depth and max_leaves as upstream's GPUExpandEntry IsValid and
// ChildIsValid; the look-ahead queries (which node needs its children prepared, the expandable
// nodes in pop order, the leaves left). Host-only bookkeeping.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <vector>

#include <kboost/engine/detail/tree_driver.hpp>

namespace {

using kboost::ExpandEntry;
using Ids = std::vector<int>;

ExpandEntry entry(int nid, int depth, float loss_chg, bool split_valid = true) {
  return ExpandEntry{nid, depth, loss_chg, split_valid};
}

}  // namespace

TEST_CASE("tree driver " TEST_BACKEND ": whether the root splits at all", "[train][driver]") {
  CHECK_FALSE(kboost::TreeDriver(0, 0, false).splits_root());
  CHECK_FALSE(kboost::TreeDriver(0, 0, true).splits_root());
  CHECK(kboost::TreeDriver(6, 0, false).splits_root());
  CHECK(kboost::TreeDriver(0, 4, true).splits_root());
  CHECK(kboost::TreeDriver(1, 0, true).num_leaves() == 1);
}

TEST_CASE("tree driver " TEST_BACKEND ": depthwise pops one level at a time in id order", "[train][driver]") {
  kboost::TreeDriver d(3, 0, false);
  d.push(entry(0, 0, 1.0f));
  auto b = d.pop();
  CHECK(b.expand == Ids{0});
  CHECK(b.dropped.empty());
  CHECK(d.num_leaves() == 2);
  CHECK(d.finished());
  CHECK(d.children_may_split(0));  // depth 1 < 3
  d.push(entry(2, 1, 9.0f));       // pushed out of id order, larger loss change: order is by id
  d.push(entry(1, 1, 0.5f));
  b = d.pop();
  CHECK(b.expand == Ids{1, 2});
  CHECK(d.num_leaves() == 4);
  CHECK(d.children_may_split(1));  // depth 2 < 3
  d.push(entry(3, 2, 1.0f));
  d.push(entry(4, 2, 1.0f, false));  // no valid split: stays a leaf
  d.push(entry(5, 2, 1.0f));
  d.push(entry(6, 2, 1.0f));
  b = d.pop();
  CHECK(b.expand == Ids{3, 5, 6});
  CHECK(b.dropped == Ids{4});
  CHECK(d.num_leaves() == 7);
  CHECK_FALSE(d.children_may_split(2));  // depth 3 = max_depth
  // nodes at max_depth never expand, valid split or not
  d.push(entry(7, 3, 1.0f));
  d.push(entry(8, 3, 1.0f));
  b = d.pop();
  CHECK(b.expand.empty());
  CHECK(b.dropped == Ids{7, 8});
  CHECK(d.num_leaves() == 7);
  CHECK(d.finished());
}

TEST_CASE("tree driver " TEST_BACKEND ": depthwise keeps deeper nodes queued for a later pop", "[train][driver]") {
  kboost::TreeDriver d(0, 0, false);
  d.push(entry(5, 2, 3.0f));
  d.push(entry(2, 1, 1.0f));
  d.push(entry(1, 1, 2.0f));
  auto b = d.pop();  // the smallest id's depth: 1
  CHECK(b.expand == Ids{1, 2});
  CHECK_FALSE(d.finished());
  b = d.pop();
  CHECK(b.expand == Ids{5});
  CHECK(d.num_leaves() == 4);
  CHECK(d.finished());
}

TEST_CASE("tree driver " TEST_BACKEND ": depthwise stops expanding within a level at max_leaves", "[train][driver]") {
  kboost::TreeDriver d(0, 3, false);
  d.push(entry(0, 0, 1.0f));
  CHECK(d.pop().expand == Ids{0});
  CHECK(d.children_may_split(0));  // 2 leaves < 3
  d.push(entry(1, 1, 1.0f));
  d.push(entry(2, 1, 8.0f));
  auto const b = d.pop();  // node 1 makes the third leaf; node 2 then may not split
  CHECK(b.expand == Ids{1});
  CHECK(b.dropped == Ids{2});
  CHECK(d.num_leaves() == 3);
  CHECK_FALSE(d.children_may_split(1));
  CHECK(d.finished());
  CHECK(d.drain().empty());
}

TEST_CASE("tree driver " TEST_BACKEND ": lossguide pops the best loss change, ties to the smaller id", "[train][driver]") {
  kboost::TreeDriver d(0, 4, true);
  d.push(entry(0, 0, 1.0f));
  CHECK(d.pop().expand == Ids{0});
  d.push(entry(1, 1, 2.0f));
  d.push(entry(2, 1, 5.0f));
  auto b = d.pop();
  CHECK(b.expand == Ids{2});
  CHECK(d.num_leaves() == 3);
  CHECK(d.children_may_split(1));  // 3 leaves < 4, no depth limit
  d.push(entry(6, 2, 3.0f));       // equal loss changes: the smaller id wins, whatever the push order
  d.push(entry(5, 2, 3.0f));
  b = d.pop();
  CHECK(b.expand == Ids{5});
  CHECK(d.num_leaves() == 4);
  CHECK_FALSE(d.children_may_split(2));  // 4 leaves = max_leaves
  CHECK_FALSE(d.finished());
  b = d.pop();  // node 6 is best but would make a fifth leaf: the tree ends
  CHECK(b.expand.empty());
  CHECK(b.dropped == Ids{6});
  CHECK(d.finished());
  CHECK(d.drain() == Ids{1});
  CHECK(d.num_leaves() == 4);
}

TEST_CASE("tree driver " TEST_BACKEND ": lossguide ends the tree at the first best node that may not split",
          "[train][driver]") {
  SECTION("no valid split, though a worse node has one") {
    kboost::TreeDriver d(0, 0, true);
    d.push(entry(3, 2, 1.0f));
    d.push(entry(1, 1, 4.0f, false));
    d.push(entry(4, 2, 0.5f));
    auto const b = d.pop();
    CHECK(b.expand.empty());
    CHECK(b.dropped == Ids{1});
    CHECK(d.finished());
    CHECK(d.drain() == Ids{3, 4});  // queue order
    CHECK(d.num_leaves() == 1);
  }
  SECTION("max_depth") {
    kboost::TreeDriver d(2, 0, true);
    d.push(entry(3, 2, 7.0f));
    d.push(entry(2, 1, 1.0f));
    auto const b = d.pop();
    CHECK(b.dropped == Ids{3});
    CHECK(d.finished());
    CHECK(d.drain() == Ids{2});
  }
}

TEST_CASE("tree driver " TEST_BACKEND ": lossguide look-ahead queries", "[train][driver]") {
  auto const none = [](int) { return false; };
  SECTION("the next node, prepared or not") {
    kboost::TreeDriver d(0, 5, true);
    d.push(entry(0, 0, 1.0f));
    CHECK(d.next_needs_preparation(none));
    CHECK_FALSE(d.next_needs_preparation([](int id) { return id == 0; }));
    CHECK(d.leaves_left() == 4);
    CHECK(d.pop().expand == Ids{0});
    CHECK(d.leaves_left() == 3);
    d.push(entry(1, 1, 2.0f));
    d.push(entry(2, 1, 3.0f, false));  // the best loss change, no valid split: the tree ends there
    CHECK_FALSE(d.next_needs_preparation(none));
    auto const e = d.expandable();
    REQUIRE(e.size() == 1);
    CHECK(e[0].nid == 1);
  }
  SECTION("expandable nodes in pop order, without NaN or depth-limited ones") {
    kboost::TreeDriver d(3, 0, true);
    d.push(entry(4, 2, 1.0f));
    d.push(entry(6, 2, 5.0f));
    d.push(entry(5, 2, 5.0f));          // ties: the smaller id first
    d.push(entry(7, 3, 9.0f));          // at max_depth
    d.push(entry(8, 2, std::nanf("")));  // no order holds it
    std::vector<int> ids;
    for (auto const& x : d.expandable()) ids.push_back(x.nid);
    CHECK(ids == Ids{5, 6, 4});
    CHECK(d.leaves_left() == static_cast<std::size_t>(-1));  // no leaf budget
    CHECK_FALSE(d.next_needs_preparation(none));             // node 7 pops next and may not split
  }
  SECTION("depthwise never prepares ahead") {
    kboost::TreeDriver d(3, 0, false);
    d.push(entry(0, 0, 1.0f));
    CHECK_FALSE(d.next_needs_preparation(none));
  }
}
