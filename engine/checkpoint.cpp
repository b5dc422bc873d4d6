/// \file checkpoint.cpp
/// Checkpoint files (engine/checkpoint.hpp): nlohmann/json around the model's upstream JSON.
#include <kboost/engine/checkpoint.hpp>

#include <kboost/core/read_file.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <kboost/core/atomic_file.hpp>
#include <kboost/io/model_reader.hpp>
#include <kboost/io/model_writer.hpp>

namespace kboost {
namespace {

constexpr char const* kFormat = "kboost-checkpoint";
constexpr int kVersion = 2;

std::string double_bits(double v) {
  std::uint64_t u = 0;
  std::memcpy(&u, &v, 8);
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(u));
  return buf;
}

double bits_double(std::string const& s, std::string const& source, char const* field) {
  if (s.size() != 16 || s.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw std::runtime_error(source + ": " + field + ": '" + s + "' is not 16 hex digits");
  std::uint64_t const u = std::stoull(s, nullptr, 16);
  double v = 0;
  std::memcpy(&v, &u, 8);
  return v;
}

std::string file_name(int rounds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "checkpoint-%08d.json", rounds);
  return buf;
}

/// Checkpoint files of `dir`, newest (most rounds) first.
std::vector<std::filesystem::path> checkpoint_files(std::string const& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  for (auto const& e : std::filesystem::directory_iterator(dir, ec)) {
    std::string const n = e.path().filename().string();
    if (n.size() == 24 && n.rfind("checkpoint-", 0) == 0 && n.substr(19) == ".json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end(), [](auto const& a, auto const& b) { return a.filename() > b.filename(); });
  return out;
}

}  // namespace

std::string checkpoint_bytes(Model const& model, TrainState const& state, std::string const& job) {
  nlohmann::json history = nlohmann::json::array();
  for (auto const& round : state.history) {
    nlohmann::json r = nlohmann::json::array();
    for (auto const& [data, metric, value] : round) r.push_back({data, metric, double_bits(value)});
    history.push_back(r);
  }
  nlohmann::json j = {{"format", kFormat},
                      {"version", kVersion},
                      {"job", job},
                      {"state",
                       {{"base_rounds", state.base_rounds},
                        {"rounds_done", state.rounds_done},
                        {"best_iteration", state.best_iteration},
                        {"best_score", double_bits(state.best_score)},
                        {"finished", state.finished},
                        {"rng_draws", state.rng_draws},
                        {"history", history}}},
                      {"model", model_to_json_bytes(model)}};
  return j.dump();
}

Checkpoint parse_checkpoint(std::string const& bytes, std::string const& source) {
  Checkpoint c;
  c.path = source;
  try {
    auto const j = nlohmann::json::parse(bytes);
    if (j.at("format").get<std::string>() != kFormat) throw std::runtime_error("format: not a kboost checkpoint");
    if (j.at("version").get<int>() != kVersion)
      throw std::runtime_error("version " + std::to_string(j.at("version").get<int>()) + " (this kboost reads " +
                               std::to_string(kVersion) + ")");
    c.job = j.at("job").get<std::string>();
    auto const& s = j.at("state");
    c.state.base_rounds = s.at("base_rounds").get<int>();
    c.state.rounds_done = s.at("rounds_done").get<int>();
    c.state.best_iteration = s.at("best_iteration").get<int>();
    c.state.best_score = bits_double(s.at("best_score").get<std::string>(), source, "state.best_score");
    c.state.finished = s.at("finished").get<bool>();
    c.state.rng_draws = s.at("rng_draws").get<std::uint64_t>();
    for (auto const& r : s.at("history")) {
      EvalRound round;
      for (auto const& e : r)
        round.emplace_back(e.at(0).get<std::string>(), e.at(1).get<std::string>(),
                           bits_double(e.at(2).get<std::string>(), source, "state.history"));
      c.state.history.push_back(round);
    }
    c.model = parse_model(j.at("model").get<std::string>(), source + " (model)");
  } catch (nlohmann::json::exception const& e) {
    throw std::runtime_error(source + ": not a valid checkpoint: " + e.what());
  }
  if (c.model.num_rounds() != c.state.rounds_done)
    throw std::runtime_error(source + ": the model has " + std::to_string(c.model.num_rounds()) +
                             " rounds, the state says " + std::to_string(c.state.rounds_done));
  return c;
}

void write_checkpoint(std::string const& dir, Model const& model, TrainState const& state, std::string const& job,
                      int keep) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create the checkpoint directory: " + ec.message());
  write_file_atomic((std::filesystem::path(dir) / file_name(state.rounds_done)).string(),
                    checkpoint_bytes(model, state, job));
  auto const files = checkpoint_files(dir);
  for (std::size_t k = static_cast<std::size_t>(std::max(keep, 1)); k < files.size(); ++k)
    std::filesystem::remove(files[k], ec);
  // Temporary files of writers that were killed mid-write (one job writes a directory at a time,
  // so a temporary file this process did not just commit is stale).
  for (auto const& e : std::filesystem::directory_iterator(dir, ec)) {
    std::string const n = e.path().filename().string();
    if (n.rfind("checkpoint-", 0) == 0 && n.find(".json.tmp.") != std::string::npos) std::filesystem::remove(e.path(), ec);
  }
}

std::optional<std::pair<std::string, std::string>> newest_checkpoint(std::string const& dir, std::ostream* log) {
  for (auto const& f : checkpoint_files(dir)) {
    try {
      std::string bytes = read_file(f.string(), "checkpoint");
      parse_checkpoint(bytes, f.string());
      return std::make_pair(f.string(), std::move(bytes));
    } catch (std::exception const& e) {
      std::string const why = e.what();
      if (log) *log << "skipping damaged checkpoint: " << why.substr(0, 300) << (why.size() > 300 ? "...\n" : "\n");
    }
  }
  return std::nullopt;
}

}  // namespace kboost
