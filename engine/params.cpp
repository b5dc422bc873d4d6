/// \file params.cpp
/// TrainParams parsing and validation (ranges as upstream's DMLC_DECLARE_FIELD bounds).
#include <kboost/engine/params.hpp>

#include <kboost/io/model_writer.hpp>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace kboost {
namespace {

std::string trim(std::string const& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

[[noreturn]] void bad(std::string const& key, std::string const& value, std::string const& why) {
  throw std::runtime_error("parameter " + key + " = '" + value + "': " + why);
}

double to_double(std::string const& key, std::string const& v) {
  char* end = nullptr;
  errno = 0;
  double const d = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || errno == ERANGE) bad(key, v, "not a number");
  return d;
}

long long to_int(std::string const& key, std::string const& v) {
  double const d = to_double(key, v);
  if (d != std::floor(d) || std::fabs(d) > 9.2e18) bad(key, v, "not an integer");
  return static_cast<long long>(d);
}

bool to_bool(std::string const& key, std::string const& v) {
  if (v == "1" || v == "true" || v == "True") return true;
  if (v == "0" || v == "false" || v == "False") return false;
  bad(key, v, "not a boolean (0/1/true/false)");
}

std::vector<std::string> split_list(std::string const& v) {
  std::vector<std::string> out;
  std::stringstream ss(v);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item = trim(item);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

/// A list parameter as upstream writes it: "[a,b]" (JSON array), "(a,b)" (Python tuple text) or a
/// single value "a"; elements as text.
std::vector<std::string> list_items(std::string const& key, std::string const& v) {
  std::string t = trim(v);
  if (!t.empty() && (t.front() == '[' || t.front() == '(')) {
    char const close = t.front() == '[' ? ']' : ')';
    if (t.back() != close) bad(key, v, std::string("a list must end with '") + close + "'");
    t = t.substr(1, t.size() - 2);
  }
  std::vector<std::string> out;
  std::stringstream ss(t);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(trim(item));
  if (out.size() == 1 && out[0].empty()) out.clear();
  for (auto const& i : out)
    if (i.empty()) bad(key, v, "empty list element");
  return out;
}

/// interaction_constraints: a JSON array of arrays of feature indices.
std::vector<std::vector<int>> index_sets(std::string const& key, std::string const& v) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(v);
  } catch (nlohmann::json::exception const& e) {
    bad(key, v, std::string("not a JSON list of feature index lists, e.g. [[0,1],[2,3]] (") + e.what() + ")");
  }
  if (!j.is_array()) bad(key, v, "not a list of feature index lists, e.g. [[0,1],[2,3]]");
  std::vector<std::vector<int>> out;
  for (auto const& set : j) {
    if (!set.is_array()) bad(key, v, "every element must be a list of feature indices");
    std::vector<int> s;
    for (auto const& f : set) {
      if (!f.is_number_integer() || f.get<long long>() < 0 || f.get<long long>() > 2147483647)
        bad(key, v, "feature indices must be non-negative integers (kboost does not resolve feature names here)");
      s.push_back(f.get<int>());
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

std::string param_float_string(float v) {
  // dmlc::ToString / std::ostream with precision max_digits10 (9), default float format.
  std::ostringstream os;
  os.precision(9);
  os << v;
  return os.str();
}

TrainParams parse_params(std::map<std::string, std::string> const& kv) {
  TrainParams p;
  using Setter = std::function<void(std::string const&, std::string const&)>;
  auto real = [](float& dst, double lo, double hi, bool lo_open = false, bool hi_open = false) -> Setter {
    return [&dst, lo, hi, lo_open, hi_open](std::string const& k, std::string const& v) {
      double const d = to_double(k, v);
      bool const ok = (lo_open ? d > lo : d >= lo) && (hi_open ? d < hi : d <= hi);
      if (!ok || std::isnan(d)) {
        bad(k, v, std::string("out of range ") + (lo_open ? "(" : "[") + param_float_string(float(lo)) + ", " +
                      (std::isinf(hi) ? "inf" : param_float_string(float(hi))) + (hi_open ? ")" : "]"));
      }
      dst = static_cast<float>(d);
    };
  };
  auto integer = [](auto& dst, long long lo, long long hi) -> Setter {
    return [&dst, lo, hi](std::string const& k, std::string const& v) {
      long long const i = to_int(k, v);
      if (i < lo || i > hi) bad(k, v, "out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
      dst = static_cast<std::remove_reference_t<decltype(dst)>>(i);
    };
  };
  auto boolean = [](bool& dst) -> Setter {
    return [&dst](std::string const& k, std::string const& v) { dst = to_bool(k, v); };
  };
  auto choice = [](std::string& dst, std::vector<std::string> allowed) -> Setter {
    return [&dst, allowed](std::string const& k, std::string const& v) {
      for (auto const& a : allowed)
        if (a == v) {
          dst = v;
          return;
        }
      std::string list;
      for (auto const& a : allowed) list += (list.empty() ? "" : ", ") + a;
      bad(k, v, "must be one of: " + list);
    };
  };
  constexpr double kInf = INFINITY;
  constexpr long long kIntMax = 2147483647;
  std::map<std::string, Setter> const setters = {
      {"eta", real(p.eta, 0, kInf)},
      {"max_depth", integer(p.max_depth, 0, kIntMax)},
      {"min_child_weight", real(p.min_child_weight, 0, kInf)},
      {"lambda", real(p.lambda, 0, kInf)},
      {"alpha", real(p.alpha, 0, kInf)},
      {"gamma", real(p.gamma, 0, kInf)},
      {"max_delta_step",
       [&p](std::string const& k, std::string const& v) {
         double const d = to_double(k, v);
         if (!(d >= 0)) bad(k, v, "out of range [0, inf]");
         p.max_delta_step = static_cast<float>(d);
         p.max_delta_step_set = true;
       }},
      // a feature gets at most max_bin + 1 cut values, and kboost's 16-bit bin codes hold 65,535
      {"max_bin", integer(p.max_bin, 2, 65534)},
      {"max_leaves", integer(p.max_leaves, 0, kIntMax)},
      {"grow_policy", choice(p.grow_policy, {"depthwise", "lossguide"})},
      {"subsample", real(p.subsample, 0, 1, true, false)},
      {"sampling_method", choice(p.sampling_method, {"uniform"})},
      {"colsample_bytree", real(p.colsample_bytree, 0, 1, true, false)},
      {"colsample_bylevel", real(p.colsample_bylevel, 0, 1, true, false)},
      {"colsample_bynode", real(p.colsample_bynode, 0, 1, true, false)},
      {"seed", integer(p.seed, 0, static_cast<long long>(9.2e18))},
      {"monotone_constraints",
       [&p](std::string const& k, std::string const& v) {
         p.monotone_constraints.clear();
         for (auto const& item : list_items(k, v)) {
           long long const c = to_int(k, item);
           if (c < -1 || c > 1) bad(k, v, "each constraint must be -1, 0 or 1");
           p.monotone_constraints.push_back(static_cast<int>(c));
         }
       }},
      {"interaction_constraints",
       [&p](std::string const& k, std::string const& v) { p.interaction_constraints = index_sets(k, v); }},
      {"max_cat_to_onehot", integer(p.max_cat_to_onehot, 1, kIntMax)},
      {"max_cat_threshold", integer(p.max_cat_threshold, 1, kIntMax)},
      {"enable_categorical", boolean(p.enable_categorical)},
      {"quantile_alpha",
       [&p](std::string const& k, std::string const& v) {
         p.quantile_alpha.clear();
         for (auto const& item : list_items(k, v)) {
           double const a = to_double(k, item);
           if (!(a >= 0.0 && a <= 1.0)) bad(k, v, "quantile alpha must be in the range [0.0, 1.0]");
           p.quantile_alpha.push_back(static_cast<float>(a));
         }
         if (p.quantile_alpha.empty()) bad(k, v, "no quantile given");
       }},
      {"lambdarank_pair_method", choice(p.lambdarank_pair_method, {"topk", "mean"})},
      {"lambdarank_num_pair_per_sample", integer(p.lambdarank_num_pair_per_sample, 1, kIntMax)},
      {"lambdarank_normalization", boolean(p.lambdarank_normalization)},
      {"lambdarank_score_normalization", boolean(p.lambdarank_score_normalization)},
      {"lambdarank_bias_norm", real(p.lambdarank_bias_norm, 0, kInf)},
      {"lambdarank_unbiased",
       [](std::string const& k, std::string const& v) {
         if (to_bool(k, v)) bad(k, v, "unbiased LambdaMART (position-bias estimation) is not implemented by kboost");
       }},
      {"ndcg_exp_gain", boolean(p.ndcg_exp_gain)},
      {"aft_loss_distribution", choice(p.aft_loss_distribution, {"normal", "logistic", "extreme"})},
      {"aft_loss_distribution_scale", real(p.aft_loss_distribution_scale, 0, kInf, true, false)},
      {"objective",
       [&p](std::string const& k, std::string const& v) {
         try {
           (void)objective_kind(v);
         } catch (std::exception const&) {
           bad(k, v, "unknown objective");
         }
         p.objective = v;
       }},
      {"num_class", integer(p.num_class, 0, kIntMax)},
      {"scale_pos_weight", real(p.scale_pos_weight, 0, kInf, true, false)},
      {"tweedie_variance_power", real(p.tweedie_variance_power, 1, 2, false, true)},
      {"huber_slope", real(p.huber_slope, 0, kInf, true, false)},
      {"base_score",
       [&p](std::string const& k, std::string const& v) {
         double const d = to_double(k, v);
         if (!std::isfinite(d)) bad(k, v, "must be finite");
         p.base_score = static_cast<float>(d);
       }},
      {"boost_from_average", boolean(p.boost_from_average)},
      {"eval_metric",
       [&p](std::string const&, std::string const& v) {
         for (auto const& m : split_list(v)) p.eval_metric.push_back(m);
       }},
      {"disable_default_eval_metric", boolean(p.disable_default_eval_metric)},
      {"num_round", integer(p.num_round, 0, kIntMax)},
      {"early_stopping_rounds", integer(p.early_stopping_rounds, 0, kIntMax)},
      {"nthread", integer(p.nthread, 0, kIntMax)},
      {"verbosity", integer(p.verbosity, 0, 3)},
      {"tree_method",
       [&p](std::string const& k, std::string const& v) {
         if (v != "hist" && v != "auto") bad(k, v, "kboost implements only tree_method = hist");
         p.tree_method = "hist";
       }},
      {"device", [&p](std::string const&, std::string const& v) { p.device = v; }},
      {"booster",
       [&p](std::string const& k, std::string const& v) {
         if (v == "gblinear") bad(k, v, "linear boosters are not implemented by kboost (gbtree and dart are)");
         if (v != "gbtree" && v != "dart") bad(k, v, "expected gbtree or dart");
         p.booster = v;
       }},
      {"rate_drop", real(p.rate_drop, 0, 1)},
      {"skip_drop", real(p.skip_drop, 0, 1)},
      {"one_drop", boolean(p.one_drop)},
      {"sample_type", choice(p.sample_type, {"uniform", "weighted"})},
      {"normalize_type", choice(p.normalize_type, {"tree", "forest"})},
      {"min_shared",
       [&p, set = integer(p.min_shared, 0, static_cast<long long>(9.2e18))](std::string const& k, std::string const& v) {
         set(k, v);
         p.hist_tune = false;  // an explicit kernel choice is never re-tuned
       }},
      {"tile_rows",
       [&p, set = integer(p.tile_rows, 1, kIntMax)](std::string const& k, std::string const& v) {
         set(k, v);
         p.hist_tune = false;
       }},
      {"hist_tune", boolean(p.hist_tune)},
      {"sketch_method", choice(p.sketch_method, {"upstream_cpu", "exact_quantile"})},
      {"multi_strategy",
       [&p](std::string const& k, std::string const& v) {
         if (v == "multi_output_tree") bad(k, v, "vector-leaf trees are not implemented by kboost (one_output_per_tree is)");
         if (v != "one_output_per_tree") bad(k, v, "expected one_output_per_tree or multi_output_tree");
         p.multi_strategy = v;
       }},
      // accepted and ignored, as upstream's no-op / informational keys
      {"validate_parameters", [](std::string const& k, std::string const& v) { (void)to_bool(k, v); }},
      {"seed_per_iteration", [](std::string const& k, std::string const& v) { (void)to_bool(k, v); }},
      {"silent", [](std::string const& k, std::string const& v) { (void)to_int(k, v); }},
  };
  std::map<std::string, std::string> const aliases = {
      {"learning_rate", "eta"},       {"reg_lambda", "lambda"},   {"reg_alpha", "alpha"},
      {"min_split_loss", "gamma"},    {"random_state", "seed"},   {"num_boost_round", "num_round"},
      {"n_estimators", "num_round"},  {"n_jobs", "nthread"},      {"kboost_min_shared", "min_shared"},
      {"kboost_tile_rows", "tile_rows"},  {"kboost_hist_tune", "hist_tune"},
      {"kboost_sketch_method", "sketch_method"},
  };
  for (auto const& [key0, value0] : kv) {
    std::string key = key0;
    if (auto a = aliases.find(key); a != aliases.end()) key = a->second;
    auto it = setters.find(key);
    if (it == setters.end()) throw std::runtime_error("unknown parameter '" + key0 + "'");
    it->second(key0, trim(value0));
  }
  // cross-parameter checks
  if (p.booster != "dart")
    for (auto const& [key, value] : kv)
      for (char const* dart_key : {"rate_drop", "skip_drop", "one_drop", "sample_type", "normalize_type"})
        if (key == dart_key)
          throw std::runtime_error("parameter " + key + " = " + trim(value) + " applies to booster = dart only (booster = " +
                                   p.booster + ")");
  ObjectiveKind const kind = objective_kind(p.objective);
  if (is_multiclass(kind) && p.num_class < 2)
    throw std::runtime_error("parameter num_class = " + std::to_string(p.num_class) + ": " + p.objective +
                             " needs num_class >= 2");
  if (kind == ObjectiveKind::kQuantile && p.quantile_alpha.empty())
    throw std::runtime_error("parameter objective = reg:quantileerror needs quantile_alpha (e.g. 0.5 or [0.1,0.5,0.9])");
  if (p.grow_policy == "depthwise" && p.max_depth == 0 && p.max_leaves == 0)
    throw std::runtime_error("parameter max_depth = 0: depthwise growth needs max_depth > 0 or max_leaves > 0");
  if (kind == ObjectiveKind::kPoisson && !p.max_delta_step_set) p.max_delta_step = 0.7f;
  return p;
}

std::map<std::string, std::string> read_config_file(std::string const& path, std::map<std::string, int>* key_lines) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open config file");
  std::map<std::string, std::string> out;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    // strip a comment (not inside double quotes)
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '"') quoted = !quoted;
      if (line[i] == '#' && !quoted) {
        line.resize(i);
        break;
      }
    }
    line = trim(line);
    if (line.empty()) continue;
    auto eq = line.find('=');
    if (eq == std::string::npos)
      throw std::runtime_error(path + ":" + std::to_string(lineno) + ": expected 'key = value', got '" + line + "'");
    std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (key.empty()) throw std::runtime_error(path + ":" + std::to_string(lineno) + ": empty key");
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    if (key_lines != nullptr) (*key_lines)[key] = lineno;
    if (key == "eval_metric" && out.count(key)) {
      out[key] += "," + value;
    } else {
      out[key] = value;
    }
  }
  return out;
}

ObjectiveParams objective_params(TrainParams const& p) {
  ObjectiveParams o;
  o.name = p.objective;
  o.num_class = p.num_class;
  o.scale_pos_weight = p.scale_pos_weight;
  o.tweedie_variance_power = p.tweedie_variance_power;
  o.huber_slope = p.huber_slope;
  o.poisson_max_delta_step = p.max_delta_step_set ? p.max_delta_step : 0.7f;
  o.quantile_alpha = p.quantile_alpha;
  o.lambdarank_pair_method = p.lambdarank_pair_method;
  o.lambdarank_num_pair_per_sample = p.lambdarank_num_pair_per_sample;
  o.lambdarank_normalization = p.lambdarank_normalization;
  o.lambdarank_score_normalization = p.lambdarank_score_normalization;
  o.lambdarank_bias_norm = p.lambdarank_bias_norm;
  o.ndcg_exp_gain = p.ndcg_exp_gain;
  o.aft_loss_distribution = p.aft_loss_distribution;
  o.aft_loss_distribution_scale = p.aft_loss_distribution_scale;
  return o;
}

std::string quantile_alpha_string(std::vector<float> const& alpha) {
  std::string s = "[";
  for (std::size_t i = 0; i < alpha.size(); ++i) s += (i ? "," : "") + upstream_float_string(alpha[i]);
  return s + "]";
}

std::string objective_config(TrainParams const& p, ObjectiveParams const& obj) {
  (void)p;
  nlohmann::json j = nlohmann::json::object();
  j["name"] = obj.name;
  switch (objective_kind(obj.name)) {
    case ObjectiveKind::kSquaredError:
    case ObjectiveKind::kLogistic:
    case ObjectiveKind::kLogitRaw:
    case ObjectiveKind::kGamma:
      j["reg_loss_param"] = {{"scale_pos_weight", param_float_string(obj.scale_pos_weight)}};
      break;
    case ObjectiveKind::kSoftprob:
    case ObjectiveKind::kSoftmax:
      j["softmax_multiclass_param"] = {{"num_class", std::to_string(obj.num_class)}};
      break;
    case ObjectiveKind::kPoisson:
      j["poisson_regression_param"] = {{"max_delta_step", param_float_string(obj.poisson_max_delta_step)}};
      break;
    case ObjectiveKind::kTweedie:
      j["tweedie_regression_param"] = {{"tweedie_variance_power", param_float_string(obj.tweedie_variance_power)}};
      break;
    case ObjectiveKind::kPseudoHuber:
      j["pseudo_huber_param"] = {{"huber_slope", param_float_string(obj.huber_slope)}};
      break;
    case ObjectiveKind::kQuantile:
      j["quantile_loss_param"] = {{"quantile_alpha", quantile_alpha_string(obj.quantile_alpha)}};
      break;
    case ObjectiveKind::kAft:
      j["aft_loss_param"] = {{"aft_loss_distribution", obj.aft_loss_distribution},
                             {"aft_loss_distribution_scale", param_float_string(obj.aft_loss_distribution_scale)}};
      break;
    case ObjectiveKind::kRank: {  // ltr::LambdaRankParam; an unset pair count is upstream's NotSet (uint32 max)
      auto const flag = [](bool b) { return std::string(b ? "1" : "0"); };
      j["lambdarank_param"] = {
          {"lambdarank_bias_norm", param_float_string(obj.lambdarank_bias_norm)},
          {"lambdarank_normalization", flag(obj.lambdarank_normalization)},
          {"lambdarank_num_pair_per_sample", obj.lambdarank_num_pair_per_sample > 0
                                                 ? std::to_string(obj.lambdarank_num_pair_per_sample)
                                                 : std::string("4294967295")},
          {"lambdarank_pair_method", obj.lambdarank_pair_method},
          {"lambdarank_score_normalization", flag(obj.lambdarank_score_normalization)},
          {"lambdarank_unbiased", "0"},
          {"ndcg_exp_gain", flag(obj.ndcg_exp_gain)}};
      break;
    }
    default: break;
  }
  return j.dump();
}

}  // namespace kboost
