#pragma once
/// \file host_walk.hpp
/// The host's level-synchronous walk of dense numeric trees over packed split arrays, in SIMD where
/// the CPU has it: each lane is a (tree, row) pair stepping `pos = 2·pos + 1 + goes_right` from the
/// root of its complete-array tree, every level one gather of thresholds, one of keys (feature and
/// default direction), one of the rows' feature values and one compare for 8 (AVX2) or 16 (AVX-512F)
/// lanes at once; where a vector's lanes are rows of one tree, the top levels' nodes (up to 16 per
/// level for AVX2, 32 for AVX-512) are picked from loads by permutes instead of gathered. The decision is the split rule's numeric_goes_left (kernels/split_rule.hpp:
/// missing = NaN or equal to `missing` → default child; else left iff x < threshold, an ordered IEEE
/// compare, so -0.0 < 0.0 is false and ±inf compare as numbers), so every ISA reaches the same leaf.
/// Upstream XGBoost 3.2 walks blocks of rows over the top levels of each tree the same way
/// (src/predictor/array_tree_layout.h), with GetNextNode's decision (src/predictor/predict_fn.h).
///
/// The SIMD bodies live in host_walk.cpp behind runtime dispatch (functions compiled for avx2 /
/// avx512f, chosen by __builtin_cpu_supports), so the rest of the build stays generic; other CPUs,
/// compilers and CUDA/HIP translation units get the scalar walk.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kboost {

struct HostForest;

/// Instruction sets the host walk can use. kScalar runs everywhere.
enum class HostIsa { kScalar, kAvx2, kAvx512 };

/// Whether this build and this CPU (and its OS) can run `isa`'s walk.
bool host_isa_supported(HostIsa isa);
/// The widest supported HostIsa.
HostIsa best_host_isa();
/// "scalar", "avx2" or "avx512".
std::string host_isa_name(HostIsa isa);

/// Bit 31 of a split key: the node's default direction is left (a key is the split feature | this).
constexpr std::uint32_t kHostKeyDefaultLeft = 0x80000000u;

/// Entries after the pool's last slot in HostSplitArrays: a level's nodes are read as vectors of
/// up to 32 slots from the level's first, which may pass the end of a small last tree.
constexpr std::size_t kHostSplitPadding = 32;

/// The forest's node pool (HostForest::nodes) as two arrays of the same indexing: `threshold[i]` =
/// nodes[i].value (a split's threshold, or a leaf's value), `key[i]` = nodes[i].feature (0 for
/// leaves) | kHostKeyDefaultLeft when nodes[i] defaults left, then kHostSplitPadding zeros. Built
/// once per model (pack_host_splits).
struct HostSplitArrays {
  std::vector<float> threshold;
  std::vector<std::int32_t> key;
};

/// HostSplitArrays of `h`'s node pool. \throws std::runtime_error for a split with a negative feature
/// (its sign bit would read as the default direction).
HostSplitArrays pack_host_splits(HostForest const& h);

/// A non-owning handle to HostSplitArrays and the ISA that walks them.
struct HostSplits {
  float const* threshold = nullptr;
  std::int32_t const* key = nullptr;
  HostIsa isa = HostIsa::kScalar;
};

/// Most lanes of one walk (a multiple of every ISA's width).
constexpr int kHostWalkLanes = 64;

/// The lanes of one walk: lane l starts at pool slot base[l] (its tree's root), reads its row's
/// feature j at x[row_offset[l] + j · feature_stride] and takes depth[l] steps; pos[l] is its
/// position within its tree after walk_host_lanes. n lanes in use (1 ≤ n ≤ kHostWalkLanes);
/// max_depth ≥ every depth[l]. Every lane's row_offset, used or not, is a valid row (the SIMD walks
/// read whole vectors); the walk sets the base and depth of lanes n up to the next multiple of its
/// width (lane 0's tree, depth 0).
struct HostWalkLanes {
  alignas(64) std::int32_t base[kHostWalkLanes];
  alignas(64) std::int32_t row_offset[kHostWalkLanes];
  alignas(64) std::int32_t depth[kHostWalkLanes];
  alignas(64) std::int32_t pos[kHostWalkLanes];
  int n = 0, max_depth = 0;
};

/// Walks every lane of `lanes` to its leaf with `splits.isa` (supported, host_isa_supported): each
/// level moves each lane whose depth is not reached one step by the split rule, `missing` also
/// missing besides NaN. Trees must be dense and numeric (flatten_forest's tree_dense ≥ 2: slots
/// below a leaf repeat it with feature 0, so no step needs a leaf test). Every read offset
/// row_offset[l] + feature · feature_stride must fit an int32 (the gathers' indices).
void walk_host_lanes(HostSplits const& splits, float const* x, std::int32_t feature_stride, float missing,
                     HostWalkLanes& lanes);

}  // namespace kboost
