#include "lab/games/tuning.h"

#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <exception>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "lab/games/match.h"
#include "lab/games/player.h"

namespace xq::lab::games {

std::vector<const TunableParam*> parse_tuned_params(const std::string& text) {
  std::vector<const TunableParam*> out;
  for (const TunableParam& p : tunable_params())  // a group's name, or all
    if (text == "all" || p.group == text) out.push_back(&p);
  if (!out.empty()) return out;
  std::vector<bool> chosen(tunable_params().size(), false);
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string name =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    const TunableParam* p = find_tunable(name);
    if (p == nullptr)
      throw std::invalid_argument("--params: '" + name +
                                  "' is not a tunable parameter (xqlab list names them; or eval, "
                                  "knowledge, search, all)");
    const std::size_t i = std::size_t(p - tunable_params().data());
    if (chosen[i]) throw std::invalid_argument("--params: '" + name + "' is named twice");
    chosen[i] = true;
  }
  for (std::size_t i = 0; i < chosen.size(); ++i)
    if (chosen[i]) out.push_back(&tunable_params()[i]);
  return out;
}

std::vector<int> default_values(const TuningSetup& s) {
  std::vector<int> v;
  for (const TunableParam* p : s.params) v.push_back(p->default_value());
  return v;
}

Tunables tunables_of(const TuningSetup& s, const std::vector<int>& values) {
  Tunables t;
  for (std::size_t i = 0; i < s.params.size(); ++i) s.params[i]->ref(t) = values.at(i);
  return t;
}

std::string values_text(const TuningSetup& s, const std::vector<int>& values) {
  std::string out;
  for (std::size_t i = 0; i < s.params.size(); ++i)
    out += (i ? "," : "") + std::string(s.params[i]->name) + "=" + std::to_string(values.at(i));
  return out;
}

std::string engine_spec(const TuningSetup& s, const std::vector<int>& values,
                        const std::string& name) {
  std::string spec = "xqlab:name=" + name + ",threads=1,profile=" + s.profile;
  if (!s.params.empty()) spec += "," + values_text(s, values);
  return spec;
}

namespace {

// The two engines ("a" and "b") one thread of play_pairs plays with, started
// once per batch and set to each game's vectors by options: an engine
// process is not started per game. Each game starts with a cleared table.
struct Engines {
  std::unique_ptr<Player> a, b;
};

std::vector<std::pair<std::string, std::string>> options_of(const TuningSetup& s,
                                                            const std::vector<int>& values) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < s.params.size(); ++i)
    out.emplace_back(std::string(s.params[i]->name), std::to_string(values.at(i)));
  return out;
}

// One game of a pair: the two games of a pair can run at once.
PairOutcome play_one(const TuningSetup& s, const PairJob& job, bool a_red, Engines& e) {
  if (!e.a) e.a = make_player(engine_spec(s, default_values(s), "a"));
  if (!e.b) e.b = make_player(engine_spec(s, default_values(s), "b"));
  e.a->set_options(options_of(s, job.a));
  e.b->set_options(options_of(s, job.b));
  Player& a = *e.a;
  Player& b = *e.b;
  const common::SuiteEntry& o = s.openings.at(job.opening);
  Player& red = a_red ? a : b;
  Player& black = a_red ? b : a;
  for (Player* p : {&red, &black}) {
    const std::string why = p->new_game();
    if (!why.empty()) throw std::runtime_error("engine " + p->name() + ": " + why);
  }
  const GameRecord g = play_game(red, black, o.name, o.pos, s.tc, s.adjudication);
  return {0.5 * double(score_for(g.result, a_red)), is_forfeit(g.reason) ? 1 : 0};
}

}  // namespace

std::optional<std::vector<PairOutcome>> play_pairs(const TuningSetup& s,
                                                   const std::vector<PairJob>& jobs,
                                                   const std::atomic<bool>* stop) {
  // Game by game rather than pair by pair: at the end of a batch the last
  // pair's two games run at once instead of one after the other. With the
  // engines kept (Engines above), bench/tuning_speed.sh: 2 threads against 1
  // 1.916 (5.32 games/s); pair by pair with engines started per pair 1.789
  // (4.94); game by game with engines started per game 1.917 (4.75).
  std::vector<PairOutcome> games(2 * jobs.size());
  std::atomic<bool> stopped{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  const int n = int(games.size());
  std::vector<Engines> engines(std::size_t(std::max(1, s.threads)));
#pragma omp parallel for schedule(dynamic, 1) num_threads(s.threads)
  for (int i = 0; i < n; ++i) {
    if (stopped.load() || (stop != nullptr && stop->load())) {
      stopped.store(true);
      continue;
    }
    try {
      const std::size_t j = std::size_t(i) / 2;
      Engines& e = engines[std::size_t(omp_get_thread_num()) % engines.size()];
      games[std::size_t(i)] = play_one(s, jobs[j], i % 2 == 0, e);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      stopped.store(true);
    }
  }
  if (error) std::rethrow_exception(error);
  if (stopped.load()) return std::nullopt;
  std::vector<PairOutcome> out(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j)
    out[j] = {games[2 * j].a_points + games[2 * j + 1].a_points,
              games[2 * j].forfeits + games[2 * j + 1].forfeits};
  return out;
}

std::mt19937_64 step_rng(std::uint64_t seed, std::int64_t step) {
  std::uint64_t x = seed * 0x100000001B3ull + std::uint64_t(step) + 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return std::mt19937_64(x ^ (x >> 31));
}

double cpu_seconds_used() {
  double total = 0;
  for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    if (getrusage(who, &u) != 0) continue;
    total += double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
             double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  }
  return total;
}

Json setup_json(const TuningSetup& s) {
  Json params = Json::array();
  for (const TunableParam* p : s.params) params.push_back(std::string(p->name));
  return Json{{"params", params},
                      {"profile", s.profile},
                      {"tc", s.tc.text()},
                      {"openings", s.openings_path},
                      {"positions", s.openings.size()}};
}

Json read_checkpoint(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  try {
    return Json::parse(text);
  } catch (const std::exception& e) {
    throw std::invalid_argument("checkpoint " + path + " is not JSON: " + e.what());
  }
}

}  // namespace xq::lab::games
