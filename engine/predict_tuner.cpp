/// \file predict_tuner.cpp
/// The host side of the prediction tuner: the environment switch, store keys, the forest
/// fingerprint and the per-process cache over the tune store.
#include <kboost/engine/predict_tuner.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <kboost/core/hash.hpp>

namespace kboost {

namespace {
std::uint64_t fnv1a_bytes(std::uint64_t h, void const* p, std::size_t n) { return fnv1a(p, n, h); }

template <class T>
std::uint64_t fnv1a_vector(std::uint64_t h, std::vector<T> const& v) {
  std::uint64_t const n = v.size();
  h = fnv1a_bytes(h, &n, sizeof n);
  return v.empty() ? h : fnv1a_bytes(h, v.data(), v.size() * sizeof(T));
}
}  // namespace

bool predict_tune_from_env() {
  char const* v = std::getenv("KBOOST_PREDICT_TUNE");
  if (v == nullptr || std::strcmp(v, "0") == 0) return false;
  if (std::strcmp(v, "1") == 0) return true;
  throw std::invalid_argument(std::string("KBOOST_PREDICT_TUNE='") + v +
                              "': expected 1 (tune the prediction mapping) or 0 / unset (the fixed default)");
}

std::string PredictTuneResult::describe() const {
  static char const* const sources[] = {"default", "forced", "stored", "measured"};
  std::string s = "predict tune " + (key.empty() ? std::string("-") : key) + ": " + choice.name() + " (" +
                  sources[static_cast<int>(source)];
  char buf[96];
  for (auto const& [name, t] : timings) {
    std::snprintf(buf, sizeof buf, "; %s %.4f ms", name.c_str(), t * 1e3);
    s += buf;
  }
  return s + ")";
}

int predict_batch_class(std::size_t n_rows) {
  int c = 0;
  while (n_rows >= 4) {
    n_rows /= 4;
    ++c;
  }
  return c;
}

std::string predict_tune_key(std::uint64_t fingerprint, int n_trees, bool pred_leaf, char x_layout, std::size_t n_rows) {
  char fp[17];
  std::snprintf(fp, sizeof fp, "%016llx", static_cast<unsigned long long>(fingerprint));
  return std::string("predict.") + fp + ".t" + std::to_string(n_trees) + (pred_leaf ? ".l" : ".v") + ".x" + x_layout +
         ".b" + std::to_string(predict_batch_class(n_rows));
}

std::uint64_t forest_fingerprint(HostForest const& h) {
  std::uint64_t f = 1469598103934665603ull;
  f = fnv1a_vector(f, h.nodes);
  f = fnv1a_vector(f, h.node_ids);
  f = fnv1a_vector(f, h.cat_bits);
  f = fnv1a_vector(f, h.cat_begin);
  f = fnv1a_vector(f, h.leaf_values);
  f = fnv1a_vector(f, h.tree_begin);
  f = fnv1a_vector(f, h.tree_group);
  return fnv1a_vector(f, h.tree_weight);
}

TuneStore& PredictTuneState::store(std::string const& device) {
  auto it = stores_.find(device);
  if (it == stores_.end()) it = stores_.emplace(device, TuneStore(device, dir_ ? *dir_ : TuneStore::default_dir())).first;
  return it->second;
}

std::optional<PredictChoice> PredictTuneState::find(std::string const& device, std::string const& key,
                                                    std::string& store_file) {
  TuneStore& s = store(device);
  store_file = s.file();
  auto const k = known_.find(device + '\n' + key);
  if (k != known_.end()) return k->second;
  auto const v = s.get(key);
  if (!v) return std::nullopt;
  auto const c = PredictChoice::decode(*v);
  if (!c || c->mapping == PredictMapping::kDefault) return std::nullopt;  // not a measured answer: measure again
  known_[device + '\n' + key] = *c;
  return c;
}

void PredictTuneState::keep(std::string const& device, std::string const& key, PredictChoice choice,
                            std::string& store_file) {
  TuneStore& s = store(device);
  s.put(key, choice.encode());
  store_file = s.file();
  known_[device + '\n' + key] = choice;
}

}  // namespace kboost
