#pragma once
/// \file atomic_file.hpp
/// Atomic file writes: everything kboost writes (models, predictions, the tune store) goes to a
/// temporary file in the target's directory and is renamed into place, so a reader never sees a
/// half-written file and a failed write leaves the old file intact.
#include <string>

namespace kboost {

/// Where a write to output path `path` goes. A path that names a character device or FIFO
/// (`/dev/null`, `/dev/stdout`, a named pipe), directly or through symbolic links, is written in
/// place under its own name; a symbolic link to a file (or to nothing yet) is followed, so the file
/// it points to is replaced and the link stays a link; any other path is itself.
std::string write_target(std::string const& path);

/// Whether `target` (from write_target) is an existing character device, FIFO or socket: written in
/// place, since renaming a temporary file onto it would replace the device node or pipe by a file.
bool writes_in_place(std::string const& target);

/// Temporary path beside `path` (same directory, so the rename is atomic): `path.tmp.<pid>`.
std::string temp_path_for(std::string const& path);

/// Renames `tmp` onto `path`. On failure removes `tmp` and throws std::runtime_error naming `path`.
void commit_temp_file(std::string const& tmp, std::string const& path);

/// Writes `bytes` to `path` atomically (temp_path_for + commit_temp_file on its write_target; a device
/// or FIFO is written in place). Throws std::runtime_error naming `path` when the temporary file
/// cannot be written or renamed (`path` is then unchanged) or a device or FIFO refuses the bytes.
void write_file_atomic(std::string const& path, std::string const& bytes);

/// Checks, before a long run, that a file can later be written at `path` the way write_file_atomic
/// does it: its directory exists and is writable and `path` is not a directory or block device, or
/// it is a writable character device or FIFO ("-", standard output, passes). Throws std::runtime_error naming `path` and the cause otherwise. The write
/// itself can still fail later (a full disk); this catches a mistyped path before hours of training.
void check_can_write(std::string const& path);

}  // namespace kboost
