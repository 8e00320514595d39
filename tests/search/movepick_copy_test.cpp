// A copy of a MovePicker taken part way through hands out exactly what the
// original would from there on, moves and ordinals, deferred moves
// included, and draining one leaves the other as it was: ybwc-proc's split
// copies the node's picker into shared memory this way (split/exec.h), and
// its helpers take the node's remaining moves from the copy.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "search/movepick.h"
#include "tests/support/positions.h"

namespace xq {
namespace {

using Handed = std::vector<std::pair<Move, int>>;  // move and its ordinal

Handed drain(MovePicker& p) {
  Handed out;
  for (Move m = p.next(); m; m = p.next()) out.emplace_back(m, p.ordinal());
  return out;
}

TEST(MovePickerCopy, HandsOutWhatTheOriginalWouldFromWhereItWasTaken) {
  const std::vector<Position> ps = test::random_positions(40, 2027, 8, 30);
  std::mt19937 rng(7);
  Worker w;
  w.clear_heuristics();
  const Features f;
  int compared = 0, with_deferred = 0;
  for (const Position& pos : ps) {
    MovePicker original(pos, w, f, Move::none(), 2);
    const int size = original.size();
    ASSERT_GT(size, 0);
    // Take some moves first, deferring every third one (as ABDADA's first
    // pass does), then copy.
    const int taken = int(rng() % unsigned(size));
    for (int i = 0; i < taken; ++i) {
      const Move m = original.next();
      ASSERT_TRUE(bool(m));
      if (i % 3 == 2) original.defer(m);
    }
    with_deferred += original.has_deferred();
    MovePicker copy(original);
    MovePicker assigned;
    assigned = original;
    EXPECT_EQ(copy.remaining(), original.remaining());
    const Handed from_copy = drain(copy);
    EXPECT_EQ(original.remaining(), int(from_copy.size()))
        << "draining the copy moved the original";
    const Handed from_assigned = drain(assigned);
    const Handed from_original = drain(original);
    EXPECT_EQ(from_copy, from_original) << pos.fen();
    EXPECT_EQ(from_assigned, from_original) << pos.fen();
    ++compared;
  }
  EXPECT_EQ(compared, 40);
  EXPECT_GT(with_deferred, 10);  // the deferred stage was copied too, often
}

}  // namespace
}  // namespace xq
