// Players, forfeits and the match runner (lab/games/player.h, lab/games/game.h,
// lab/games/match.h), with fake external engines written as shell scripts.
#include "lab/games/match.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "lab/games/player.h"
#include "tests/support/files.h"
#include "tests/support/run_xqlab.h"
#include "tests/lab/games/games_util.h"
#include "tests/support/script_engine.h"

namespace xq::lab::games {
namespace {

using namespace std::chrono_literals;

// A UCI engine that answers the handshake and does `on_go` for every "go".
std::string fake_engine(const std::string& name, const std::string& on_go) {
  return test::script_engine(xq::test::temp_path("match", name + ".sh"), name, on_go);
}

// Openings with no capture possible and 110 plies already without one: every
// game ends after 10 plies, a draw by the no-capture limit.
std::string short_suite() {
  const std::string path = xq::test::temp_path("match", "short.csv");
  std::ofstream(path) << "name,fen\n"
                         "advisors,4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 110 60\n"
                         "advisors black,3k5/4a4/9/9/9/9/9/9/4A4/4K4 b - - 110 60\n";
  return path;
}

using test_util::fast;

TEST(MatchPlayers, RanksConvertBetweenNumberings) {
  EXPECT_EQ(ranks_from_one("h2e2"), "h3e3");
  EXPECT_EQ(ranks_from_one("a9a8"), "a10a9");
  EXPECT_EQ(ranks_from_zero("a10a9"), "a9a8");
  EXPECT_EQ(ranks_from_zero("h3e3"), "h2e2");
  for (const char* bad : {"", "a0a1", "j1a1", "a11a1", "a1", "a1a2x"})
    EXPECT_EQ(ranks_from_zero(bad), "") << bad;
  EXPECT_EQ(ranks_from_one("a10a1"), "");
}

TEST(MatchPlayers, BadSpecsAreRefused) {
  for (const char* bad : {"stockfish", "xqlab:threads=0", "xqlab:backend=nope", "xqlab:nonsense=1",
                          "xqlab:threads", "uci:", "uci:/nonexistent/engine"})
    EXPECT_THROW(make_player(bad, 2s), std::invalid_argument) << bad;
}

// One game between a fake engine (red or black) and the built-in engine.
struct FakeGame {
  std::unique_ptr<Player> fake;
  GameRecord g;
};
FakeGame play_fake(const std::string& name, const std::string& on_go, bool fake_is_red,
                   const TimeControl& tc = fast()) {
  FakeGame r{make_player("uci:" + fake_engine(name, on_go), 2s), {}};
  const auto good = make_player("xqlab", 2s);
  Position start;
  r.g = fake_is_red ? play_game(*r.fake, *good, "start", start, tc, {})
                    : play_game(*good, *r.fake, "start", start, tc, {});
  return r;
}

// Red's fake engine plays a0a9 (the rook through its own pawn): it forfeits.
TEST(MatchForfeits, IllegalMoveLoses) {
  const GameRecord g = play_fake("illegal", "echo 'bestmove a0a9'", true).g;
  EXPECT_EQ(g.result, GameResult::BlackWins);
  EXPECT_NE(g.reason.find("illegal move 'a0a9'"), std::string::npos) << g.reason;
  EXPECT_NE(g.reason.find("illegal (red) forfeits"), std::string::npos) << g.reason;
  EXPECT_TRUE(g.moves.empty());
}

// An engine that never answers "go": the game is lost after the deadline and
// the grace period (about 0.5 s here), the engine is killed and restarted
// for the next game.
TEST(MatchForfeits, HangLosesAndTheEngineIsRestarted) {
  const auto [hang, g] = play_fake("hang", "true", false);
  EXPECT_EQ(g.result, GameResult::RedWins);
  EXPECT_NE(g.reason.find("hang (black) forfeits: hangs"), std::string::npos) << g.reason;
  EXPECT_EQ(g.moves.size(), 1u);
  EXPECT_EQ(hang->new_game(), "");  // restarted after the kill
}

TEST(MatchForfeits, CrashLoses) {
  const GameRecord g = play_fake("crash", "exit 3", true).g;
  EXPECT_EQ(g.result, GameResult::BlackWins);
  EXPECT_NE(g.reason.find("crashed (exit status 3)"), std::string::npos) << g.reason;
}

TEST(MatchForfeits, LateMoveLosesOnTime) {
  TimeControl tc = fast();
  tc.margin_ms = 50;
  tc.grace_ms = 1000;
  const GameRecord g = play_fake("late", "sleep 0.3; echo 'bestmove h2e2'", true, tc).g;
  EXPECT_EQ(g.result, GameResult::BlackWins);
  EXPECT_NE(g.reason.find("loses on time"), std::string::npos) << g.reason;
}

// An engine's own clock (time odds): the key leaves the spec, the command of
// a UCI engine stays whole, and only a match on a game clock gives odds.
TEST(MatchClocks, AnEnginesOwnClockLeavesItsSpec) {
  const TimeControl match = parse_time_control("1+0.1");
  const EngineClock a = engine_clock("xqlab:threads=2,tc=2+0.2,name=x", match);
  EXPECT_EQ(a.spec, "xqlab:threads=2,name=x");
  ASSERT_TRUE(a.tc);
  EXPECT_EQ(a.tc->text(), "2+0.2");
  EXPECT_EQ(a.tc->margin_ms, match.margin_ms);
  EXPECT_EQ(engine_clock("xqlab:tc=0.5+0.05", match).spec, "xqlab");
  const EngineClock u = engine_clock("uci:/opt/tc=odd,tc=3+0.3,Hash=16", match);
  EXPECT_EQ(u.spec, "uci:/opt/tc=odd,Hash=16");
  ASSERT_TRUE(u.tc);
  EXPECT_EQ(u.tc->text(), "3+0.3");
  const EngineClock plain = engine_clock("xqlab:threads=2", match);
  EXPECT_EQ(plain.spec, "xqlab:threads=2");
  EXPECT_FALSE(plain.tc);
  EXPECT_EQ(engine_clock("xqlab", match).spec, "xqlab");
  TimeControl depth;
  depth.depth = 4;
  int refused = 0;
  for (const auto& [spec, tc] : std::vector<std::pair<std::string, TimeControl>>{
           {"xqlab:tc=1+0.1,tc=2+0.2", match}, {"xqlab:tc=soon", match}, {"xqlab:tc=2+0.2", depth}}) {
    EXPECT_THROW(engine_clock(spec, tc), std::invalid_argument) << spec;
    ++refused;
  }
  EXPECT_EQ(refused, 3);
}

// Each side is told its own clock and increment: a red script engine logs
// its "go" lines and plays h2e2 (its second h2e2 is illegal: the game ends
// after its second request), against the built-in engine with twice the
// time.
TEST(MatchClocks, EachSideIsToldItsOwnClockAndIncrement) {
  const std::string log = xq::test::temp_path("match", "odds-go.log");
  std::remove(log.c_str());
  auto red = make_player("uci:" + fake_engine("odds", "echo \"$line\" >> " + log + "; echo 'bestmove h2e2'"), 2s);
  const auto black = make_player("xqlab", 2s);
  const GameRecord g = play_game(*red, *black, "start", Position(), parse_time_control("1+0.1"),
                                 parse_time_control("2+0.2"), {});
  EXPECT_NE(g.reason.find("illegal move"), std::string::npos) << g.reason;
  std::ifstream in(log);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "go wtime 1000 btime 2000 winc 100 binc 200");
  // Black's clock after its move: its own base and increment less its time.
  int wtime = 0, btime = 0, winc = 0, binc = 0;
  ASSERT_EQ(std::sscanf(lines[1].c_str(), "go wtime %d btime %d winc %d binc %d", &wtime, &btime,
                        &winc, &binc), 4) << lines[1];
  EXPECT_EQ(winc, 100);
  EXPECT_EQ(binc, 200);
  ASSERT_EQ(g.times.size(), 2u);
  EXPECT_EQ(btime, 2000 + 200 - g.times[1].used_ms);
}

MatchConfig short_match(const std::string& results, int games) {
  MatchConfig c;
  c.engines = {"xqlab:name=one", "xqlab:name=two,hash_mb=2"};
  c.tc = fast();
  c.openings_path = short_suite();
  c.openings = common::load_suite(c.openings_path);
  c.games = games;
  c.results_path = results;
  c.sprt = common::SprtParams{};
  return c;
}

int count_lines_in(const std::string& path) {
  std::ifstream in(path);
  int n = 0;
  for (std::string l; std::getline(in, l);) ++n;
  return n;
}

// Two games, then the same match resumed to four: the file grows by two
// games, the first two are not replayed, and the trace has both pairs.
TEST(MatchRunner, ResumeAppendsTheMissingGames) {
  const std::string results = xq::test::temp_path("match", "resume.jsonl");
  std::remove(results.c_str());
  int progress = 0;
  MatchConfig c = short_match(results, 2);
  MatchResult first = run_match(c, [&](const std::string&) { ++progress; }, nullptr);
  EXPECT_EQ(first.games, 2);
  EXPECT_EQ(progress, 1);
  EXPECT_EQ(count_lines_in(results), 3);  // header + 2 games
  EXPECT_THROW(run_match(c, nullptr, nullptr), std::invalid_argument);  // exists, no --resume
  c.games = 4;
  c.resume = true;
  const MatchResult second = run_match(c, [&](const std::string&) { ++progress; }, nullptr);
  EXPECT_EQ(second.games, 4);
  EXPECT_EQ(progress, 2);
  EXPECT_EQ(count_lines_in(results), 5);
  ASSERT_EQ(second.pairings.size(), 1u);
  EXPECT_EQ(second.pairings[0].scores.size(), 4u);
  EXPECT_EQ(second.pairings[0].llr_by_games.size(), 2u);
  const Json j = match_json(c, second);
  EXPECT_EQ(j["games"], 4);
  // Every game is drawn by the no-capture limit unless an engine overstepped
  // its time on a loaded machine (200 ms margin), which the count shows.
  const int forfeits = second.pairings[0].forfeits;
  EXPECT_EQ(j["pairings"][0]["forfeits"], forfeits);
  EXPECT_EQ(j["pairings"][0]["draws"].get<int>() + forfeits, 4);
  if (forfeits == 0) {
    EXPECT_EQ(j["pairings"][0]["penta"], Json::array({0, 0, 2, 0, 0}));
  }
  // Every move's time is in the file and in the clock use, resumed games
  // included; a fixed time per move has no clock.
  std::ifstream in(results);
  std::size_t moves = 0;
  int games = 0;
  for (std::string l; std::getline(in, l);) {
    const Json g = Json::parse(l);
    if (g.contains("header")) continue;
    ++games;
    moves += g.at("moves").size();
    EXPECT_EQ(g.at("move_ms").size(), g.at("moves").size());
    EXPECT_EQ(g.at("clock_ms").size(), g.at("moves").size());
    EXPECT_EQ(g.at("scores").size(), g.at("moves").size());
  }
  EXPECT_EQ(games, 4);
  const PairingResult& p = second.pairings[0];
  EXPECT_EQ(std::size_t(p.clock[0].moves + p.clock[1].moves), moves);
  EXPECT_GT(p.clock[0].moves, 0);
  EXPECT_EQ(p.clock[0].min_clock_ms, -1);
  EXPECT_GE(p.clock[0].max_move_ms, 1);
  EXPECT_TRUE(j["pairings"][0]["clock"]["a"]["min_clock_ms"].is_null());
  c.engines[1] = "xqlab:name=three";  // another match: its file is refused
  EXPECT_THROW(run_match(c, nullptr, nullptr), std::invalid_argument);
  std::remove(results.c_str());
}

TEST(MatchRecord, PgnCommentsGiveScoreAndTimeOfEveryMove) {
  GameRecord g;
  g.red = "a";
  g.black = "b";
  g.fen = Position().fen();
  g.moves = {"h2e2", "h9g7", "h0g2"};
  g.times = {{518, 1482, 35}, {20, 980, std::nullopt}, {1, 1300, -250}};
  g.result = GameResult::Draw;
  g.reason = "adjudicated";
  const std::string pgn = pgn_of(g, 1);
  EXPECT_NE(pgn.find("1. h2e2 {+0.35 0.518s} h9g7 {0.020s} 2. h0g2 {-2.50 0.001s}"), std::string::npos)
      << pgn;
}

TEST(MatchRecord, ClockUseKeepsTheClosestCall) {
  ClockUse u;
  u.add(300, 700);
  u.add(900, 150);
  u.add(10, -1);  // no clock (fixed time per move)
  EXPECT_EQ(u.moves, 3);
  EXPECT_EQ(u.min_clock_ms, 150);
  EXPECT_EQ(u.max_move_ms, 900);
}

TEST(MatchCli, JsonFollowsTheContract) {
  const auto r = test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab:name=b", "--movetime", "20",
                                  "--games", "2", "--openings", short_suite(), "--sprt", "elo0=0",
                                  "elo1=5", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  ASSERT_TRUE(j.contains("meta"));
  const auto& m = j["match"];
  EXPECT_EQ(m["tc"], "movetime=20");
  EXPECT_EQ(m["games"], 2);
  ASSERT_EQ(m["engines"].size(), 2u);
  const auto& p = m["pairings"][0];
  for (const char* k : {"a", "b", "wins", "draws", "losses", "penta", "elo", "elo_ci", "los", "sprt", "llr_by_games",
                        "clock"})
    EXPECT_TRUE(p.contains(k)) << k;
  for (const char* k : {"model", "elo0", "elo1", "alpha", "beta", "llr", "lower", "upper", "decision"})
    EXPECT_TRUE(p["sprt"].contains(k)) << k;
  // One pair shows no spread: no interval rather than a zero-width one.
  EXPECT_EQ(p["elo_interval"], "not estimable");
  EXPECT_TRUE(p["elo_ci"].is_null());
  EXPECT_EQ(test::count_lines(r.err), 1);  // one progress line per pair
  EXPECT_NE(r.err.find("not estimable"), std::string::npos) << r.err;
}

// Pair k is played from opening k mod openings: while no opening repeats the
// interval is the pentanomial one; once one does, the bootstrap over openings.
TEST(MatchRecord, IntervalsClusterOnceAnOpeningRepeats) {
  using G = GameScore;
  const std::vector<G> games = {G::Win, G::Draw, G::Loss, G::Draw, G::Win, G::Win, G::Draw, G::Draw};
  const auto distinct = elo_of(games, 4);
  ASSERT_TRUE(distinct);
  EXPECT_FALSE(distinct->clustered);
  EXPECT_EQ(interval_kind(*distinct), "pentanomial");
  EXPECT_DOUBLE_EQ(distinct->lower, common::elo_estimate(penta_of(games))->lower);
  const auto repeated = elo_of(games, 2);  // pairs 0 and 2 share opening 0, 1 and 3 opening 1
  ASSERT_TRUE(repeated);
  EXPECT_TRUE(repeated->clustered);
  EXPECT_EQ(repeated->clusters, 2);
  EXPECT_EQ(interval_kind(*repeated), "clustered by opening");
  EXPECT_DOUBLE_EQ(repeated->elo, distinct->elo);
  // Opening 0 scored 3 + 4 = 7 of 8 half points, opening 1 1 + 2 = 3 of 8:
  // by hand, as the two-opening case of the stats test, 0.375 and 0.875.
  EXPECT_NEAR(repeated->lower, common::elo_from_score(3.0 / 8), 1e-9);
  EXPECT_NEAR(repeated->upper, common::elo_from_score(7.0 / 8), 1e-9);
  EXPECT_FALSE(elo_of({G::Win}, 1));
}

// Fixed-depth games: no clock, each move a search to the depth; the same
// engine against itself at depth 2 plays whole games without a forfeit.
TEST(MatchCli, FixedDepthGamesHaveNoClock) {
  const auto r = test::run_xqlab({"match", "--engine", "xqlab", "--engine",
                                  "xqlab:name=b,profile=modern", "--depth", "2", "--games", "2",
                                  "--openings", short_suite(), "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  const auto& m = j["match"];
  EXPECT_EQ(m["tc"], "depth=2");
  EXPECT_EQ(m["games"], 2);
  const auto& p = m["pairings"][0];
  EXPECT_EQ(p["forfeits"], 0);
  EXPECT_EQ(p["b"], "b");
  EXPECT_TRUE(p["clock"]["a"]["min_clock_ms"].is_null());  // no game clock
  EXPECT_GT(p["clock"]["a"]["moves"].get<int>(), 0);
  test::expect_one_line_error(test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab",
                                               "--depth", "2", "--movetime", "10", "--openings",
                                               short_suite()}),
                              "one of");
}

// A match with time odds says which engine had its own clock.
TEST(MatchCli, AnEngineWithItsOwnClockIsNamedInTheJson) {
  const auto r = test::run_xqlab({"match", "--engine", "xqlab:name=odds,tc=0.4+0.04", "--engine",
                                  "xqlab:name=b", "--tc", "0.2+0.02", "--games", "2", "--openings",
                                  short_suite(), "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  const auto& m = j["match"];
  EXPECT_EQ(m["tc"], "0.2+0.02");
  ASSERT_EQ(m["engines"].size(), 2u);
  EXPECT_EQ(m["engines"][0]["name"], "odds");
  EXPECT_EQ(m["engines"][0]["tc"], "0.4+0.04");
  EXPECT_FALSE(m["engines"][1].contains("tc"));
  EXPECT_EQ(m["pairings"][0]["forfeits"], 0);
  test::expect_one_line_error(test::run_xqlab({"match", "--engine", "xqlab:tc=1+0.1", "--engine",
                                               "xqlab", "--depth", "2", "--openings", short_suite()}),
                              "game clock");
}

TEST(MatchCli, BadInputIsOneLine) {
  const std::string suite = short_suite();
  test::expect_one_line_error(test::run_xqlab({"match", "--engine", "xqlab", "--engine", "bogus", "--openings", suite}), "spec");
  test::expect_one_line_error(test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab", "--sprt", "elo0=5", "elo1=0", "--openings", suite}), "sprt");
  test::expect_one_line_error(test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab", "--tc", "fast", "--openings", suite}), "tc");
  test::expect_one_line_error(test::run_xqlab({"match", "--engine", "xqlab", "--openings", suite}), "one engine");
  test::expect_one_line_error(test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab", "--resume", "--openings", suite}), "resume");
  // A match appends a line per game: a compressed results file is refused
  // before any game, and nothing is written.
  const std::string gz = xq::test::temp_path("match", "games.jsonl.gz");
  std::remove(gz.c_str());
  const test::XqlabRun r = test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab", "--results", gz, "--games", "2", "--openings", suite});
  test::expect_one_line_error(r, "gz results");
  EXPECT_NE(r.err.find("gzip it when the match is over"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(gz).good());
}

// Each opening of the book once per colour pair: more games than twice the
// openings is a usage error before any game, unless --reuse-openings (one
// warning; the interval is then clustered by opening). A book's halves: the
// verdicts play "verdict", a named half needs the column.
TEST(MatchCli, TheBookIsPlayedOnceUnlessReuseIsAsked) {
  const std::string suite = short_suite();
  const int openings = int(common::load_suite(suite).size());
  const std::string too_many = std::to_string(2 * openings + 2);
  test::expect_one_line_error(
      test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab:name=b", "--depth", "1",
                       "--games", too_many, "--book", suite}),
      "more games than the book holds");
  const auto refused = test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab:name=b",
                                        "--depth", "1", "--games", too_many, "--book", suite});
  EXPECT_NE(refused.err.find("--reuse-openings"), std::string::npos) << refused.err;
  const auto r = test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab:name=b", "--depth",
                                  "1", "--games", too_many, "--book", suite, "--reuse-openings",
                                  "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("clustered by opening"), std::string::npos) << r.err;
  const nlohmann::json j = r.json();
  const auto& p = j["match"]["pairings"][0];
  EXPECT_EQ(p["wins"].get<int>() + p["draws"].get<int>() + p["losses"].get<int>(), 2 * openings + 2);
  EXPECT_NE(p["elo_interval"], "pentanomial");  // clustered, or not estimable when all pairs alike
  // A half needs the column; an unknown half is refused by the option.
  test::expect_one_line_error(test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab",
                                               "--book", suite, "--book-half", "tune"}),
                              "a half of a suite without halves");
  test::expect_one_line_error(test::run_xqlab({"match", "--engine", "xqlab", "--engine", "xqlab",
                                               "--book-half", "both"}),
                              "unknown half");
}

TEST(MatchCli, TheShippedBookHasTwoDisjointHalves) {
  const std::string book = std::string(XQLAB_DATA_DIR) + "/book.csv";
  const auto all = common::load_book(book, "all", true);
  const auto tune = common::load_book(book, "tune", true);
  const auto verdict = common::load_book(book, "verdict", true);
  EXPECT_GE(all.size(), 1000u);
  EXPECT_EQ(tune.size() + verdict.size(), all.size());
  EXPECT_GE(tune.size(), 400u);
  EXPECT_GE(verdict.size(), 400u);
  std::set<std::string> fens;
  for (const auto& e : all) fens.insert(e.pos.fen());
  EXPECT_EQ(fens.size(), all.size()) << "the book repeats an opening";
  // Disjoint from every other suite of data/.
  int suites = 0;
  for (const auto& f : std::filesystem::directory_iterator(XQLAB_DATA_DIR)) {
    if (f.path().extension() != ".csv" || f.path().filename() == "book.csv") continue;
    for (const auto& e : common::load_suite(f.path().string()))
      EXPECT_EQ(fens.count(e.pos.fen()), 0u) << f.path() << ": " << e.name;
    ++suites;
  }
  EXPECT_GE(suites, 6);
}

TEST(RecommendCli, SaysWhenTheEvidenceIsNotEnough) {
  const auto r = test::run_xqlab({"recommend", "--threads", "1", "--candidates", "serial,ybwc", "--games", "2",
                                  "--movetime", "20", "--suite", short_suite(), "--book", short_suite(),
                                  "--lab-depth", "2", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  const auto& rec = j["recommendation"];
  EXPECT_EQ(rec["ranked"].size(), 2u);
  EXPECT_FALSE(rec["decided"].get<bool>());
  EXPECT_NE(rec["verdict"].get<std::string>().find("not enough evidence"), std::string::npos) << rec["verdict"];
  EXPECT_TRUE(rec["ranked"][0]["speedup"].is_number());
}

// Several thread counts: one decision each from documents, no search and no
// game (a SIMULATED lab document made here speaks for 2 and 4 threads,
// nothing for 8); options that would measure are refused in one line.
TEST(RecommendCli, SeveralThreadCountsDecideFromDocuments) {
  const std::string doc = xq::test::temp_path("match", "recommend-threads-SIMULATED.json");
  const auto lab = test::run_xqlab({"lab", "--simulate", "--backends", "serial,ybwc,lazysmp",
                                    "--threads", "2,4", "--depth", "3", "--runs", "1", "--suite",
                                    short_suite(), "--quiet", "--json-file", doc});
  ASSERT_EQ(lab.status, 0) << lab.err;
  const auto r = test::run_xqlab({"recommend", "--threads", "2,4,8", "--lab-json", doc, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  const auto& rows = j["recommend_threads"]["rows"];
  ASSERT_EQ(rows.size(), 3u);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(rows[k]["kind"], "SIMULATED") << rows[k];
    EXPECT_TRUE(rows[k]["simulated"].get<bool>());
    EXPECT_NE(rows[k]["evidence"].get<std::string>().find(doc), std::string::npos);
  }
  EXPECT_EQ(rows[2]["decision"], "no evidence");
  const auto text = test::run_xqlab({"recommend", "--threads", "2,8", "--lab-json", doc});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("(SIMULATED)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("8 threads: no evidence"), std::string::npos) << text.out;
  // Which setting of a parameter: this document varied none, and says so.
  const auto none = test::run_xqlab({"recommend", "--threads", "2", "--lab-json", doc,
                                     "--param-verdict", "history_share"});
  ASSERT_EQ(none.status, 0) << none.err;
  EXPECT_NE(none.out.find("no document has a row that ran history_share"), std::string::npos) << none.out;
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"recommend", "--threads", "2,4"},
        std::vector<std::string>{"recommend", "--threads", "2,4", "--lab-json", doc, "--games", "4"},
        std::vector<std::string>{"recommend", "--threads", "2,4", "--lab-json", doc + ".absent"},
        std::vector<std::string>{"recommend", "--threads", "2", "--lab-json", doc, "--param-verdict", "nosuch"}}) {
    const auto e = test::run_xqlab(bad);
    EXPECT_NE(e.status, 0) << bad.back();
    EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
    EXPECT_EQ(e.out, "");
  }
}

// Fixed-node games (`--nodes`): no clock, each move a search of that many
// nodes, in-process ("limits.nodes") and over UCI ("go nodes"). A 1-thread
// xqlab search stops at a node count, not at a time, so the same match
// played twice is the same games move for move, whatever the load. The
// engines differ by the Features option (in-process: the modern set less
// late-move reductions; over UCI: the modern set by name).
TEST(MatchRunner, FixedNodeGamesAreTheSameGamesTwice) {
  const std::string suite = xq::test::temp_path("match", "nodes.csv");
  std::ofstream(suite) << "name,fen\n"
                          "start,rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n";
  std::vector<std::vector<std::string>> runs;
  for (int run = 0; run < 2; ++run) {
    const std::string results = xq::test::temp_path("match", "nodes-" + std::to_string(run) + ".jsonl");
    std::remove(results.c_str());
    MatchConfig c;
    c.engines = {"xqlab:features=modern-lmr",
                 std::string("uci:") + XQLAB_BINARY + " engine,Features=modern"};
    c.tc.nodes = 3000;
    c.adjudication.resign = ResignRule{};
    c.adjudication.draw = DrawRule{30, 6, 20};
    c.openings_path = suite;
    c.openings = common::load_suite(suite);
    c.games = 2;
    c.results_path = results;
    const MatchResult m = run_match(c, nullptr, nullptr);
    ASSERT_EQ(m.games, 2);
    EXPECT_EQ(m.names[0], "xqlab-serial-1t-modern-lmr");
    EXPECT_EQ(m.pairings[0].forfeits, 0);
    EXPECT_EQ(match_json(c, m)["tc"], "nodes=3000");
    std::vector<std::string> games;
    std::ifstream in(results);
    for (std::string l; std::getline(in, l);) {
      const Json g = Json::parse(l);
      if (g.contains("header")) continue;
      EXPECT_EQ(g.at("clock_ms")[0], -1) << "no clock with a fixed node count";
      games.push_back(g.at("moves").dump());
    }
    ASSERT_EQ(games.size(), 2u);
    runs.push_back(games);
    std::remove(results.c_str());
  }
  EXPECT_EQ(runs[0], runs[1]);
  EXPECT_NE(runs[0][0], runs[0][1]) << "the two colours' games differ";
}

TEST(MatchSlow, XqlabAgainstFairyStockfish) {
  const std::string fairy = "/usr/games/fairy-stockfish";
  if (::access(fairy.c_str(), X_OK) != 0) GTEST_SKIP() << fairy << " is not installed";
  MatchConfig c;
  c.engines = {"xqlab", "uci:" + fairy};
  c.tc.movetime_ms = 50;
  c.tc.margin_ms = 100;
  c.adjudication.resign = ResignRule{};
  c.adjudication.draw = DrawRule{30, 6, 20};
  c.openings_path = common::default_suite_path();
  c.openings = common::load_suite(c.openings_path);
  c.games = 2;
  const MatchResult m = run_match(c, nullptr, nullptr);
  EXPECT_EQ(m.games, 2);
  ASSERT_EQ(m.pairings.size(), 1u);
  EXPECT_EQ(m.pairings[0].scores.size(), 2u);
  EXPECT_NE(m.names[1].find("Fairy-Stockfish"), std::string::npos) << m.names[1];
}

}  // namespace
}  // namespace xq::lab::games
