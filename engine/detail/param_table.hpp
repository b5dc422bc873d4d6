#pragma once
/// \file param_table.hpp
/// The table behind parse_params and train_param_docs: for every training parameter, its
/// documentation and the setter that checks a value and stores it into a TrainParams.
#include <kboost/engine/params.hpp>

#include <functional>
#include <string>
#include <vector>

namespace kboost::detail {

/// Checks one value and stores it: (key as the user wrote it, value). Throws std::runtime_error
/// "parameter <key> = '<value>': <why>" on a value that does not parse or is out of range.
using ParamSetter = std::function<void(std::string const&, std::string const&)>;

struct ParamEntry {
  ParamDoc doc;
  ParamSetter set;
};

/// Every training parameter in documentation order; each setter writes into `p`, which must
/// outlive the table.
std::vector<ParamEntry> param_table(TrainParams& p);

/// `s` without leading and trailing blanks (space, tab, CR, LF).
std::string trim_blanks(std::string const& s);

}  // namespace kboost::detail
