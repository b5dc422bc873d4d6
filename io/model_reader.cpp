/// XGBoost JSON/UBJSON model loader (see model_reader.hpp).
#include <kboost/io/model_reader.hpp>

#include <kboost/core/read_file.hpp>
#include <kboost/io/detail/reader.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>
#include <vector>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace kboost {
namespace {

/// nlohmann::json with float32 numbers: the lexer then calls std::strtof on the number text, so a
/// threshold written as shortest-round-trip float32 text comes back as exactly that float, and
/// UBJSON 'd' (f32) values are stored without a detour through double.
using fjson = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t, std::uint64_t, float>;

[[noreturn]] void fail(std::string const& source, std::string const& where, std::string const& msg) {
  throw std::runtime_error(source + ": " + (where.empty() ? "" : where + ": ") + msg);
}

/// nlohmann's document builder (json_sax_dom_parser) with two checks before each container, so that
/// a few bytes cannot exhaust memory or the stack:
/// - its nesting depth may not exceed kMaxModelDepth. nlohmann reads UBJSON recursively, frames per
///   level, and thousands of `[` overflowed the stack; XGBoost's models nest 8 levels deep.
/// - its declared count (UBJSON's `#`) may not exceed the input's size in bytes. UBJSON's typed
///   containers of true, false or null (`[$T#L n`) hold n values in no bytes, so a header can claim
///   2^60 elements, which nlohmann appends one by one until memory runs out; every other element
///   takes at least a byte, so no real model comes near this limit.
/// Throws std::runtime_error naming the depth, or the count and the size.
class CheckedDocumentBuilder {
 public:
  static constexpr int kMaxModelDepth = 64;
  using number_integer_t = fjson::number_integer_t;
  using number_unsigned_t = fjson::number_unsigned_t;
  using number_float_t = fjson::number_float_t;
  using string_t = fjson::string_t;
  using binary_t = fjson::binary_t;

  CheckedDocumentBuilder(fjson& result, std::size_t input_bytes) : dom_(result, true), input_bytes_(input_bytes) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(number_float_t v, string_t const& s) { return dom_.number_float(v, s); }
  bool string(string_t& v) { return dom_.string(v); }
  bool binary(binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) { return dom_.start_object(enter(n, "an object")); }
  bool key(string_t& v) { return dom_.key(v); }
  bool end_object() { return --depth_, dom_.end_object(); }
  bool start_array(std::size_t n) { return dom_.start_array(enter(n, "an array")); }
  bool end_array() { return --depth_, dom_.end_array(); }
  template <class Exception>
  bool parse_error(std::size_t position, std::string const& token, Exception const& e) {
    return dom_.parse_error(position, token, e);
  }

 private:
  std::size_t enter(std::size_t n, char const* what) {
    if (++depth_ > kMaxModelDepth)
      throw std::runtime_error(std::string(what) + " nested deeper than " + std::to_string(kMaxModelDepth) + " levels");
    if (n != static_cast<std::size_t>(-1) && n > input_bytes_)  // -1: no count given
      throw std::runtime_error(std::string(what) + " claims " + std::to_string(n) + " values in a file of " +
                               std::to_string(input_bytes_) + " bytes");
    return n;
  }

  nlohmann::detail::json_sax_dom_parser<fjson> dom_;
  std::size_t input_bytes_;
  int depth_ = 0;
};

/// The JSON text or UBJSON document in `bytes` (XGBoost's .json or .ubj), read with
/// CheckedDocumentBuilder's checks.
fjson parse_document(std::string const& bytes, fjson::input_format_t format) {
  fjson doc;
  CheckedDocumentBuilder builder(doc, bytes.size());
  fjson::sax_parse(bytes, &builder, format);
  return doc;
}

/// XGBoost writes bare NaN and ±Infinity into JSON (its own to_chars, src/common/charconv.cc; e.g.
/// split conditions of GPU-trained trees); map them to tokens nlohmann accepts: NaN -> null (read
/// back as NaN), ±Infinity -> the string "±Infinity" (read back as ±inf by f32s; nlohmann refuses
/// numbers that overflow, such as 1e999). Strings untouched. `grown`: after each replacement, the
/// output's size and how many bytes longer than the input's the output has grown so far (so that a
/// position in the output maps back to the file's).
std::string sanitize_json_text(std::string const& in, std::vector<std::pair<std::size_t, std::size_t>>& grown) {
  if (in.find("NaN") == std::string::npos && in.find("Infinity") == std::string::npos) return in;
  std::string out;
  out.reserve(in.size() + 64);
  bool in_string = false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (in_string) {
      out.push_back(c);
      if (c == '\\' && i + 1 < in.size()) out.push_back(in[++i]);
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') { in_string = true; out.push_back(c); continue; }
    if (in.compare(i, 3, "NaN") == 0) {
      if (!out.empty() && (out.back() == '-' || out.back() == '+')) out.pop_back();
      out += "null";
      i += 2;
      grown.emplace_back(out.size(), out.size() - (i + 1));
    } else if (in.compare(i, 8, "Infinity") == 0) {
      bool const negative = !out.empty() && out.back() == '-';
      if (!out.empty() && (out.back() == '+' || out.back() == '-')) out.pop_back();
      out += negative ? "\"-Infinity\"" : "\"Infinity\"";
      i += 7;
      grown.emplace_back(out.size(), out.size() - (i + 1));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

/// A JSON syntax error at byte `at` (1-based, nlohmann's parse_error::byte) of the sanitized text,
/// told at the file's own byte, line and column, with the parser's reason; an error at the end of
/// the file says it may be cut short.
std::string json_syntax_error(std::string const& bytes, std::vector<std::pair<std::size_t, std::size_t>> const& grown,
                              std::size_t at, std::string const& what) {
  constexpr std::size_t kLastToken = 8;  // an error this close to the end is in the file's last token
  std::size_t shift = 0;
  for (auto const& [end, g] : grown)
    if (end <= at) shift = g;
  std::size_t const byte = std::min(at > shift ? at - shift : 0, bytes.size());
  std::size_t line = 1, column = 0;
  for (std::size_t i = 0; i < byte; ++i) {
    if (bytes[i] == '\n') {
      ++line;
      column = 0;
    } else {
      ++column;
    }
  }
  std::size_t const reason = what.find(": ", what.find("parse error"));
  std::string msg = "byte " + std::to_string(byte) + " of " + std::to_string(bytes.size()) + ", line " +
                    std::to_string(line) + ", column " + std::to_string(column) + ": " +
                    (reason == std::string::npos ? what : what.substr(reason + 2));
  std::size_t const end = bytes.find_last_not_of(" \t\r\n") + 1;
  if (byte + kLastToken >= end) msg += "; the file ends there: is it cut short?";
  return msg;
}

bool looks_like_text_json(std::string const& bytes) {
  std::size_t i = 0;
  auto skip_ws = [&] { while (i < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[i]))) ++i; };
  skip_ws();
  if (i >= bytes.size() || bytes[i] != '{') return i < bytes.size();  // not '{': let the JSON parser report it
  ++i;
  skip_ws();
  return i >= bytes.size() || bytes[i] == '"' || bytes[i] == '}';
}

/// Accessors that name the field in every error.
struct Ctx {
  std::string const& source;
  std::string where;  ///< e.g. "tree 3"

  [[noreturn]] void error(std::string const& field, std::string const& msg) const {
    fail(source, where.empty() ? "field '" + field + "'" : where + ": field '" + field + "'", msg);
  }

  fjson const& at(fjson const& obj, char const* key) const {
    if (!obj.is_object()) error(key, "parent is not an object");
    auto it = obj.find(key);
    if (it == obj.end()) error(key, "missing");
    return *it;
  }
  fjson const* find(fjson const& obj, char const* key) const {
    if (!obj.is_object()) error(key, "parent is not an object");
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }

  std::string str(fjson const& obj, char const* key) const {
    auto const& v = at(obj, key);
    if (!v.is_string()) error(key, "expected a string");
    return v.get<std::string>();
  }

  /// XGBoost stores integer parameters as decimal strings ("num_feature": "4"); accept numbers too.
  long long int_param(fjson const& obj, char const* key) const {
    auto const& v = at(obj, key);
    if (v.is_number_integer()) return v.get<long long>();
    if (!v.is_string()) error(key, "expected an integer string");
    auto s = v.get<std::string>();
    char* end = nullptr;
    errno = 0;
    long long r = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || end != s.c_str() + s.size() || errno != 0) error(key, "not an integer: '" + s + "'");
    return r;
  }
  long long int_param_or(fjson const& obj, char const* key, long long dflt) const {
    return find(obj, key) ? int_param(obj, key) : dflt;
  }

  fjson const& array(fjson const& obj, char const* key, std::size_t expect = npos) const {
    auto const& v = at(obj, key);
    if (!v.is_array()) error(key, "expected an array");
    if (expect != npos && v.size() != expect)
      error(key, "expected " + std::to_string(expect) + " entries, got " + std::to_string(v.size()));
    return v;
  }

  std::vector<float> f32s(fjson const& obj, char const* key, std::size_t expect = npos) const {
    auto const& a = array(obj, key, expect);
    std::vector<float> out(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      auto const& e = a[i];
      if (e.is_number_float()) out[i] = e.get<float>();
      else if (e.is_number_integer()) out[i] = static_cast<float>(e.get<long long>());
      else if (e.is_null()) out[i] = std::numeric_limits<float>::quiet_NaN();
      else if (e.is_string() && (e.get<std::string>() == "Infinity" || e.get<std::string>() == "-Infinity"))
        out[i] = e.get<std::string>()[0] == '-' ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
      else error(key, "entry " + std::to_string(i) + " is not a number");
    }
    return out;
  }

  template <class Int>
  std::vector<Int> ints(fjson const& obj, char const* key, std::size_t expect = npos) const {
    auto const& a = array(obj, key, expect);
    std::vector<Int> out(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      auto const& e = a[i];
      long long v = 0;
      if (e.is_number_integer()) v = e.get<long long>();
      else if (e.is_boolean()) v = e.get<bool>() ? 1 : 0;
      else error(key, "entry " + std::to_string(i) + " is not an integer");
      if (v < static_cast<long long>(std::numeric_limits<Int>::min()) ||
          v > static_cast<long long>(std::numeric_limits<Int>::max()))
        error(key, "entry " + std::to_string(i) + " out of range: " + std::to_string(v));
      out[i] = static_cast<Int>(v);
    }
    return out;
  }

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

/// base_score: "5E-1" (≤ 3.0) or "[5E-1,-5E-1]" (≥ 3.1), output space, parsed as float32 (strtof).
std::vector<float> parse_base_score(std::string s, Ctx const& c) {
  std::vector<float> out;
  auto trim = [](std::string t) {
    auto b = t.find_first_not_of(" \t\n\r");
    auto e = t.find_last_not_of(" \t\n\r");
    return b == std::string::npos ? std::string() : t.substr(b, e - b + 1);
  };
  s = trim(s);
  if (!s.empty() && s.front() == '[') {
    if (s.back() != ']') c.error("base_score", "unterminated list '" + s + "'");
    s = s.substr(1, s.size() - 2);
  }
  std::stringstream ss(s);
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    tok = trim(tok);
    char* end = nullptr;
    float v = std::strtof(tok.c_str(), &end);
    if (tok.empty() || end != tok.c_str() + tok.size()) c.error("base_score", "not a number: '" + tok + "'");
    if (!std::isfinite(v)) c.error("base_score", "'" + tok + "' is not finite: every prediction would be NaN or inf");
    out.push_back(v);
  }
  if (out.empty()) c.error("base_score", "empty");
  return out;
}

/// gradient_booster.model.cats (XGBoost >= 3.1, upstream src/data/cat_container.cc SaveJson):
/// enc[f] is {"offsets": [...], "values": [bytes]} for string categories (string k is
/// values[offsets[k] .. offsets[k+1]]), {"type": t, "values": [numbers]} for numeric ones, and
/// empty lists for a numerical feature.
std::vector<FeatureCategories> parse_category_encoder(fjson const& cats, int num_feature, Ctx const& c) {
  std::vector<FeatureCategories> out;
  auto const* enc = c.find(cats, "enc");
  if (!enc || !enc->is_array() || enc->empty()) return out;
  if (static_cast<int>(enc->size()) != num_feature)
    c.error("cats.enc", "has " + std::to_string(enc->size()) + " entries for " + std::to_string(num_feature) + " features");
  out.resize(enc->size());
  for (std::size_t f = 0; f < enc->size(); ++f) {
    Ctx fc{c.source, "cats.enc[" + std::to_string(f) + "]"};
    auto const& e = (*enc)[f];
    if (!e.is_object()) fc.error("enc", "expected an object");
    auto const* offsets = fc.find(e, "offsets");
    if (offsets && offsets->is_array() && !offsets->empty()) {
      auto off = fc.ints<std::int64_t>(e, "offsets");
      // UTF-8 bytes, written by upstream as a signed int8 array (bytes >= 0x80 negative)
      std::vector<unsigned char> bytes;
      for (auto b : fc.ints<std::int16_t>(e, "values")) {
        if (b < -128 || b > 255) fc.error("values", "byte out of range: " + std::to_string(b));
        bytes.push_back(static_cast<unsigned char>(b));
      }
      for (std::size_t k = 0; k + 1 < off.size(); ++k) {
        if (off[k] < 0 || off[k] > off[k + 1] || static_cast<std::size_t>(off[k + 1]) > bytes.size())
          fc.error("offsets", "entry " + std::to_string(k) + " outside 'values'");
        out[f].strings.emplace_back(bytes.begin() + off[k], bytes.begin() + off[k + 1]);
      }
    } else if (fc.find(e, "values")) {
      if (auto const* type = fc.find(e, "type"); type && type->is_number_integer()) out[f].type = type->get<int>();
      for (auto const& v : fc.array(e, "values")) {
        if (v.is_number_integer()) out[f].numbers.push_back(static_cast<double>(v.get<long long>()));
        else if (v.is_number()) out[f].numbers.push_back(static_cast<double>(v.get<float>()));
        else fc.error("values", "expected numbers");
      }
    }
  }
  return out;
}

TreeModel parse_tree(fjson const& jt, Ctx const& c) {
  TreeModel t;
  auto const& tp = c.at(jt, "tree_param");
  long long n = c.int_param(tp, "num_nodes");
  if (n < 1 || n > (1LL << 30)) c.error("tree_param.num_nodes", "out of range: " + std::to_string(n));
  auto nn = static_cast<std::size_t>(n);
  t.num_feature = static_cast<std::int32_t>(c.int_param_or(tp, "num_feature", 0));
  long long slv = c.int_param_or(tp, "size_leaf_vector", 1);
  if (slv < 0 || slv > (1 << 20)) c.error("tree_param.size_leaf_vector", "out of range");
  t.size_leaf_vector = slv == 0 ? 1 : static_cast<std::int32_t>(slv);
  std::size_t k = static_cast<std::size_t>(t.size_leaf_vector);

  t.left_children = c.ints<std::int32_t>(jt, "left_children", nn);
  t.right_children = c.ints<std::int32_t>(jt, "right_children", nn);
  t.parents = c.ints<std::int32_t>(jt, "parents", nn);
  t.split_indices = c.ints<std::int32_t>(jt, "split_indices", nn);
  t.split_conditions = c.f32s(jt, "split_conditions", nn);
  t.default_left = c.ints<std::uint8_t>(jt, "default_left", nn);
  // Node statistics: upstream's RegTree::LoadModel requires all three for every node (SHAP's cover
  // and the dumps read them); 2.x's MultiTargetTree (vector leaves) stored base weights only.
  bool const statistics_optional = k > 1;
  if (!statistics_optional || c.find(jt, "loss_changes")) t.loss_changes = c.f32s(jt, "loss_changes", nn);
  if (!statistics_optional || c.find(jt, "sum_hessian")) t.sum_hessian = c.f32s(jt, "sum_hessian", nn);
  t.base_weights = c.f32s(jt, "base_weights", nn * k);
  if (c.find(jt, "split_type")) {
    t.split_type = c.ints<std::uint8_t>(jt, "split_type", nn);
    t.categories_nodes = c.ints<std::int32_t>(jt, "categories_nodes");
    t.categories_segments = c.ints<std::int64_t>(jt, "categories_segments", t.categories_nodes.size());
    t.categories_sizes = c.ints<std::int64_t>(jt, "categories_sizes", t.categories_nodes.size());
    t.categories = c.ints<std::int32_t>(jt, "categories");
  }
  if (k > 1) {
    if (c.find(jt, "leaf_weights")) {
      t.leaf_weights = c.f32s(jt, "leaf_weights");
    } else {
      // Before 3.x's leaf_weights, a vector leaf's value was its base weight (2.x MultiTargetTree).
      if (t.base_weights.size() != nn * k) c.error("base_weights", "vector-leaf tree without leaf_weights needs num_nodes*size_leaf_vector base_weights");
      std::int32_t leaf_id = 0;
      for (std::size_t i = 0; i < nn; ++i) {
        if (t.left_children[i] != -1) continue;
        t.leaf_weights.insert(t.leaf_weights.end(), t.base_weights.begin() + i * k, t.base_weights.begin() + (i + 1) * k);
        t.right_children[i] = leaf_id++;
      }
    }
  }
  return t;
}

}  // namespace

namespace {

/// Shortest decimal text that reads back as `v` (integers without a point): "8", "12.5".
std::string number_key(float v) {
  if (std::nearbyint(v) == v && std::fabs(v) < 1e15f) return std::to_string(static_cast<long long>(v));
  char buf[64];
  for (int prec = 1; prec <= 9; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, static_cast<double>(v));
    if (std::strtof(buf, nullptr) == v) break;
  }
  return buf;
}

bool bool_code(std::string s, float& code) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (s == "false") code = 0.0f;
  else if (s == "true") code = 1.0f;
  else return false;
  return true;
}

}  // namespace

namespace {

/// Per feature of `data`, the codes each stored value becomes under `encoder`: text columns' per-file
/// codes mapped once through their strings, numeric cells looked up per distinct value (cached).
/// NaN marks a category the encoder lacks.
class CategoryRecoder {
 public:
  CategoryRecoder(std::vector<FeatureCategories> const& encoder, DatasetInfo const& info, std::size_t n_features)
      : encoder_(encoder), info_(info), cache_(n_features), active_(n_features, 0), text_(n_features, nullptr) {
    for (std::size_t j = 0; j < n_features; ++j) {
      FeatureCategories const* enc = j < encoder.size() && !encoder[j].empty() ? &encoder[j] : nullptr;
      auto text = info.categories.find(static_cast<int>(j));
      if (text != info.categories.end() && !text->second.empty()) text_[j] = &text->second;
      if (!enc && !text_[j]) continue;
      active_[j] = 1;
      if (text_[j]) code_text_column(j, enc);
    }
  }

  bool any() const { return std::find(active_.begin(), active_.end(), 1) != active_.end(); }
  bool active(std::size_t j) const { return active_[j] != 0; }

  /// The training code of value `v` of feature j (NaN: missing, or a category the encoder lacks).
  float operator()(std::size_t j, float v) {
    auto& cache = cache_[j];
    auto it = cache.find(v);
    if (it != cache.end()) return it->second;
    if (text_[j]) return kNaN;  // a code outside the file's category list
    float out = kNaN;
    auto const& enc = encoder_[j];
    if (!enc.strings.empty()) {
      auto s_it = std::find(enc.strings.begin(), enc.strings.end(), number_key(v));
      if (s_it != enc.strings.end()) out = static_cast<float>(s_it - enc.strings.begin());
    } else {
      auto n_it = std::find(enc.numbers.begin(), enc.numbers.end(), static_cast<double>(v));
      if (n_it != enc.numbers.end()) out = static_cast<float>(n_it - enc.numbers.begin());
    }
    cache.emplace(v, out);
    return out;
  }

  /// The category that value `v` of feature j stands for, as text.
  std::string spelling(std::size_t j, float v) const {
    if (!text_[j]) return number_key(v);
    auto const code = static_cast<std::size_t>(v);
    return code < text_[j]->size() ? (*text_[j])[code] : number_key(v);
  }

 private:
  static constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

  /// The training code of each string of text column j (NaN when the encoder lacks it); a text
  /// column without an encoder must hold booleans.
  void code_text_column(std::size_t j, FeatureCategories const* enc) {
    auto const& strings = *text_[j];
    for (std::size_t code = 0; code < strings.size(); ++code) {
      float out = kNaN;
      if (enc && !enc->strings.empty()) {
        auto it = std::find(enc->strings.begin(), enc->strings.end(), strings[code]);
        if (it != enc->strings.end()) out = static_cast<float>(it - enc->strings.begin());
      } else if (enc) {
        char* end = nullptr;
        double v = std::strtod(strings[code].c_str(), &end);
        if (end != strings[code].c_str() && *end == '\0') {
          auto it = std::find(enc->numbers.begin(), enc->numbers.end(), v);
          if (it != enc->numbers.end()) out = static_cast<float>(it - enc->numbers.begin());
        }
      } else if (!bool_code(strings[code], out)) {
        throw std::runtime_error(info_.source + ": " + io_detail::column_desc(j, info_.feature_names) + " holds text ('" + strings[code] +
                                 "') but the model has no category list for it, so its per-file codes would not match "
                                 "the training codes; code the column numerically (as in training) or pass "
                                 "--reference-data <training file>");
      }
      cache_[j][static_cast<float>(code)] = out;
    }
  }

  std::vector<FeatureCategories> const& encoder_;
  DatasetInfo const& info_;
  std::vector<std::map<float, float>> cache_;
  std::vector<std::uint8_t> active_;
  std::vector<std::vector<std::string> const*> text_;
};

}  // namespace

void recode_categories(std::vector<FeatureCategories> const& encoder, HostDMatrix& data, UnseenCategory unseen) {
  CategoryRecoder recoder(encoder, data.info, data.n_features);
  if (!recoder.any()) return;
  auto& info = data.info;
  auto recode = [&](std::size_t row, std::size_t j, float v) {
    if (std::isnan(v) || !recoder.active(j)) return v;
    float const out = recoder(j, v);
    if (!std::isnan(out)) return out;
    std::string const value = recoder.spelling(j, v);
    if (unseen == UnseenCategory::kError)
      throw std::runtime_error(info.source + ": data row " + std::to_string(row + 1) + ": " + io_detail::column_desc(j, info.feature_names) +
                               ": " + io_detail::unseen_category_error(value, "the model's category list"));
    info.unseen_categories[static_cast<int>(j)].note(row, value);
    return out;
  };
  if (data.is_sparse()) {
    auto row_map = data.csr.graph.row_map;
    auto cols = data.csr.graph.entries;
    auto vals = data.csr.values;
    for (std::size_t i = 0; i < data.n_rows; ++i)
      for (auto k = row_map(i); k < row_map(i + 1); ++k) vals(k) = recode(i, static_cast<std::size_t>(cols(k)), vals(k));
  } else {
    for (std::size_t i = 0; i < data.n_rows; ++i)
      for (std::size_t j = 0; j < data.n_features; ++j) data.dense(i, j) = recode(i, j, data.dense(i, j));
  }
}

namespace {

/// The model document, JSON text or UBJSON, as upstream's Learner::LoadModel reads either.
fjson parse_model_document(std::string const& bytes, std::string const& source) {
  if (bytes.find_first_not_of(" \t\r\n") == std::string::npos) fail(source, "", "the model file is empty");
  if (io_detail::Compression const* c = io_detail::compression_of(bytes))
    fail(source, "", std::string("is ") + c->name + "-compressed: decompress it first (`" + c->tool + " FILE > " +
                         "model.json`), or pipe it in: `" + c->tool + " FILE | kboost <command> --model - ...`");
  fjson doc;
  std::vector<std::pair<std::size_t, std::size_t>> grown;
  bool const text = looks_like_text_json(bytes);
  try {
    if (text) {
      doc = parse_document(sanitize_json_text(bytes, grown), fjson::input_format_t::json);
    } else {
      doc = parse_document(bytes, fjson::input_format_t::ubjson);
    }
  } catch (fjson::parse_error const& e) {
    if (!text) fail(source, "", std::string("not a valid JSON/UBJSON model (") + e.what() + ")");
    fail(source, "", "not a valid JSON/UBJSON model (" + json_syntax_error(bytes, grown, e.byte, e.what()) + ")");
  } catch (std::exception const& e) {
    fail(source, "", std::string("not a valid JSON/UBJSON model (") + e.what() + ")");
  }
  if (!doc.is_object()) fail(source, "", "top level is not an object");
  if (auto const it = doc.find("format"); it != doc.end() && *it == "kboost-checkpoint")
    fail(source, "", "is a kboost checkpoint, not a model: resume its job with kboost train ... --checkpoint-dir "
                     "<its folder> --resume (the finished job writes the model)");
  return doc;
}

/// learner.feature_names, feature_types and attributes (all strings, as upstream writes them).
void read_learner_strings(fjson const& learner, Ctx& c, Model& m) {
  if (auto const* fn = c.find(learner, "feature_names")) {
    for (auto const& s : *fn) {
      if (!s.is_string()) c.error("learner.feature_names", "expected strings");
      m.feature_names.push_back(s.get<std::string>());
    }
  }
  if (auto const* ft = c.find(learner, "feature_types")) {
    for (auto const& s : *ft) {
      if (!s.is_string()) c.error("learner.feature_types", "expected strings");
      m.feature_types.push_back(s.get<std::string>());
    }
  }
  if (auto const* at = c.find(learner, "attributes")) {
    if (!at->is_object()) c.error("learner.attributes", "expected an object");
    for (auto const& [key, value] : at->items()) {
      if (!value.is_string()) c.error("learner.attributes." + key, "expected a string (upstream's attributes are strings)");
      m.attributes[key] = value.get<std::string>();
    }
  }
}

/// learner.objective (upstream's ObjFunction::SaveConfig): the name and at most one parameter
/// object whose values are strings.
ObjectiveConfig read_objective_config(fjson const& obj, Ctx const& c) {
  // UBJSON strings may hold bytes that are not UTF-8, which the JSON writer cannot carry
  auto const text = [&c](fjson const& v, std::string const& field) {
    try {
      (void)nlohmann::json(v.get<std::string>()).dump();
    } catch (nlohmann::json::exception const&) {
      c.error(field, "not valid UTF-8 text");
    }
    return v.get<std::string>();
  };
  ObjectiveConfig config;
  config.name = text(c.at(obj, "name"), "learner.objective.name");
  for (auto const& [key, value] : obj.items()) {
    if (key == "name") continue;
    std::string const field = "learner.objective." + key;
    if (!value.is_object()) c.error(field, "expected an object of parameters");
    if (!config.param_object.empty())
      c.error(field, "a second parameter object beside '" + config.param_object + "' (upstream writes one)");
    config.param_object = key;
    for (auto const& [name, v] : value.items()) {
      if (!v.is_string()) c.error(field + "." + name, "expected a string (upstream's parameters are strings)");
      config.params.emplace_back(name, text(v, field + "." + name));
    }
  }
  return config;
}

/// learner.learner_model_param (upstream LearnerModelParamLegacy): shape and base score.
void read_learner_model_param(fjson const& learner, Ctx& c, Model& m) {
  auto const& lmp = c.at(learner, "learner_model_param");
  m.num_feature = static_cast<int>(c.int_param(lmp, "num_feature"));
  m.num_class = static_cast<int>(c.int_param_or(lmp, "num_class", 0));
  m.num_target = static_cast<int>(c.int_param_or(lmp, "num_target", 1));
  if (m.num_feature < 0 || m.num_class < 0 || m.num_target < 1 || m.num_class > (1 << 20) || m.num_target > (1 << 20))
    c.error("learner_model_param", "num_feature/num_class/num_target out of range");
  if (m.num_class > 1 && m.num_target > 1) c.error("learner_model_param", "multi-target multi-class is not supported (upstream neither)");
  m.boost_from_average = c.int_param_or(lmp, "boost_from_average", 1) != 0;
  m.base_score = parse_base_score(c.str(lmp, "base_score"), c);
  if (m.base_score.size() == 1 && m.num_outputs() > 1) m.base_score.assign(m.num_outputs(), m.base_score[0]);
  if (static_cast<int>(m.base_score.size()) != m.num_outputs())
    c.error("learner_model_param.base_score", "has " + std::to_string(m.base_score.size()) + " values for " +
                                                  std::to_string(m.num_outputs()) + " outputs");
}

/// learner.gradient_booster: gbtree (DART weights beside "model" in 3.3, inside it in 3.4) or a
/// pre-3.3 dart booster around a gbtree. Returns the trees' model object; sets booster and weight_drop.
fjson const& read_gradient_booster(fjson const& learner, Ctx& c, Model& m) {
  auto const& gb = c.at(learner, "gradient_booster");
  std::string const gb_name = c.str(gb, "name");
  if (gb_name == "gbtree") {
    auto const& model = c.at(gb, "model");
    if (c.find(gb, "weight_drop")) m.weight_drop = c.f32s(gb, "weight_drop");
    if (c.find(model, "weight_drop")) m.weight_drop = c.f32s(model, "weight_drop");
    m.booster = m.weight_drop.empty() ? "gbtree" : "dart";
    return model;
  }
  if (gb_name == "dart") {
    m.weight_drop = c.f32s(gb, "weight_drop");
    m.booster = "dart";
    return c.at(c.at(gb, "gbtree"), "model");
  }
  c.error("learner.gradient_booster.name", "unsupported booster '" + gb_name + "' (only gbtree and dart)");
}

/// The gbtree model (upstream GBTreeModel::LoadModel): trees, tree_info, iteration_indptr (rebuilt
/// for pre-2.0 models: a round is num_parallel_tree trees per output group, one group for
/// vector-leaf trees) and the category encoder.
void read_gbtree_model(fjson const& model, std::string const& source, Ctx& c, Model& m) {
  auto const& gmp = c.at(model, "gbtree_model_param");
  long long const num_trees = c.int_param(gmp, "num_trees");
  m.num_parallel_tree = static_cast<int>(c.int_param_or(gmp, "num_parallel_tree", 1));
  if (m.num_parallel_tree < 1) c.error("gbtree_model_param.num_parallel_tree", "must be >= 1");
  auto const& trees = c.array(model, "trees");
  if (num_trees < 0 || static_cast<std::size_t>(num_trees) != trees.size())
    c.error("gbtree_model_param.num_trees", std::to_string(num_trees) + " but 'trees' has " + std::to_string(trees.size()));
  m.trees.reserve(trees.size());
  for (std::size_t t = 0; t < trees.size(); ++t) {
    Ctx tc{source, "tree " + std::to_string(t)};
    m.trees.push_back(parse_tree(trees[t], tc));
  }
  m.tree_info = c.ints<int>(model, "tree_info", trees.size());
  if (c.find(model, "iteration_indptr")) {
    m.iteration_indptr = c.ints<int>(model, "iteration_indptr");
  } else {
    bool const vector_leaf = !m.trees.empty() && m.trees[0].size_leaf_vector > 1;
    std::size_t const per_round = static_cast<std::size_t>(m.num_parallel_tree) * (vector_leaf ? 1 : m.num_outputs());
    if (trees.size() % per_round != 0)
      c.error("gbtree_model_param.num_trees", std::to_string(trees.size()) + " trees is not a multiple of " +
                                                  std::to_string(per_round) + " trees per round");
    for (std::size_t i = 0; i <= trees.size(); i += per_round) m.iteration_indptr.push_back(static_cast<int>(i));
  }
  if (auto const* cats = c.find(model, "cats")) m.category_encoder = parse_category_encoder(*cats, m.num_feature, c);
}

}  // namespace

Model parse_model(std::string const& bytes, std::string const& source) {
  fjson const doc = parse_model_document(bytes, source);
  Ctx c{source, ""};
  Model m;
  if (c.find(doc, "version")) {
    auto ver = c.ints<int>(doc, "version", 3);
    m.version = {ver[0], ver[1], ver[2]};
  }
  auto const& learner = c.at(doc, "learner");
  read_learner_strings(learner, c, m);
  read_learner_model_param(learner, c, m);

  auto const& obj = c.at(learner, "objective");
  m.objective = c.str(obj, "name");
  m.objective_config = read_objective_config(obj, c);
  if (!is_known_objective(m.objective)) c.error("learner.objective.name", "unknown objective '" + m.objective + "'");

  read_gbtree_model(read_gradient_booster(learner, c, m), source, c, m);
  if (m.booster == "dart" && m.weight_drop.size() != m.trees.size())
    c.error("weight_drop", "has " + std::to_string(m.weight_drop.size()) + " entries for " + std::to_string(m.trees.size()) + " trees");
  validate_model(m, source);
  return m;
}

Model read_model(std::string const& path) {
  return parse_model(read_file(path, "model file"), path);
}

namespace {

/// Node statistics as parse_tree reads them: loss_changes and sum_hessian one per node, and
/// base_weights size_leaf_vector per node; a vector-leaf tree of 2.x may lack the first two.
template <class Err>
void check_statistics(TreeModel const& t, Err const& err) {
  std::size_t const n = t.num_nodes();
  bool const vector_leaf = t.size_leaf_vector > 1;
  auto length = [&](std::vector<float> const& v, char const* field, std::size_t expect, bool may_be_empty) {
    if (v.size() != expect && !(may_be_empty && v.empty()))
      err(field, std::to_string(v.size()) + " entries for " + std::to_string(n) + " nodes (expected " +
                     std::to_string(expect) + ")");
  };
  length(t.loss_changes, "loss_changes", n, vector_leaf);
  length(t.sum_hessian, "sum_hessian", n, vector_leaf);
  length(t.base_weights, "base_weights", n * static_cast<std::size_t>(vector_leaf ? t.size_leaf_vector : 1), false);
}

}  // namespace

void validate_model(Model const& m, std::string const& source) {
  int n_out = m.num_outputs();
  for (std::size_t ti = 0; ti < m.trees.size(); ++ti) {
    auto const& t = m.trees[ti];
    std::string where = "tree " + std::to_string(ti);
    auto err = [&](std::string const& field, std::string const& msg) { fail(source, where + ": field '" + field + "'", msg); };
    std::size_t n = t.num_nodes();
    if (n == 0) err("left_children", "empty tree");
    for (auto const* v : {&t.right_children, &t.parents, &t.split_indices})
      if (v->size() != n) err("right_children/parents/split_indices", "length differs from left_children");
    if (t.split_conditions.size() != n || t.default_left.size() != n) err("split_conditions/default_left", "length differs");
    check_statistics(t, err);
    if (!t.split_type.empty() && t.split_type.size() != n) err("split_type", "length differs");
    bool vector_leaf = t.size_leaf_vector > 1;
    if (vector_leaf != (m.trees[0].size_leaf_vector > 1)) err("tree_param.size_leaf_vector", "mixes vector-leaf and scalar trees");
    if (t.categories_segments.size() != t.categories_nodes.size() || t.categories_sizes.size() != t.categories_nodes.size())
      err("categories_segments/categories_sizes", "length differs from categories_nodes");
    if (vector_leaf && t.size_leaf_vector != n_out)
      err("tree_param.size_leaf_vector", std::to_string(t.size_leaf_vector) + " != model outputs " + std::to_string(n_out));
    // Categorical segments.
    std::vector<int> cat_of(n, -1);
    for (std::size_t k = 0; k < t.categories_nodes.size(); ++k) {
      auto nid = t.categories_nodes[k];
      if (nid < 0 || static_cast<std::size_t>(nid) >= n) err("categories_nodes", "node " + std::to_string(nid) + " out of range");
      auto beg = t.categories_segments[k], sz = t.categories_sizes[k];
      if (beg < 0 || sz < 0 || static_cast<std::size_t>(beg + sz) > t.categories.size())
        err("categories_segments", "segment " + std::to_string(k) + " outside 'categories'");
      for (auto j = beg; j < beg + sz; ++j)
        if (t.categories[j] < 0 || t.categories[j] >= (1 << 24)) err("categories", "category " + std::to_string(t.categories[j]) + " outside [0, 2^24)");
      cat_of[nid] = static_cast<int>(k);
    }
    // Walk from the root: every reachable node exactly once (no cycle, no shared child).
    std::vector<std::uint8_t> seen(n, 0);
    std::vector<std::int32_t> stack{0};
    seen[0] = 1;
    std::size_t n_leaves = 0;
    while (!stack.empty()) {
      auto i = stack.back();
      stack.pop_back();
      std::string node = " (node " + std::to_string(i) + ")";
      if (t.left_children[i] == -1) {
        ++n_leaves;
        if (vector_leaf) {
          auto li = t.right_children[i];
          if (li < 0 || static_cast<std::size_t>(li + 1) * t.size_leaf_vector > t.leaf_weights.size())
            err("leaf_weights", "leaf index " + std::to_string(li) + " out of range" + node);
        } else if (std::isnan(t.split_conditions[i])) {
          err("split_conditions", "NaN leaf value" + node);
        }
        continue;
      }
      for (auto ch : {t.left_children[i], t.right_children[i]}) {
        if (ch <= 0 || static_cast<std::size_t>(ch) >= n) err("left_children/right_children", "child " + std::to_string(ch) + " out of range" + node);
        if (seen[ch]) err("left_children/right_children", "node " + std::to_string(ch) + " reached twice (cycle or shared subtree)" + node);
        seen[ch] = 1;
        stack.push_back(ch);
      }
      if (t.split_indices[i] < 0 || t.split_indices[i] >= m.num_feature)
        err("split_indices", "feature " + std::to_string(t.split_indices[i]) + " outside [0, " + std::to_string(m.num_feature) + ")" + node);
      bool categorical = !t.split_type.empty() && t.split_type[i] == 1;
      if (!t.split_type.empty() && t.split_type[i] > 1) err("split_type", "unknown split type" + node);
      if (!categorical && std::isnan(t.split_conditions[i])) err("split_conditions", "NaN threshold on a numerical split" + node);
    }
    (void)n_leaves;
    if (ti < m.tree_info.size()) {
      int g = m.tree_info[ti];
      if (g < 0 || (!vector_leaf && g >= n_out) || (vector_leaf && g != 0))
        fail(source, where + ": field 'tree_info'", "group " + std::to_string(g) + " outside [0, " + std::to_string(n_out) + ")");
    }
  }
  if (m.tree_info.size() != m.trees.size()) fail(source, "field 'tree_info'", "length differs from number of trees");
  auto const& ip = m.iteration_indptr;
  if (ip.empty() || ip.front() != 0 || static_cast<std::size_t>(ip.back()) != m.trees.size())
    fail(source, "field 'iteration_indptr'", "must start at 0 and end at the number of trees");
  for (std::size_t i = 1; i < ip.size(); ++i)
    if (ip[i] < ip[i - 1]) fail(source, "field 'iteration_indptr'", "not non-decreasing at " + std::to_string(i));
  if (!m.weight_drop.empty() && m.weight_drop.size() != m.trees.size())
    fail(source, "field 'weight_drop'", "length differs from number of trees");
  if (static_cast<int>(m.base_score.size()) != n_out) fail(source, "field 'base_score'", "length differs from outputs");
}

}  // namespace kboost
