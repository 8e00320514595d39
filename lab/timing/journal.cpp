#include "lab/timing/journal.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "lab/common/files.h"
#include "lab/records/json.h"

namespace xq::lab::timing {
namespace {

constexpr int kVersion = 1;

// The counters every journal holds (journals of 2026-11-29 and later hold
// every counter of SearchStats, core and declared, by name; a counter an
// older journal lacks reads as 0, but one of these missing means the
// journal is damaged).
bool required_in_journal(std::string_view name) {
  static const std::set<std::string_view> kRequired = {
      "nodes", "qnodes", "tt_probes", "tt_hits", "tt_cutoffs", "tt_torn", "bad_tt_moves",
      "tt_rejected", "fail_highs", "fail_high_first", "null_tries", "null_cutoffs", "splits",
      "joins", "aborts", "wasted_nodes", "seldepth", "idle_seconds", "search_seconds",
      "lock_seconds", "copy_seconds"};
  return kRequired.count(name) > 0;
}

Json stats_json(const SearchStats& st) {
  Json j = Json::object();
  for_each_counter(st, [&](const char* name, const auto& c) { j[name] = c.load(); });
  return j;
}

void read_stats(const Json& j, SearchStats& st) {
  for_each_counter(st, [&](const char* name, auto& c) {
    using T = decltype(c.load());
    if (required_in_journal(name)) c.store(j.at(name).get<T>());
    else c.store(j.contains(name) ? j.at(name).get<T>() : T{});
  });
}

int config_index(const LabSettings& s, const std::string& label) {
  for (std::size_t i = 0; i < s.configs.size(); ++i)
    if (s.configs[i].label() == label) return int(i);
  throw std::invalid_argument("no configuration '" + label + "'");
}

std::string first_difference(const Json& want, const Json& got) {
  for (const auto& [key, value] : want.items())
    if (!got.contains(key) || got[key] != value) return key;
  return "settings";
}

}  // namespace

Json journal_settings(const LabSettings& s, const std::vector<common::SuiteEntry>& suite) {
  Json fens = Json::array(), configs = Json::array();
  for (const common::SuiteEntry& e : suite) fens.push_back(e.pos.fen());
  for (const LabConfig& c : s.configs) configs.push_back(c.label());
  Json j{{"suite", s.suite_path},
         {"fens", fens},
         {"depth", s.depth},
         {"runs", s.runs},
         {"hash_mb", s.base.hash_mib},
         {"params", records::backend_json("", s.base)["params"]},
         {"configs", configs}};
  // A simulated run's searches resume only a simulated run with the same
  // machine (a measured run's journal has no such key).
  if (s.sim) j["simulation"] = sim_settings_json(*s.sim, s.runs);
  // Likewise a run of another profile than the thesis's (journals written
  // before profiles existed are the thesis's).
  if (profile_name(s.features) != "thesis") j["features"] = s.features.to_string();
  if (s.suite_half != "all") j["suite_half"] = s.suite_half;
  return j;
}

std::string journal_line(const LabSettings& s, const LabRun& r) {
  const SearchResult& x = r.result;
  const Json j{{"config", s.configs[std::size_t(r.config)].label()},
               {"run", r.run},
               {"position", r.position},
               {"seconds", r.seconds},
               {"cpu_seconds", r.cpu_seconds},
               {"load_average", r.load_average},
               {"bestmove", move_name(x.best_move)},
               {"score", x.score},
               {"depth", x.depth},
               {"completed", x.completed},
               {"stopped", x.stopped},
               {"result_seconds", x.seconds},
               {"hashfull", x.hashfull},
               {"stats", stats_json(x.stats)}};
  return common::dump_line(j);
}

LabRun from_journal_line(const std::string& line, const LabSettings& s,
                         const std::vector<common::SuiteEntry>& suite) {
  try {
    const Json j = Json::parse(line);
    LabRun r;
    r.config = config_index(s, j.at("config").get<std::string>());
    r.run = j.at("run").get<int>();
    r.position = j.at("position").get<int>();
    if (r.run < 0 || r.run >= s.runs || r.position < 0 || std::size_t(r.position) >= suite.size())
      throw std::invalid_argument("run or position out of range");
    r.seconds = j.at("seconds").get<double>();
    r.cpu_seconds = j.at("cpu_seconds").get<double>();
    r.load_average = j.at("load_average").get<double>();
    SearchResult& x = r.result;
    const std::string move = j.at("bestmove").get<std::string>();
    x.best_move = suite[std::size_t(r.position)].pos.parse_move(move);
    if (move_name(x.best_move) != move) throw std::invalid_argument("bad move '" + move + "'");
    x.score = j.at("score").get<Value>();
    x.depth = j.at("depth").get<Depth>();
    x.completed = j.at("completed").get<bool>();
    x.stopped = j.at("stopped").get<bool>();
    x.seconds = j.at("result_seconds").get<double>();
    x.hashfull = j.at("hashfull").get<int>();
    read_stats(j.at("stats"), x.stats);
    return r;
  } catch (const std::exception& e) {
    throw std::invalid_argument(e.what());
  }
}

std::vector<LabRun> read_journal(const std::string& path, const LabSettings& s,
                                 const std::vector<common::SuiteEntry>& suite) {
  const std::string text = common::read_input_file(path, "journal");  // .gz too
  // A last line without its line break is one the process did not finish.
  const bool torn_end = !text.empty() && text.back() != '\n';
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (lines.empty()) throw std::invalid_argument("journal '" + path + "' is empty");
  Json head;
  try {
    head = Json::parse(lines[0]);
  } catch (const std::exception&) {
    throw std::invalid_argument("journal '" + path + "' does not start with a journal header");
  }
  if (!head.is_object() || head.value("journal", "") != "xqlab lab" ||
      head.value("version", 0) != kVersion)
    throw std::invalid_argument("'" + path + "' is not an xqlab lab journal (version " +
                                std::to_string(kVersion) + ")");
  const Json want = journal_settings(s, suite);
  // A backend parameter declared after the journal was written is absent
  // from its settings; at its default it changes no search, so it does not
  // stand between the journal and its resumption.
  // (Rebuilt in the order of `want`'s keys: the documents' objects keep
  // their insertion order, and so does their comparison.)
  Json have = head.value("settings", Json());
  if (have.is_object() && have.contains("params") && have["params"].is_object() &&
      want.contains("params")) {
    const Json& old = have["params"];
    // Every parameter at its default, written as the settings write them.
    const Json defaults = records::backend_json("", BackendConfig{})["params"];
    Json params = Json::object();
    for (const auto& [name, value] : want["params"].items()) {
      if (old.contains(name)) params[name] = old[name];
      else if (defaults.contains(name) && value == defaults[name]) params[name] = value;
    }
    for (const auto& [name, value] : old.items())
      if (!params.contains(name)) params[name] = value;  // one the run no longer has: differs
    have["params"] = params;
  }
  if (!head.contains("settings") || have != want)
    throw std::invalid_argument(
        "journal '" + path + "' was written by a lab run with other settings (" +
        first_difference(want, head.value("settings", Json::object())) +
        " differs); resume with the options of that run");
  std::vector<LabRun> out;
  std::set<std::tuple<int, int, int>> seen;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    LabRun r;
    try {
      r = from_journal_line(lines[i], s, suite);
    } catch (const std::invalid_argument& e) {
      if (i + 1 == lines.size() && torn_end) break;  // torn by an interruption
      throw std::invalid_argument("journal '" + path + "' line " + std::to_string(i + 1) + ": " +
                                  e.what());
    }
    if (seen.insert({r.config, r.run, r.position}).second) out.push_back(std::move(r));
  }
  return out;
}

JournalWriter::JournalWriter(const std::string& path, const LabSettings& s,
                             const std::vector<common::SuiteEntry>& suite,
                             const std::vector<LabRun>& done)
    : path_(path), settings_(s) {
  std::string text = common::dump_line(Json{
      {"journal", "xqlab lab"}, {"version", kVersion}, {"settings", journal_settings(s, suite)}});
  text += '\n';
  for (const LabRun& r : done) text += journal_line(s, r) + '\n';
  common::write_file_atomically(path, text);
  file_ = std::fopen(path.c_str(), "a");
  if (!file_) throw std::runtime_error("cannot append to journal '" + path + "'");
}

JournalWriter::~JournalWriter() {
  if (file_) std::fclose(file_);
}

void JournalWriter::append(const LabRun& r) {
  const std::string line = journal_line(settings_, r) + '\n';
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
    throw std::runtime_error("cannot append to journal '" + path_ + "'");
}

}  // namespace xq::lab::timing
