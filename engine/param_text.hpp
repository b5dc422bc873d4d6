#pragma once
/// \file param_text.hpp
/// The parameter-text helpers behind parse_params, for front ends that read parameter names of
/// their own (the CLI's options and config file): so that their trimming and their "did you mean"
/// hints match the engine's. Blank trimming as the XGBoost CLI's config reader (dmlc-core
/// ConfigIterator) does it.
#include <string>
#include <vector>

namespace kboost {

/// `s` without leading and trailing blanks (space, tab, CR, LF), as parse_params trims a value.
std::string trim_blanks(std::string const& s);

/// " (did you mean 'x'?)" for the name in `known` nearest to `given` (optimal string alignment
/// distance, case-sensitive; at most a third of the longer name's characters, and at least 1,
/// edited; the first of equals in `known`'s order), or "" when none is that near.
std::string did_you_mean(std::string const& given, std::vector<std::string> const& known);

}  // namespace kboost
