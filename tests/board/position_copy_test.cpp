// Position::copy_from copies the board and only the history since the last
// irreversible move. Checked against a plain copy on games built to repeat
// positions: every repetition answer, key and FEN the copy gives, there and
// along the moves played from it (and undone back to it), equals the plain
// copy's, whatever history the destination held before.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "board/movegen.h"
#include "board/position.h"

namespace xq {
namespace {

// A game that often plays back the side's own last move (a shuttle), so
// that repeated positions, perpetual checks and captures mix.
std::vector<Move> shuttling_game(const Position& start, int plies, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Position pos = start;
  std::vector<Move> game;
  Move list[kMaxMoves];
  for (int i = 0; i < plies; ++i) {
    Move* end = generate_legal(pos, list);
    if (end == list) break;
    Move m = list[rng() % std::size_t(end - list)];
    if (game.size() >= 2 && rng() % 3 != 0) {
      const Move own = game[game.size() - 2];
      const Move back(own.to(), own.from());
      if (pos.is_pseudo_legal(back) && pos.is_legal(back)) m = back;
    }
    pos.do_move(m);
    game.push_back(m);
  }
  return game;
}

void expect_same(const Position& cheap, const Position& full, int& compared, int& repeats) {
  ASSERT_EQ(cheap.key(), full.key());
  ASSERT_EQ(cheap.fen(), full.fen());
  ASSERT_EQ(cheap.in_check(), full.in_check());
  ASSERT_EQ(cheap.reversible_plies(), full.reversible_plies());
  ASSERT_EQ(cheap.repetition(), full.repetition()) << full.fen();
  std::string why;
  ASSERT_TRUE(cheap.is_consistent(&why)) << why;
  ++compared;
  repeats += full.repetition() != Repetition::None;
}

TEST(PositionCopy, CheapCopyAnswersAsAFullCopy) {
  const char* starts[] = {
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
      "3k5/9/9/9/9/9/9/9/4r4/R3K4 w - - 0 1",
      "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1"};
  constexpr int kLookAhead = 6;
  int compared = 0, repeats = 0, games = 0;
  for (const char* fen : starts) {
    for (std::uint32_t seed = 1; seed <= 6; ++seed) {
      Position start;
      ASSERT_EQ(start.set_fen(fen), "");
      const std::vector<Move> game = shuttling_game(start, 120, seed * 7919u);
      ++games;
      // The destination holds an unrelated long history before each copy.
      Position dst;
      for (Move m : shuttling_game(Position(), 200, seed)) dst.do_move(m);
      Position src = start;
      for (std::size_t k = 0; k < game.size(); ++k) {
        dst.copy_from(src);
        Position full = src;
        expect_same(dst, full, compared, repeats);
        const std::size_t ahead = std::min(game.size(), k + kLookAhead);
        for (std::size_t j = k; j < ahead; ++j) {
          dst.do_move(game[j]);
          full.do_move(game[j]);
          expect_same(dst, full, compared, repeats);
        }
        for (std::size_t j = ahead; j-- > k;) {
          dst.undo_move(game[j]);
          full.undo_move(game[j]);
        }
        expect_same(dst, full, compared, repeats);
        src.do_move(game[k]);
      }
    }
  }
  EXPECT_EQ(games, 18);
  // Enough cases, and enough of them repetitions, for the check to mean something.
  EXPECT_GT(compared, 5000);
  EXPECT_GT(repeats, 200);
}

TEST(PositionCopy, CopyFromItselfChangesNothing) {
  Position pos;
  for (const char* m : {"h0g2", "h9g7", "g2h0", "g7h9"}) pos.do_move(pos.parse_move(m));
  const std::string fen = pos.fen();
  pos.copy_from(pos);
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_EQ(pos.repetition(), Repetition::Draw);
}

// A thread that helped below its own node restores the node by a cheap copy
// and then unwinds its whole line: the states before the copied tail are its
// own and still right.
TEST(PositionCopy, OwnLineUnwindsAfterCheapRestore) {
  Position line;
  const std::vector<Move> game = shuttling_game(Position(), 60, 42);
  ASSERT_EQ(game.size(), 60u);
  for (Move m : game) line.do_move(m);
  const Position at_split = line;
  Position helper;
  helper.copy_from(at_split);
  Move list[kMaxMoves];
  for (int i = 0; i < 5; ++i) {
    Move* end = generate_legal(helper, list);
    if (end == list) break;
    helper.do_move(list[0]);
  }
  line.copy_from(helper);  // the owner worked below its node
  line.copy_from(at_split);  // and restores it
  for (std::size_t j = game.size(); j-- > 0;) line.undo_move(game[j]);
  EXPECT_EQ(line.fen(), Position().fen());
  EXPECT_EQ(line.key(), Position().key());
}

}  // namespace
}  // namespace xq
