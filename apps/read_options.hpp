#pragma once
/// Data-loading flags shared by `kboost info`, `train` and `predict` (one definition, same names).
#include <CLI/CLI.hpp>

#include <kboost/io/dataset_reader.hpp>

namespace kboost::cli {

/// Adds --format, --label-column, --delimiter, --missing, --header/--no-header, --index-base,
/// --weight-column, --weight-file, --group-file, --qid-column, --ignore-columns, --side-files, --num-features,
/// --categorical, --features-dataset and --label-dataset to `sub`, writing into `opt` (which must
/// outlive parsing). `group` is the heading the flags get in --help.
void add_read_options(CLI::App* sub, ReadOptions& opt, std::string const& group = "Data loading");

/// Adds --unseen-category error|missing to `sub` (train: the --eval files; predict: the data),
/// writing ReadOptions::unseen_category: what a category value becomes that the training data (or
/// the model's category list) lacks for its column.
/// Refuses a command line on which more than one input reads standard input ("-"): `inputs` are
/// (option, path) pairs in command-line order.
/// \throws std::runtime_error "<option> -: <earlier option> already reads standard input ...".
void at_most_one_standard_input(std::vector<std::pair<std::string, std::string>> const& inputs);

/// Refuses an output path that names one of the inputs (the same file, by any path): the write would
/// replace the data or model being read. `inputs` are (option, path) pairs.
/// \throws std::runtime_error "<out option> <path>: is the file <input option> reads ...".
void refuse_output_over_input(std::string const& out_option, std::string const& out,
                              std::vector<std::pair<std::string, std::string>> const& inputs);

void add_unseen_category_option(CLI::App* sub, ReadOptions& opt, std::string const& group = "Data loading");

}  // namespace kboost::cli
