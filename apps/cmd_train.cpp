/// `kboost train --data F [read options] --objective O --num-round N [--<xgboost param> value ...]
///  [--eval name=F ...] [--config file] --model-out M`
/// Trains on the default execution space and saves an XGBoost-loadable model (JSON, or UBJSON for
/// *.ubj). Parameters: XGBoost names (`--max_depth 6` or `--max-depth 6`); a config file holds
/// `key = value` lines as upstream's CLI; the command line overrides it. Unknown or out-of-range
/// parameters are errors naming the parameter (engine/params.hpp).
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "read_options.hpp"
#include <kboost/io/dataset_reader.hpp>
#include <kboost/engine/base_score.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/params.hpp>

namespace kboost::cli {
namespace {

struct TrainArgs {
  std::string data, config, model_out, objective;
  std::string num_round;  ///< as given ("" = not given); parse_params checks it (num_round >= 0)
  std::vector<std::string> evals;
  ReadOptions read;
  bool quiet = false;
};

/// `--key value` / `--key=value` pairs left over by CLI11 -> map (dashes in keys become '_').
std::map<std::string, std::string> extra_params(std::vector<std::string> const& rest) {
  std::map<std::string, std::string> out;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    std::string a = rest[i];
    if (a.rfind("--", 0) != 0) throw std::runtime_error("train: unexpected argument '" + a + "'");
    a = a.substr(2);
    std::string value;
    auto eq = a.find('=');
    if (eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
    } else {
      if (i + 1 >= rest.size()) throw std::runtime_error("train: parameter --" + a + " needs a value");
      value = rest[++i];
    }
    for (char& c : a)
      if (c == '-') c = '_';
    if (a == "eval_metric" && out.count(a))  // repeated --eval_metric accumulates, as in config files
      out[a] += "," + value;
    else
      out[a] = value;
  }
  return out;
}

int run(TrainArgs const& a, std::vector<std::string> const& rest) {
  std::map<std::string, std::string> kv;
  std::map<std::string, int> config_lines;
  if (!a.config.empty()) kv = read_config_file(a.config, &config_lines);
  for (auto const& [k, v] : extra_params(rest)) {
    kv[k] = v;
    config_lines.erase(k);  // given on the command line: an error in it is not the config file's
  }
  if (!a.objective.empty()) kv["objective"] = a.objective;
  if (!a.num_round.empty()) {
    kv["num_round"] = a.num_round;
    config_lines.erase("num_round");
  }
  // The config-file keys of upstream's CLI that name files, not parameters.
  std::string data = a.data, model_out = a.model_out;
  std::vector<std::string> evals = a.evals;
  for (char const* k : {"data", "model_out", "task", "eval_train", "save_period", "model_dir", "name_pred", "test_path"}) {
    auto it = kv.find(k);
    if (it == kv.end()) continue;
    if (std::string(k) == "data" && data.empty()) data = it->second;
    if (std::string(k) == "model_out" && model_out.empty()) model_out = it->second;
    if (std::string(k) == "task" && it->second != "train")
      throw std::runtime_error("train: config parameter task = " + it->second + " (only 'train' here)");
    kv.erase(it);
  }
  for (auto it = kv.begin(); it != kv.end();) {
    if (it->first.rfind("eval[", 0) == 0 && it->first.back() == ']') {  // upstream CLI: eval[name] = file
      evals.push_back(it->first.substr(5, it->first.size() - 6) + "=" + it->second);
      it = kv.erase(it);
    } else {
      ++it;
    }
  }
  if (data.empty()) throw std::runtime_error("train: --data is required");
  if (model_out.empty()) throw std::runtime_error("train: --model-out is required");
  // A bad key or value that came from the config file: name the file and line.
  auto const parse_with_lines = [&]() {
    try {
      return parse_params(kv);
    } catch (std::runtime_error const& e) {
      std::string const what = e.what();
      for (auto const& [k, line] : config_lines) {
        if (kv.count(k) == 0) continue;
        if (what.rfind("parameter " + k + " =", 0) == 0 || what.rfind("unknown parameter '" + k + "'", 0) == 0)
          throw std::runtime_error(a.config + ":" + std::to_string(line) + ": " + what);
      }
      throw;
    }
  };
  TrainParams const p = parse_with_lines();

  HostDMatrix dtrain = read_dataset(data, a.read);
  // Labels the objective cannot take, named by file and row before any intercept is estimated.
  if (dtrain.label.extent(0) > 0)
    check_labels(objective_params(p), dtrain.label.data(), dtrain.label.extent(0), data);
  std::vector<std::pair<std::string, HostDMatrix>> eval_sets;
  for (auto const& e : evals) {
    auto eq = e.find('=');
    if (eq == std::string::npos || eq == 0) throw std::runtime_error("train: --eval expects name=file, got '" + e + "'");
    ReadOptions ro = a.read;
    ro.num_features = dtrain.n_features;
    ro.category_reference = &dtrain.info;  // same category and label-class codes as the training file
    // --weight-file/--group-file (and <data>.weight/.group) describe the training file's rows only;
    // weight/qid columns still apply (an eval file has the training file's layout).
    ro.weight_file.clear();
    ro.group_file.clear();
    ro.auto_side_files = false;
    eval_sets.emplace_back(e.substr(0, eq), read_dataset(e.substr(eq + 1), ro));
  }
  Booster booster;
  booster.train(p, dtrain, eval_sets, a.quiet ? nullptr : &std::cout);
  booster.save(model_out);
  if (!a.quiet) std::cout << "saved " << booster.model().trees.size() << " trees to " << model_out << "\n";
  return 0;
}

}  // namespace

Runner add_train(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  CLI::App* sub = app.add_subcommand("train", "train a gradient-boosted tree model (XGBoost hist, GPU semantics)");
  sub->allow_extras();
  sub->add_option("--data", args->data, "REQUIRED (or data in --config): training data file");
  sub->add_option("--objective", args->objective, "objective, e.g. binary:logistic, reg:squarederror");
  sub->add_option("--num-round,--num_round", args->num_round, "boosting rounds (>= 0, default 10)");
  sub->add_option("--eval", args->evals, "name=file, scored after every round (repeatable)");
  sub->add_option("--config", args->config, "XGBoost CLI style config file (key = value lines)");
  sub->add_option("--model-out,--model_out", args->model_out,
                  "REQUIRED (or model_out in --config): output model (.json, or .ubj for UBJSON)");
  sub->footer(
      "Any XGBoost training parameter can be given as --name value or --name=value (e.g. --max_depth 6,\n"
      "--eta 0.3, --eval_metric auc; dashes and underscores are the same; --eval_metric repeats accumulate).");
  sub->add_flag("--quiet", args->quiet, "no per-round evaluation lines or phase times");
  add_read_options(sub, args->read);
  return [args, sub] { return run(*args, sub->remaining()); };
}

}  // namespace kboost::cli
