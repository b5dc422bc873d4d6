/// `kboost train --data F [read options] --objective O --num-round N [--<xgboost param> value ...]
///  [--eval name=F ...] [--config file] --model-out M`
/// Trains on the default execution space and saves an XGBoost-loadable model (JSON, or UBJSON for
/// *.ubj). Parameters: XGBoost names (`--max_depth 6` or `--max-depth 6`); a config file holds
/// `key = value` lines as upstream's CLI; the command line overrides it. Unknown or out-of-range
/// parameters are errors naming the parameter (engine/params.hpp).
/// The job itself (each rank's rows under an MPI launcher, eval sets, --model-in, checkpoints and
/// --resume) is engine/train_job.hpp's run_train_job; this file turns the command line and config
/// file into it. Rank 0 logs and writes the model. The model is the same bytes on any number of
/// ranks (engine/booster.hpp).
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "read_options.hpp"
#include "train_params.hpp"
#include <kboost/core/atomic_file.hpp>
#include <kboost/core/read_file.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/objective/objective.hpp>
#include <kboost/engine/train_job.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/io/model_writer.hpp>

namespace kboost::cli {
namespace {

struct TrainArgs {
  std::string data, config, model_out, objective;
  std::string num_round;  ///< as given ("" = not given); parse_params checks it (num_round >= 0)
  std::vector<std::string> evals;
  ReadOptions read;
  bool quiet = false;
  std::string model_in, checkpoint_dir;
  int checkpoint_every = 0;
  bool resume = false;
  int* threads_ptr = nullptr;  ///< main's host thread count (Kokkos starts with it)
  int threads = 0;             ///< read back from threads_ptr when the command runs
  std::map<std::string, std::string> params;    ///< training parameters given (name -> value)
  std::map<std::string, std::string> cli_keys;  ///< upstream CLI keys that are not parameters
};

/// The parameters, files and eval sets of a train command line (with its config file).
struct TrainSetup {
  std::map<std::string, std::string> kv;  ///< parameters as given (checkpoint fingerprints)
  TrainParams params;
  std::string data, model_out;
  std::vector<std::string> evals;
};

TrainSetup parse_setup(TrainArgs& a, CLI::App& sub) {
  TrainSetup out;
  std::map<std::string, int> config_lines;  // keys the config file set (the command line did not)
  if (!a.config.empty()) config_lines = apply_config_file(sub, a.config);
  refuse_unknown_arguments(sub);
  a.threads = *a.threads_ptr;
  auto& kv = out.kv;
  kv = a.params;
  if (!a.objective.empty()) kv["objective"] = a.objective;
  if (a.threads > 0) kv["nthread"] = std::to_string(a.threads);
  if (!a.num_round.empty()) kv["num_round"] = a.num_round;
  out.data = a.data;
  out.model_out = a.model_out;
  out.evals = a.evals;
  bool eval_train = false;
  for (auto const& [key, value] : a.cli_keys) {
    auto const refuse = [&, key = key, value = value](std::string const& why) -> void {
      auto const line = config_lines.find(key);
      std::string const where =
          line == config_lines.end() ? "train: " : source_name(a.config) + ":" + std::to_string(line->second) + ": ";
      throw std::runtime_error(where + "parameter " + key + " = " + value + ": " + why);
    };
    if (key == "task" && value != "train") refuse("kboost train runs task = train only (kboost predict predicts)");
    if (key == "eval_train") {
      if (value != "0" && value != "1") refuse("not a boolean (0/1)");
      eval_train = value == "1";
    }
    if (key == "save_period" && value != "0")
      refuse("kboost writes resumable checkpoints instead of per-round models: --checkpoint-every N --checkpoint-dir D");
    if (key == "model_dir") refuse("kboost writes one model, to model_out (and checkpoints to --checkpoint-dir)");
    if (key == "name_pred" || key == "test_path") refuse("applies to task = pred: use kboost predict");
  }
  if (eval_train) {  // upstream's CLI (1.x cli_main.cc) scores the training data last, as "train"
    if (out.data.find("{rank}") != std::string::npos)
      throw std::runtime_error("train: eval_train = 1 with one data file per rank: give the file as an --eval set");
    out.evals.push_back("train=" + out.data);
  }
  if (out.data.empty()) throw std::runtime_error("train: --data is required");
  if (out.model_out.empty()) throw std::runtime_error("train: --model-out is required");
  // A bad key or value that came from the config file: name the file and line.
  auto const parse_with_lines = [&]() {
    try {
      TrainParams p = parse_params(kv);
      detail::check_device_and_threads(p, Kokkos::DefaultExecutionSpace());  // before any data is read
      return p;
    } catch (std::runtime_error const& e) {
      std::string const what = e.what();
      for (auto const& [k, line] : config_lines) {
        if (kv.count(k) == 0) continue;
        if (what.rfind("parameter " + k + " =", 0) == 0 || what.rfind("unknown parameter '" + k + "'", 0) == 0)
          throw std::runtime_error(source_name(a.config) + ":" + std::to_string(line) + ": " + what);
      }
      throw;
    }
  };
  out.params = parse_with_lines();
  if ((!a.read.group_file.empty() || !a.read.qid_column.empty()) &&
      !objective_family(out.params.objective).capabilities().query_groups)
    throw std::runtime_error(std::string("train: ") + (a.read.group_file.empty() ? "--qid-column" : "--group-file") +
                             ": query groups apply to the rank:* objectives, not " + out.params.objective);
  if ((a.checkpoint_every > 0 || a.resume) && a.checkpoint_dir.empty())
    throw std::runtime_error(std::string("train: ") + (a.resume ? "--resume" : "--checkpoint-every") +
                             " needs --checkpoint-dir");
  return out;
}

/// The job as the engine runs it: --eval name=file pairs split, the reading and checkpoint options.
TrainJob train_job(TrainArgs const& a, TrainSetup const& setup) {
  TrainJob job;
  job.data = setup.data;
  job.read = a.read;
  for (auto const& e : setup.evals) {
    auto const eq = e.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == e.size())
      throw std::runtime_error("train: --eval expects name=file, got '" + e + "'");
    job.evals.emplace_back(e.substr(0, eq), e.substr(eq + 1));
  }
  std::vector<std::pair<std::string, std::string>> inputs{{"--data", job.data}, {"--config", a.config},
                                                          {"--model-in", job.model_in}};
  for (auto const& [name, file] : job.evals) inputs.emplace_back("--eval " + name + "=", file);
  at_most_one_standard_input(inputs);
  refuse_output_over_input("--model-out", setup.model_out, inputs);
  job.given_params = setup.kv;
  job.model_in = a.model_in;
  job.checkpoint_dir = a.checkpoint_dir;
  job.checkpoint_every = a.checkpoint_every;
  job.resume = a.resume;
  return job;
}

/// After early stopping: the model keeps the rounds past its best one (as upstream's does), so say
/// how to predict with the best.
void print_best_iteration_hint(Model const& model, std::string const& path) {
  auto const it = model.attributes.find("best_iteration");
  if (it == model.attributes.end()) return;
  int const best = std::stoi(it->second);
  if (best + 1 >= model.num_rounds()) return;
  std::cout << "early stopping kept all " << model.num_rounds() << " rounds; the best is round " << best
            << ": predict with it by kboost predict --model " << path << " --iteration-range 0:" << best + 1
            << " ... (upstream: iteration_range=(0, best_iteration + 1))\n";
}

int run(TrainArgs& a, CLI::App& sub) {
  Collective& comm = job();
  TrainSetup setup;
  run_on_all_ranks(comm, [&] { setup = parse_setup(a, sub); });  // the same error on every rank: said once
  // The leader writes the model: a path it cannot write fails now, not after training.
  bool const leader = comm.rank() == 0;
  run_on_all_ranks(comm, [&] {
    if (leader && setup.model_out == "-")
      throw std::runtime_error("train: --model-out -: a model goes to a file (standard output carries the metrics)");
    if (leader) check_can_write(setup.model_out);
  });
  Model const model = run_train_job(train_job(a, setup), setup.params, comm, a.quiet || !leader ? nullptr : &std::cout,
                                    &std::cerr);
  if (leader) save_model(model, setup.model_out);
  if (!a.quiet && leader) {
    std::cout << "saved " << model.trees.size() << " trees to " << setup.model_out << "\n";
    print_best_iteration_hint(model, setup.model_out);
  }
  return 0;
}

/// upstream's CLI config keys that are not training parameters (src/cli_main.cc CLIParam): task,
/// eval_train (honoured), save_period, model_dir, name_pred, test_path (refused by parse_setup).
void add_upstream_cli_keys(CLI::App& sub, std::map<std::string, std::string>& keys) {
  struct Key {
    char const* name;
    char const* type;
    char const* help;
  };
  for (Key const& k : {Key{"task", "{train}", "train only (kboost predict predicts)"},
                       Key{"eval_train", "BOOL (0/1)", "1: score the training data too, as the last eval set \"train\""},
                       Key{"save_period", "0", "refused unless 0: use --checkpoint-every"},
                       Key{"model_dir", "DIR", "refused: the model goes to --model-out"},
                       Key{"name_pred", "FILE", "refused: applies to task = pred (kboost predict)"},
                       Key{"test_path", "FILE", "refused: applies to task = pred (kboost predict)"}}) {
    std::string const name = k.name;
    sub.add_option_function<std::string>("--" + name, [&keys, name](std::string const& v) { keys[name] = v; }, k.help)
        ->group("XGBoost CLI config keys")
        ->type_name(k.type);
  }
}

}  // namespace

Runner add_train(CLI::App& app, int* threads) {
  auto args = std::make_shared<TrainArgs>();
  args->threads_ptr = threads;
  CLI::App* sub = app.add_subcommand("train", "train a gradient-boosted tree model (XGBoost hist, GPU semantics)");
  sub->allow_extras();
  sub->add_option("--data", args->data, "REQUIRED (or data in --config): training data file");
  sub->add_option("--objective", args->objective, "objective, e.g. binary:logistic, reg:squarederror");
  sub->add_option("--num-round,--num_round", args->num_round, "boosting rounds (>= 0, default 10)")
      ->type_name("INT >= 0");
  sub->add_option("--eval", args->evals, "name=file, scored after every round (repeatable)");
  sub->add_option("--config", args->config,
                  "XGBoost CLI config file: `key = value` lines (any option below, by its name; eval[name] = file); "
                  "the command line wins");
  sub->add_option("--model-out,--model_out", args->model_out,
                  "REQUIRED (or model_out in --config): output model (.json, or .ubj for UBJSON)");
  sub->footer("Parameters take XGBoost's names, with '_' or '-' (--max_depth 6, --max-depth=6); --eval_metric\n"
              "repeats accumulate. An unknown or out-of-range parameter is an error naming it.");
  sub->add_flag("--quiet", args->quiet, "no per-round evaluation lines or phase times");
  sub->add_option("--model-in,--model_in", args->model_in,
                  "continue training this model (kboost or XGBoost JSON/UBJSON; upstream's xgb_model): "
                  "num_round more rounds on top of its trees, with its base score");
  sub->add_option("--checkpoint-every", args->checkpoint_every,
                  "write a checkpoint every N rounds (and when early stopping ends the fit) to --checkpoint-dir")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--checkpoint-dir", args->checkpoint_dir, "checkpoint directory (the newest 3 are kept)");
  sub->add_flag("--resume", args->resume,
                "continue from the newest checkpoint in --checkpoint-dir (from round 0 when there is none); "
                "the model is the bytes of a run never interrupted");
  // Host threads are fixed when Kokkos starts, before the command runs: main reads this option.
  sub->add_option("--nthread,--threads", *threads, "host threads (upstream's nthread; default: OMP_NUM_THREADS)")
      ->check(CLI::Range(0, compat::max_host_threads()));
  add_read_options(sub, args->read);
  add_unseen_category_option(sub, args->read);
  add_param_options(*sub, args->params, {"objective", "num_round", "nthread"});
  add_upstream_cli_keys(*sub, args->cli_keys);
  return [args, sub] { return run(*args, *sub); };
}

}  // namespace kboost::cli
