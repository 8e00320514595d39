// The simplified repetition rule seen from the search (Position::repetition()):
// a cycle in which one side checked on every move loses for that side, a
// cycle without checks is a draw. The cycles are built in the game history
// before the search starts, so the search completes them at ply 1.
#include <gtest/gtest.h>

#include "board/movegen.h"
#include "parallel/backend.h"
#include "search/search.h"

namespace xq {
namespace {

Position play(const char* fen, std::initializer_list<const char*> moves) {
  Position pos;
  EXPECT_EQ(pos.set_fen(fen), "");
  for (const char* text : moves) {
    const Move m = pos.parse_move(text);
    EXPECT_TRUE(m) << text;
    pos.do_move(m);
  }
  return pos;
}

SearchResult search(const Position& pos, Depth depth, bool exact = false) {
  auto backend = make_backend("serial", BackendConfig{});
  SearchOptions opt;
  opt.limits.depth = depth;
  opt.exact = exact;
  Observer quiet;
  return backend->search(pos, opt, quiet);
}

// Red's rook checks along ranks 8 and 9 while Black's king steps e8-e9-e8:
// a9a8+ e8e9 a8a9+ and now Black's only move e9e8 repeats the start, after
// four plies in which Red checked every time. Red is the perpetual checker,
// so the repetition is a loss for Red: Black scores it as a win, not a draw.
TEST(RepetitionSearch, PerpetualCheckerLoses) {
  const Position pos =
      play("R8/4k4/9/9/9/9/9/9/9/3K5 w - - 0 1", {"a9a8", "e8e9", "a8a9"});
  ASSERT_EQ(MoveList(pos).size, 1);
  for (Depth d : {2, 3, 5}) {
    const SearchResult r = search(pos, d);
    EXPECT_EQ(move_name(r.best_move), "e9e8");
    EXPECT_EQ(r.score, kRepetitionWin - 1) << "depth " << d;
    EXPECT_FALSE(r.mate().has_value());
  }
  // Exact mode ignores repetition inside the tree: plain material (Red's rook up).
  EXPECT_LT(search(pos, 3, true).score, -500);
}

// The same shuttle, but the rook moves along the a-file without checking: the
// repetition is a draw, and Black (a rook down) takes it.
TEST(RepetitionSearch, QuietCycleIsADraw) {
  const Position pos =
      play("9/4k4/9/9/9/R8/9/9/9/3K5 w - - 0 1", {"a4a3", "e8e9", "a3a4"});
  const SearchResult r = search(pos, 4);
  EXPECT_EQ(move_name(r.best_move), "e9e8");
  EXPECT_EQ(r.score, kDraw);
}

// The checker's side of the same cycle: after a9a8+ e8e9, Red to move may
// continue the perpetual (a8a9+ e9e8, a loss for Red by the rule) or play on
// a rook up; it must not take the "draw", and its score must stay positive.
TEST(RepetitionSearch, CheckerDoesNotChooseThePerpetual) {
  const Position pos = play("R8/4k4/9/9/9/9/9/9/9/3K5 w - - 0 1", {"a9a8", "e8e9"});
  const SearchResult r = search(pos, 5);
  EXPECT_GT(r.score, 300);
  EXPECT_NE(move_name(r.best_move), "a8a9");
}

}  // namespace
}  // namespace xq
