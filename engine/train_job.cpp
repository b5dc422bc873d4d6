/// \file train_job.cpp
/// Training jobs from files (engine/train_job.hpp): per-rank reading, eval sets, continued training,
/// checkpoints and resume.
#include <kboost/engine/train_job.hpp>

#include <cstring>
#include <optional>
#include <stdexcept>

#include <kboost/core/hash.hpp>
#include <kboost/core/read_file.hpp>
#include <kboost/engine/base_score.hpp>
#include <kboost/engine/booster.hpp>
#include <kboost/engine/checkpoint.hpp>
#include <kboost/io/model_reader.hpp>

namespace kboost {

std::string with_rank(std::string path, int rank) {
  for (auto at = path.find("{rank}"); at != std::string::npos; at = path.find("{rank}"))
    path.replace(at, 6, std::to_string(rank));
  return path;
}

std::string job_fingerprint(std::map<std::string, std::string> params, std::string const& data, std::int64_t rows,
                            std::size_t features) {
  params.erase("num_round");
  params.erase("nthread");
  std::string f = "data=" + data + ";rows=" + std::to_string(rows) + ";features=" + std::to_string(features);
  for (auto const& [k, v] : params) f += ";" + k + "=" + v;
  return f;
}

namespace {

/// Row `i`'s digest: its file row index, labels, weight and present (feature, value) pairs, so dense
/// and sparse storage of the same values agree.
std::uint64_t row_digest(HostDMatrix const& d, std::size_t i) {
  std::uint64_t const row = d.info.first_row + i;
  std::uint64_t h = fnv1a(&row, sizeof row, kFnv1aBasis);
  if (d.label.extent(0) > 0) h = fnv1a(&d.label(i * d.n_targets), d.n_targets * sizeof(float), h);
  if (d.weight.extent(0) > 0) h = fnv1a(&d.weight(i), sizeof(float), h);
  auto const cell = [&h](std::int32_t f, float v) {  // one multiply-xorshift step per present value
    if (std::isnan(v)) return;
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    h = mix64(h ^ ((static_cast<std::uint64_t>(static_cast<std::uint32_t>(f)) << 32) | bits));
  };
  if (d.is_sparse()) {
    if (d.csr.numRows() == 0) return h;  // rows that live on a device only
    auto const& rm = d.csr.graph.row_map;
    for (auto k = rm(i); k < rm(i + 1); ++k) cell(d.csr.graph.entries(k), d.csr.values(k));
  } else {
    for (std::size_t f = 0; f < d.n_features; ++f) cell(static_cast<std::int32_t>(f), d.dense(i, f));
  }
  return h;
}

}  // namespace

std::string data_digest(HostDMatrix const& d, Collective& comm) {
  // the rows' digests summed in four 16-bit limbs: the same sums whatever rank holds which rows
  std::int64_t limbs[4] = {0, 0, 0, 0};
  for (std::size_t i = 0; i < d.n_rows; ++i) {
    std::uint64_t const h = row_digest(d, i);
    for (int k = 0; k < 4; ++k) limbs[k] += static_cast<std::int64_t>((h >> (16 * k)) & 0xffffu);
  }
  comm.allreduce_sum(limbs, 4);
  std::uint64_t all = kFnv1aBasis;
  for (std::int64_t l : limbs) all = fnv1a(&l, sizeof l, all);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(all));
  return buf;
}

HostDMatrix read_training_rows(std::string const& data, ReadOptions ro, Collective& comm) {
  bool const per_rank_files = data.find("{rank}") != std::string::npos;
  if (!per_rank_files) return read_dataset_shard(data, ro, comm);
  std::string const path = with_rank(data, comm.rank());
  HostDMatrix d;
  run_on_all_ranks(comm, [&] { d = read_dataset(path, ro); });
  if (comm.size() == 1) return d;
  std::uint64_t width = d.n_features;
  comm.allreduce_max(&width, 1);
  run_on_all_ranks(comm, [&] {
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

namespace {

bool flag_value(std::string const& key, std::string const& v) {
  if (v != "0" && v != "1") throw std::runtime_error("job key " + key + " = " + v + ": not a boolean (0/1)");
  return v == "1";
}

int rounds_value(std::string const& key, std::string const& v) {
  std::size_t used = 0;
  int n = -1;
  try {
    n = std::stoi(v, &used);
  } catch (std::exception const&) {
    used = 0;
  }
  if (used != v.size() || n < 0) throw std::runtime_error("job key " + key + " = " + v + ": not a count of rounds (>= 0)");
  return n;
}

UnseenCategory unseen_category_value(std::string const& key, std::string const& v) {
  if (v == "error") return UnseenCategory::kError;
  if (v == "missing") return UnseenCategory::kMissing;
  throw std::runtime_error("job key " + key + " = " + v + ": expected 'error' or 'missing'");
}

}  // namespace

TrainJob train_job_from_keys(std::string data, std::map<std::string, std::string>& keys) {
  TrainJob job;
  job.data = std::move(data);
  std::map<std::string, std::string*> const text_keys{
      {"label_column", &job.read.label_column}, {"format", &job.read.format},
      {"weight_column", &job.read.weight_column}, {"qid_column", &job.read.qid_column},
      {"group_file", &job.read.group_file},       {"model_in", &job.model_in},
      {"checkpoint_dir", &job.checkpoint_dir}};
  for (auto it = keys.begin(); it != keys.end();) {
    auto const& [key, value] = *it;
    if (auto t = text_keys.find(key); t != text_keys.end()) *t->second = value;
    else if (key == "header") job.read.header = flag_value(key, value);
    else if (key == "resume") job.resume = flag_value(key, value);
    else if (key == "checkpoint_every") job.checkpoint_every = rounds_value(key, value);
    else if (key == "unseen_category") job.read.unseen_category = unseen_category_value(key, value);
    else if (key.rfind("eval:", 0) == 0 && key.size() > 5) job.evals.emplace_back(key.substr(5), value);
    else {
      ++it;
      continue;
    }
    it = keys.erase(it);
  }
  job.given_params = keys;
  return job;
}

namespace {

/// The eval sets, each read whole by every rank with the training file's feature count and codes.
/// --weight-file/--group-file describe the training file's rows only; weight/qid columns still apply
/// (an eval file has the training file's layout), and side files are each eval file's own.
std::vector<std::pair<std::string, HostDMatrix>> read_eval_sets(TrainJob const& job, HostDMatrix const& dtrain,
                                                                Collective& comm) {
  std::vector<std::pair<std::string, HostDMatrix>> sets;
  for (auto const& [name, file] : job.evals) {
    ReadOptions ro = job.read;
    ro.num_features = dtrain.n_features;
    ro.category_reference = &dtrain.info;
    ro.weight_file.clear();
    ro.group_file.clear();
    run_on_all_ranks(comm, [&, &name = name, &file = file] { sets.emplace_back(name, read_dataset(file, ro)); });
  }
  return sets;
}

/// The checkpoint to resume from, read by rank 0 and sent to every rank.
std::optional<Checkpoint> checkpoint_to_resume(std::string const& dir, Collective& comm, std::ostream* log,
                                               std::ostream* warnings) {
  std::vector<char> bytes;
  std::string path;
  if (comm.rank() == 0) {
    if (auto c = newest_checkpoint(dir, warnings)) {
      path = c->first;
      bytes.assign(c->second.begin(), c->second.end());
    }
  }
  comm.broadcast(bytes, 0);
  std::vector<char> name(path.begin(), path.end());
  comm.broadcast(name, 0);
  if (bytes.empty()) {
    if (log) *log << "no checkpoint in " << dir << ": starting from round 0\n";
    return std::nullopt;
  }
  return parse_checkpoint(std::string(bytes.begin(), bytes.end()), std::string(name.begin(), name.end()));
}

/// The model of `path`, read once by rank 0; every rank parses the same bytes (a bad model: one
/// agreed error).
Model model_on_every_rank(std::string const& path, Collective& comm) {
  std::vector<char> bytes;
  run_on_all_ranks(comm, [&] {
    if (comm.rank() != 0) return;
    std::string const file = read_file(path, "model file");
    bytes.assign(file.begin(), file.end());
  });
  comm.broadcast(bytes, 0);
  Model m;
  run_on_all_ranks(comm, [&] { m = parse_model(std::string(bytes.begin(), bytes.end()), path); });
  return m;
}

/// Where the fit starts: the newest checkpoint (when resuming and one exists; it must come from this
/// job), else the model to continue, else nothing.
void set_starting_point(Booster& booster, TrainJob const& job, std::string const& fingerprint, Collective& comm,
                        std::ostream* log, std::ostream* warnings) {
  std::optional<Checkpoint> resumed;
  if (job.resume) resumed = checkpoint_to_resume(job.checkpoint_dir, comm, log, warnings);
  if (resumed) {
    if (resumed->job != fingerprint)
      throw AgreedError("train: " + resumed->path + " was written by another job:\n  it:   " + resumed->job +
                        "\n  this: " + fingerprint);
    if (log) *log << "resuming from " << resumed->path << " (" << resumed->state.rounds_done << " rounds)\n";
    booster.continue_from(std::move(resumed->model), std::move(resumed->state));
  } else if (!job.model_in.empty()) {
    Model m = model_on_every_rank(job.model_in, comm);
    TrainState start;
    start.base_rounds = start.rounds_done = m.num_rounds();
    booster.continue_from(std::move(m), start);
  }
}

/// What reading changed that the user should know: text labels read as class codes (to `log`), and
/// the eval files' categories that the training file lacks (to `warnings`).
void report_reading(HostDMatrix const& dtrain, std::vector<std::pair<std::string, HostDMatrix>> const& eval_sets,
                    std::ostream* log, std::ostream* warnings) {
  auto const& classes = dtrain.info.label_classes;
  if (log != nullptr && !classes.empty()) {
    *log << dtrain.info.source << ": the label column holds text, read as class codes:";
    std::size_t const shown = std::min<std::size_t>(classes.size(), 20);
    for (std::size_t k = 0; k < shown; ++k) *log << (k ? ", " : " ") << "'" << classes[k] << "' = " << k;
    if (shown < classes.size()) *log << ", ... (" << classes.size() - shown << " more)";
    *log << " (sorted; predictions are in these codes)\n";
  }
  if (warnings == nullptr) return;
  for (auto const& set : eval_sets)
    for (auto const& note : unseen_category_notes(set.second.info)) *warnings << "kboost: warning: " << note << "\n";
}

}  // namespace

namespace {

/// Upstream's Booster continued from a model keeps the model's objective: a job that continues one
/// and names no objective of its own trains with the model's (and its num_class).
TrainParams params_with_model_objective(TrainJob const& job, TrainParams const& params, Collective& comm) {
  if (job.model_in.empty() || job.given_params.count("objective") != 0) return params;
  Model const m = model_on_every_rank(job.model_in, comm);
  if (m.objective == params.objective) return params;
  std::map<std::string, std::string> kv = job.given_params;
  kv["objective"] = m.objective;
  if (m.num_class > 0 && kv.count("num_class") == 0) kv["num_class"] = std::to_string(m.num_class);
  return parse_params(kv);
}

}  // namespace

Model run_train_job(TrainJob const& job, TrainParams const& given, Collective& comm, std::ostream* log,
                    std::ostream* warnings) {
  TrainParams const params = params_with_model_objective(job, given, comm);
  if (!job.checkpoint_dir.empty() && job.checkpoint_every == 0 && !job.resume)
    throw std::runtime_error("train: a checkpoint directory without checkpoint_every (--checkpoint-every N) or "
                             "resume writes and reads nothing");
  if ((job.checkpoint_every > 0 || job.resume) && job.checkpoint_dir.empty())
    throw std::runtime_error(std::string("train: ") + (job.resume ? "resume" : "checkpoint_every") + " needs a checkpoint directory");
  HostDMatrix dtrain = read_training_rows(job.data, job.read, comm);
  // Labels the objective cannot take, named by file and row before any intercept is estimated.
  run_on_all_ranks(comm, [&] {
    if (dtrain.label.extent(0) > 0)
      check_labels(objective_params(params), dtrain.label.data(), dtrain.label.extent(0), with_rank(job.data, comm.rank()),
                   dtrain.info.first_row, dtrain.n_targets);
  });
  auto const eval_sets = read_eval_sets(job, dtrain, comm);
  if (comm.rank() == 0) report_reading(dtrain, eval_sets, log, warnings);
  Booster booster(Kokkos::DefaultExecutionSpace(), comm);
  bool const checkpoints = job.checkpoint_every > 0 || job.resume;  // the fingerprint's only use
  std::string const fingerprint =
      checkpoints ? job_fingerprint(job.given_params, job.data, comm.sum(static_cast<std::int64_t>(dtrain.n_rows)),
                                    dtrain.n_features) +
                        ";content=" + data_digest(dtrain, comm)
                  : std::string();
  set_starting_point(booster, job, fingerprint, comm, log, warnings);
  if (job.checkpoint_every > 0 && comm.rank() == 0) {
    booster.on_round([&](Model const& m, TrainState const& s) {
      if (s.rounds_done % job.checkpoint_every == 0 || s.finished) write_checkpoint(job.checkpoint_dir, m, s, fingerprint);
    });
  }
  booster.train(params, dtrain, eval_sets, log);
  return booster.model();
}

}  // namespace kboost
