/// `kboost predict --model M --data F [read options] --out P.csv|P.h5 [--output-margin] [--pred-leaf]
///  [--pred-contribs | --pred-interactions [--approx-contribs]] [--iteration-range a:b]
///  [--missing-value V] [--timing] [--repeat N]`
/// Loads an XGBoost JSON/UBJSON model, predicts on the default execution space and writes rows ×
/// outputs, or explains the rows with SHAP values (engine/explainer.hpp): rows × groups · (features
/// + 1) contributions or rows × groups · (features + 1)² interaction values, with a header line. --timing reports host-to-device, kernel and device-to-host separately (median and p99
/// over --repeat calls) plus the one-time model upload.
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <vector>

#include "commands.hpp"
#include "read_options.hpp"
#include <kboost/core/atomic_file.hpp>
#include <kboost/kernels/densify.hpp>
#include <kboost/io/dataset_reader.hpp>
#include <kboost/io/model_reader.hpp>
#include <kboost/io/prediction_writer.hpp>
#include <kboost/engine/explainer.hpp>
#include <kboost/engine/predictor.hpp>

namespace kboost::cli {
namespace {

/// Where --timing reports go: standard error when the predictions take standard output.
std::ostream& timing_stream(std::string const& out) { return out == "-" ? std::cerr : std::cout; }

struct PredictArgs {
  std::string model, data, out = "-", iteration_range, reference_data;
  ReadOptions read;
  bool output_margin = false, pred_leaf = false, timing = false;
  bool pred_contribs = false, approx_contribs = false, pred_interactions = false;
  float missing = std::numeric_limits<float>::quiet_NaN();
  int repeat = 1;
};

/// "a:b" -> {a, b}; "" -> {0, 0} (all rounds).
std::pair<int, int> parse_range(std::string const& s) {
  if (s.empty()) return {0, 0};
  auto colon = s.find(':');
  if (colon == std::string::npos) throw std::runtime_error("--iteration-range: expected a:b, got '" + s + "'");
  auto const whole_int = [&](std::string const& part) {  // all of `part`, so "1:2:3" and "2x" are refused
    std::size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(part, &used);
    } catch (std::exception const&) {
      used = 0;
    }
    if (part.empty() || used != part.size())
      throw std::runtime_error("--iteration-range: expected integers a:b, got '" + s + "'");
    return value;
  };
  return {whole_int(s.substr(0, colon)), whole_int(s.substr(colon + 1))};
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  auto q = [&](double f) { return v[std::min(v.size() - 1, static_cast<std::size_t>(f * static_cast<double>(v.size() - 1) + 0.5))]; };
  std::ostringstream s;
  s << std::fixed << std::setprecision(4) << "p50 " << q(0.5) << " ms, p99 " << q(0.99) << " ms";
  return s.str();
}

/// The data's columns must be the model's features: same count (dense formats; LibSVM may omit
/// trailing features) and, when both carry names, the same names in the same order.
void check_columns(Model const& model, HostDMatrix const& data, std::string const& format) {
  auto const n_model = static_cast<std::size_t>(model.num_feature);
  auto const& dn = data.info.feature_names;
  auto const& mn = model.feature_names;
  if (data.n_features > n_model || (format != "libsvm" && data.n_features < n_model)) {
    std::string extra;  // the data's columns the model does not name
    for (std::size_t j = 0; j < dn.size() && !mn.empty(); ++j)
      if (std::find(mn.begin(), mn.end(), dn[j]) == mn.end()) extra += (extra.empty() ? "" : ", ") + ("'" + dn[j] + "'");
    throw std::runtime_error(
        data.info.source + ": " + std::to_string(data.n_features) + " feature columns, but the model has " +
        std::to_string(n_model) + " features" + (extra.empty() ? "" : "; not among the model's features: " + extra) +
        (data.n_features > n_model ? " (a label or id column? --label-column or --ignore-columns leaves it out)" : ""));
  }
  if (dn.empty() || mn.empty()) return;
  for (std::size_t j = 0; j < std::min(dn.size(), mn.size()); ++j)
    if (dn[j] != mn[j])
      throw std::runtime_error(data.info.source + ": feature column " + std::to_string(j) + " is '" + dn[j] +
                               "' but the model's feature " + std::to_string(j) + " is '" + mn[j] +
                               "' (columns renamed or reordered?)");
}

/// Category lists of a training file (read with ReadOptions::category_reference, so the data's
/// text columns already carry the training codes): its strings per feature index, in those codes.
std::vector<FeatureCategories> reference_encoder(DatasetInfo const& ref, std::size_t n_features) {
  std::vector<FeatureCategories> enc(n_features);
  for (auto const& kv : ref.categories)
    if (kv.first >= 0 && static_cast<std::size_t>(kv.first) < n_features) enc[static_cast<std::size_t>(kv.first)].strings = kv.second;
  return enc;
}

/// SHAP column names: the model's feature names (f0, f1, ... without) and "bias", prefixed by the
/// output group ("g1:f0") when there are several; interactions name both columns ("f0|f3").
std::vector<std::string> shap_columns(Model const& m, bool interactions) {
  std::vector<std::string> cols;
  for (int f = 0; f < m.num_feature; ++f)
    cols.push_back(static_cast<std::size_t>(f) < m.feature_names.size() ? m.feature_names[static_cast<std::size_t>(f)] : "f" + std::to_string(f));
  cols.push_back("bias");
  std::vector<std::string> names;
  int const groups = m.num_outputs();
  for (int g = 0; g < groups; ++g) {
    std::string const prefix = groups > 1 ? "g" + std::to_string(g) + ":" : "";
    for (auto const& a : cols) {
      if (!interactions) names.push_back(prefix + a);
      else
        for (auto const& b : cols) names.push_back(prefix + a + "|" + b);
    }
  }
  return names;
}

/// --pred-contribs / --pred-interactions: SHAP values of X on the default execution space, written
/// as rows × (groups · columns[²]).
int run_shap(PredictArgs const& a, Model model, Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> X_host) {
  using exec = Kokkos::DefaultExecutionSpace;
  using mem = exec::memory_space;
  Explainer<exec> explainer(std::move(model));
  ShapOptions opt;
  opt.approx_contribs = a.approx_contribs;
  std::tie(opt.iteration_begin, opt.iteration_end) = parse_range(a.iteration_range);
  opt.missing = a.missing;
  auto X = allocate_view<Kokkos::View<float**, Kokkos::LayoutRight, mem>>("kboost::predict::X", false, X_host.extent(0), X_host.extent(1));
  Kokkos::deep_copy(X, X_host);
  std::vector<double> kernel;
  // Times the calls; the last call's values go to the file as rows x (everything else).
  auto explain = [&](auto const& compute) {
    for (int r = 0; r < std::max(1, a.repeat); ++r) {
      auto t0 = std::chrono::steady_clock::now();
      auto v = compute();
      Kokkos::fence();
      kernel.push_back(ms_since(t0));
      if (r + 1 < std::max(1, a.repeat)) continue;
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
      std::size_t const rows = h.extent(0);
      Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> flat(
          h.data(), rows, rows > 0 ? h.size() / rows : 0);
      write_predictions(a.out, flat, shap_columns(explainer.model(), a.pred_interactions));
    }
  };
  if (a.pred_interactions) explain([&] { return explainer.interactions(X, opt); });
  else explain([&] { return explainer.contributions(X, opt); });
  if (a.timing)
    timing_stream(a.out) << "backend " << exec::name() << ", rows " << X_host.extent(0) << ", trees " << explainer.model().trees.size()
              << ", " << (a.pred_interactions ? "interactions" : "contributions")
              << (a.approx_contribs ? " (approx)" : "") << ", calls " << kernel.size() << "\n"
              << "kernel:         " << stats(kernel) << "\n";
  return 0;
}

int run(PredictArgs const& a) {
  if (a.approx_contribs && !a.pred_contribs && !a.pred_interactions)
    throw std::runtime_error("--approx-contribs: give --pred-contribs or --pred-interactions too");
  using exec = Kokkos::DefaultExecutionSpace;
  using mem = exec::memory_space;
  at_most_one_standard_input({{"--model", a.model}, {"--data", a.data}});
  refuse_output_over_input("--out", a.out, {{"--model", a.model}, {"--data", a.data}});
  check_can_write(a.out);  // before the model and data are read
  Model model = read_model(a.model);
  ReadOptions ro = a.read;
  std::string const format = resolve_format(a.data, ro);
  // LibSVM files need not mention the last features; dense files must have exactly the model's.
  if (format == "libsvm" && ro.num_features == 0 && model.num_feature > 0)
    ro.num_features = static_cast<std::size_t>(model.num_feature);
  HostDMatrix ref;
  if (!a.reference_data.empty()) {
    if (model.has_category_encoder())
      throw std::runtime_error(a.model + ": the model stores its own category lists; --reference-data is not needed");
    ReadOptions rro = a.read;
    rro.num_features = 0;
    ref = read_dataset(a.reference_data, rro);
    ro.category_reference = &ref.info;
  }
  HostDMatrix data = read_dataset(a.data, ro);
  check_columns(model, data, format);
  recode_categories(a.reference_data.empty() ? model.category_encoder : reference_encoder(ref.info, data.n_features), data,
                    ro.unseen_category);
  for (auto const& note : unseen_category_notes(data.info)) std::cerr << "kboost: warning: " << note << "\n";
  auto X_host = densify(Kokkos::DefaultHostExecutionSpace(), data);

  if (a.pred_contribs || a.pred_interactions) return run_shap(a, std::move(model), X_host);
  Predictor<exec> predictor(std::move(model));
  PredictOptions opt;
  opt.output_margin = a.output_margin;
  opt.pred_leaf = a.pred_leaf;
  std::tie(opt.iteration_begin, opt.iteration_end) = parse_range(a.iteration_range);
  opt.missing = a.missing;

  auto X = allocate_view<Kokkos::View<float**, Kokkos::LayoutRight, mem>>("kboost::predict::X", false, X_host.extent(0), X_host.extent(1));
  auto out = allocate_view<Kokkos::View<float**, Kokkos::LayoutRight, mem>>("kboost::predict::out", false, X_host.extent(0),
                                                                            static_cast<std::size_t>(predictor.output_columns(opt)));
  auto out_host = Kokkos::create_mirror_view(out);
  std::vector<double> h2d, kernel, d2h;
  for (int r = 0; r < std::max(1, a.repeat); ++r) {
    auto t0 = std::chrono::steady_clock::now();
    Kokkos::deep_copy(X, X_host);
    Kokkos::fence();
    h2d.push_back(ms_since(t0));
    t0 = std::chrono::steady_clock::now();
    predictor.predict_into(X, out, opt);
    Kokkos::fence();
    kernel.push_back(ms_since(t0));
    t0 = std::chrono::steady_clock::now();
    Kokkos::deep_copy(out_host, out);
    d2h.push_back(ms_since(t0));
  }
  write_predictions(a.out, out_host);
  if (a.timing) {
    timing_stream(a.out) << "backend " << exec::name() << ", rows " << X_host.extent(0) << ", trees " << predictor.model().trees.size()
              << " (" << predictor.dense_trees() << " dense, " << predictor.compact_trees() << " compact), calls "
              << h2d.size() << "\n"
              << "model upload: " << std::fixed << std::setprecision(4) << predictor.upload_seconds() * 1e3 << " ms (once)\n"
              << "host-to-device: " << stats(h2d) << "\n"
              << "kernel:         " << stats(kernel) << "\n"
              << "device-to-host: " << stats(d2h) << "\n";
  }
  return 0;
}

}  // namespace

Runner add_predict(CLI::App& app) {
  auto a = std::make_shared<PredictArgs>();
  auto* sub = app.add_subcommand("predict", "predict with an XGBoost JSON/UBJSON model (bit-identical to XGBoost 3.2 CPU)");
  add_model_option(sub, a->model);
  sub->add_option("--data", a->data, "input data (CSV, LibSVM or HDF5)")->required();
  sub->add_option("--out", a->out,
                  "predictions: .csv (9 significant digits), .h5/.hdf5, or - for CSV on standard output (the default)");
  sub->add_flag("--output-margin", a->output_margin, "raw margins (no objective transform)");
  sub->add_flag("--pred-leaf", a->pred_leaf, "leaf node id per tree instead of predictions");
  auto* contribs = sub->add_flag("--pred-contribs", a->pred_contribs,
                                 "SHAP contributions (TreeSHAP, as upstream's pred_contribs): rows x groups*(features+1), bias last");
  auto* interactions = sub->add_flag("--pred-interactions", a->pred_interactions,
                                     "SHAP interaction values (upstream's pred_interactions): rows x groups*(features+1)^2");
  auto* approx = sub->add_flag("--approx-contribs", a->approx_contribs,
                               "Saabas' approximation instead of TreeSHAP (with --pred-contribs or --pred-interactions)");
  contribs->excludes(interactions);
  for (auto* shap : {contribs, interactions, approx}) {
    shap->excludes("--pred-leaf");
    shap->excludes("--output-margin");
  }
  sub->add_option("--iteration-range", a->iteration_range, "boosting rounds a:b to use, b exclusive (default: every round, as upstream's Booster.predict and "
                  "CLI; a model's best_iteration does not cut it: give 0:<best_iteration + 1>)");
  sub->add_option("--missing-value", a->missing, "numeric value treated as missing (NaN always is)");
  sub->add_flag("--timing", a->timing, "report host-to-device, kernel and device-to-host times");
  sub->add_option("--repeat", a->repeat, "repeat the prediction N times (for --timing)")->check(CLI::Range(1, 1000000).description("an integer in 1..1000000"));
  sub->add_option("--reference-data", a->reference_data,
                  "training file whose text columns give the category codes (for models trained on text columns)");
  add_read_options(sub, a->read);
  add_unseen_category_option(sub, a->read);
  return [a] { return run(*a); };
}

}  // namespace kboost::cli
