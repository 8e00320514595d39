// The players of a match: an in-process xqlab engine (engine/engine.h) or an
// external UCI engine run as a child process. A player only answers "your
// move"; the game loop (lab/games/game.h) checks legality and the clock.
//
// Specs:
//   xqlab[:key=value,...]   keys: backend, hash (the scheme), threads,
//                           hash_mb, profile (thesis | modern), name,
//                           tunables (a parameters file, search/tunables.h),
//                           and any engine option by its name (backend and
//                           tunable parameters, "Move Overhead", ...).
//                           An engine whose evaluation weights are set (an
//                           "eval" tunable, or a parameters file) plays in a
//                           child process, `xqlab engine` (engine_binary()):
//                           the weights are one set per process.
//   uci:COMMAND[,key=value,...]  COMMAND is split on spaces into program and
//                           arguments; keys: name, ranks (0 or 1: how the
//                           engine numbers ranks, 1 meaning 1-10 as
//                           Fairy-Stockfish does; default 1 when the engine
//                           offers UCI_Variant, else 0), and any UCI option
//                           (sent as "setoption name KEY value VALUE").
// An engine offering the UCI_Variant option is set to "xiangqi". A match
// takes a `tc=B+I` key out of a spec before the player is made (the
// engine's own clock, lab/games/match.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "board/types.h"

namespace xq::lab::games {

// What the side to move is asked: the position (a FEN and the moves after
// it, in the project's ICCS coordinates) and the clocks.
struct MoveRequest {
  std::string fen;
  std::vector<std::string> moves;
  Color side = Color::Red;
  std::int64_t movetime_ms = 0;  // > 0: fixed time per move, clocks unused
  std::int64_t red_ms = 0, black_ms = 0;
  std::int64_t red_inc_ms = 0, black_inc_ms = 0;  // per side: a match may give odds
  int depth = 0;                 // > 0: search to this depth, no time limit
  std::uint64_t nodes = 0;       // > 0 (and depth 0): search this many nodes, no time limit
  // Set: polled while the engine thinks (every 20 ms); once it returns true
  // the engine is told to stop and its best move so far is the reply.
  std::function<bool()> should_stop;
};

struct MoveReply {
  enum class Status { Move, Timeout, Crashed };
  Status status = Status::Move;
  std::string move;               // ICCS, as the engine sent it (converted)
  std::optional<int> score_cp;    // the last score reported, side to move's view
  double seconds = 0;             // from "go" to the best move
  std::string detail;             // why, when not a move
  // The last "info" line's depth and nodes, when the engine reported them.
  std::optional<int> depth;
  std::optional<std::uint64_t> nodes;
  bool stopped = false;           // should_stop ended the search
};

class Player {
 public:
  virtual ~Player() = default;
  virtual const std::string& name() const = 0;
  virtual const std::string& spec() const = 0;
  // Prepares a new game (restarting a crashed external engine). Returns ""
  // or why the engine cannot play.
  virtual std::string new_game() = 0;
  // Asks for a move; the player gives up waiting `grace` after `deadline`
  // (it has then asked the engine to stop) and reports a Timeout.
  virtual MoveReply think(const MoveRequest& request,
                          std::chrono::steady_clock::time_point deadline,
                          std::chrono::milliseconds grace) = 0;
  // User + system CPU seconds the engine's processes have used so far (every
  // process of its group, every thread), or -1 when unknown (an in-process
  // player: its CPU is the caller's).
  virtual double cpu_seconds() { return -1; }
  // Sets engine options for the games that follow (they stay set when a
  // crashed engine is restarted). Throws std::invalid_argument for a refused
  // option, std::runtime_error when the engine does not answer; an
  // in-process engine refuses evaluation weights (one set per process).
  virtual void set_options(const std::vector<std::pair<std::string, std::string>>& options) = 0;
};

// Throws std::invalid_argument for a malformed spec, an unknown key or a bad
// option value, or an external engine that cannot be started or does not
// complete the UCI handshake within `handshake`.
std::unique_ptr<Player> make_player(const std::string& spec,
                                    std::chrono::milliseconds handshake = std::chrono::seconds(10));

// The KEY=VALUE pairs of an "xqlab:..." engine spec, as make_player reads
// them (none for a bare "xqlab"); empty for another kind of spec. Throws
// std::invalid_argument for an item without '='.
std::vector<std::pair<std::string, std::string>> xqlab_spec_pairs(const std::string& spec);

// The xqlab binary a child-process xqlab engine runs ("engine" is its
// argument): this process's own executable unless set (tests, whose
// executable is not xqlab, set it).
const std::string& engine_binary();
void set_engine_binary(std::string path);

// "h10e10" <-> "h9e9": ranks numbered from 1 (Fairy-Stockfish) or from 0.
// Return "" for text that is not a move in the given numbering.
std::string ranks_from_one(const std::string& iccs);
std::string ranks_from_zero(const std::string& one_based);

}  // namespace xq::lab::games
