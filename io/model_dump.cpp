/// Tree dumps as upstream XGBoost 3.2 (see model_dump.hpp). Each generator is a transcription of
/// the upstream class of the same role in src/tree/tree_model.cc: the templates, the key
/// substitution order (detail::match) and the recursion are kept as upstream has them, because the
/// output must be the same bytes.
#include <kboost/io/model_dump.hpp>

#include <cmath>
#include <memory>
#include <stdexcept>

#include <kboost/io/detail/dump_common.hpp>

namespace kboost {
namespace {

using detail::DumpTreeView;
using detail::match;
using R = std::map<std::string, std::string>;

std::string tabs(std::uint32_t n) { return std::string(n, '\t'); }

/// Upstream's integer threshold of an "int" feature: the float threshold rounded up.
std::string integer_threshold(float cond) {
  float const floored = std::floor(cond);
  int const t = (floored == cond) ? static_cast<int>(floored) : static_cast<int>(floored) + 1;
  return std::to_string(t);
}

/// Upstream's TreeGenerator: dispatch of a split node on the feature map's type.
class Generator {
 public:
  Generator(FeatureMap const& fmap, bool with_stats) : fmap_(fmap), with_stats_(with_stats) {}
  virtual ~Generator() = default;
  virtual std::string tree(DumpTreeView const& t) = 0;

 protected:
  FeatureMap const& fmap_;
  bool const with_stats_;

  virtual std::string indicator(DumpTreeView const&, int, std::uint32_t) const { return ""; }
  virtual std::string categorical(DumpTreeView const& t, int nid, std::uint32_t depth) const = 0;
  /// A numerical split's line, its condition written `cond` ("" in formats without one).
  virtual std::string numeric_split(DumpTreeView const&, int, std::string const& /*cond*/, std::uint32_t) const {
    return "";
  }
  virtual std::string integer(DumpTreeView const& t, int nid, std::uint32_t depth) const {
    return numeric_split(t, nid, integer_threshold(t.split_cond(nid)), depth);
  }
  virtual std::string quantitive(DumpTreeView const& t, int nid, std::uint32_t depth) const {
    return numeric_split(t, nid, ostream_float_string(t.split_cond(nid)), depth);
  }
  virtual std::string plain_node(DumpTreeView const& t, int nid, std::uint32_t depth) const = 0;
  virtual std::string node_stat(DumpTreeView const&, int) const { return ""; }
  virtual std::string leaf_node(DumpTreeView const& t, int nid, std::uint32_t depth) const = 0;
  virtual std::string build(DumpTreeView const& t, int nid, std::uint32_t depth) = 0;

  std::string fname(DumpTreeView const& t, int nid) const { return detail::feature_name(fmap_, t.split_index(nid)); }

  /// Upstream's TreeGenerator::SplitNode, with its type checks (whose messages say the opposite of
  /// the mismatch they detect; kboost says what was found).
  virtual std::string split_node(DumpTreeView const& t, int nid, std::uint32_t depth) {
    auto const index = t.split_index(nid);
    bool const cat = t.is_categorical(nid);
    if (index >= fmap_.size()) return cat ? categorical(t, nid, depth) : plain_node(t, nid, depth);
    auto const type = fmap_.types[index];
    if ((type == FeatureMapType::kCategorical) != cat)
      throw std::runtime_error("node " + std::to_string(nid) + ": feature '" + fmap_.names[index] + "' is " +
                               (cat ? "not categorical in the feature map but the node splits on categories"
                                    : "categorical in the feature map but the node is a numerical split") +
                               " (upstream 3.2 refuses this dump too)");
    switch (type) {
      case FeatureMapType::kCategorical: return categorical(t, nid, depth);
      case FeatureMapType::kIndicator: return indicator(t, nid, depth);
      case FeatureMapType::kInteger: return integer(t, nid, depth);
      default: return quantitive(t, nid, depth);
    }
  }
};

/// Upstream's TextGenerator.
class TextGenerator : public Generator {
 public:
  using Generator::Generator;
  std::string tree(DumpTreeView const& t) override { return match("{nodes}\n", {{"{nodes}", build(t, 0, 0)}}); }

 protected:
  std::string leaf_node(DumpTreeView const& t, int nid, std::uint32_t depth) const override {
    return match("{tabs}{nid}:leaf={leaf}{stats}",
                 {{"{tabs}", tabs(depth)},
                  {"{nid}", std::to_string(nid)},
                  {"{leaf}", t.leaf_text(nid)},
                  {"{stats}", with_stats_ ? match(",cover={cover}", {{"{cover}", ostream_float_string(t.sum_hess(nid))}}) : ""}});
  }
  // upstream's indicator line has no indentation
  std::string indicator(DumpTreeView const& t, int nid, std::uint32_t) const override {
    int const yes = t.default_left(nid) ? t.right(nid) : t.left(nid);
    return match("{nid}:[{fname}] yes={yes},no={no}", {{"{nid}", std::to_string(nid)},
                                                        {"{fname}", fname(t, nid)},
                                                        {"{yes}", std::to_string(yes)},
                                                        {"{no}", std::to_string(t.default_child(nid))}});
  }
  std::string split_impl(DumpTreeView const& t, int nid, std::string const& tmpl, std::string const& cond,
                         std::uint32_t depth) const {
    return match(tmpl, {{"{tabs}", tabs(depth)},
                        {"{nid}", std::to_string(nid)},
                        {"{fname}", fname(t, nid)},
                        {"{cond}", cond},
                        {"{left}", std::to_string(t.left(nid))},
                        {"{right}", std::to_string(t.right(nid))},
                        {"{missing}", std::to_string(t.default_child(nid))}});
  }
  std::string numeric_split(DumpTreeView const& t, int nid, std::string const& cond, std::uint32_t depth) const override {
    return split_impl(t, nid, "{tabs}{nid}:[{fname}<{cond}] yes={left},no={right},missing={missing}", cond, depth);
  }
  std::string plain_node(DumpTreeView const& t, int nid, std::uint32_t depth) const override {
    return quantitive(t, nid, depth);
  }
  std::string categorical(DumpTreeView const& t, int nid, std::uint32_t depth) const override {
    return split_impl(t, nid, "{tabs}{nid}:[{fname}:{cond}] yes={right},no={left},missing={missing}",
                      detail::cats_as_set(t.split_categories(nid)), depth);
  }
  std::string node_stat(DumpTreeView const& t, int nid) const override {
    return match(",gain={loss_chg},cover={sum_hess}",
                 {{"{loss_chg}", ostream_float_string(t.loss_chg(nid))}, {"{sum_hess}", ostream_float_string(t.sum_hess(nid))}});
  }
  std::string build(DumpTreeView const& t, int nid, std::uint32_t depth) override {
    if (t.is_leaf(nid)) return leaf_node(t, nid, depth);
    return match("{parent}{stat}\n{left}\n{right}", {{"{parent}", split_node(t, nid, depth)},
                                                     {"{stat}", with_stats_ ? node_stat(t, nid) : ""},
                                                     {"{left}", build(t, t.left(nid), depth + 1)},
                                                     {"{right}", build(t, t.right(nid), depth + 1)}});
  }
};

/// Upstream's JsonGenerator.
class JsonGenerator : public Generator {
 public:
  using Generator::Generator;
  std::string tree(DumpTreeView const& t) override { return build(t, 0, 0); }

 protected:
  static std::string indent(std::uint32_t depth) { return std::string(2 * (depth + 1), ' '); }
  std::string leaf_node(DumpTreeView const& t, int nid, std::uint32_t) const override {
    return match(R"L({ "nodeid": {nid}, "leaf": {leaf} {stat}})L",
                 {{"{nid}", std::to_string(nid)},
                  {"{leaf}", t.leaf_text(nid)},
                  {"{stat}", with_stats_ ? match(R"S(, "cover": {sum_hess} )S", {{"{sum_hess}", ostream_float_string(t.sum_hess(nid))}})
                                         : ""}});
  }
  std::string indicator(DumpTreeView const& t, int nid, std::uint32_t depth) const override {
    int const yes = t.default_left(nid) ? t.right(nid) : t.left(nid);
    return match(R"ID( "nodeid": {nid}, "depth": {depth}, "split": "{fname}", "yes": {yes}, "no": {no})ID",
                 {{"{nid}", std::to_string(nid)},
                  {"{depth}", std::to_string(depth)},
                  {"{fname}", fname(t, nid)},
                  {"{yes}", std::to_string(yes)},
                  {"{no}", std::to_string(t.default_child(nid))}});
  }
  std::string split_impl(DumpTreeView const& t, int nid, std::string const& tmpl, std::string const& cond,
                         std::uint32_t depth) const {
    return match(tmpl, {{"{nid}", std::to_string(nid)},
                        {"{depth}", std::to_string(depth)},
                        {"{fname}", fname(t, nid)},
                        {"{cond}", cond},
                        {"{left}", std::to_string(t.left(nid))},
                        {"{right}", std::to_string(t.right(nid))},
                        {"{missing}", std::to_string(t.default_child(nid))}});
  }
  static constexpr char const* kNumeric =
      R"I( "nodeid": {nid}, "depth": {depth}, "split": "{fname}", "split_condition": {cond}, "yes": {left}, "no": {right}, "missing": {missing})I";
  std::string categorical(DumpTreeView const& t, int nid, std::uint32_t depth) const override {
    auto const cats = t.split_categories(nid);
    std::string list = "[";
    for (std::size_t i = 0; i < cats.size(); ++i) list += (i ? ", " : "") + std::to_string(cats[i]);
    list += "]";
    return split_impl(
        t, nid,
        R"I( "nodeid": {nid}, "depth": {depth}, "split": "{fname}", "split_condition": {cond}, "yes": {right}, "no": {left}, "missing": {missing})I",
        list, depth);
  }
  std::string numeric_split(DumpTreeView const& t, int nid, std::string const& cond, std::uint32_t depth) const override {
    return split_impl(t, nid, kNumeric, cond, depth);
  }
  std::string plain_node(DumpTreeView const& t, int nid, std::uint32_t depth) const override {
    return quantitive(t, nid, depth);
  }
  std::string node_stat(DumpTreeView const& t, int nid) const override {
    return match(R"S(, "gain": {loss_chg}, "cover": {sum_hess})S",
                 {{"{loss_chg}", ostream_float_string(t.loss_chg(nid))}, {"{sum_hess}", ostream_float_string(t.sum_hess(nid))}});
  }
  std::string split_node(DumpTreeView const& t, int nid, std::uint32_t depth) override {
    std::string const properties = Generator::split_node(t, nid, depth);
    return match("{{properties} {stat}, \"children\": [{left}, {right}\n{indent}]}",
                 {{"{properties}", properties},
                  {"{stat}", with_stats_ ? node_stat(t, nid) : ""},
                  {"{left}", build(t, t.left(nid), depth + 1)},
                  {"{right}", build(t, t.right(nid), depth + 1)},
                  {"{indent}", indent(depth)}});
  }
  std::string build(DumpTreeView const& t, int nid, std::uint32_t depth) override {
    return match("{newline}{indent}{nodes}",
                 {{"{newline}", depth == 0 ? "" : "\n"},
                  {"{indent}", indent(depth)},
                  {"{nodes}", t.is_leaf(nid) ? leaf_node(t, nid, depth) : split_node(t, nid, depth)}});
  }
};

/// Upstream's GraphvizGenerator with GraphvizParam's defaults (no extra attributes).
class DotGenerator : public Generator {
 public:
  using Generator::Generator;
  std::string tree(DumpTreeView const& t) override {
    return match("digraph {\n    graph [ rankdir={rankdir} ]\n{graph_attrs}\n{nodes}}",
                 {{"{rankdir}", "TB"}, {"{graph_attrs}", ""}, {"{nodes}", build(t, 0, 0)}});
  }

 protected:
  static constexpr char const* kYesColor = "#0000FF";  // upstream's colour of the missing-value edge
  static constexpr char const* kNoColor = "#FF0000";
  std::string edge(DumpTreeView const& t, int nid, int child, bool left, bool categorical_split) const {
    bool const missing = t.default_child(nid) == child;
    bool const yes = categorical_split ? !left : left;  // a category set sends its members right
    return match("    {nid} -> {child} [label=\"{branch}\" color=\"{color}\"]\n",
                 {{"{nid}", std::to_string(nid)},
                  {"{child}", std::to_string(child)},
                  {"{color}", missing ? kYesColor : kNoColor},
                  {"{branch}", std::string(yes ? "yes" : "no") + (missing ? ", missing" : "")}});
  }
  std::string edges(DumpTreeView const& t, int nid, bool categorical_split) const {
    return edge(t, nid, t.left(nid), true, categorical_split) + edge(t, nid, t.right(nid), false, categorical_split);
  }
  std::string plain_node(DumpTreeView const& t, int nid, std::uint32_t) const override {
    auto const index = t.split_index(nid);
    bool const has_less = index >= fmap_.size() || fmap_.types[index] != FeatureMapType::kIndicator;
    return match("    {nid} [ label=\"{fname}{<}{cond}{stat}\" {params}]\n",
                 {{"{nid}", std::to_string(nid)},
                  {"{fname}", fname(t, nid)},
                  {"{<}", has_less ? "<" : ""},
                  {"{cond}", has_less ? ostream_float_string(t.split_cond(nid)) : ""},
                  {"{stat}", with_stats_ ? node_stat(t, nid) : ""},
                  {"{params}", ""}}) +
           edges(t, nid, false);
  }
  std::string node_stat(DumpTreeView const& t, int nid) const override {
    return match("\ngain={gain}\ncover={cover}", {{"{cover}", ostream_float_string(t.sum_hess(nid))}, {"{gain}", ostream_float_string(t.loss_chg(nid))}});
  }
  // upstream prints a categorical node's statistics whether or not with_stats is set
  std::string categorical(DumpTreeView const& t, int nid, std::uint32_t) const override {
    return match("    {nid} [ label=\"{fname}:{cond}{stat}\" {params}]\n",
                 {{"{nid}", std::to_string(nid)},
                  {"{fname}", fname(t, nid)},
                  {"{cond}", detail::cats_as_set(t.split_categories(nid))},
                  {"{stat}", node_stat(t, nid)},
                  {"{params}", ""}}) +
           edges(t, nid, true);
  }
  std::string leaf_node(DumpTreeView const& t, int nid, std::uint32_t) const override {
    return match("    {nid} [ label=\"leaf={leaf-value}{cover}\" {params}]\n",
                 {{"{nid}", std::to_string(nid)},
                  {"{leaf-value}", t.leaf_text(nid)},
                  {"{cover}", with_stats_ ? match("\ncover={cover}", {{"{cover}", ostream_float_string(t.sum_hess(nid))}}) : ""},
                  {"{params}", ""}});
  }
  // the dot dump ignores the feature map's types except "i" (no threshold): no type checks
  std::string build(DumpTreeView const& t, int nid, std::uint32_t depth) override {
    if (t.is_leaf(nid)) return leaf_node(t, nid, depth);
    std::string node = t.is_categorical(nid) ? categorical(t, nid, depth) : plain_node(t, nid, depth);
    return match("{parent}\n{left}\n{right}", {{"{parent}", node},
                                              {"{left}", build(t, t.left(nid), depth + 1)},
                                              {"{right}", build(t, t.right(nid), depth + 1)}});
  }
};

std::unique_ptr<Generator> make_generator(DumpFormat format, FeatureMap const& fmap, bool with_stats) {
  switch (format) {
    case DumpFormat::kJson: return std::make_unique<JsonGenerator>(fmap, with_stats);
    case DumpFormat::kDot: return std::make_unique<DotGenerator>(fmap, with_stats);
    default: return std::make_unique<TextGenerator>(fmap, with_stats);
  }
}

}  // namespace

DumpFormat parse_dump_format(std::string const& name) {
  if (name == "text") return DumpFormat::kText;
  if (name == "json") return DumpFormat::kJson;
  if (name == "dot") return DumpFormat::kDot;
  throw std::runtime_error("unknown dump format '" + name + "' (expected text, json or dot)");
}

std::vector<std::string> dump_trees(Model const& model, DumpOptions const& options) {
  FeatureMap const fmap = resolve_feature_map(model, options.fmap);
  std::vector<std::string> out;
  out.reserve(model.trees.size());
  for (std::size_t i = 0; i < model.trees.size(); ++i) {
    try {
      DumpTreeView const view(model.trees[i]);
      if (view.vector_leaf() && options.with_stats)  // upstream: "Tree dump with statistic ... not implemented"
        throw std::runtime_error("statistics are not dumped for vector-leaf (multi_output_tree) trees, as upstream 3.2");
      out.push_back(make_generator(options.format, fmap, options.with_stats)->tree(view));
    } catch (std::runtime_error const& e) {
      throw std::runtime_error("model dump: tree " + std::to_string(i) + ": " + e.what());
    }
  }
  return out;
}

std::string dump_model_file(Model const& model, DumpOptions const& options) {
  auto const trees = dump_trees(model, options);
  std::string out;
  if (options.format == DumpFormat::kJson) {
    out = "[\n";
    for (std::size_t i = 0; i < trees.size(); ++i) out += trees[i] + (i + 1 < trees.size() ? ",\n" : "");
    return out + "\n]";
  }
  for (std::size_t i = 0; i < trees.size(); ++i) out += "booster[" + std::to_string(i) + "]:\n" + trees[i];
  return out;
}

}  // namespace kboost
