// Static exchange evaluation (board/see.h): hand-made exchanges that test
// each piece's geometry -- cannon screens a capture creates or removes,
// horse legs, elephant eyes, pawns before and after the river, the palace
// pieces and the king -- and, on positions from random games, that see_ge()
// agrees with see() at every threshold.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "board/eval.h"
#include "board/movegen.h"
#include "board/see.h"

namespace xq {
namespace {

struct Exchange {
  const char* fen;
  const char* move;
  Value expected;
  const char* why;
};

// Piece values (board/eval.cpp): pawn 30, advisor and elephant 120, horse
// 270, cannon 285, rook 600.
const Exchange kExchanges[] = {
    {"4k4/9/9/9/R3p4/9/9/9/9/3K5 w - - 0 1", "a5e5", 30, "undefended pawn"},
    {"4k4/4r4/9/9/R3p4/9/9/9/9/3K5 w - - 0 1", "a5e5", 30 - 600, "pawn defended by a rook"},
    {"4k4/9/9/9/C1P1n4/9/9/9/9/3K5 w - - 0 1", "a5e5", 270, "cannon over its screen"},
    {"3k5/4c4/9/4P4/R3p4/9/9/9/9/4K4 w - - 0 1", "a5e5", 30 - 600,
     "the rook lands behind a screen: the cannon recaptures"},
    {"3k5/4c4/9/4R4/4p4/9/9/9/9/5K3 w - - 0 1", "e6e5", 30,
     "the capturing rook was the cannon's only screen"},
    {"3k5/9/5n3/9/R3p4/9/9/9/9/4K4 w - - 0 1", "a5e5", 30 - 600, "horse recaptures, leg free"},
    {"3k5/9/5n3/5P3/R3p4/9/9/9/9/4K4 w - - 0 1", "a5e5", 30, "horse's leg blocked"},
    {"4k4/9/9/9/3np4/9/9/9/3R5/4K4 w - - 0 1", "d1d5", 270,
     "a pawn on its own side does not capture sideways"},
    {"4k4/9/9/9/9/3np4/9/9/3R5/4K4 w - - 0 1", "d1d4", 270 - 600,
     "a pawn across the river does"},
    {"4k4/9/9/4p4/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", 30 - 600, "a pawn captures forward"},
    {"4k4/9/9/9/9/3pp4/9/9/4R4/3K5 w - - 0 1", "e1e4", 30 - 600,
     "a pawn across the river captures sideways"},
    {"2b1k4/9/R3n4/9/9/9/9/9/9/3K5 w - - 0 1", "a7e7", 270 - 600, "elephant recaptures, eye free"},
    {"2b1k4/3n5/R3n4/9/9/9/9/9/9/3K5 w - - 0 1", "a7e7", 270, "elephant's eye blocked"},
    {"4k4/4a4/R2n5/9/9/9/9/9/9/3K5 w - - 0 1", "a7d7", 270 - 600, "advisor recaptures in the palace"},
    {"4k4/R3a4/9/9/9/9/9/9/9/3K5 w - - 0 1", "a8e8", 120 - 600, "the king recaptures"},
    {"4k4/R3a4/9/9/9/9/4R4/9/9/3K5 w - - 0 1", "a8e8", 120,
     "the king does not recapture a defended square"},
    {"4k4/4r4/9/9/R3p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", 30 - 600 + 600,
     "rook takes, rook retakes, rook retakes"},
    {"4k4/9/9/9/R3p4/9/9/9/9/3K5 w - - 0 1", "a5b5", 0, "a quiet move to a safe square"},
    {"4k4/4r4/9/9/9/9/9/9/9/R4K3 w - - 0 1", "a0b0", 0, "quiet, unattacked"},
    {"4k4/4r4/9/9/9/9/9/9/R8/3K5 w - - 0 1", "a1e1", -600, "quiet, onto the rook's file"},
};

TEST(See, HandMadeExchanges) {
  int checked = 0;
  for (const Exchange& x : kExchanges) {
    Position pos;
    ASSERT_EQ(pos.set_fen(x.fen), "") << x.fen;
    const Move m = pos.parse_move(x.move);
    ASSERT_TRUE(m && pos.is_pseudo_legal(m)) << x.fen << " " << x.move;
    EXPECT_EQ(see(pos, m), x.expected) << x.why << ": " << x.fen << " " << x.move;
    EXPECT_TRUE(see_ge(pos, m, x.expected)) << x.why;
    EXPECT_FALSE(see_ge(pos, m, x.expected + 1)) << x.why;
    ++checked;
  }
  EXPECT_EQ(checked, int(std::size(kExchanges)));
}

// see() does not change the position, and see_ge() agrees with it at every
// threshold, for every capture and quiet move of positions from random games.
TEST(See, SeeGeAgreesWithSeeOnRandomPositions) {
  std::mt19937 rng(11);
  int moves_checked = 0, captures = 0, losing = 0;
  for (int game = 0; game < 40; ++game) {
    Position pos;
    for (int ply = 0; ply < 60; ++ply) {
      const MoveList list(pos);
      if (list.size == 0) break;
      const std::string before = pos.fen();
      for (int i = 0; i < list.size; ++i) {
        const Move m = list.moves[i];
        const Value v = see(pos, m);
        if (pos.is_capture(m)) {
          ++captures;
          EXPECT_LE(v, piece_value(type_of(pos.captured_by(m)))) << before << " " << move_name(m);
          if (v < 0) ++losing;
        } else {
          EXPECT_LE(v, 0) << before << " " << move_name(m);
        }
        for (Value t = -700; t <= 700; t += 35)
          ASSERT_EQ(see_ge(pos, m, t), v >= t) << before << " " << move_name(m) << " t " << t;
        ++moves_checked;
      }
      ASSERT_EQ(pos.fen(), before);
      pos.do_move(list.moves[rng() % unsigned(list.size)]);
    }
  }
  EXPECT_GT(moves_checked, 50000);
  EXPECT_GT(captures, 1000);
  EXPECT_GT(losing, 50) << "no losing capture met: the random games test too little";
}

}  // namespace
}  // namespace xq
