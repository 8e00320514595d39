// Direct assertions on the Xiangqi movement rules, one small position each.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "board/position.h"

namespace xq {
namespace {

Position at(const std::string& fen) {
  Position pos;
  const std::string err = pos.set_fen(fen);
  EXPECT_EQ(err, "") << fen;
  return pos;
}

Square sq(const char* name) {
  Square s = Square::None;
  EXPECT_TRUE(parse_square(name, s)) << name;
  return s;
}

// Sorted destination names of the legal moves from one square.
std::vector<std::string> legal_targets(const Position& pos, const char* from) {
  std::vector<std::string> out;
  for (Move m : MoveList(pos))
    if (m.from() == sq(from)) out.push_back(square_name(m.to()));
  std::sort(out.begin(), out.end());
  return out;
}

// Sorted destination names of the pseudo-legal moves from one square.
std::vector<std::string> pseudo_targets(const Position& pos, const char* from) {
  Move moves[kMaxMoves];
  const Move* end = generate<GenType::All>(pos, moves);
  std::vector<std::string> out;
  for (const Move* m = moves; m != end; ++m)
    if (m->from() == sq(from)) out.push_back(square_name(m->to()));
  std::sort(out.begin(), out.end());
  return out;
}

using Names = std::vector<std::string>;

TEST(Rules, StartPositionHas44Moves) {
  Position pos;
  EXPECT_EQ(MoveList(pos).size, 44);
  EXPECT_FALSE(pos.in_check());
}

TEST(Rules, FlyingGeneralKingMayNotStepOntoOpenFile) {
  // Black king d9, red king e0: e0d0 would face the black king on the d file.
  Position pos = at("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
  const Move to_d0(sq("e0"), sq("d0"));
  EXPECT_TRUE(pos.is_pseudo_legal(to_d0));
  EXPECT_FALSE(pos.is_legal(to_d0));
  EXPECT_EQ(pos.parse_move("e0d0"), Move::none());
  EXPECT_EQ(legal_targets(pos, "e0"), (Names{"e1", "f0"}));
  // The open file means each king attacks the other's file.
  EXPECT_TRUE(pos.attacked(sq("d0"), Color::Black));
  EXPECT_TRUE(pos.attacked(sq("e9"), Color::Red));
  EXPECT_FALSE(pos.attacked(sq("f9"), Color::Red));
}

TEST(Rules, FlyingGeneralSoleBlockerIsPinned) {
  // The red horse on e5 is the only piece between the kings: every horse move
  // opens the file, so none is legal.
  Position pos = at("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1");
  EXPECT_EQ(pseudo_targets(pos, "e5").size(), 8u);
  EXPECT_TRUE(legal_targets(pos, "e5").empty());
  EXPECT_EQ(legal_targets(pos, "e0"), (Names{"d0", "e1", "f0"}));
}

TEST(Rules, FacingKingsGiveCheck) {
  // A FEN with the kings facing is rejected whichever side is to move.
  Position pos;
  EXPECT_NE(pos.set_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"), "");
  EXPECT_NE(pos.set_fen("4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1"), "");
  // Reached by a move: the black cannon on e5 leaves the file, uncovering the
  // kings, so that move is illegal; moving along the file is fine.
  pos = at("4k4/9/9/9/4c4/9/9/9/9/4K4 b - - 0 1");
  EXPECT_FALSE(pos.is_legal(Move(sq("e5"), sq("a5"))));
  EXPECT_TRUE(pos.is_legal(Move(sq("e5"), sq("e6"))));
}

TEST(Rules, HorseLegBlocking) {
  // Red horse e4 with a red pawn on its leg square e5: d6 and f6 are blocked.
  Position pos = at("3k5/9/9/9/4P4/4N4/9/9/9/4K4 w - - 0 1");
  EXPECT_EQ(legal_targets(pos, "e4"), (Names{"c3", "c5", "d2", "f2", "g3", "g5"}));
  EXPECT_FALSE(pos.is_pseudo_legal(Move(sq("e4"), sq("d6"))));
  EXPECT_TRUE(pos.is_pseudo_legal(Move(sq("e4"), sq("c5"))));
}

TEST(Rules, HorseCheckBlockedByLeg) {
  // The black horse on d2 attacks e0 through its leg square d1; a piece on d1
  // blocks the check.
  Position unblocked = at("3k5/9/9/9/9/9/9/3n5/9/4K4 w - - 0 1");
  EXPECT_TRUE(unblocked.in_check());
  Position blocked = at("3k5/9/9/9/9/9/9/3n5/3N5/4K4 w - - 0 1");
  EXPECT_FALSE(blocked.in_check());
  EXPECT_FALSE(blocked.attacked(sq("e0"), Color::Black));
}

TEST(Rules, ElephantEyeAndRiver) {
  // Red elephant e2; a black horse on d3 blocks the eye of e2->c4.
  Position pos = at("3k5/9/9/9/9/9/3n5/4B4/9/4K4 w - - 0 1");
  EXPECT_EQ(legal_targets(pos, "e2"), (Names{"c0", "g0", "g4"}));
  // Red elephant on g4 stops at the river: e2 and i2 only.
  pos = at("3k5/9/9/9/9/6B2/9/9/9/4K4 w - - 0 1");
  EXPECT_EQ(legal_targets(pos, "g4"), (Names{"e2", "i2"}));
  EXPECT_FALSE(pos.is_pseudo_legal(Move(sq("g4"), sq("e6"))));
  EXPECT_FALSE(pos.is_pseudo_legal(Move(sq("g4"), sq("i6"))));
  // Black elephant on c5 likewise: a7 and e7, never a3 or e3.
  pos = at("3k5/9/9/9/2b6/9/9/9/9/4K4 b - - 0 1");
  EXPECT_EQ(legal_targets(pos, "c5"), (Names{"a7", "e7"}));
}

TEST(Rules, CannonNeedsExactlyOneScreenToCapture) {
  // Red cannon b2; black horse b5 (screen), black rook b7, black king e9.
  Position pos = at("4k4/9/1r7/9/1n7/9/9/1C7/9/3K5 w - - 0 1");
  const Names targets = legal_targets(pos, "b2");
  EXPECT_EQ(targets, (Names{"a2", "b0", "b1", "b3", "b4", "b7", "c2", "d2", "e2", "f2", "g2",
                            "h2", "i2"}));
  EXPECT_FALSE(pos.is_pseudo_legal(Move(sq("b2"), sq("b5"))));  // no screen
  EXPECT_FALSE(pos.is_pseudo_legal(Move(sq("b2"), sq("b6"))));  // jumps without capture
  EXPECT_TRUE(pos.is_pseudo_legal(Move(sq("b2"), sq("b7"))));   // one screen
  EXPECT_TRUE(pos.is_capture(Move(sq("b2"), sq("b7"))));
  // A cannon checks through exactly one screen, not through two.
  EXPECT_TRUE(at("4k4/9/9/9/4n4/9/9/4C4/9/3K5 b - - 0 1").in_check());
  EXPECT_FALSE(at("4k4/4a4/9/9/4n4/9/9/4C4/9/3K5 b - - 0 1").in_check());
}

TEST(Rules, KingAndAdvisorStayInPalace) {
  // Red king d0 can reach d1 and e0, not c0; red advisors e1 and d2.
  Position pos = at("4k4/9/9/9/9/9/9/3A5/4A4/3K5 w - - 0 1");
  EXPECT_EQ(legal_targets(pos, "d0"), (Names{"d1", "e0"}));
  EXPECT_EQ(legal_targets(pos, "e1"), (Names{"f0", "f2"}));
  EXPECT_EQ(legal_targets(pos, "d2"), (Names{}));
  // Red king on f2 (palace corner): f1 and e2 only, never f3 or g2.
  pos = at("3k5/9/9/9/9/9/9/5K3/9/9 w - - 0 1");
  EXPECT_EQ(legal_targets(pos, "f2"), (Names{"e2", "f1"}));
  // Black advisor on e8 reaches the four palace corners only.
  pos = at("4k4/4a4/9/9/9/9/9/9/9/3K5 b - - 0 1");
  EXPECT_EQ(legal_targets(pos, "e8"), (Names{"d7", "d9", "f7", "f9"}));
}

TEST(Rules, PawnGoesSidewaysOnlyAfterTheRiver) {
  // Red pawns: c3 (own side) forward only; e5 (across) forward and sideways.
  Position pos = at("3k5/9/9/9/4P4/9/2P6/9/9/4K4 w - - 0 1");
  EXPECT_EQ(legal_targets(pos, "c3"), (Names{"c4"}));
  EXPECT_EQ(legal_targets(pos, "e5"), (Names{"d5", "e6", "f5"}));
  EXPECT_FALSE(pos.is_pseudo_legal(Move(sq("e5"), sq("e4"))));  // never backwards
  // On the last rank a pawn can only go sideways.
  pos = at("3k4P/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
  EXPECT_EQ(legal_targets(pos, "i9"), (Names{"h9"}));
  // Black pawns mirror this: g6 forward only, c4 forward and sideways.
  pos = at("3k5/9/9/6p2/9/2p6/9/9/9/4K4 b - - 0 1");
  EXPECT_EQ(legal_targets(pos, "g6"), (Names{"g5"}));
  EXPECT_EQ(legal_targets(pos, "c4"), (Names{"b4", "c3", "d4"}));
}

TEST(Rules, StalemateHasNoLegalMoves) {
  // Black king d9 boxed in by the red pawn on d7 and the red king's file.
  Position pos = at("3k5/9/3P5/9/9/9/9/9/9/4K4 b - - 0 1");
  EXPECT_FALSE(pos.in_check());
  EXPECT_EQ(MoveList(pos).size, 0);
  EXPECT_EQ(perft(pos, 3), 0u);
}

TEST(Rules, CheckmateHasNoLegalMoves) {
  Position pos = at("1nbakabn1/r7r/1c7/p1p1C1p1p/4C2c1/9/P1P1P1P1P/9/9/RNBAKABNR b - - 4 4");
  EXPECT_TRUE(pos.in_check());
  EXPECT_EQ(MoveList(pos).size, 0);
}

TEST(Rules, ParseMoveAcceptsOnlyLegalMoves) {
  Position pos;
  EXPECT_EQ(pos.parse_move("h2e2"), Move(sq("h2"), sq("e2")));
  EXPECT_EQ(move_name(pos.parse_move("h2e2")), "h2e2");
  for (const char* bad : {"", "h2", "h2e", "h2e2x", "h2h2", "z2e2", "h2e10", "e0e2", "h9h8",
                          "a3a5", "a0a9", "0000"})
    EXPECT_EQ(pos.parse_move(bad), Move::none()) << '"' << bad << '"';
}

}  // namespace
}  // namespace xq
