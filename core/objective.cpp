/// \file objective.cpp
/// The objective registry (one table: name -> kind, output transform, margin link) and the
/// functions that read it; ProbToMargin in its two modes.
#include <kboost/core/objective.hpp>
#include <kboost/core/output_transform.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace kboost {
namespace {

/// One registered objective.
struct ObjectiveEntry {
  char const* name;
  ObjectiveKind kind;
  OutputTransform transform;  ///< margin -> output (upstream ObjFunction::PredTransform)
  MarginLink link;            ///< output-space base_score -> margin (upstream ObjFunction::ProbToMargin)
};

using K = ObjectiveKind;
using T = OutputTransform;
using L = MarginLink;

/// Every objective kboost reads and predicts (upstream's names in src/objective/*). Names of one
/// kind share its transform and link.
constexpr ObjectiveEntry kObjectives[] = {
    {"reg:squarederror", K::kSquaredError, T::kIdentity, L::kIdentity},
    {"reg:linear", K::kSquaredError, T::kIdentity, L::kIdentity},
    {"reg:squaredlogerror", K::kSquaredLogError, T::kIdentity, L::kIdentity},
    {"reg:logistic", K::kLogistic, T::kSigmoid, L::kLogit},
    {"binary:logistic", K::kLogistic, T::kSigmoid, L::kLogit},
    {"binary:logitraw", K::kLogitRaw, T::kIdentity, L::kIdentity},
    {"binary:hinge", K::kHinge, T::kHinge, L::kIdentity},
    {"multi:softprob", K::kSoftprob, T::kSoftmax, L::kIdentity},
    {"multi:softmax", K::kSoftmax, T::kArgmax, L::kIdentity},
    {"count:poisson", K::kPoisson, T::kExp, L::kLog},
    {"reg:gamma", K::kGamma, T::kExp, L::kLog},
    {"reg:tweedie", K::kTweedie, T::kExp, L::kLog},
    {"reg:pseudohubererror", K::kPseudoHuber, T::kIdentity, L::kIdentity},
    {"reg:absoluteerror", K::kAbsoluteError, T::kIdentity, L::kIdentity},
    {"reg:quantileerror", K::kQuantile, T::kIdentity, L::kIdentity},
    {"survival:cox", K::kCox, T::kExp, L::kLog},
    {"survival:aft", K::kAft, T::kExp, L::kLog},
    {"rank:pairwise", K::kRank, T::kIdentity, L::kIdentity},
    {"rank:ndcg", K::kRank, T::kIdentity, L::kIdentity},
    {"rank:map", K::kRank, T::kIdentity, L::kIdentity},
};

constexpr std::size_t kNumKinds = static_cast<std::size_t>(ObjectiveKind::kHinge) + 1;

ObjectiveEntry const* find_objective(std::string const& name) {
  for (auto const& e : kObjectives)
    if (name == e.name) return &e;
  return nullptr;
}

/// The registry's entry for `kind` (the first name of that kind: all share transform and link).
ObjectiveEntry const& entry_of(ObjectiveKind kind) {
  static auto const by_kind = [] {
    std::array<ObjectiveEntry const*, kNumKinds> a{};
    for (auto const& e : kObjectives)
      if (a[static_cast<std::size_t>(e.kind)] == nullptr) a[static_cast<std::size_t>(e.kind)] = &e;
    return a;
  }();
  auto const i = static_cast<std::size_t>(kind);
  if (i >= kNumKinds || by_kind[i] == nullptr)
    throw std::logic_error("objective registry: no entry for kind " + std::to_string(static_cast<int>(kind)));
  return *by_kind[i];
}

}  // namespace

ObjectiveKind objective_kind(std::string const& name) {
  ObjectiveEntry const* e = find_objective(name);
  if (e == nullptr || e->kind == ObjectiveKind::kHinge)
    throw std::runtime_error("objective: unknown objective '" + name + "'");
  return e->kind;
}

bool is_known_objective(std::string const& name) { return find_objective(name) != nullptr; }

std::vector<std::string> known_objective_names() {
  std::vector<std::string> out;
  for (auto const& e : kObjectives) out.emplace_back(e.name);
  return out;
}

OutputTransform output_transform(ObjectiveKind kind) { return entry_of(kind).transform; }

MarginLink margin_link(ObjectiveKind kind) { return entry_of(kind).link; }

OutputTransform transform_for_objective(std::string const& objective) {
  // Predictor's check: an in-memory Model's objective was never looked up (validate_model does not).
  ObjectiveEntry const* e = find_objective(objective);
  if (e == nullptr) throw std::runtime_error("unknown objective '" + objective + "'");
  return e->transform;
}

float prob_to_margin(ObjectiveKind k, float base_score, BaseScoreMode mode) {
  // Upstream has both behaviours, and kboost keeps both bit for bit: the learner rejects a
  // base_score outside the link's domain, while LogisticRegression::ProbToMargin applied to a
  // stored model clamps it (regression_loss.h, kRtEps) and the log link takes logf as it is.
  bool const training = mode == BaseScoreMode::kTraining;
  switch (margin_link(k)) {
    case MarginLink::kLogit: {
      if (training && !(base_score > 0.0f && base_score < 1.0f))
        throw std::runtime_error("base_score must be in (0,1) for logistic loss, got: " + std::to_string(base_score));
      float constexpr kRtEps = 1e-6f;
      float const b = training ? base_score : std::min(std::max(base_score, kRtEps), 1.0f - kRtEps);
      return -pmath::logf(1.0f / b - 1.0f);
    }
    case MarginLink::kLog:
      if (training && !(base_score > 0.0f))
        throw std::runtime_error("base_score must be > 0 for a log-link objective, got: " + std::to_string(base_score));
      return pmath::logf(base_score);
    case MarginLink::kIdentity: break;
  }
  return base_score;
}

std::vector<float> base_margin_from_score(std::string const& objective, std::vector<float> const& base_score) {
  std::vector<float> out(base_score);
  ObjectiveEntry const* e = find_objective(objective);
  if (e == nullptr) return out;
  for (float& v : out) v = prob_to_margin(e->kind, v, BaseScoreMode::kModel);
  return out;
}

}  // namespace kboost
