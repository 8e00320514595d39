#include "lab/games/match.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <stdexcept>

#include "lab/common/files.h"
#include "lab/common/text.h"
#include "lab/games/player.h"

namespace xq::lab::games {
namespace {

Json header_json(const MatchConfig& c) {
  Json fens = Json::array();
  for (const common::SuiteEntry& e : c.openings) fens.push_back(e.pos.fen());
  return Json{{"engines", c.engines}, {"tc", c.tc.text()}, {"openings", fens}};
}

void append_line(const std::string& path, const Json& j) {
  if (path.empty()) return;
  std::ofstream out(path, std::ios::app);
  out << common::dump_line(j) << '\n';
  out.flush();
  if (!out) throw std::runtime_error("cannot write the results file '" + path + "'");
}

void append_text(const std::string& path, const std::string& text) {
  if (path.empty()) return;
  std::ofstream out(path, std::ios::app);
  out << text;
  if (!out) throw std::runtime_error("cannot write the PGN file '" + path + "'");
}

// Engine a's and b's moves of game `index` into their clock use. The game
// starts with `first` to move; engine a has red in even games.
void add_clock_use(PairingResult& p, std::size_t index, Color first,
                   const std::vector<std::int64_t>& used, const std::vector<std::int64_t>& clock) {
  const bool a_red = index % 2 == 0;
  for (std::size_t i = 0; i < used.size() && i < clock.size(); ++i) {
    const bool red_moves = (i % 2 == 0) == (first == Color::Red);
    p.clock[red_moves == a_red ? 0 : 1].add(used[i], clock[i]);
  }
}

Color first_mover(const std::string& fen) {
  const std::size_t space = fen.find(' ');
  return space != std::string::npos && fen.compare(space, 2, " b") == 0 ? Color::Black : Color::Red;
}


// Reads a results file back into the pairings; false when it does not exist.
bool load_results(const MatchConfig& c, std::vector<PairingResult>& pairings) {
  std::ifstream in(c.results_path);
  if (!in) return false;
  const std::string where = "results file '" + c.results_path + "'";
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    Json j;
    try {
      j = Json::parse(line);
    } catch (const std::exception&) {  // a line cut by a crash: the game is replayed
      std::fprintf(stderr, "%s: line %d is not JSON; ignored\n", where.c_str(), n);
      continue;
    }
    if (j.contains("header")) {
      if (j["header"] != header_json(c))
        throw std::invalid_argument(where + " was written for other engines, time control or openings");
      continue;
    }
    try {
      const std::size_t p = j.at("pairing").get<std::size_t>();
      const std::size_t g = j.at("index").get<std::size_t>();
      if (p >= pairings.size() || g != pairings[p].scores.size()) throw std::invalid_argument("order");
      pairings[p].scores.push_back(GameScore(j.at("score_a").get<int>()));
      pairings[p].forfeits += is_forfeit(j.at("reason").get<std::string>());
      if (j.contains("move_ms") && j.contains("clock_ms"))  // files from before they were kept have none
        add_clock_use(pairings[p], g, first_mover(j.at("fen").get<std::string>()),
                      j.at("move_ms").get<std::vector<std::int64_t>>(),
                      j.at("clock_ms").get<std::vector<std::int64_t>>());
    } catch (const std::exception&) {
      throw std::invalid_argument(where + ": line " + std::to_string(n) + " is not a game of this match");
    }
  }
  return true;
}

using common::fmt;

std::string progress_line(const MatchResult& m, const PairingResult& p, const MatchConfig& c) {
  const Wdl w = wdl_of(p.scores);
  std::string s = m.names[p.a] + " vs " + m.names[p.b] + ": games " + std::to_string(w.games()) +
                  ", +" + std::to_string(w.wins) + " =" + std::to_string(w.draws) + " -" +
                  std::to_string(w.losses);
  if (p.forfeits > 0) s += " (" + std::to_string(p.forfeits) + " by forfeit)";
  if (const auto e = elo_of(p.scores, c.openings.size()))
    s += ", Elo " + fmt("%.1f", e->elo) + " " + common::elo_interval_text(*e, "%.1f") +
         (e->clustered && e->estimable ? " (clustered by opening)" : "");
  if (c.sprt && !p.llr_by_games.empty())
    s += ", LLR " + fmt("%.2f", p.llr_by_games.back().second) + " [" +
         fmt("%.2f", common::sprt_lower_bound(*c.sprt)) + ", " + fmt("%.2f", common::sprt_upper_bound(*c.sprt)) + "]";
  return s;
}

// After a complete pair: the LLR and the decision.
void update_sprt(const MatchConfig& c, PairingResult& p) {
  if (!c.sprt || p.scores.size() % 2 != 0 || p.scores.empty()) return;
  const double v = common::llr(*c.sprt, penta_of(p.scores));
  p.llr_by_games.emplace_back(int(p.scores.size()), v);
  p.decision = common::sprt_decision(*c.sprt, v);
}

void check_config(const MatchConfig& c) {
  if (c.engines.size() < 2) throw std::invalid_argument("a match needs at least two engines");
  if (c.openings.empty()) throw std::invalid_argument("the opening suite is empty");
  if (c.games < 1) throw std::invalid_argument("--games must be at least 1");
  if (c.sprt) common::validate(*c.sprt);
  if (c.resume && c.results_path.empty()) throw std::invalid_argument("--resume needs --results FILE");
  if (common::is_gzip_path(c.results_path))
    throw std::invalid_argument("--results '" + c.results_path + "': a match appends one line per "
                                "game; give a plain file and gzip it when the match is over");
}

}  // namespace

EngineClock engine_clock(const std::string& spec, const TimeControl& match_tc) {
  const std::size_t colon = spec.find(':');
  if (colon == std::string::npos) return {spec, std::nullopt};
  const std::string kind = spec.substr(0, colon);
  std::vector<std::string> items = common::split_commas(spec.substr(colon + 1));
  // uci:COMMAND,KEY=V...: the command is not a key.
  const std::size_t first_key = kind == "uci" ? 1 : 0;
  std::optional<TimeControl> tc;
  for (std::size_t i = first_key; i < items.size();) {
    if (items[i].rfind("tc=", 0) != 0) {
      ++i;
      continue;
    }
    if (tc) throw std::invalid_argument("engine '" + spec + "' has two clocks (tc=)");
    if (!match_tc.clocked())
      throw std::invalid_argument("engine '" + spec + "': an engine's own clock (tc=) needs a "
                                  "match on a game clock (--tc B+I), not " + match_tc.text());
    TimeControl own = parse_time_control(items[i].substr(3));
    own.margin_ms = match_tc.margin_ms;
    own.grace_ms = match_tc.grace_ms;
    tc = own;
    items.erase(items.begin() + std::ptrdiff_t(i));
  }
  if (!tc) return {spec, std::nullopt};
  std::string rest;
  for (const std::string& item : items) rest += (rest.empty() ? "" : ",") + item;
  return {rest.empty() ? kind : kind + ":" + rest, tc};
}

void ClockUse::add(std::int64_t used_ms, std::int64_t clock_ms) {
  ++moves;
  max_move_ms = std::max(max_move_ms, used_ms);
  if (clock_ms >= 0 && (min_clock_ms < 0 || clock_ms < min_clock_ms)) min_clock_ms = clock_ms;
}

MatchResult run_match(const MatchConfig& c, const std::function<void(const std::string&)>& progress,
                      const std::atomic<bool>* stop) {
  check_config(c);
  MatchResult m;
  for (std::size_t a = 0; a < c.engines.size(); ++a)
    for (std::size_t b = a + 1; b < c.engines.size(); ++b) m.pairings.push_back({a, b, {}, {}, {}, 0, {}});
  const int games = c.games + c.games % 2;
  bool have_file = false;
  if (c.resume) have_file = load_results(c, m.pairings);
  else if (!c.results_path.empty() && std::ifstream(c.results_path))
    throw std::invalid_argument("results file '" + c.results_path + "' exists; add --resume to continue it");
  for (PairingResult& p : m.pairings) {
    std::vector<GameScore> all = std::move(p.scores);
    for (std::size_t i = 0; i < all.size(); ++i) {  // replays the SPRT trace
      p.scores.push_back(all[i]);
      update_sprt(c, p);
    }
    m.games += int(p.scores.size());
  }
  if (!have_file) append_line(c.results_path, Json{{"header", header_json(c)}});
  std::vector<std::unique_ptr<Player>> players;
  std::vector<TimeControl> clocks;  // per engine: its own, or the match's
  for (const std::string& spec : c.engines) {
    const EngineClock e = engine_clock(spec, c.tc);
    clocks.push_back(e.tc.value_or(c.tc));
    players.push_back(make_player(e.spec));
  }
  for (const auto& pl : players) m.names.push_back(pl->name()), m.specs.push_back(pl->spec());
  for (bool more = true; more;) {
    more = false;
    for (std::size_t pi = 0; pi < m.pairings.size(); ++pi) {
      PairingResult& p = m.pairings[pi];
      for (int half = 0; half < 2; ++half) {
        const int i = int(p.scores.size());
        if (i >= games || p.decision != common::SprtDecision::Continue) break;
        if (stop && stop->load(std::memory_order_relaxed)) {
          m.interrupted = true;
          return m;
        }
        const bool a_red = i % 2 == 0;
        const common::SuiteEntry& o = c.openings[std::size_t(i / 2) % c.openings.size()];
        const std::size_t red_i = a_red ? p.a : p.b, black_i = a_red ? p.b : p.a;
        const GameRecord g = play_game(*players[red_i], *players[black_i], o.name, o.pos,
                                       clocks[red_i], clocks[black_i], c.adjudication);
        p.scores.push_back(score_for(g.result, a_red));
        p.forfeits += is_forfeit(g.reason);
        ++m.games;
        std::vector<std::int64_t> used, clock;
        Json scores = Json::array();
        for (const MoveTime& t : g.times) {
          used.push_back(t.used_ms);
          clock.push_back(t.clock_ms);
          scores.push_back(t.score_cp ? Json(*t.score_cp) : Json(nullptr));
        }
        add_clock_use(p, std::size_t(i), o.pos.side_to_move(), used, clock);
        append_line(c.results_path, Json{{"pairing", pi}, {"index", i}, {"red", g.red}, {"black", g.black},
                                         {"opening", g.opening}, {"fen", g.fen},
                                         {"result", result_text(g.result)}, {"reason", g.reason},
                                         {"moves", g.moves}, {"move_ms", used}, {"clock_ms", clock},
                                         {"scores", scores}, {"score_a", int(p.scores.back())}});
        append_text(c.pgn_path, pgn_of(g, m.games));
        update_sprt(c, p);
        if (p.scores.size() % 2 == 0 && progress) progress(progress_line(m, p, c));
      }
      if (int(p.scores.size()) < games && p.decision == common::SprtDecision::Continue) more = true;
    }
  }
  return m;
}

Json match_json(const MatchConfig& c, const MatchResult& m) {
  Json engines = Json::array(), pairings = Json::array();
  for (std::size_t i = 0; i < m.names.size(); ++i) {
    Json e{{"name", m.names[i]}, {"spec", m.specs[i]}};
    // An engine with its own clock (time odds) says which.
    if (i < c.engines.size())
      if (const auto own = engine_clock(c.engines[i], c.tc).tc) e["tc"] = own->text();
    engines.push_back(e);
  }
  for (const PairingResult& p : m.pairings) {
    const Wdl w = wdl_of(p.scores);
    const common::Penta pen = penta_of(p.scores);
    const auto e = elo_of(p.scores, c.openings.size());
    Json j{{"a", m.names[p.a]}, {"b", m.names[p.b]}, {"wins", w.wins}, {"draws", w.draws},
           {"losses", w.losses}, {"penta", pen}};
    j["elo"] = e ? Json(e->elo) : Json(nullptr);
    j["elo_ci"] = e && e->estimable ? Json::array({e->lower, e->upper}) : Json(nullptr);
    j["elo_interval"] = e ? Json(interval_kind(*e)) : Json(nullptr);
    j["los"] = e ? Json(e->los) : Json(nullptr);
    if (c.sprt) {
      const double v = common::llr(*c.sprt, pen);
      j["sprt"] = {{"model", common::sprt_model_name(c.sprt->model)}, {"elo0", c.sprt->elo0},
                   {"elo1", c.sprt->elo1}, {"alpha", c.sprt->alpha}, {"beta", c.sprt->beta},
                   {"llr", v}, {"lower", common::sprt_lower_bound(*c.sprt)},
                   {"upper", common::sprt_upper_bound(*c.sprt)}, {"decision", common::decision_name(p.decision)}};
    } else {
      j["sprt"] = nullptr;
    }
    Json trace = Json::array();
    for (const auto& [g, v] : p.llr_by_games) trace.push_back(Json::array({g, v}));
    j["llr_by_games"] = trace;
    j["forfeits"] = p.forfeits;
    Json clocks = Json::object();
    for (int side = 0; side < 2; ++side) {
      const ClockUse& u = p.clock[side];
      clocks[side == 0 ? "a" : "b"] =
          Json{{"moves", u.moves},
               {"min_clock_ms", u.min_clock_ms < 0 ? Json(nullptr) : Json(u.min_clock_ms)},
               {"max_move_ms", u.max_move_ms}};
    }
    j["clock"] = clocks;
    pairings.push_back(j);
  }
  return Json{{"tc", c.tc.text()}, {"games", m.games}, {"engines", engines}, {"pairings", pairings}};
}

std::string pgn_of(const GameRecord& g, int round) {
  auto tag = [](const std::string& k, const std::string& v) {
    std::string q;
    for (char ch : v) q += ch == '"' || ch == '\\' ? std::string("\\") + ch : std::string(1, ch);
    return "[" + k + " \"" + q + "\"]\n";
  };
  char date[16];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
  std::string s = tag("Event", "xqlab match") + tag("Site", "?") + tag("Date", date) +
                  tag("Round", std::to_string(round)) + tag("White", g.red) + tag("Black", g.black) +
                  tag("Result", result_text(g.result)) + tag("Variant", "xiangqi") + tag("SetUp", "1") +
                  tag("FEN", g.fen) + tag("Opening", g.opening) + tag("Format", "ICCS") +
                  tag("Termination", g.reason) + "\n";
  const bool black_first = g.fen.find(" b") != std::string::npos;
  std::string line;
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    const std::size_t ply = i + (black_first ? 1 : 0);
    if (ply % 2 == 0) line += std::to_string(ply / 2 + 1) + ". ";
    else if (i == 0) line += "1... ";
    line += g.moves[i] + " ";
    if (i < g.times.size()) {
      const MoveTime& t = g.times[i];
      line += "{";
      if (t.score_cp) line += fmt("%+.2f", *t.score_cp / 100.0) + " ";
      line += fmt("%.3fs", double(t.used_ms) / 1000.0) + "} ";
    }
    if (line.size() > 70) s += line + "\n", line.clear();
  }
  return s + line + "{" + g.reason + "} " + result_text(g.result) + "\n\n";
}

GameScore score_for(GameResult r, bool red) {
  if (r == GameResult::Draw) return GameScore::Draw;
  return (r == GameResult::RedWins) == red ? GameScore::Win : GameScore::Loss;
}

bool is_forfeit(const std::string& reason) { return reason.find(" forfeits: ") != std::string::npos; }

}  // namespace xq::lab::games
