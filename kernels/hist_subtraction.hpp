#pragma once
/// \file hist_subtraction.hpp
/// A sibling's histogram made from its parent's and the built child's, as upstream 3.4.1's
/// `SubtractionHist` (src/tree/hist/histogram.h; src/tree/gpu_hist/histogram.cu
/// `SubtractHistogram`): exact, since the bins hold integer sums. Shared by the histogram builder's
/// subtraction pass and the host split search, which makes each feature's bins right before it
/// searches them.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

namespace kboost {

/// hist(sibling) = hist(parent) − hist(built): slots of a histogram View (slots × total_bins).
struct HistSubtraction {
  std::int32_t parent = 0, built = 0, sibling = 0;
};

/// Bin b of s.sibling's histogram from s.parent's and s.built's. hist: slots × total_bins View of
/// GradientPairInt64; b < total_bins. No error is raised (the caller checks the slots).
template <class Hist>
KOKKOS_INLINE_FUNCTION void subtract_bin(Hist const& hist, HistSubtraction const& s, std::size_t b) {
  hist(s.sibling, b) = hist(s.parent, b) - hist(s.built, b);
}

}  // namespace kboost
