// A match: every pair of engines (a round robin; two engines make one
// pairing) plays the suite's openings in order, each opening twice with the
// colours reversed (games 2k and 2k+1 of a pairing form pair k of the
// pentanomial statistics). Pairings take turns pair by pair. With an SPRT a
// pairing stops once its LLR crosses a bound.
//
// The results file holds one JSON object per line: first {"header":{...}}
// (engines, time control, openings), then one object per finished game,
// written and flushed as soon as the game ends. Resuming reads it back,
// checks that the header matches the new configuration, and plays only the
// games that are missing.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/common/suite.h"
#include "lab/games/game.h"
#include "lab/games/match_stats.h"

namespace xq::lab::games {

struct MatchConfig {
  std::vector<std::string> engines;  // player specs (lab/games/player.h), two or more
  TimeControl tc;
  Adjudication adjudication;
  std::vector<common::SuiteEntry> openings;
  std::string openings_path;
  int games = 10;                    // per pairing; rounded up to an even number
  std::optional<common::SprtParams> sprt;
  std::string results_path;          // "" = no results file
  bool resume = false;
  std::string pgn_path;              // "" = no PGN
};

// How close an engine came to its flag over a pairing's games: moves timed,
// the least time it had left when a move arrived (-1 when unknown, as under a fixed
// time per move) and its longest move, in ms.
struct ClockUse {
  int moves = 0;
  std::int64_t min_clock_ms = -1, max_move_ms = 0;
  void add(std::int64_t used_ms, std::int64_t clock_ms);
};

struct PairingResult {
  std::size_t a = 0, b = 1;              // engine indices
  std::vector<GameScore> scores;         // engine a's view, in game order
  std::vector<std::pair<int, double>> llr_by_games;  // after each complete pair
  common::SprtDecision decision = common::SprtDecision::Continue;
  int forfeits = 0;  // games lost by a crash, hang, illegal move or time loss
  ClockUse clock[2];  // engine a, engine b
};

struct MatchResult {
  std::vector<std::string> names, specs;
  std::vector<PairingResult> pairings;
  int games = 0;           // played and loaded
  bool interrupted = false;
};

// Runs (or resumes) the match. `progress` gets one line per finished game
// pair; `stop` (may be null) is checked between games. Throws
// std::invalid_argument for bad configuration, an unreadable or mismatched
// results file, or an engine that cannot be started.
MatchResult run_match(const MatchConfig& config, const std::function<void(const std::string&)>& progress,
                      const std::atomic<bool>* stop);

// An engine spec's own game clock, `tc=B+I` among its keys (time odds, as
// cutechess-cli's per-engine tc): the spec without that key (what the player
// is made from) and the clock, or none (the match's). Only a match on a game
// clock gives odds; margin and grace are the match's. Throws
// std::invalid_argument for a bad clock or a match without one.
struct EngineClock {
  std::string spec;
  std::optional<TimeControl> tc;
};
EngineClock engine_clock(const std::string& spec, const TimeControl& match_tc);

// The "match" object of `xqlab match --json`.
Json match_json(const MatchConfig& config, const MatchResult& result);

// One game in PGN (ICCS moves, each followed by a comment with the mover's
// score in pawns, when it reported one, and its time: {+0.35 0.518s}; the
// reason as the Termination tag and a closing comment).
std::string pgn_of(const GameRecord& g, int round);

// A finished game's score for one side (red or not); whether its end was a
// forfeit (a crash, hang, illegal move or time loss), from its reason.
GameScore score_for(GameResult r, bool red);
bool is_forfeit(const std::string& reason);

}  // namespace xq::lab::games
