/// `kboost train --data F [read options] --objective O --num-round N [--<xgboost param> value ...]
///  [--eval name=F ...] [--config file] --model-out M`
/// Trains on the default execution space and saves an XGBoost-loadable model (JSON, or UBJSON for
/// *.ubj). Parameters: XGBoost names (`--max_depth 6` or `--max-depth 6`); a config file holds
/// `key = value` lines as upstream's CLI; the command line overrides it. Unknown or out-of-range
/// parameters are errors naming the parameter (engine/params.hpp).
/// Under an MPI launcher (`mpirun -np N kboost train ...`) every rank reads its own rows of --data
/// (io/dataset_reader.hpp read_dataset_shard), or its own file when --data holds `{rank}`; eval sets are read whole by
/// every rank; rank 0 logs and writes the model and the checkpoints. The model is the same bytes
/// on any number of ranks (engine/booster.hpp).
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "read_options.hpp"
#include "train_params.hpp"
#include <kboost/core/atomic_file.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/engine/base_score.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/checkpoint.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/io/model_reader.hpp>

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

/// `path` with every "{rank}" replaced by `rank`.
std::string with_rank(std::string path, int rank) {
  for (auto at = path.find("{rank}"); at != std::string::npos; at = path.find("{rank}"))
    path.replace(at, 6, std::to_string(rank));
  return path;
}

/// This rank's rows of the training data: its own file (a `{rank}` pattern) or its shard of one
/// file (read_dataset_shard), with every rank's failure reported by every rank.
HostDMatrix read_training_rows(std::string const& data, ReadOptions ro, Collective& job) {
  bool const per_rank_files = data.find("{rank}") != std::string::npos;
  if (!per_rank_files) return read_dataset_shard(data, ro, job);
  std::string const path = with_rank(data, job.rank());
  HostDMatrix d;
  run_on_all_ranks(job, [&] { d = read_dataset(path, ro); });
  if (job.size() == 1) return d;
  // One file per rank: the same width everywhere, and no per-file text codes.
  std::uint64_t width = d.n_features;
  job.allreduce_max(&width, 1);
  run_on_all_ranks(job, [&] {
    if (!d.info.categories.empty() || !d.info.label_classes.empty())
      throw std::runtime_error(path + ": text columns are coded per file, so one file per rank cannot hold them "
                               "(give numeric codes, or one file that every rank reads its rows of)");
    if (d.n_features < width) {
      ro.num_features = width;
      d = read_dataset(path, ro);
    }
  });
  return d;
}

/// What a checkpoint must match to be resumed: the parameters (num_round aside: a job may be
/// resumed to run longer; nthread too), the data file and its shape.
std::string job_fingerprint(std::map<std::string, std::string> kv, std::string const& data, std::int64_t rows,
                            std::size_t features) {
  kv.erase("num_round");
  kv.erase("nthread");  // the bytes do not depend on the thread count
  std::string f = "data=" + data + ";rows=" + std::to_string(rows) + ";features=" + std::to_string(features);
  for (auto const& [k, v] : kv) f += ";" + k + "=" + v;
  return f;
}

/// The checkpoint to resume from, read by rank 0 and sent to every rank.
std::optional<Checkpoint> checkpoint_to_resume(std::string const& dir, Collective& job, bool quiet) {
  std::vector<char> bytes;
  std::string path;
  if (job.rank() == 0) {
    if (auto c = newest_checkpoint(dir, &std::cerr)) {
      path = c->first;
      bytes.assign(c->second.begin(), c->second.end());
    }
  }
  job.broadcast(bytes, 0);
  std::vector<char> name(path.begin(), path.end());
  job.broadcast(name, 0);
  if (bytes.empty()) {
    if (!quiet && job.rank() == 0) std::cout << "no checkpoint in " << dir << ": starting from round 0\n";
    return std::nullopt;
  }
  return parse_checkpoint(std::string(bytes.begin(), bytes.end()), std::string(name.begin(), name.end()));
}

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
      std::string const where = line == config_lines.end() ? "train: " : a.config + ":" + std::to_string(line->second) + ": ";
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
          throw std::runtime_error(a.config + ":" + std::to_string(line) + ": " + what);
      }
      throw;
    }
  };
  out.params = parse_with_lines();
  if ((!a.read.group_file.empty() || !a.read.qid_column.empty()) &&
      objective_kind(out.params.objective) != ObjectiveKind::kRank)
    throw std::runtime_error(std::string("train: ") + (a.read.group_file.empty() ? "--qid-column" : "--group-file") +
                             ": query groups apply to the rank:* objectives, not " + out.params.objective);
  if ((a.checkpoint_every > 0 || a.resume) && a.checkpoint_dir.empty())
    throw std::runtime_error(std::string("train: ") + (a.resume ? "--resume" : "--checkpoint-every") +
                             " needs --checkpoint-dir");
  return out;
}

int run(TrainArgs& a, CLI::App& sub) {
  Collective& comm = job();
  TrainSetup setup;
  run_on_all_ranks(comm, [&] { setup = parse_setup(a, sub); });  // the same error on every rank: said once
  // The leader writes the model: a path it cannot write fails now, not after training.
  run_on_all_ranks(comm, [&] {
    if (comm.rank() == 0) check_can_write(setup.model_out);
  });
  auto const& kv = setup.kv;
  TrainParams const& p = setup.params;
  std::string const& data = setup.data;
  std::string const& model_out = setup.model_out;
  std::vector<std::string> const& evals = setup.evals;


  HostDMatrix dtrain = read_training_rows(data, a.read, comm);
  // Labels the objective cannot take, named by file and row before any intercept is estimated.
  run_on_all_ranks(comm, [&] {
    if (dtrain.label.extent(0) > 0)
      check_labels(objective_params(p), dtrain.label.data(), dtrain.label.extent(0), with_rank(data, comm.rank()),
                   dtrain.info.first_row, dtrain.n_targets);
  });
  std::vector<std::pair<std::string, HostDMatrix>> eval_sets;
  for (auto const& e : evals) {
    auto eq = e.find('=');
    if (eq == std::string::npos || eq == 0) throw std::runtime_error("train: --eval expects name=file, got '" + e + "'");
    ReadOptions ro = a.read;
    ro.num_features = dtrain.n_features;
    ro.category_reference = &dtrain.info;  // same category and label-class codes as the training file
    // --weight-file/--group-file describe the training file's rows only; weight/qid columns still
    // apply (an eval file has the training file's layout), and --side-files reads each eval file's
    // own <file>.weight and <file>.group/.query.
    ro.weight_file.clear();
    ro.group_file.clear();
    run_on_all_ranks(comm, [&] { eval_sets.emplace_back(e.substr(0, eq), read_dataset(e.substr(eq + 1), ro)); });
  }
  Booster booster(Kokkos::DefaultExecutionSpace(), comm);
  bool const leader = comm.rank() == 0;
  std::string const fingerprint =
      job_fingerprint(kv, data, comm.sum(static_cast<std::int64_t>(dtrain.n_rows)), dtrain.n_features);
  std::optional<Checkpoint> resumed;
  if (a.resume) resumed = checkpoint_to_resume(a.checkpoint_dir, comm, a.quiet);
  if (resumed) {
    if (resumed->job != fingerprint)
      throw AgreedError("train: " + resumed->path + " was written by another job:\n  it:   " + resumed->job +
                        "\n  this: " + fingerprint);
    if (!a.quiet && leader)
      std::cout << "resuming from " << resumed->path << " (" << resumed->state.rounds_done << " rounds)\n";
    booster.continue_from(std::move(resumed->model), std::move(resumed->state));
  } else if (!a.model_in.empty()) {
    // Rank 0 reads the file once; every rank parses the same bytes (a bad model: one agreed error).
    std::vector<char> bytes;
    run_on_all_ranks(comm, [&] {
      if (!leader) return;
      std::ifstream in(a.model_in, std::ios::binary);
      if (!in) throw std::runtime_error(a.model_in + ": cannot open model file");
      bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    });
    comm.broadcast(bytes, 0);
    Model m;
    run_on_all_ranks(comm, [&] { m = parse_model(std::string(bytes.begin(), bytes.end()), a.model_in); });
    TrainState start;
    start.base_rounds = start.rounds_done = m.num_rounds();
    booster.continue_from(std::move(m), start);
  }
  if (a.checkpoint_every > 0 && leader) {
    booster.on_round([&](Model const& m, TrainState const& s) {
      if (s.rounds_done % a.checkpoint_every == 0 || s.finished)
        write_checkpoint(a.checkpoint_dir, m, s, fingerprint);
    });
  }
  booster.train(p, dtrain, eval_sets, a.quiet || !leader ? nullptr : &std::cout);
  if (leader) booster.save(model_out);
  if (!a.quiet && leader) std::cout << "saved " << booster.model().trees.size() << " trees to " << model_out << "\n";
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
  sub->add_option("--num-round,--num_round", args->num_round, "boosting rounds (>= 0, default 10)");
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
  add_param_options(*sub, args->params, {"objective", "num_round", "nthread"});
  add_upstream_cli_keys(*sub, args->cli_keys);
  return [args, sub] { return run(*args, *sub); };
}

}  // namespace kboost::cli
