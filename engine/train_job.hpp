#pragma once
/// \file train_job.hpp
/// A whole training job from files, as `kboost train` runs it, for C++ (and, through
/// kboost_train_job, C and Fortran) callers: every rank reads its own rows, eval sets are read
/// with the training file's codes, a fit continues from a model file or resumes from the newest
/// checkpoint, and checkpoints are written every N rounds, with the same model bytes on any rank
/// count and after any restart. Upstream's counterpart is its CLI's training task (src/cli_main.cc
/// CLI::CLITrain, with save_period/model_dir for checkpoints, which cannot restore early stopping
/// or the evaluation log); kboost's checkpoints hold the whole TrainState (engine/checkpoint.hpp).
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <kboost/core/collective.hpp>
#include <kboost/core/model.hpp>
#include <kboost/engine/params.hpp>
#include <kboost/io/dataset_reader.hpp>

namespace kboost {

/// What a training job reads and writes besides its parameters.
struct TrainJob {
  /// Training data file; with "{rank}" in it, one file per rank (each rank reads its own),
  /// otherwise each rank reads its shard of the one file (read_dataset_shard).
  std::string data;
  ReadOptions read;                                        ///< how to read data and the eval files
  std::vector<std::pair<std::string, std::string>> evals;  ///< (name, file), scored after every round
  /// The parameters as given (name -> text): with data and its shape, the fingerprint a resumed
  /// checkpoint must match (num_round and nthread aside).
  std::map<std::string, std::string> given_params;
  std::string model_in;        ///< continue training this model ("" = from scratch)
  std::string checkpoint_dir;  ///< where checkpoints go and are resumed from
  int checkpoint_every = 0;    ///< a checkpoint every N rounds and at the end (0 = none)
  bool resume = false;         ///< continue from the newest readable checkpoint in checkpoint_dir
};

/// A job from string keys, as the C ABI's kboost_train_job takes it: the job keys are taken out of
/// `keys` (what remains are training parameters, and `given_params` is set to them):
///   label_column, format, weight_column, qid_column, group_file (ReadOptions' fields of those
///   names), header ("1" / "0"), eval:<name> (a file scored after every round), model_in,
///   checkpoint_dir, checkpoint_every (rounds, >= 0), resume ("1" / "0"), unseen_category
///   ("error" / "missing": ReadOptions::unseen_category for the eval files).
/// \throws std::runtime_error naming the key when a value is not what the key takes.
TrainJob train_job_from_keys(std::string data, std::map<std::string, std::string>& keys);

/// "{rank}" in `path` replaced by `rank`.
std::string with_rank(std::string path, int rank);

/// What a checkpoint must match to be resumed: the parameters (num_round aside: a job may be
/// resumed to run longer; nthread too: the bytes do not depend on it), the data file and its shape.
std::string job_fingerprint(std::map<std::string, std::string> params, std::string const& data, std::int64_t rows,
                            std::size_t features);

/// This rank's rows of the training data: its own file (a "{rank}" pattern; every file then has
/// the job's widest width and no text columns) or its shard of one file. \throws AgreedError on
/// every rank when any rank fails to read.
HostDMatrix read_training_rows(std::string const& data, ReadOptions ro, Collective& comm);

/// A digest of the training rows (labels, weights, feature values; each rank's shard in rank order),
/// 16 hex digits, the same on every rank: part of a checkpoint's job fingerprint, so a checkpoint
/// is not resumed on a data file whose values changed under the same name and shape.
std::string data_digest(HostDMatrix const& d, Collective& comm);

/// Runs `job` with `params` on the default execution space on every rank of `comm` (all ranks
/// call it with the same arguments) and returns the trained model, the same bytes on every rank.
/// Rank 0 writes the checkpoints; per-round evaluation lines and progress messages go to `log`
/// (pass nullptr on other ranks or for quiet runs), damaged checkpoints skipped on resume are
/// reported to `warnings`.
/// \throws AgreedError (on every rank) for unreadable data, labels the objective refuses, a model
///         or checkpoint that does not parse, or a checkpoint written by another job; the errors of
///         Booster::train.
Model run_train_job(TrainJob const& job, TrainParams const& params, Collective& comm, std::ostream* log,
                    std::ostream* warnings);

}  // namespace kboost
