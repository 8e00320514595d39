// Make/unmake and the incremental state: along long random games the Zobrist
// key and the material + piece-square score kept incrementally equal the ones
// computed from scratch, and unmaking every move restores every earlier
// position exactly (FEN, key, score). Null moves likewise.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "board/eval.h"
#include "board/movegen.h"
#include "board/position.h"
#include "board_util.h"
#include "csv.h"

namespace xq::test {
namespace {

struct Snapshot {
  std::string fen;
  Key key;
  Value psq;
  bool in_check;
  int reversible;
};

Snapshot snap(const Position& pos) {
  return {pos.fen(), pos.key(), pos.psq_red(), pos.in_check(), pos.reversible_plies()};
}

void expect_same(const Snapshot& a, const Snapshot& b, const std::string& where) {
  EXPECT_EQ(a.fen, b.fen) << where;
  EXPECT_EQ(a.key, b.key) << where;
  EXPECT_EQ(a.psq, b.psq) << where;
  EXPECT_EQ(a.in_check, b.in_check) << where;
  EXPECT_EQ(a.reversible, b.reversible) << where;
}

// Checks everything that can be checked from scratch about one position.
void expect_consistent(const Position& pos, const std::string& where) {
  std::string why;
  EXPECT_TRUE(pos.is_consistent(&why)) << where << ": " << why;
  EXPECT_EQ(pos.key(), pos.compute_key()) << where;
  EXPECT_EQ(pos.psq_red(), pos.compute_psq_red()) << where;
  const Color us = pos.side_to_move();
  EXPECT_EQ(pos.in_check(), pos.attacked(pos.king_square(us), ~us)) << where;
  EXPECT_FALSE(pos.attacked(pos.king_square(~us), us)) << where << ": side not to move in check";
  Position fresh;
  ASSERT_EQ(fresh.set_fen(pos.fen()), "") << where;
  EXPECT_EQ(fresh.key(), pos.key()) << where;
  EXPECT_EQ(fresh.psq_red(), pos.psq_red()) << where;
  EXPECT_EQ(evaluate(fresh), evaluate(pos)) << where;
}

constexpr int kGames = 200;
constexpr int kPlies = 200;

// Whether the position at the end of `seen` (board and side, one entry per
// ply of the game) already stood at an earlier ply since the last capture,
// found by comparing text rather than keys: the repetition rule's trigger
// computed independently of the position's key history.
bool repeats_since_capture(const std::vector<std::string>& seen, std::size_t last_capture) {
  for (std::size_t i = last_capture; i + 1 < seen.size(); ++i)
    if (seen[i] == seen.back()) return true;
  return false;
}

TEST(MakeUnmake, RandomGamesKeepIncrementalStateExact) {
  std::mt19937_64 rng(20261122);
  std::vector<std::string> starts = {std::string(kStartFen)};
  for (const std::string& f : perft_fens()) starts.push_back(f);
  ASSERT_GT(starts.size(), kPerftFens);
  int total_plies = 0, null_moves = 0, repetitions = 0;
  for (int game = 0; game < kGames; ++game) {
    Position pos;
    ASSERT_EQ(pos.set_fen(starts[std::size_t(game) % starts.size()]), "");
    std::vector<Snapshot> before;
    std::vector<Move> line;
    std::vector<std::string> seen = {fen_board_and_side(pos.fen())};
    std::size_t last_capture = 0;
    for (int ply = 0; ply < kPlies; ++ply) {
      const MoveList legal(pos);
      if (legal.size == 0) break;
      const Move m = legal.moves[rng() % unsigned(legal.size)];
      before.push_back(snap(pos));
      line.push_back(m);
      if (pos.is_capture(m)) last_capture = seen.size();
      pos.do_move(m);
      seen.push_back(fen_board_and_side(pos.fen()));
      ++total_plies;
      const std::string where = "game " + std::to_string(game) + " ply " +
                                std::to_string(ply + 1) + " after " + move_name(m);
      expect_consistent(pos, where);
      const bool repeated = repeats_since_capture(seen, last_capture);
      repetitions += repeated;
      EXPECT_EQ(pos.repetition() != Repetition::None, repeated) << where;
      if (!pos.in_check() && rng() % 4 == 0) {
        const Snapshot s = snap(pos);
        const Color before_null_side = pos.side_to_move();
        pos.do_null_move();
        ++null_moves;
        EXPECT_EQ(pos.key(), pos.compute_key()) << where << " + null move";
        EXPECT_NE(pos.key(), s.key) << where << " + null move";
        EXPECT_EQ(pos.side_to_move(), ~before_null_side) << where;
        pos.undo_null_move();
        expect_same(snap(pos), s, where + " after undoing a null move");
      }
      if (::testing::Test::HasFailure()) return;
    }
    for (int i = int(line.size()) - 1; i >= 0; --i) {
      pos.undo_move(line[std::size_t(i)]);
      expect_same(snap(pos), before[std::size_t(i)],
                  "game " + std::to_string(game) + " undoing ply " + std::to_string(i + 1));
      if (::testing::Test::HasFailure()) return;
    }
    std::string why;
    EXPECT_TRUE(pos.is_consistent(&why)) << why;
  }
  EXPECT_GT(total_plies, kGames * kPlies / 4);
  EXPECT_GT(null_moves, 0);
  EXPECT_GT(repetitions, 0) << "no game repeated a position: the repetition check saw nothing";
}

TEST(MakeUnmake, EveryMoveOfEveryReferencePositionIsUndoneExactly) {
  ASSERT_GE(perft_fens().size(), kPerftFens);
  std::size_t moves = 0;
  for (const std::string& fen : perft_fens()) {
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    const Snapshot s = snap(pos);
    for (Move m : MoveList(pos)) {
      ++moves;
      pos.do_move(m);
      expect_consistent(pos, fen + " after " + move_name(m));
      for (Move reply : MoveList(pos)) {
        const Snapshot mid = snap(pos);
        pos.do_move(reply);
        EXPECT_EQ(pos.key(), pos.compute_key()) << fen << " " << move_name(m) << " " << move_name(reply);
        pos.undo_move(reply);
        expect_same(snap(pos), mid, fen + " " + move_name(m) + " " + move_name(reply));
      }
      pos.undo_move(m);
      expect_same(snap(pos), s, fen + " after undoing " + move_name(m));
    }
  }
  EXPECT_GE(moves, kPerftFens);  // most reference positions have many moves
}

TEST(MakeUnmake, NullMoveFlipsSideAndKeyOnly) {
  Position pos;
  const Snapshot s = snap(pos);
  pos.do_null_move();
  EXPECT_EQ(pos.side_to_move(), Color::Black);
  EXPECT_EQ(pos.key(), pos.compute_key());
  EXPECT_EQ(pos.psq_red(), s.psq);
  EXPECT_FALSE(pos.in_check());
  EXPECT_EQ(MoveList(pos).size, 44);  // black's mirror of red's 44 moves
  // A real move after a null move, then both undone.
  const Move m = pos.parse_move("h7e7");
  ASSERT_NE(m, Move::none());
  pos.do_move(m);
  EXPECT_EQ(pos.key(), pos.compute_key());
  pos.undo_move(m);
  pos.undo_null_move();
  expect_same(snap(pos), s, "after null move and undo");
}

TEST(MakeUnmake, CaptureIsUndoneWithThePieceRestored) {
  Position pos;
  // Red cannon h2 takes the black horse on h9.
  const Move m = pos.parse_move("h2h9");
  ASSERT_NE(m, Move::none());
  ASSERT_TRUE(pos.is_capture(m));
  const Snapshot s = snap(pos);
  const int horses = pos.count(Color::Black, PieceType::Horse);
  const Value black_material = pos.material(Color::Black);
  pos.do_move(m);
  EXPECT_EQ(pos.count(Color::Black, PieceType::Horse), horses - 1);
  EXPECT_EQ(pos.material(Color::Black), black_material - piece_value(PieceType::Horse));
  EXPECT_EQ(pos.piece_count(Color::Black), 15);
  EXPECT_EQ(pos.reversible_plies(), 0);
  pos.undo_move(m);
  expect_same(snap(pos), s, "after undoing h2h9");
  EXPECT_EQ(pos.count(Color::Black, PieceType::Horse), horses);
  EXPECT_EQ(pos.piece_count(Color::Black), 16);
}

TEST(Eval, ColourFlipIsSymmetric) {
  // Turning the board round and swapping colours (and the side to move)
  // must give the same score for the side to move, and the opposite psq.
  ASSERT_GE(perft_fens().size(), kPerftFens);
  for (const std::string& fen : perft_fens()) {
    Position pos, image;
    ASSERT_EQ(pos.set_fen(fen), "");
    const std::string flipped = transform_fen(fen, true, false);
    ASSERT_EQ(image.set_fen(flipped), "") << flipped;
    EXPECT_EQ(image.psq_red(), -pos.psq_red()) << fen;
    EXPECT_EQ(evaluate(image), evaluate(pos)) << fen;
  }
}

}  // namespace
}  // namespace xq::test
