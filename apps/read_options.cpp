/// Data-loading flags shared by the subcommands (see read_options.hpp).
#include "read_options.hpp"

#include <filesystem>
#include <system_error>

namespace kboost::cli {
namespace {

/// "\t", "tab", "\\t" -> tab; "comma" -> ','; "space" -> ' '; otherwise the single character given.
char parse_delimiter(std::string const& s) {
  if (s == "\t" || s == "\\t" || s == "tab" || s == "TAB") return '\t';
  if (s == "comma") return ',';
  if (s == "space") return ' ';
  if (s == "semicolon") return ';';
  if (s == "auto") return '\0';
  if (s.size() != 1) throw CLI::ValidationError("--delimiter", "expected one character, 'tab' or 'auto', got '" + s + "'");
  return s[0];
}

}  // namespace

void add_read_options(CLI::App* sub, ReadOptions& opt, std::string const& group) {
  sub->add_option("--format", opt.format, "data format: csv, libsvm, hdf5 or auto (extension, then content)")
      ->check(CLI::IsMember({"auto", "csv", "tsv", "libsvm", "svmlight", "hdf5", "h5"}))
      ->group(group);
  sub->add_option("--label-column", opt.label_column,
                  "CSV label column: header name or 0-based index (-1 = last); several, comma-separated, are "
                  "multi-target labels; default: no label")
      ->group(group);
  sub->add_option_function<std::string>(
         "--delimiter", [&opt](std::string const& s) { opt.delimiter = parse_delimiter(s); },
         "CSV field delimiter (one character, 'tab'); default: tab if the first line has one, else comma")
      ->group(group);
  sub->add_option_function<std::vector<std::string>>(
         "--missing",
         [&opt](std::vector<std::string> const& m) { opt.missing_markers.insert(opt.missing_markers.end(), m.begin(), m.end()); },
         "extra CSV missing-value markers (always missing: empty, NA, NaN, nan, ?); 'inf' is upstream's "
         "missing=inf for every format: +infinities are missing, infinities accepted (else refused)")
      ->group(group);
  sub->add_flag_callback("--header", [&opt] { opt.header = true; }, "CSV: the first row is a header")->group(group);
  sub->add_flag_callback("--no-header", [&opt] { opt.header = false; }, "CSV: the first row is data")->group(group);
  sub->add_option("--index-base", opt.index_base,
                  "LibSVM feature indices: 0 = as-is (XGBoost's default), 1 = 1-based, -1 = detect")
      ->check(CLI::Range(-1, 1))
      ->group(group);
  sub->add_option("--weight-column", opt.weight_column, "CSV column (name/index) or HDF5 dataset with sample weights")
      ->group(group);
  sub->add_option("--weight-file", opt.weight_file, "file with one sample weight per line")->group(group);
  sub->add_option("--group-file", opt.group_file, "file with one query-group size per line (.group / .query)")
      ->group(group);
  sub->add_option("--qid-column", opt.qid_column, "CSV column (name/index) or HDF5 dataset with query ids")->group(group);
  sub->add_option("--label-lower-bound-column", opt.label_lower_bound_column,
                  "survival:aft: CSV column (name/index) or HDF5 dataset with each row's lower time bound")
      ->group(group);
  sub->add_option("--label-upper-bound-column", opt.label_upper_bound_column,
                  "survival:aft: CSV column (name/index) or HDF5 dataset with each row's upper time bound (inf: "
                  "right-censored)")
      ->group(group);
  sub->add_option("--ignore-columns", opt.ignore_columns, "CSV columns (names or indices) that are not features")
      ->delimiter(',')
      ->group(group);
  sub->add_flag("--side-files", opt.auto_side_files,
                "also load <file>.weight and <file>.group/.query when present, for the data and each --eval "
                "file (XGBoost 1.x did)")
      ->group(group);
  sub->add_option("--num-features", opt.num_features, "force the feature count (error if the data is wider)")
      ->group(group);
  sub->add_option("--categorical", opt.categorical_columns, "0-based feature indices to treat as categorical")
      ->delimiter(',')
      ->group(group);
  sub->add_option("--features-dataset", opt.features_dataset, "HDF5 features dataset (rows x features)")->group(group);
  sub->add_option("--label-dataset", opt.label_dataset, "HDF5 label dataset ('' = none)")->group(group);
}

void add_unseen_category_option(CLI::App* sub, ReadOptions& opt, std::string const& group) {
  sub->add_option_function<std::string>(
         "--unseen-category",
         [&opt](std::string const& s) { opt.unseen_category = s == "missing" ? UnseenCategory::kMissing : UnseenCategory::kError; },
         "a category value the training data lacks: 'error' (upstream XGBoost's rule; default) or 'missing' "
         "(predicted as missing; counted per column on standard error)")
      ->check(CLI::IsMember({"error", "missing"}))
      ->group(group);
}

void at_most_one_standard_input(std::vector<std::pair<std::string, std::string>> const& inputs) {
  std::string first;
  for (auto const& [option, path] : inputs) {
    if (path != "-") continue;
    if (!first.empty())
      throw std::runtime_error(option + " -: " + first + " already reads standard input, which can give one input "
                               "(give the other as a file)");
    first = option;
  }
}

void refuse_output_over_input(std::string const& out_option, std::string const& out,
                              std::vector<std::pair<std::string, std::string>> const& inputs) {
  if (out.empty() || out == "-") return;
  for (auto const& [option, path] : inputs) {
    std::error_code ec;
    if (path.empty() || path == "-" || !std::filesystem::equivalent(out, path, ec) || ec) continue;
    throw std::runtime_error(out_option + " " + out + ": is the file " + option + " reads; writing it would replace "
                             "that input (give another output path)");
  }
}

}  // namespace kboost::cli
