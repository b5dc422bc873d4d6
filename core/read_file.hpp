#pragma once
/// \file read_file.hpp
/// The one way kboost reads a whole input file (datasets, models, feature maps, checkpoints), so that
/// every reader refuses a missing file, a directory or a short read with the same sentence.
#include <string>

namespace kboost {

/// The bytes of file `path`. `what` says what the file should be ("data file", "model file",
/// "feature map", "checkpoint") in the errors.
/// \throws std::runtime_error "<path>: no such file", "<path>: is a directory, not a <what>",
///         "<path>: cannot open <what> for reading", "<path>: cannot get the file size" or
///         "<path>: read error".
std::string read_file(std::string const& path, std::string const& what);

}  // namespace kboost
