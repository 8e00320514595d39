// The time manager: how long one move may think, from a game clock or a fixed
// move time. It yields two limits (the split Stockfish's timeman.h makes
// between an optimum and a maximum time):
//   soft  no new iteration of iterative deepening starts after it
//         (Limits::soft_ms, checked between iterations in search/driver.h);
//   hard  the search stops wherever it is (Limits::movetime_ms, checked in the
//         node counter every node batch).
//
// The formula, in integer milliseconds (every division rounds down):
//   left    = max(0, time - overhead)              what the clock holds
//   reserve = min(left / 2, 3 * inc)               kept back with an increment
//   usable  = left - reserve                       what the clock can spend
//   horizon = moves_to_go > 0 ? min(moves_to_go, 50) : 30
//   target  = usable / horizon + inc               even share plus increment
//   soft    = max(1, min(target / 2, usable / 4))
//   hard    = max(soft, min(target * 2, usable / 2))
// If an iteration takes about as long as all before it together (an
// effective branching factor near 2), starting none after target/2 makes the
// average move cost about the target; the hard limit never spends more than
// half of what is left, so a misjudged iteration cannot lose on time.
// The reserve matters with an increment: without it, moves that each spend a
// little more than the increment run the clock down until the hard limit
// equals the increment (200 ms at 1 s + 0.1 s), and one scheduling stall of
// a few hundred ms then lost games on time (7 of 66 games between two
// 2-thread engines on a loaded 2-core machine). With it that floor is
// 400 ms, and about 600 ms when moves stop at the soft limit.
// A fixed move time is spent whole:
//   soft = hard = max(1, movetime - overhead).
// Negative inputs count as 0; inputs above kMaxClockMs count as kMaxClockMs.
// Both limits are at least 1 ms because 0 means "no limit" in Limits.
#pragma once

#include <algorithm>
#include <cstdint>

#include "search/options.h"

namespace xq {

struct GameClock {
  std::int64_t time_ms = 0;  // time left on the side to move's clock
  std::int64_t inc_ms = 0;   // added after each move
  int moves_to_go = 0;       // moves until the next time control; 0 = none
};

struct TimeBudget {
  std::int64_t soft_ms = 1;
  std::int64_t hard_ms = 1;
  constexpr bool operator==(const TimeBudget&) const = default;
};

namespace timeman {
constexpr int kSuddenDeathHorizon = 30;  // moves a clock without control is shared over
constexpr int kMaxHorizon = 50;
constexpr int kReserveIncrements = 3;
constexpr std::int64_t kMaxClockMs = std::int64_t(1) << 40;  // about 35 years

constexpr std::int64_t clamp_input(std::int64_t v) {
  return std::clamp<std::int64_t>(v, 0, kMaxClockMs);
}
}  // namespace timeman

constexpr TimeBudget budget_for_clock(const GameClock& c, std::int64_t overhead_ms) {
  using namespace timeman;
  const std::int64_t left =
      std::max<std::int64_t>(0, clamp_input(c.time_ms) - clamp_input(overhead_ms));
  const std::int64_t horizon =
      c.moves_to_go > 0 ? std::min(c.moves_to_go, kMaxHorizon) : kSuddenDeathHorizon;
  const std::int64_t inc = clamp_input(c.inc_ms);
  const std::int64_t usable = left - std::min(left / 2, kReserveIncrements * inc);
  const std::int64_t target = usable / horizon + inc;
  TimeBudget b;
  b.soft_ms = std::max<std::int64_t>(1, std::min(target / 2, usable / 4));
  b.hard_ms = std::max(b.soft_ms, std::min(target * 2, usable / 2));
  return b;
}

constexpr TimeBudget budget_for_movetime(std::int64_t movetime_ms, std::int64_t overhead_ms) {
  using namespace timeman;
  const std::int64_t t =
      std::max<std::int64_t>(1, clamp_input(movetime_ms) - clamp_input(overhead_ms));
  return TimeBudget{t, t};
}

// Best-move stability (Features::stability, the modern profile): how far the
// soft limit stretches or shrinks after each completed iteration -- the
// split of effort Stockfish's search makes with its best-move instability
// and falling-evaluation factors, in this engine's own form and constants:
//   changes  = changes / 2 + (1 if the iteration's best move differs from
//              the previous iteration's, else 0)      a decaying count
//   drop     = mean of the earlier iterations' scores - this one's score,
//              clamped to [0, kStabilityDropCap]       a falling score
//   factor   = (0.9 + 0.9 x changes) x (1 + drop / (2 x kStabilityDropCap))
// A best move steady for several iterations keeps 0.9 of the soft limit; one
// that just changed gets 1.8 of it, one that keeps changing up to 3.6 (changes tends to 2); a
// score two chess pawns (kStabilityDropCap, 240 here) below the earlier
// iterations' multiplies by up to 1.5 more. The hard limit still caps every
// move, so the stretch spends time the clock can afford. A root with one
// legal move is played after the first iteration (factor 0).
class SoftLimitScale {
 public:
  static constexpr Value kStabilityDropCap = 240;

  explicit SoftLimitScale(bool forced = false) : forced_(forced) {}

  // After each completed iteration: its best move and score.
  void update(Move best, Value score) {
    changes_ = changes_ / 2 + (iterations_ > 0 && best != last_ ? 1.0 : 0.0);
    drop_ = iterations_ > 0 ? std::clamp<double>(score_sum_ / iterations_ - score, 0,
                                                 kStabilityDropCap)
                            : 0;
    last_ = best;
    score_sum_ += score;
    ++iterations_;
  }

  double factor() const {
    if (forced_) return 0;
    return (0.9 + 0.9 * changes_) * (1 + drop_ / (2.0 * kStabilityDropCap));
  }

 private:
  bool forced_;
  double changes_ = 0;
  double drop_ = 0;
  double score_sum_ = 0;
  int iterations_ = 0;
  Move last_{};
};

// Writes the budget into a search's limits (hard into movetime_ms).
constexpr void apply_budget(const TimeBudget& b, Limits& limits) {
  limits.soft_ms = b.soft_ms;
  limits.movetime_ms = b.hard_ms;
}

}  // namespace xq
