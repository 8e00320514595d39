// Lazy SMP's per-thread variety and its choice of result, as plain functions
// (parallel/lazysmp.cpp) so that tests can check them without a search.
#pragma once

#include <cstddef>
#include <vector>

#include "board/types.h"

namespace xq::lazysmp {

// Which iterations a helper skips (the main thread, thread 0, skips none):
//  * None: every thread searches every depth;
//  * Sf7: Stockfish 7's half-density rows (20 rows of 0/1; helper i uses row
//    (i - 1) mod 20 and skips depth d when row[d mod row length] is 1; the
//    game-ply term Stockfish adds to d is 0 here: every search starts afresh);
//  * Sf9: Stockfish 9's SkipSize / SkipPhase arrays (20 entries each; helper
//    i uses k = (i - 1) mod 20 and skips d when ((d + SkipPhase[k]) /
//    SkipSize[k]) is odd).
enum class Skip { None, Sf7, Sf9 };

bool skips(Skip schedule, int thread, Depth depth);

// The shift of a thread's aspiration-window centre: 0 for the main thread,
// then +offset, -offset, +2 offset, -2 offset, ... for helpers 1, 2, 3, 4, ...
Value window_shift(Value offset, int thread);

// One thread's last completed iteration, as the vote sees it.
struct Ballot {
  Move move;
  Value score = 0;
  Depth depth = 0;  // 0: no iteration completed (the thread does not vote)
};

// The thread whose result a vote picks (Stockfish 11-17 when searching by
// time): each thread gives its move (score - lowest score + 14) x depth
// votes; the winner is the thread whose move has the most votes, except that
// a proven mate wins outright (the shortest mate; once the leader has a mate
// score, only a better score replaces it) and a thread that sees itself
// mated never wins on votes. Ties keep the earlier thread (the main thread
// first). Ballots of threads without a completed iteration are ignored;
// returns 0 when none voted.
std::size_t vote(const std::vector<Ballot>& ballots);

}  // namespace xq::lazysmp
