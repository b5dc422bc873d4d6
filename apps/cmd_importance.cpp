/// `kboost importance --model M [--type weight|gain|cover|total_gain|total_cover] [--fmap F]
///  [--out F.csv]`: upstream's `Booster.get_score(fmap, importance_type)` as CSV rows
/// `feature,<type>` in get_score's key order (engine/importance.hpp); values at 9 significant digits
/// (exactly the float32 scores).
#include <iomanip>
#include <limits>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "read_options.hpp"
#include <kboost/core/atomic_file.hpp>
#include <kboost/engine/importance.hpp>
#include <kboost/io/model_reader.hpp>

namespace kboost::cli {
namespace {

struct ImportanceArgs {
  std::string model, type = "weight", fmap, out;
};

/// A CSV field: quoted (with doubled quotes) when it holds a comma, quote or line break.
std::string csv_field(std::string const& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

int run_importance(ImportanceArgs const& a) {
  at_most_one_standard_input({{"--model", a.model}, {"--fmap", a.fmap}});
  refuse_output_over_input("--out", a.out, {{"--model", a.model}, {"--fmap", a.fmap}});
  if (!a.out.empty()) check_can_write(a.out);  // before the model is read and dumped
  FeatureMap fmap;
  if (!a.fmap.empty()) fmap = read_feature_map(a.fmap);
  auto const scores = feature_importance(read_model(a.model), parse_importance_type(a.type), fmap);
  std::ostringstream csv;
  csv << std::setprecision(std::numeric_limits<float>::max_digits10);
  csv << "feature," << a.type << "\n";
  for (auto const& [name, value] : scores) csv << csv_field(name) << "," << static_cast<float>(value) << "\n";
  write_output(a.out, csv.str());
  return 0;
}

}  // namespace

Runner add_importance(CLI::App& app) {
  auto a = std::make_shared<ImportanceArgs>();
  auto* sub = app.add_subcommand("importance", "feature importance as upstream XGBoost's get_score");
  add_model_option(sub, a->model);
  sub->add_option("--type", a->type, "weight, gain, cover, total_gain or total_cover")
      ->check(CLI::IsMember({"weight", "gain", "cover", "total_gain", "total_cover"}));
  add_fmap_option(sub, a->fmap);
  sub->add_option("--out", a->out, "CSV file (default: stdout)");
  return [a] { return run_importance(*a); };
}

}  // namespace kboost::cli
