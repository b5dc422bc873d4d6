#include "core/objective.hpp"

#include <map>
#include <stdexcept>

namespace kboost {

ObjectiveKind objective_kind(std::string const& name) {
  static std::map<std::string, ObjectiveKind> const kinds = {
      {"reg:squarederror", ObjectiveKind::kSquaredError}, {"reg:linear", ObjectiveKind::kSquaredError},
      {"reg:squaredlogerror", ObjectiveKind::kSquaredLogError},
      {"reg:logistic", ObjectiveKind::kLogistic},         {"binary:logistic", ObjectiveKind::kLogistic},
      {"binary:logitraw", ObjectiveKind::kLogitRaw},      {"multi:softprob", ObjectiveKind::kSoftprob},
      {"multi:softmax", ObjectiveKind::kSoftmax},         {"count:poisson", ObjectiveKind::kPoisson},
      {"reg:gamma", ObjectiveKind::kGamma},               {"reg:tweedie", ObjectiveKind::kTweedie},
      {"reg:pseudohubererror", ObjectiveKind::kPseudoHuber},
      {"reg:absoluteerror", ObjectiveKind::kAbsoluteError},
      {"reg:quantileerror", ObjectiveKind::kQuantile},    {"survival:cox", ObjectiveKind::kCox},
      {"survival:aft", ObjectiveKind::kAft},              {"rank:pairwise", ObjectiveKind::kRank},
      {"rank:ndcg", ObjectiveKind::kRank},                {"rank:map", ObjectiveKind::kRank},
  };
  auto it = kinds.find(name);
  if (it == kinds.end()) throw std::runtime_error("objective: unknown objective '" + name + "'");
  return it->second;
}

float prob_to_margin(ObjectiveKind k, float base_score) {
  switch (k) {
    case ObjectiveKind::kLogistic:
      if (!(base_score > 0.0f && base_score < 1.0f))
        throw std::runtime_error("base_score must be in (0,1) for logistic loss, got: " + std::to_string(base_score));
      return -pmath::logf(1.0f / base_score - 1.0f);
    case ObjectiveKind::kPoisson:
    case ObjectiveKind::kGamma:
    case ObjectiveKind::kTweedie:
    case ObjectiveKind::kCox:
    case ObjectiveKind::kAft:
      if (!(base_score > 0.0f))
        throw std::runtime_error("base_score must be > 0 for a log-link objective, got: " + std::to_string(base_score));
      return pmath::logf(base_score);
    default: return base_score;
  }
}

}  // namespace kboost
