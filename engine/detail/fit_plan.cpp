/// \file fit_plan.cpp
/// Fit validation, intercepts and the model header (engine/detail/fit_plan.hpp), following
/// upstream's Learner::Configure, ValidateDMatrix and InitBaseScore (src/learner.cc).
#include <kboost/engine/detail/fit_plan.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include <kboost/core/output_transform.hpp>
#include <kboost/engine/base_score.hpp>
#include <kboost/engine/categories.hpp>

namespace kboost::detail {
namespace {

/// All-zero row weights leave nothing to fit (the intercept estimate divides by their sum).
void refuse_zero_weights(HostDMatrix const& dtrain) {
  bool any_weight = dtrain.weight.extent(0) == 0;
  for (std::size_t i = 0; i < dtrain.weight.extent(0) && !any_weight; ++i) any_weight = dtrain.weight(i) != 0.0f;
  bool const shard = dtrain.info.total_rows > dtrain.n_rows;  // other ranks hold the other rows' weights
  if (!any_weight && !shard) throw std::runtime_error("train: every row weight of the training data is 0: nothing to fit");
}

/// A NaN label would turn the intercept, the gradients and the metrics into NaN.
void refuse_nan_labels(std::string const& set, HostDMatrix const& d) {
  for (std::size_t i = 0; i < d.label.extent(0); ++i)
    if (std::isnan(d.label(i)))
      throw std::runtime_error("train: " + set + (d.info.source.empty() ? "" : " (" + d.info.source + ")") +
                               ": the label of row " + std::to_string(i / d.n_targets + 1) + " (1-based) is NaN");
}

/// "" when two name lists agree (or either is empty), else "feature k is 'a', <whose> 'b'" for the
/// first feature k that differs ('absent' past a list's end).
std::string feature_name_difference(std::vector<std::string> const& ours, std::vector<std::string> const& theirs,
                                    std::string const& whose) {
  if (ours.empty() || theirs.empty() || ours == theirs) return "";
  std::size_t k = 0;
  while (k < ours.size() && k < theirs.size() && ours[k] == theirs[k]) ++k;
  auto const named = [](std::vector<std::string> const& v, std::size_t i) {
    return i < v.size() ? "'" + v[i] + "'" : std::string("absent");
  };
  return "feature " + std::to_string(k) + " is " + named(ours, k) + ", " + whose + " " + named(theirs, k);
}

/// An eval set with a header scores the training features only when its columns are the training
/// file's, in its order: reordered, renamed or missing columns would be scored silently wrong.
void check_eval_feature_names(std::string const& name, HostDMatrix const& d, HostDMatrix const& dtrain) {
  std::string const diff =
      feature_name_difference(d.info.feature_names, dtrain.info.feature_names, "the training data's");
  if (!diff.empty())
    throw std::runtime_error("train: eval set '" + name + "': " + diff + " (columns reordered, renamed or missing?)");
}

/// Labels on the training data and every eval set; eval widths, label columns and query groups.
void check_sets(ObjectiveCapabilities const& caps, HostDMatrix const& dtrain, EvalSetList const& evals) {
  // survival:aft learns from interval labels (label_lower_bound / label_upper_bound), not labels
  bool const intervals = caps.label_bounds;
  auto const labelled = [intervals](HostDMatrix const& d) { return intervals ? d.has_label_bounds() : d.has_labels(); };
  char const* const what = intervals ? " has no label bounds (survival:aft: --label-lower-bound-column and "
                                       "--label-upper-bound-column)"
                                     : " has no labels";
  if (!labelled(dtrain)) throw std::runtime_error("train: the training data " + dtrain.info.source + what);
  refuse_nan_labels("the training data", dtrain);
  for (auto const& [name, d] : evals) refuse_nan_labels("eval set '" + name + "'", d);
  std::set<std::string> names;
  for (auto const& [name, d] : evals) {
    if (!names.insert(name).second)
      throw std::runtime_error("train: two eval sets are named '" + name + "': name each one differently");
    check_eval_feature_names(name, d, dtrain);
    if (d.n_features > dtrain.n_features)
      throw std::runtime_error("train: eval set '" + name + "' has " + std::to_string(d.n_features) +
                               " features, the training data " + std::to_string(dtrain.n_features));
    if (!labelled(d)) throw std::runtime_error("train: eval set '" + name + "'" + what);
    if (caps.query_groups && dtrain.group_ptr.extent(0) > 0 && d.group_ptr.extent(0) == 0)
      throw std::runtime_error("train: eval set '" + name + "' has no query groups and the training data has: "
                               "ranking metrics would score it as one query (give its groups as a qid column or "
                               "its own .group/.query file)");
  }
}

/// What a fit on several ranks cannot do yet.
void check_several_ranks(TrainParams const& p, ObjectiveCapabilities const& caps, HostDMatrix const& dtrain,
                         Collective const& comm) {
  if (comm.size() == 1) return;
  if (p.sketch_method == "exact_quantile")
    throw std::runtime_error("train: kboost_sketch_method = exact_quantile is not available on several ranks "
                             "(upstream_cpu is; its cuts are the same on any number of ranks)");
  if (dtrain.group_ptr.extent(0) > 0)
    throw std::runtime_error("train: query groups (ranking) are not available on several ranks yet");
  // every rank needs rows: the per-feature exchange assumes each knows the width
  if (dtrain.n_rows == 0) throw std::runtime_error("train: this rank has no training rows (more ranks than rows?)");
  if (caps.single_rank_reason != nullptr)
    throw std::runtime_error("train: " + p.objective + " is not available on several ranks yet" +
                             caps.single_rank_reason);
}

/// The objective's outputs against the data: label columns, num_class, quantiles, row weights.
int checked_outputs(TrainParams const& p, FitPlan const& plan, HostDMatrix const& dtrain, EvalSetList const& evals) {
  ObjectiveCapabilities const& caps = plan.caps;
  if (dtrain.n_targets > 1 && caps.outputs != ObjectiveCapabilities::Outputs::kTargets)
    throw std::runtime_error("train: " + p.objective + " takes one label per row; the training data has " +
                             std::to_string(dtrain.n_targets) + " label columns (multi-target training takes "
                             "reg:squarederror, reg:squaredlogerror, reg:pseudohubererror, reg:absoluteerror, "
                             "reg:logistic, binary:logistic, binary:logitraw, count:poisson, reg:gamma, reg:tweedie)");
  for (auto const& [name, d] : evals)
    if (d.n_targets != dtrain.n_targets)
      throw std::runtime_error("train: eval set '" + name + "' has " + std::to_string(d.n_targets) +
                               " label columns, the training data " + std::to_string(dtrain.n_targets));
  int const n_groups = objective_outputs(plan.obj, dtrain.n_targets);
  if (plan.classes() && p.num_class < 2) throw std::runtime_error("train: " + p.objective + " needs num_class >= 2");
  if (!plan.classes() && p.num_class > 1)
    throw std::runtime_error("train: num_class = " + std::to_string(p.num_class) + " applies to multi:softmax and "
                             "multi:softprob, not " + p.objective);
  if (n_groups < 1) throw std::runtime_error("train: " + p.objective + " needs quantile_alpha");
  if (!caps.row_weights && dtrain.has_weights())
    throw std::runtime_error("train: " + p.objective + " takes no row weights (upstream weighs whole query groups, "
                             "which kboost does not read yet)");
  return n_groups;
}

/// The labels an explicit eval metric is defined on (upstream's metric definitions): outside them a
/// metric is a meaningless number or NaN, found only after the first round has been paid for.
struct MetricLabelDomain {
  char const* metric;
  float low, high;
  bool low_open;
  char const* says;
};
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr MetricLabelDomain kMetricDomains[] = {
    {"auc", 0.0f, 1.0f, false, "labels in [0, 1] (binary outcomes)"},
    {"logloss", 0.0f, 1.0f, false, "labels in [0, 1] (binary outcomes)"},
    {"error", 0.0f, 1.0f, false, "labels in [0, 1] (binary outcomes)"},
    {"rmsle", -1.0f, kInf, true, "labels above -1 (log1p of the label)"},
    {"poisson-nloglik", 0.0f, kInf, false, "labels >= 0 (counts)"},
    {"tweedie-nloglik", 0.0f, kInf, false, "labels >= 0"},
    {"gamma-nloglik", 0.0f, kInf, true, "labels > 0"},
    {"gamma-deviance", 0.0f, kInf, true, "labels > 0"},
};

/// Explicit eval metrics against the objective's outputs and the sets' labels: a class metric needs
/// a multi-class objective, and each metric of kMetricDomains labels in its domain (multi-class and
/// per-query metrics aside).
void check_metrics(TrainParams const& p, FitPlan const& plan, EvalSetList const& evals) {
  for (std::string const& metric : p.eval_metric) {
    std::string const base = metric.substr(0, metric.find('@'));
    if ((base == "mlogloss" || base == "merror") && !plan.classes())
      throw std::runtime_error("train: eval_metric " + metric + " scores multi-class objectives (multi:softmax, "
                               "multi:softprob), not " + p.objective);
    if ((plan.n_groups > 1 && plan.classes()) || plan.caps.query_groups) continue;  // multi-class, per-query AUC
    for (auto const& dom : kMetricDomains) {
      if (base != dom.metric) continue;
      for (auto const& [name, d] : evals)
        for (std::size_t i = 0; i < d.label.extent(0); ++i) {
          float const y = d.label(i);
          bool const inside = (dom.low_open ? y > dom.low : y >= dom.low) && y <= dom.high;
          if (!inside)
            throw std::runtime_error("train: eval_metric " + metric + " needs " + dom.says + "; eval set '" + name +
                                     "' row " + std::to_string(i / d.n_targets + 1) + " (1-based) has " +
                                     std::to_string(y));
        }
    }
  }
}

/// Categorical features against the sketch method and a continued model.
void check_categorical(TrainParams const& p, FitPlan const& plan) {
  if (!plan.categorical.empty() && p.sketch_method == "exact_quantile")
    throw std::runtime_error("train: kboost_sketch_method = exact_quantile does not take categorical features "
                             "(upstream_cpu does)");
  if (plan.continuing && p.booster == "dart")
    throw std::runtime_error("train: continuing a model with booster = dart is not available (its drops would need "
                             "the generator's state)");
}

/// "[a, b, c]", at most eight shown.
std::string joined_categories(std::vector<std::string> const& strings) {
  std::string out;
  for (std::size_t k = 0; k < strings.size() && k < 8; ++k) out += (k ? ", " : "") + strings[k];
  return "[" + out + (strings.size() > 8 ? ", ..." : "") + "]";
}

/// A continued model's categorical features and category strings against the data's: its trees'
/// category sets hold codes, so the data must code the same strings the same way.
void check_continued_categories(Model const& m, HostDMatrix const& dtrain, std::vector<std::uint8_t> const& categorical) {
  auto const refuse = [](std::string const& why) { throw std::runtime_error("train: cannot continue the model: " + why); };
  auto const name = [&](std::size_t f) {
    return std::to_string(f) + (f < m.feature_names.size() ? " ('" + m.feature_names[f] + "')" : "");
  };
  for (std::size_t f = 0; f < m.feature_types.size() && f < dtrain.n_features; ++f) {
    bool const model_cat = m.feature_types[f] == "c";
    bool const data_cat = f < categorical.size() && categorical[f] != 0;
    if (model_cat != data_cat)
      refuse("feature " + name(f) + " is " + (model_cat ? "categorical" : "numerical") + " in the model, " +
             (data_cat ? "categorical" : "numerical") + " in the data");
  }
  std::vector<FeatureCategories> const data_enc = training_category_encoder(dtrain);
  for (std::size_t f = 0; f < dtrain.n_features; ++f) {
    std::vector<std::string> const none;
    auto const& theirs = f < m.category_encoder.size() ? m.category_encoder[f].strings : none;
    auto const& ours = f < data_enc.size() ? data_enc[f].strings : none;
    if (theirs != ours)
      refuse("feature " + name(f) + " has the categories " + joined_categories(theirs) + " in the model, " +
             joined_categories(ours) + " in the data (its trees' category codes would mean other strings)");
  }
}

}  // namespace

std::vector<std::uint32_t> group_offsets(HostDMatrix const& d) {
  return std::vector<std::uint32_t>(d.group_ptr.data(), d.group_ptr.data() + d.group_ptr.extent(0));
}

FitPlan validate_fit(TrainParams const& p, HostDMatrix const& dtrain, EvalSetList const& evals, Collective& comm,
                     Model const* start, bool custom_gradients) {
  FitPlan plan;
  plan.obj = objective_params(p);
  plan.kind = objective_kind(p.objective);
  plan.caps = objective_family(p.objective).capabilities();
  plan.continuing = start != nullptr;
  plan.custom_gradients = custom_gradients;
  run_on_all_ranks(comm, [&] {
    check_sets(plan.caps, dtrain, evals);
    check_several_ranks(p, plan.caps, dtrain, comm);
    plan.n_groups = checked_outputs(p, plan, dtrain, evals);
    check_metrics(p, plan, evals);
    refuse_zero_weights(dtrain);
    plan.categorical = categorical_features(p, dtrain);
    check_categorical(p, plan);
    if (start != nullptr) check_continuable(*start, plan.obj, plan.n_groups, dtrain.n_features);
    if (start != nullptr) check_continued_feature_names(*start, dtrain.info.feature_names);
    if (start != nullptr) check_continued_categories(*start, dtrain, plan.categorical);
  });
  return plan;
}

void check_continuable(Model const& m, ObjectiveParams const& obj, int n_groups, std::size_t n_features) {
  auto const refuse = [](std::string const& why) { throw std::runtime_error("train: cannot continue the model: " + why); };
  if (m.booster != "gbtree") refuse("it is a " + m.booster + " model (only gbtree models can be continued)");
  if (m.objective != obj.objective) refuse("its objective is " + m.objective + ", the parameters say " + obj.objective);
  if (m.num_outputs() != n_groups)
    refuse("it has " + std::to_string(m.num_outputs()) + " outputs, the parameters " + std::to_string(n_groups));
  if (static_cast<std::size_t>(m.num_feature) != n_features)
    refuse("it has " + std::to_string(m.num_feature) + " features, the data " + std::to_string(n_features));
  if (m.num_parallel_tree != 1) refuse("num_parallel_tree = " + std::to_string(m.num_parallel_tree));
  if (m.tree_info.size() != m.trees.size() || m.iteration_indptr.empty() ||
      m.iteration_indptr.back() != static_cast<int>(m.trees.size()))
    refuse("its tree_info / iteration_indptr do not match its trees");
  for (std::size_t k = 0; k < m.trees.size(); ++k)
    if (m.trees[k].size_leaf_vector > 1) refuse("tree " + std::to_string(k) + " has vector leaves");
  if (m.base_score.size() != 1 && static_cast<int>(m.base_score.size()) != n_groups)
    refuse("its base_score has " + std::to_string(m.base_score.size()) + " values for " + std::to_string(n_groups) +
           " outputs");
}

void check_continued_feature_names(Model const& m, std::vector<std::string> const& names) {
  std::string const diff = feature_name_difference(m.feature_names, names, "the data's is");
  if (!diff.empty())
    throw std::runtime_error("train: cannot continue the model: its " + diff +
                             " (columns renamed or reordered? its trees would read the wrong columns)");
}

namespace {

/// The objective's intercept estimate over the job's labels, whatever the ranks' shards.
std::vector<float> job_base_score(ObjectiveParams const& obj, HostDMatrix const& dtrain, int n_groups,
                                  Collective& comm) {
  std::size_t const rows = dtrain.n_rows;
  std::vector<float> hl(dtrain.label.data(), dtrain.label.data() + rows * dtrain.n_targets);
  std::vector<float> hw(dtrain.weight.data(), dtrain.weight.data() + dtrain.weight.extent(0));
  if (comm.size() == 1) return estimate_base_score(obj, hl, hw, n_groups, group_offsets(dtrain));
  // Every rank's labels and weights on rank 0, in rank (= row) order: the estimate of one process
  // on all rows, then broadcast.
  auto const labels = comm.gather(to_bytes(hl), 0);
  auto const weights = comm.gather(to_bytes(hw), 0);
  std::vector<char> result;
  if (comm.rank() == 0) {
    std::vector<float> all_l, all_w;
    for (std::size_t r = 0; r < labels.size(); ++r) {
      auto const l = from_bytes<float>(labels[r]);
      auto w = from_bytes<float>(weights[r]);
      if (w.empty() && !hw.empty()) w.assign(l.size() / dtrain.n_targets, 1.0f);
      all_l.insert(all_l.end(), l.begin(), l.end());
      all_w.insert(all_w.end(), w.begin(), w.end());
    }
    if (all_w.size() != all_l.size()) all_w.clear();
    result = to_bytes(estimate_base_score(obj, all_l, all_w, n_groups));
  }
  comm.broadcast(result, 0);
  return from_bytes<float>(result);
}

}  // namespace

std::vector<float> fit_base_score(TrainParams const& p, FitPlan const& plan, HostDMatrix const& dtrain,
                                  Model const& start, Collective& comm) {
  auto const every_output = [&](float value) { return std::vector<float>(static_cast<std::size_t>(plan.n_groups), value); };
  if (plan.continuing) return start.base_score;  // upstream keeps the model's intercept
  if (p.base_score.has_value()) return every_output(*p.base_score);  // upstream resizes a given intercept
  // upstream's default intercept (AFT: ObjFunction's; a custom objective: BoostOneIter fits none)
  if (!p.boost_from_average || !plan.caps.estimates_intercept || plan.custom_gradients) return every_output(0.5f);
  return job_base_score(plan.obj, dtrain, plan.n_groups, comm);
}

std::vector<float> base_margins(FitPlan const& plan, std::vector<float> const& base_score) {
  std::vector<float> margin(static_cast<std::size_t>(plan.n_groups));
  for (std::size_t g = 0; g < margin.size(); ++g)
    margin[g] = prob_to_margin(plan.obj, base_score[base_score.size() == 1 ? 0 : g]);
  return margin;
}

Model model_header(TrainParams const& p, FitPlan const& plan, HostDMatrix const& dtrain,
                   std::vector<float> const& base_score, Model&& start) {
  Model m;
  m.booster = p.booster;
  m.objective = p.objective;
  m.base_score = base_score;
  // a given base_score turns the estimate off, as upstream's LearnerModelParamLegacy records it
  m.boost_from_average = plan.continuing ? start.boost_from_average : p.boost_from_average && !p.base_score.has_value();
  m.num_class = plan.classes() ? p.num_class : 0;
  m.num_target = plan.classes() ? 1 : plan.n_groups;
  m.num_feature = static_cast<int>(dtrain.n_features);
  m.feature_names = dtrain.info.feature_names;
  m.feature_types = model_feature_types(dtrain, plan.categorical);
  m.category_encoder = training_category_encoder(dtrain);
  m.objective_config = objective_config(p, plan.obj);
  m.iteration_indptr.push_back(0);
  if (plan.continuing) {
    m.trees = std::move(start.trees);
    m.tree_info = std::move(start.tree_info);
    m.iteration_indptr = std::move(start.iteration_indptr);
    m.attributes = std::move(start.attributes);
    if (m.feature_names.empty()) m.feature_names = start.feature_names;
    if (m.feature_types.empty()) m.feature_types = start.feature_types;
  }
  return m;
}

}  // namespace kboost::detail
