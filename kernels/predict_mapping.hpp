#pragma once
/// \file predict_mapping.hpp
/// The ways a batch can be mapped onto the device, as one value (PredictChoice: a kernel mapping
/// and a forest layout) and one launcher. Every mapping computes each (tree, row) leaf by the same
/// split rule and adds the leaves in tree order from the base margin (upstream XGBoost 3.2's CPU
/// predictor, src/predictor/cpu_predictor.cc PredValueByOneTree), so a choice moves work between
/// kernels and never changes a bit:
///  - kBlocking: predict_forest's (tree, row) blocking in team scratch (kernels/predict_kernel.hpp);
///  - kPairs: (tree, row) pairs over the whole device, then the ordered sum (kernels/predict_pairs.hpp);
///  - kRows: one thread per row (kernels/predict_rows.hpp);
/// each over the standard layout (flatten_forest) or a layered one (flatten_forest_layered, G trees
/// per interleaved group); the blocking optionally with the top K levels of a chunk's trees staged in
/// team scratch (kernels/predict_staged.hpp).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <kboost/kernels/device_forest.hpp>
#include <kboost/kernels/predict_kernel.hpp>
#include <kboost/kernels/predict_pairs.hpp>
#include <kboost/kernels/predict_rows.hpp>

namespace kboost {

/// A kernel mapping; kDefault: the one default_blocking picks for the batch.
enum class PredictMapping : std::int32_t { kDefault = 0, kBlocking = 1, kPairs = 2, kRows = 3 };

/// Trees per interleaved group of the layered layouts that the tuner tries.
constexpr int kLayeredGroups[] = {8, 32};

/// Levels staged in team scratch that the tuner tries with the blocking (standard layout).
constexpr int kStagedLevelCandidates[] = {3};

/// Largest layered group and staged levels a stored choice may name (PredictChoice::decode).
constexpr int kMaxLayeredGroup = 4096;

/// Team size of the one-thread-per-row mapping on devices (default_blocking's).
constexpr int kRowsTeamSize = 256;

/// A mapping and a layout. layered_group 0: flatten_forest's layout; G > 0: flatten_forest_layered
/// with G trees per group. staged_levels K > 0 (the blocking only): the top K levels of each chunk's
/// trees staged in team scratch (PredictKernelParams::staged_levels).
struct PredictChoice {
  PredictMapping mapping = PredictMapping::kDefault;
  int layered_group = 0;
  int staged_levels = 0;

  bool is_default() const { return mapping == PredictMapping::kDefault && layered_group == 0 && staged_levels == 0; }
  bool operator==(PredictChoice const& o) const {
    return mapping == o.mapping && layered_group == o.layered_group && staged_levels == o.staged_levels;
  }
  bool operator!=(PredictChoice const& o) const { return !(*this == o); }
  /// Whether the fields name a choice: groups in [0, kMaxLayeredGroup], levels in [0,
  /// kMaxStagedLevels] and staged levels with the blocking only.
  bool valid() const {
    return layered_group >= 0 && layered_group <= kMaxLayeredGroup && staged_levels >= 0 &&
           staged_levels <= kMaxStagedLevels && (staged_levels == 0 || mapping == PredictMapping::kBlocking);
  }

  /// One integer for a store: mapping + 16 · layered_group + kStagedUnit · staged_levels (choices
  /// without staged levels keep the codes they had before staging existed).
  static constexpr std::int64_t kStagedUnit = 16 * (kMaxLayeredGroup + 1);
  std::int64_t encode() const {
    return static_cast<std::int64_t>(mapping) + 16 * static_cast<std::int64_t>(layered_group) + kStagedUnit * staged_levels;
  }
  /// encode()'s inverse; nullopt for a value no valid choice encodes.
  static std::optional<PredictChoice> decode(std::int64_t v) {
    if (v < 0 || v >= kStagedUnit * (kMaxStagedLevels + 1)) return std::nullopt;
    auto const m = static_cast<std::int32_t>(v % 16);
    if (m > static_cast<std::int32_t>(PredictMapping::kRows)) return std::nullopt;
    PredictChoice const c{static_cast<PredictMapping>(m), static_cast<int>(v % kStagedUnit / 16), static_cast<int>(v / kStagedUnit)};
    return c.valid() ? std::optional<PredictChoice>(c) : std::nullopt;
  }

  /// "blocking", "pairs/layered8", "blocking/layered8/staged4", ...
  std::string name() const {
    static char const* const names[] = {"default", "blocking", "pairs", "rows"};
    std::string s = names[static_cast<int>(mapping)];
    if (layered_group > 0) s += "/layered" + std::to_string(layered_group);
    if (staged_levels > 0) s += "/staged" + std::to_string(staged_levels);
    return s;
  }
  /// name()'s inverse: a mapping ("default", "blocking", "pairs", "rows"), then optionally
  /// "/layered<G>" (G >= 1), then optionally "/staged<K>" (K >= 1); nullopt for anything else or an
  /// invalid choice.
  static std::optional<PredictChoice> parse(std::string const& text);
};

/// Inline definitions of PredictChoice::parse's steps.
namespace detail {
/// The number after `prefix` at the start of `part` ("layered8" -> 8); -1 when `part` is not prefix
/// followed by 1-4 digits.
inline int suffix_number(std::string const& part, char const* prefix) {
  std::string const p(prefix);
  if (part.rfind(p, 0) != 0 || part.size() == p.size() || part.size() > p.size() + 4 ||
      part.find_first_not_of("0123456789", p.size()) != std::string::npos)
    return -1;
  return std::stoi(part.substr(p.size()));
}
}  // namespace detail

inline std::optional<PredictChoice> PredictChoice::parse(std::string const& text) {
  std::vector<std::string> parts;
  for (std::size_t b = 0;;) {
    std::size_t const e = text.find('/', b);
    parts.push_back(text.substr(b, e == std::string::npos ? e : e - b));
    if (e == std::string::npos) break;
    b = e + 1;
  }
  static char const* const names[] = {"default", "blocking", "pairs", "rows"};
  PredictChoice c;
  auto const m = std::find(std::begin(names), std::end(names), parts[0]);
  if (m == std::end(names)) return std::nullopt;
  c.mapping = static_cast<PredictMapping>(m - std::begin(names));
  std::size_t i = 1;
  if (i < parts.size() && parts[i].rfind("layered", 0) == 0 && (c.layered_group = detail::suffix_number(parts[i++], "layered")) < 1)
    return std::nullopt;
  if (i < parts.size() && (c.staged_levels = detail::suffix_number(parts[i++], "staged")) < 1) return std::nullopt;
  if (i != parts.size() || !c.valid()) return std::nullopt;
  return c;
}

/// Whether `mapping` can serve a batch of n_rows rows and n_trees trees: pred_leaf only through the
/// blocking (the one kernel that writes leaf ids); pairs only while the batch's leaf words fit
/// kDevicePairMaxWords (the Predictor's buffer).
inline bool mapping_applies(PredictMapping mapping, std::size_t n_rows, int n_trees, bool pred_leaf) {
  switch (mapping) {
    case PredictMapping::kDefault:
    case PredictMapping::kBlocking: return true;
    case PredictMapping::kPairs: return !pred_leaf && pair_words(n_rows, n_trees) <= kDevicePairMaxWords;
    case PredictMapping::kRows: return !pred_leaf;
  }
  return false;
}

/// The mapping default_blocking chose in `p`.
inline PredictMapping default_mapping(PredictKernelParams const& p) {
  return p.spread_pairs ? PredictMapping::kPairs : p.one_row_per_thread ? PredictMapping::kRows : PredictMapping::kBlocking;
}

/// The candidates for a batch: every mapping that applies, over the standard layout and each
/// kLayeredGroups layout, and the blocking with each kStagedLevelCandidates (predict_forest stages
/// fewer levels where these do not fit) (pred_leaf: the blocking only).
inline std::vector<PredictChoice> mapping_candidates(std::size_t n_rows, int n_trees, bool pred_leaf) {
  std::vector<PredictChoice> out;
  for (auto m : {PredictMapping::kBlocking, PredictMapping::kPairs, PredictMapping::kRows}) {
    if (!mapping_applies(m, n_rows, n_trees, pred_leaf)) continue;
    out.push_back({m, 0});
    for (int g : kLayeredGroups) out.push_back({m, g});
    if (m == PredictMapping::kBlocking)
      for (int k : kStagedLevelCandidates) out.push_back({m, 0, k});
  }
  return out;
}

/// `p` (filled by default_blocking for this batch) set to run `mapping`: kDefault keeps
/// default_blocking's choice; kBlocking takes the (tree, row) blocking at any batch (on devices the
/// small-batch blocking, as default_blocking gives it for a pred_leaf call of at most
/// kDeviceSmallBatch rows); kPairs and kRows take those kernels.
template <class ExecutionSpace>
void set_mapping(ExecutionSpace const& space, PredictMapping mapping, std::size_t n_rows, int n_trees,
                 PredictKernelParams& p) {
  if (mapping == PredictMapping::kDefault) return;
  if (mapping == PredictMapping::kBlocking) {
    constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecutionSpace::memory_space>::accessible;
    bool const pred_leaf = p.pred_leaf;
    p.pred_leaf = true;
    p.spread_pairs = p.one_row_per_thread = false;
    default_blocking(space, host ? n_rows : std::min(n_rows, kDeviceSmallBatch), n_trees, p);
    p.pred_leaf = pred_leaf;
    return;
  }
  p.spread_pairs = mapping == PredictMapping::kPairs;
  p.one_row_per_thread = mapping == PredictMapping::kRows;
  if (p.one_row_per_thread) p.team_size = kRowsTeamSize;
}

/// Runs the kernel `p` names (spread_pairs: predict_pairs with a buffer from `words`;
/// one_row_per_thread: predict_rows; else predict_forest) on `space` for X into `out`, as the
/// Predictor does; `base_margin` rows × n_outputs or extent 0. Asynchronous on device backends.
template <class ExecutionSpace, class MemorySpace, class XView, class OutView>
void launch_mapping(ExecutionSpace const& space, DeviceForest<MemorySpace> const& f, XView const& X,
                    Kokkos::View<const float**, Kokkos::LayoutRight, MemorySpace> const& base_margin,
                    PredictKernelParams const& p, PairWordBuffers<MemorySpace>& words, OutView const& out) {
  if (p.spread_pairs) {
    predict_pairs(space, f, X, base_margin, words.get(space, pair_words(X.extent(0), f.last_tree - f.first_tree)), out);
  } else if (p.one_row_per_thread) {
    predict_rows(space, f, X, base_margin, p.team_size, out);
  } else {
    predict_forest(space, f, X, base_margin, p, out);
  }
}

}  // namespace kboost
