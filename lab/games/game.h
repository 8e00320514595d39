// One game between two players under the project's Xiangqi rules, checked
// after every move by the Referee:
//  - the side to move without a legal move loses (checkmate and stalemate
//    alike);
//  - a position occurring for the third time (same side to move, within the
//    moves since the last capture) ends the game: the cycle since its
//    previous occurrence is judged by Position::repetition() — a side that
//    gave check with every one of its moves in it while the other did not
//    loses (perpetual check), anything else is a draw. Chasing rules are not
//    implemented;
//  - 120 plies without a capture draw (kNoCaptureLimit, the limit Pikafish
//    uses; the FEN's half-move clock counts).
// Optional adjudication (fastchess's parameters): resign when one engine's
// score has been <= -score for movecount of its moves in a row and its
// opponent's >= score for as many; draw after move number movenumber when
// both engines' |score| <= score for movecount moves each.
// A player forfeits when it crashes, hangs, sends an illegal move or
// oversteps its time (by more than the margin).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "board/position.h"
#include "lab/games/player.h"

namespace xq::lab::games {

constexpr int kNoCaptureLimit = 120;

enum class GameResult : std::uint8_t { RedWins, BlackWins, Draw, None };
std::string result_text(GameResult r);  // "1-0", "0-1", "1/2-1/2", "*"

struct GameEnd {
  GameResult result = GameResult::None;
  std::string reason;
};

class Referee {
 public:
  explicit Referee(const Position& start);
  // Plays a legal move and judges the new position.
  GameEnd play(Move m);
  GameEnd judge() const;
  const Position& position() const { return pos_; }
  // The position engines are given: the FEN after the last capture (or the
  // start) and the moves since, so that repetitions stay visible.
  const std::string& base_fen() const { return base_fen_; }
  const std::vector<std::string>& moves_since_base() const { return tail_; }
  int no_capture_plies() const;

 private:
  Position pos_;
  std::string base_fen_;
  int base_halfmove_ = 0;
  std::vector<std::string> tail_;
  std::vector<Key> keys_;  // after each move since the base
};

struct TimeControl {
  std::int64_t base_ms = 0, inc_ms = 0;  // the game clock, when movetime_ms, depth and nodes are 0
  std::int64_t movetime_ms = 0;          // > 0: fixed time per move
  // > 0: a fixed depth per move, no clock (what time to depth cannot see:
  // the same depth searched by more threads); a move not made within
  // depth_hang_ms (plus grace) is a hang.
  int depth = 0;
  // > 0: a fixed node count per move, no clock: what a search change is
  // worth per node searched, the same on a loaded machine as on a quiet one
  // (a 1-thread xqlab search is reproducible; its speed per node is not
  // counted). Hangs as with a fixed depth.
  std::uint64_t nodes = 0;
  std::int64_t depth_hang_ms = 120000;
  std::int64_t margin_ms = 50;           // overstepping by this much is not a loss
  std::int64_t grace_ms = 1000;          // wait after the deadline before a hang is declared
  std::string text() const;              // "1+0.1", "movetime=100", "depth=8" or "nodes=20000"
  bool clocked() const { return movetime_ms == 0 && depth == 0 && nodes == 0; }
  bool fixed_work() const { return depth > 0 || nodes > 0; }  // no time limit at all
};
// "B+I" in seconds (B may be "M:SS"); throws std::invalid_argument.
TimeControl parse_time_control(const std::string& text);

struct ResignRule {
  int movecount = 3, score = 600;
};
struct DrawRule {
  int movenumber = 40, movecount = 8, score = 10;
};
struct Adjudication {
  std::optional<ResignRule> resign;
  std::optional<DrawRule> draw;
};
// "movecount=3 score=600" / "movenumber=40 movecount=8 score=10" (items
// separated by spaces or given as separate words); throws on unknown keys.
ResignRule parse_resign(const std::vector<std::string>& words);
DrawRule parse_draw(const std::vector<std::string>& words);

// Consecutive moves per side meeting each adjudication condition.
class Adjudicator {
 public:
  explicit Adjudicator(const Adjudication& a) : rules_(a) {}
  // After `side` moved reporting `score` (its own view; none resets its
  // counts) at full move number `move_number`: the adjudicated end, if any.
  GameEnd update(Color side, std::optional<int> score, int move_number);

 private:
  Adjudication rules_;
  int losing_[2] = {0, 0}, winning_[2] = {0, 0}, drawish_[2] = {0, 0};
};

// What one move cost its player: the time from "go" to the move, what was
// left on the player's clock when the move arrived (before the increment;
// -1 at a fixed time per move)
// and the score it reported (its own view), if any.
struct MoveTime {
  std::int64_t used_ms = 0;
  std::int64_t clock_ms = -1;
  std::optional<int> score_cp;
};

struct GameRecord {
  std::string red, black;         // player names
  std::string opening, fen;       // the opening's name and FEN
  std::vector<std::string> moves; // ICCS
  std::vector<MoveTime> times;    // one per move, in the order of `moves`
  GameResult result = GameResult::None;
  std::string reason;
};

GameRecord play_game(Player& red, Player& black, const std::string& opening_name,
                     const Position& opening, const TimeControl& tc, const Adjudication& adj);
// The same with a clock per side (time odds): both of one kind (clocked,
// or the same fixed time, depth or nodes per move).
GameRecord play_game(Player& red, Player& black, const std::string& opening_name,
                     const Position& opening, const TimeControl& red_tc,
                     const TimeControl& black_tc, const Adjudication& adj);

}  // namespace xq::lab::games
