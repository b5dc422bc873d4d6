/// \file hinge.cpp
/// HingeObj's host facts (upstream src/objective/hinge.cu: DefaultEvalMetric; the intercept is
/// ObjFunction's default).
#include <kboost/engine/objective/hinge.hpp>

namespace kboost {
namespace {

/// One output, upstream's default intercept, its metric.
class HingeFacts final : public Objective {
 public:
  ObjectiveCapabilities capabilities() const override { return {}; }
  std::vector<float> intercept(ObjectiveParams const&, std::vector<float> const&, std::vector<float> const&, int,
                               std::vector<std::uint32_t> const&) const override {
    return {0.5f};
  }
  std::string default_metric(ObjectiveParams const&) const override { return "error"; }
};

}  // namespace

Objective const& HingeObjective::host() { return host_facts<HingeFacts>(); }

}  // namespace kboost
