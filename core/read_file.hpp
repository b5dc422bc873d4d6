#pragma once
/// \file read_file.hpp
/// The one way kboost reads a whole input file (datasets, models, feature maps, checkpoints), so that
/// every reader refuses a missing file, a directory or a short read with the same sentence, and reads
/// standard input, pipes and FIFOs the same way as files.
#include <cstddef>
#include <string>

namespace kboost {

/// The bytes of file `path`. `what` says what the file should be ("data file", "model file",
/// "feature map", "checkpoint") in the errors. "-" is standard input; standard input, a pipe, a FIFO
/// (`<(...)`) or a character device is read once, in chunks, and its bytes are kept for the
/// process, so a second read of the same path (sniffing the format, then parsing) gets the same
/// bytes. Such a stream may give at most stream_byte_cap() bytes, and may not start with 1 MiB of
/// NUL bytes (`/dev/zero`).
/// \throws std::runtime_error "<path>: no such file", "<path>: is a directory, not a <what>",
///         "<path>: cannot open <what> for reading", "<path>: cannot get the file size",
///         "<path>: read error", or, for a stream, one naming the cap or the NUL bytes.
std::string read_file(std::string const& path, std::string const& what);

/// Whether `path` is "-" (standard input) or names a pipe, FIFO or character device: a source that
/// can be read only once and has no size beforehand.
bool is_stream_source(std::string const& path);

/// How many bytes kboost reads from a stream source before refusing it: $KBOOST_MAX_INPUT_BYTES
/// when set, else a quarter of the machine's physical memory.
std::size_t stream_byte_cap();

/// The name errors give `path`: "standard input" for "-", else `path` itself.
std::string source_name(std::string const& path);

}  // namespace kboost
