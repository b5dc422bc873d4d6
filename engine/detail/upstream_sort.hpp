#pragma once
/// \file upstream_sort.hpp
/// The unstable sort upstream's quantile sketch runs (WQSummary::Queue::MakeSummary calls
/// std::sort), as kboost's own code: libstdc++'s introsort step for step (bits/stl_algo.h
/// __introsort_loop with median-of-three pivots and 16-element runs left for a final insertion
/// sort, bits/stl_heap.h heap sort where the depth limit 2·floor(log2 n) runs out). The order it
/// leaves equal keys in decides float sums of their weights, so kboost must not take whatever
/// std::sort the platform's library has: this one orders them as upstream's Linux builds
/// (libstdc++) do, under any standard library. tests/host/tst_upstream_sort.hpp compares it with
/// libstdc++'s std::sort and std::partial_sort element for element.
#include <cstddef>
#include <utility>

namespace kboost::detail {

namespace upstream_sort_impl {

constexpr std::ptrdiff_t kThreshold = 16;  // libstdc++ _S_threshold

template <class T, class Less>
void push_heap(T* first, std::ptrdiff_t hole, std::ptrdiff_t top, T value, Less const& less) {
  std::ptrdiff_t parent = (hole - 1) / 2;
  while (hole > top && less(first[parent], value)) {
    first[hole] = std::move(first[parent]);
    hole = parent;
    parent = (hole - 1) / 2;
  }
  first[hole] = std::move(value);
}

template <class T, class Less>
void adjust_heap(T* first, std::ptrdiff_t hole, std::ptrdiff_t len, T value, Less const& less) {
  std::ptrdiff_t const top = hole;
  std::ptrdiff_t child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (less(first[child], first[child - 1])) --child;
    first[hole] = std::move(first[child]);
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    first[hole] = std::move(first[child - 1]);
    hole = child - 1;
  }
  push_heap(first, hole, top, std::move(value), less);
}

/// std::partial_sort(first, last, last): make_heap, then sort_heap.
template <class T, class Less>
void heap_sort(T* first, T* last, Less const& less) {
  std::ptrdiff_t const len = last - first;
  if (len >= 2)
    for (std::ptrdiff_t parent = (len - 2) / 2;; --parent) {
      T value = std::move(first[parent]);
      adjust_heap(first, parent, len, std::move(value), less);
      if (parent == 0) break;
    }
  while (last - first > 1) {
    --last;
    T value = std::move(*last);
    *last = std::move(*first);
    adjust_heap(first, std::ptrdiff_t(0), last - first, std::move(value), less);
  }
}

template <class T, class Less>
void move_median_to_first(T* result, T* a, T* b, T* c, Less const& less) {
  using std::swap;
  if (less(*a, *b)) {
    if (less(*b, *c)) swap(*result, *b);
    else if (less(*a, *c)) swap(*result, *c);
    else swap(*result, *a);
  } else if (less(*a, *c)) {
    swap(*result, *a);
  } else if (less(*b, *c)) {
    swap(*result, *c);
  } else {
    swap(*result, *b);
  }
}

template <class T, class Less>
T* unguarded_partition(T* first, T* last, T* pivot, Less const& less) {
  using std::swap;
  while (true) {
    while (less(*first, *pivot)) ++first;
    --last;
    while (less(*pivot, *last)) --last;
    if (!(first < last)) return first;
    swap(*first, *last);
    ++first;
  }
}

template <class T, class Less>
void introsort_loop(T* first, T* last, std::ptrdiff_t depth_limit, Less const& less) {
  while (last - first > kThreshold) {
    if (depth_limit == 0) {
      heap_sort(first, last, less);
      return;
    }
    --depth_limit;
    T* const mid = first + (last - first) / 2;
    move_median_to_first(first, first + 1, mid, last - 1, less);
    T* const cut = unguarded_partition(first + 1, last, first, less);
    introsort_loop(cut, last, depth_limit, less);
    last = cut;
  }
}

template <class T, class Less>
void unguarded_linear_insert(T* last, Less const& less) {
  T value = std::move(*last);
  T* next = last - 1;
  while (less(value, *next)) {
    *last = std::move(*next);
    last = next;
    --next;
  }
  *last = std::move(value);
}

template <class T, class Less>
void insertion_sort(T* first, T* last, Less const& less) {
  if (first == last) return;
  for (T* i = first + 1; i != last; ++i) {
    if (less(*i, *first)) {
      T value = std::move(*i);
      for (T* j = i; j != first; --j) *j = std::move(*(j - 1));
      *first = std::move(value);
    } else {
      unguarded_linear_insert(i, less);
    }
  }
}

}  // namespace upstream_sort_impl

/// Sorts [first, last) by `less` (a strict weak order) exactly as libstdc++'s std::sort does: the
/// same comparisons and moves, so the same final order of equal keys.
template <class T, class Less>
void upstream_sort(T* first, T* last, Less const& less) {
  namespace impl = upstream_sort_impl;
  std::ptrdiff_t const n = last - first;
  if (n <= 1) return;
  std::ptrdiff_t lg = 0;  // std::__lg(n): floor(log2 n)
  while ((std::ptrdiff_t(1) << (lg + 1)) <= n) ++lg;
  impl::introsort_loop(first, last, 2 * lg, less);
  if (n > impl::kThreshold) {
    impl::insertion_sort(first, first + impl::kThreshold, less);
    for (T* i = first + impl::kThreshold; i != last; ++i) impl::unguarded_linear_insert(i, less);
  } else {
    impl::insertion_sort(first, last, less);
  }
}

}  // namespace kboost::detail
