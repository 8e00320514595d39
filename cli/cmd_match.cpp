// xqlab match: games between engine configurations (in-process xqlab
// backends or external UCI engines) with pentanomial statistics and an
// optional SPRT (lab/games/match.h). One progress line per game pair on stderr; a
// summary on stdout (text, or one JSON object with --json); results appended
// to --results game by game, so --resume continues an interrupted match.
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/match_run.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/meta.h"
#include "lab/games/match.h"

namespace xq::cli {
namespace {

struct MatchArgs {
  std::vector<std::string> engines, sprt, resign, draw;
  std::string tc, results, pgn;
  BookArgs book;
  std::int64_t movetime = 0, margin = 50;
  int depth = 0;
  std::uint64_t nodes = 0;
  int games = 10;
  bool resume = false, json = false;
};

}  // namespace

namespace {

lab::games::MatchConfig config_of(const MatchArgs& a) {
  lab::games::MatchConfig c;
  c.engines = a.engines;
  c.tc = game_limit(a.tc, a.movetime, a.depth, a.nodes)
             .value_or(lab::games::parse_time_control("10+0.1"));
  c.tc.margin_ms = a.margin;
  if (!a.resign.empty()) c.adjudication.resign = lab::games::parse_resign(a.resign);
  if (!a.draw.empty()) c.adjudication.draw = lab::games::parse_draw(a.draw);
  c.games = a.games;
  c.openings_path = a.book.path;
  c.openings = book_openings(a.book, c.games + c.games % 2, "match");
  if (!a.sprt.empty()) c.sprt = lab::games::parse_sprt(a.sprt);
  c.results_path = a.results;
  c.resume = a.resume;
  c.pgn_path = a.pgn;
  return c;
}

// A figure for printing: -0.0 printed as 0.0.
double plain(const Json& v) {
  const double d = v.get<double>();
  return d == 0 ? 0.0 : d;
}

// "[lo, hi]" (an infinite bound, null in JSON, as -inf / +inf), with
// "(clustered by opening)" when it is, or "not estimable".
std::string interval_text(const Json& p) {
  const std::string kind = p.value("elo_interval", std::string("pentanomial"));
  const Json& ci = p["elo_ci"];
  if (!ci.is_array() || ci.size() != 2) return kind;
  char buf[96];
  const auto bound = [](const Json& b, const char* inf) {
    if (b.is_null()) return std::string(inf);
    char v[32];
    std::snprintf(v, sizeof v, "%.1f", plain(b));
    return std::string(v);
  };
  std::snprintf(buf, sizeof buf, "[%s, %s]", bound(ci[0], "-inf").c_str(), bound(ci[1], "+inf").c_str());
  return std::string(buf) + (kind == "clustered by opening" ? " (clustered by opening)" : "");
}

void print_text(const Json& m) {
  std::printf("match %s, %d games\n", m["tc"].get<std::string>().c_str(), m["games"].get<int>());
  for (const Json& p : m["pairings"]) {
    std::printf("%s vs %s: +%lld =%lld -%lld  penta %s", p["a"].get<std::string>().c_str(),
                p["b"].get<std::string>().c_str(), p["wins"].get<long long>(),
                p["draws"].get<long long>(), p["losses"].get<long long>(), p["penta"].dump().c_str());
    if (!p["elo"].is_null())
      std::printf("  Elo %.1f %s  LOS %.3f", plain(p["elo"]), interval_text(p).c_str(),
                  p["los"].get<double>());
    if (!p["sprt"].is_null())
      std::printf("  SPRT %s LLR %.2f [%.2f, %.2f] %s", p["sprt"]["model"].get<std::string>().c_str(),
                  p["sprt"]["llr"].get<double>(), p["sprt"]["lower"].get<double>(),
                  p["sprt"]["upper"].get<double>(), p["sprt"]["decision"].get<std::string>().c_str());
    std::printf("  forfeits %lld\n", p["forfeits"].get<long long>());
    // How close each engine came to its flag (game clocks only).
    for (const char* side : {"a", "b"}) {
      const Json& u = p["clock"][side];
      if (u["min_clock_ms"].is_null()) continue;
      std::printf("  %s: %lld moves, longest %lld ms, least left when moving %lld ms\n",
                  p[side].get<std::string>().c_str(), u["moves"].get<long long>(),
                  u["max_move_ms"].get<long long>(), u["min_clock_ms"].get<long long>());
    }
  }
}

int run(const MatchArgs& a) {
  const lab::games::MatchConfig c = config_of(a);
  const lab::common::RunMeta meta = lab::common::run_meta(invocation());  // the start of the run
  const lab::games::MatchResult r = run_match_until_sigint(c, "");
  const Json m = lab::games::match_json(c, r);
  if (a.json) print_json(Json{{"meta", meta}, {"match", m}});
  else print_text(m);
  if (r.interrupted) throw Interrupted("interrupted; the finished games are in the results file");
  return 0;
}

}  // namespace

Command add_match(CLI::App& root) {
  auto a = std::make_shared<MatchArgs>();
  CLI::App* app = root.add_subcommand("match", "games between engines: Elo, pentanomial counts, SPRT");
  app->add_option("--engine", a->engines,
                  "xqlab[:backend=B,hash=S,threads=T,hash_mb=M,OPTION=V] or uci:COMMAND[,OPTION=V] "
                  "(give two or more)")
      ->required();
  app->add_option("--tc", a->tc, "game clock BASE+INC in seconds (default 10+0.1)");
  app->add_option("--depth", a->depth, "fixed depth per move, no clock (a move that takes "
                  "over 120 s is a hang)")
      ->check(CLI::Range(1, 64));
  add_nodes_option(app, a->nodes);
  app->add_option("--movetime", a->movetime, "fixed time per move in ms")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
  app->add_option("--timemargin", a->margin, "ms an engine may overstep its time")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{60000}))->capture_default_str();
  app->add_option("--games", a->games, "games per pairing (even)")
      ->check(CLI::Range(1, 1000000))->capture_default_str();
  add_book_options(app, a->book, "verdict", true, true);
  app->add_option("--results", a->results, "append each finished game to this file (JSON lines)");
  app->add_flag("--resume", a->resume, "continue the match in --results");
  app->add_option("--pgn", a->pgn, "append each game to this PGN file");
  app->add_option("--sprt", a->sprt, "elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]")
      ->expected(1, 5);
  app->add_option("--resign", a->resign, "adjudicate a loss: movecount=K score=CP")->expected(1, 2);
  app->add_option("--draw", a->draw, "adjudicate a draw: movenumber=M movecount=K score=CP")->expected(1, 3);
  app->add_flag("--json", a->json, "one JSON object on stdout");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
