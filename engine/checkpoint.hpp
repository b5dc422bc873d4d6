#pragma once
/// \file checkpoint.hpp
/// Checkpoints of a fit (`kboost train --checkpoint-every N --checkpoint-dir D`, `--resume`): the
/// model so far (upstream 3.x JSON, as save_model writes it) and the TrainState that a resumed fit
/// needs to make the same bytes as one never interrupted (rounds, early-stopping state, evaluation
/// log, and the draws of upstream's random engine that row and column sampling took). One file per checkpoint,
/// `D/checkpoint-<rounds, 8 digits>.json`, written atomically (core/atomic_file.hpp), the
/// newest `keep` kept. Upstream's nearest is its CLI's save_period/model_dir (model only; the
/// Python TrainingCheckPoint callback likewise), which cannot restore early stopping or the log.
#include <optional>
#include <string>
#include <vector>

#include <kboost/core/model.hpp>
#include <kboost/engine/booster.hpp>

namespace kboost {

/// A checkpoint read back: its file, what the job that wrote it was (`job`: a caller-defined
/// fingerprint, compared on resume), the model and the state.
struct Checkpoint {
  std::string path;
  std::string job;
  Model model;
  TrainState state;
};

/// The bytes of a checkpoint file (JSON: format, job, state with every double as its 64 bits in
/// hex so that NaN and the last ulp survive, and the model's upstream JSON as a string).
std::string checkpoint_bytes(Model const& model, TrainState const& state, std::string const& job);

/// Parses checkpoint_bytes' output. \throws std::runtime_error naming `source` and the field.
Checkpoint parse_checkpoint(std::string const& bytes, std::string const& source);

/// Writes `D/checkpoint-<state.rounds_done>.json` atomically (creating D), then removes all but the
/// newest `keep` checkpoint files of D and the temporary files of writers killed mid-write. \throws std::runtime_error naming the path on I/O errors.
void write_checkpoint(std::string const& dir, Model const& model, TrainState const& state, std::string const& job,
                      int keep = 3);

/// The newest checkpoint in `dir` that parses (a damaged one is reported to `log` and skipped),
/// as (path, bytes); nullopt when D holds none (or does not exist).
std::optional<std::pair<std::string, std::string>> newest_checkpoint(std::string const& dir, std::ostream* log);

}  // namespace kboost
