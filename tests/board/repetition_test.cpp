// Position::repetition(): a repeated position after reversible moves is a
// draw, unless one side checked on every one of its moves in the cycle and the
// other did not; then the perpetual checker loses. Results are from the side
// to move's point of view.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "board/position.h"

namespace xq {
namespace {

void play(Position& pos, std::initializer_list<const char*> moves) {
  for (const char* text : moves) {
    const Move m = pos.parse_move(text);
    ASSERT_NE(m, Move::none()) << text << " in " << pos.fen();
    pos.do_move(m);
  }
}

TEST(Repetition, NoneWithoutARepeat) {
  Position pos;
  EXPECT_EQ(pos.repetition(), Repetition::None);
  play(pos, {"h0g2", "h9g7", "g2h0"});
  EXPECT_EQ(pos.repetition(), Repetition::None);
}

TEST(Repetition, QuietCycleIsADraw) {
  Position pos;
  play(pos, {"h0g2", "h9g7", "g2h0", "g7h9"});
  EXPECT_EQ(pos.key(), Position().key());
  EXPECT_EQ(pos.repetition(), Repetition::Draw);
  // Once more round: still a draw, for either side to move.
  play(pos, {"h0g2"});
  EXPECT_EQ(pos.repetition(), Repetition::Draw);
}

TEST(Repetition, KingShuffleIsADraw) {
  Position pos;
  ASSERT_EQ(pos.set_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"), "");
  play(pos, {"e0e1", "d9d8", "e1e0"});
  EXPECT_EQ(pos.repetition(), Repetition::None);
  play(pos, {"d8d9"});
  EXPECT_EQ(pos.repetition(), Repetition::Draw);
}

TEST(Repetition, CaptureEndsTheLookBack) {
  // Red rook a0 and black rook a9 face each other; after a capture the game
  // cannot repeat a position from before it.
  Position pos;
  ASSERT_EQ(pos.set_fen("r2k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"), "");
  play(pos, {"e0e1", "d9d8", "e1e0", "d8d9"});
  EXPECT_EQ(pos.repetition(), Repetition::Draw);
  play(pos, {"a0a9"});
  EXPECT_EQ(pos.reversible_plies(), 0);
  EXPECT_EQ(pos.repetition(), Repetition::None);
}

TEST(Repetition, PerpetualCheckLosesForTheChecker) {
  // Red rook checks along ranks 9 and 8; the black king steps between f9 and
  // f8. After the cycle red is to move and red gave every check: red loses.
  Position pos;
  ASSERT_EQ(pos.set_fen("5k3/R8/9/9/9/9/9/9/9/4K4 w - - 0 1"), "");
  play(pos, {"a8a9"});
  EXPECT_TRUE(pos.in_check());
  play(pos, {"f9f8", "a9a8"});
  EXPECT_TRUE(pos.in_check());
  play(pos, {"f8f9"});
  EXPECT_EQ(pos.repetition(), Repetition::Loss);  // red, the checker, to move
  play(pos, {"a8a9"});
  EXPECT_TRUE(pos.in_check());
  EXPECT_EQ(pos.repetition(), Repetition::Win);   // black, the checked side, to move
}

TEST(Repetition, CheckOnOnlySomeMovesIsADraw) {
  // Red checks with a8a9, black blocks with the advisor (e8d9), red retreats
  // quietly (a9a8), black's advisor returns: red did not check on every move
  // of the cycle, so the repetition is a plain draw.
  const char* fen = "5k3/R3a4/9/9/9/9/9/9/9/4K4 w - - 0 1";
  Position pos;
  ASSERT_EQ(pos.set_fen(fen), "");
  const Key start = pos.key();
  play(pos, {"a8a9"});
  EXPECT_TRUE(pos.in_check());
  play(pos, {"e8d9", "a9a8"});
  EXPECT_FALSE(pos.in_check());
  play(pos, {"d9e8"});
  EXPECT_EQ(pos.key(), start);
  EXPECT_EQ(pos.repetition(), Repetition::Draw);
}

}  // namespace
}  // namespace xq
