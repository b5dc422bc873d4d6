/// \file train_params.cpp
/// `kboost train`'s parameter options and config file (apps/train_params.hpp).
#include "train_params.hpp"

#include <memory>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include <kboost/core/read_file.hpp>
#include <kboost/engine/param_text.hpp>
#include <kboost/engine/params.hpp>

namespace kboost::cli {
namespace {

/// `name` with '_' written as '-' (`max_depth` -> `max-depth`).
std::string dashed(std::string name) {
  for (char& c : name)
    if (c == '_') c = '-';
  return name;
}

/// CLI11's option-name list for a parameter: "--name,--dashed-name,--alias,...".
std::string option_names(ParamDoc const& doc) {
  std::vector<std::string> names{doc.name};
  for (auto const& alias : doc.aliases) names.push_back(alias);
  std::string out;
  std::set<std::string> seen;
  for (auto const& n : names)
    for (auto const& spelling : {n, dashed(n)})
      if (seen.insert(spelling).second) out += (out.empty() ? "--" : ",--") + spelling;
  return out;
}

/// The long names (without dashes) of every option of `sub`: what a misspelt key is compared with.
std::vector<std::string> option_long_names(CLI::App const& sub) {
  std::vector<std::string> out;
  for (CLI::Option const* opt : sub.get_options())
    for (auto const& name : opt->get_lnames()) out.push_back(name);
  return out;
}

/// CLI11's TOML/INI reader for upstream's CLI config keys.
class UpstreamConfig : public CLI::ConfigTOML {
 public:
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override {
    std::vector<CLI::ConfigItem> items;
    CLI::ConfigItem evals;
    evals.name = "eval";
    for (auto& item : CLI::ConfigTOML::from_config(input)) {
      if (!item.parents.empty()) {  // a [section] or dotted key: upstream's format has neither
        items.push_back(std::move(item));
        continue;
      }
      std::string const& name = item.name;
      if (name.size() > 6 && name.rfind("eval[", 0) == 0 && name.back() == ']') {
        for (auto const& file : item.inputs) evals.inputs.push_back(name.substr(5, name.size() - 6) + "=" + file);
        continue;
      }
      if (item.inputs.size() > 1 && name != "eval_metric") item.inputs = {rejoined_list(item.inputs)};
      items.push_back(std::move(item));
    }
    if (!evals.inputs.empty()) items.push_back(std::move(evals));
    return items;
  }

 private:
  /// CLI11 reads `[1,0,-1]` as three values and `(1,0,-1)` as "(1", "0", "-1)": one list again.
  static std::string rejoined_list(std::vector<std::string> const& parts) {
    std::string joined;
    for (auto const& p : parts) joined += (joined.empty() ? "" : ",") + p;
    return parts.front().rfind("(", 0) == 0 ? joined : "[" + joined + "]";
  }
};

/// Each key's last 1-based line in the config file's text: where an error about it points. (CLI11's
/// reader keeps no line numbers; the key is the text before '=' or a comment.)
/// \throws std::runtime_error "<source>:<line>: parameter '<key>' given twice (lines a and b)" (eval
/// sets, `eval[name] = file`, and eval_metric may repeat).
std::map<std::string, int> key_lines(std::string const& text, std::string const& source) {
  std::istringstream in(text);
  std::map<std::string, int> lines;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::string key = trim_blanks(line.substr(0, line.find_first_of("=#")));
    if (key.empty()) continue;
    if (line.substr(0, line.find('#')).find('=') == std::string::npos && key.find_first_of(" \t") != std::string::npos)
      throw std::runtime_error(source + ":" + std::to_string(n) + ": '" + key + "' is not `key = value` (no '=')");
    if (key.rfind("eval[", 0) == 0) key = "eval";
    bool const repeats = key == "eval" || key == "eval_metric";  // each line adds one, as in upstream's CLI
    if (auto const seen = lines.find(key); seen != lines.end() && !repeats)
      throw std::runtime_error(source + ":" + std::to_string(n) + ": parameter '" + key + "' given twice (lines " +
                               std::to_string(seen->second) + " and " + std::to_string(n) + ")");
    lines[key] = n;
  }
  return lines;
}

}  // namespace

void add_param_options(CLI::App& sub, std::map<std::string, std::string>& kv, std::set<std::string> const& skip) {
  for (auto const& doc : train_param_docs()) {
    if (skip.count(doc.name)) continue;
    std::string const description = doc.help + " (default: " + doc.default_value + ")";
    std::string const name = doc.name;
    CLI::Option* opt = nullptr;
    if (name == "eval_metric") {
      opt = sub.add_option_function<std::vector<std::string>>(
          option_names(doc),
          [&kv, name](std::vector<std::string> const& values) {
            std::string joined;
            for (auto const& v : values) joined += (joined.empty() ? "" : ",") + v;
            kv[name] = joined;
          },
          description);
      opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    } else {
      opt = sub.add_option_function<std::string>(
          option_names(doc), [&kv, name](std::string const& v) { kv[name] = v; }, description);
    }
    opt->group(doc.group)->type_name(doc.type);
  }
}

std::map<std::string, int> apply_config_file(CLI::App& sub, std::string const& path) {
  // read once, as every input is (a pipe or FIFO works; /dev/zero and endless streams are refused)
  std::string const text = read_file(path, "config file");
  std::map<std::string, int> const lines = key_lines(text, source_name(path));
  std::vector<CLI::ConfigItem> items;
  try {
    std::istringstream in(text);
    items = UpstreamConfig().from_config(in);
  } catch (CLI::Error const& e) {
    throw std::runtime_error(source_name(path) + ": " + e.what());
  }
  auto const where = [&](std::string const& key) {
    auto it = lines.find(key);
    return source_name(path) + (it == lines.end() ? "" : ":" + std::to_string(it->second)) + ": ";
  };
  std::map<std::string, int> applied;
  std::map<CLI::Option const*, std::string> set_by;  // option -> the config key that set it
  for (auto const& item : items) {
    std::string const key = item.fullname();
    CLI::Option* opt = item.parents.empty() ? sub.get_option_no_throw("--" + item.name) : nullptr;
    if (opt == nullptr && item.parents.empty())  // label_column for --label-column, as on the command line
      opt = sub.get_option_no_throw("--" + dashed(item.name));
    if (opt == nullptr)
      throw std::runtime_error(where(key) + "unknown parameter '" + key + "'" +
                               did_you_mean(key, option_long_names(sub)));
    if (auto const earlier = set_by.find(opt); earlier != set_by.end())
      throw std::runtime_error(where(key) + "parameter '" + key + "' sets " + opt->get_name() + " again (as '" +
                               earlier->second + "' did" +
                               (lines.count(earlier->second) ? " on line " + std::to_string(lines.at(earlier->second)) : "") +
                               "): give it once");
    set_by[opt] = key;
    if (opt->count() > 0) continue;  // the command line gave it
    // `key = []` holds no value; CLI11's flag callbacks (--header) read the first value unchecked
    if (item.inputs.empty()) throw std::runtime_error(where(key) + "parameter '" + key + "' has no value");
    try {
      opt->add_result(item.inputs);
      opt->run_callback();
    } catch (CLI::Error const& e) {
      throw std::runtime_error(where(key) + e.what());
    }
    if (auto it = lines.find(key); it != lines.end()) applied[key] = it->second;
  }
  return applied;
}

void refuse_unknown_arguments(CLI::App const& sub) {
  std::vector<std::string> const rest = sub.remaining();
  if (rest.empty()) return;
  std::string const& first = rest.front();
  if (first.rfind("--", 0) != 0) throw std::runtime_error(sub.get_name() + ": unexpected argument '" + first + "'");
  std::string name = first.substr(2, first.find('=') == std::string::npos ? std::string::npos : first.find('=') - 2);
  throw std::runtime_error(sub.get_name() + ": unknown parameter '" + name + "'" +
                           did_you_mean(name, option_long_names(sub)));
}

}  // namespace kboost::cli
