// Positions for tests: random playouts from the start position, each checked
// to survive a FEN round trip and to have a legal move.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "board/position.h"

namespace xq::test {

// `count` positions after random games of min_plies plies, plus up to
// extra_plies - 1 more when extra_plies > 0 (one draw of the generator per
// game for the length, then one per move).
inline std::vector<Position> random_positions(int count, unsigned seed, int min_plies,
                                              int extra_plies = 0) {
  std::mt19937 rng(seed);
  std::vector<Position> out;
  while (int(out.size()) < count) {
    Position pos;
    const int plies = min_plies + (extra_plies > 0 ? int(rng() % unsigned(extra_plies)) : 0);
    for (int i = 0; i < plies; ++i) {
      const MoveList moves(pos);
      if (moves.size == 0) break;
      pos.do_move(moves.moves[rng() % unsigned(moves.size)]);
    }
    Position fresh;
    if (fresh.set_fen(pos.fen()).empty() && MoveList(fresh).size > 0) out.push_back(fresh);
  }
  return out;
}

// The start position and three positions one move from it: a suite of
// four small trees for the command-line tests of suites and their columns.
inline const std::vector<std::string>& four_short_fens() {
  static const std::vector<std::string> fens = {
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1",
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/6P2/P1P1P3P/1C5C1/9/RNBAKABNR b - - 0 1"};
  return fens;
}

}  // namespace xq::test
