/// `kboost dump --model M [--format text|json|dot] [--fmap F] [--with-stats] [--out F]`: the model's
/// trees as upstream's `Booster.dump_model(fout, fmap, with_stats, dump_format)` writes them
/// (io/model_dump.hpp), to stdout or atomically to --out.
#include <memory>

#include "commands.hpp"
#include "read_options.hpp"
#include <kboost/core/atomic_file.hpp>
#include <kboost/io/model_dump.hpp>
#include <kboost/io/model_reader.hpp>

namespace kboost::cli {
namespace {

struct DumpArgs {
  std::string model, format = "text", fmap, out;
  bool with_stats = false;
};

int run_dump(DumpArgs const& a) {
  at_most_one_standard_input({{"--model", a.model}, {"--fmap", a.fmap}});
  refuse_output_over_input("--out", a.out, {{"--model", a.model}, {"--fmap", a.fmap}});
  if (!a.out.empty()) check_can_write(a.out);  // before the model is read and dumped
  DumpOptions options;
  options.format = parse_dump_format(a.format);
  options.with_stats = a.with_stats;
  if (!a.fmap.empty()) options.fmap = read_feature_map(a.fmap);
  std::string const text = dump_model_file(read_model(a.model), options);
  write_output(a.out, text);
  return 0;
}

}  // namespace

Runner add_dump(CLI::App& app) {
  auto a = std::make_shared<DumpArgs>();
  auto* sub = app.add_subcommand("dump", "print a model's trees as upstream XGBoost's dump_model");
  add_model_option(sub, a->model);
  sub->add_option("--format", a->format, "text, json or dot (graphviz)")
      ->check(CLI::IsMember({"text", "json", "dot"}));
  add_fmap_option(sub, a->fmap);
  sub->add_flag("--with-stats", a->with_stats, "add gain and cover");
  sub->add_option("--out", a->out, "output file (default: stdout)");
  return [a] { return run_dump(*a); };
}

}  // namespace kboost::cli
