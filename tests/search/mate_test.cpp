// Mates in 1 and 2 (and being mated in 1) are found with exact mate scores
// by every algorithm, with the thesis's and the modern profile's features,
// and in exact mode. The modern profile is given three plies more: it
// reduces late quiet moves, the root's included, so a quiet key move is
// searched to full depth only once its reduced search fails high. Measured
// (2026-11-26, after the guard that stops pruning against a side left with
// palace pieces only): 3ak4/9/3a5/9/H8/5C3/9/9/2R2K3/9 w, mate in two, is
// reported as mate in three at depth 6 and mate in two from depth 7.
// Every position is first checked by a brute-force mate solver, so a wrong
// FEN fails loudly instead of testing nothing.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "board/movegen.h"
#include "parallel/backend.h"

namespace xq {
namespace {

// Whether the side to move can force mate within n of its moves (no legal
// reply loses, in check or not: stalemate is a loss in Xiangqi).
bool mate_within(Position& p, int n) {
  for (Move m : MoveList(p)) {
    p.do_move(m);
    const MoveList replies(p);
    bool forced = replies.size == 0 || n > 1;
    for (int i = 0; forced && replies.size > 0 && i < replies.size; ++i) {
      p.do_move(replies.moves[i]);
      forced = mate_within(p, n - 1);
      p.undo_move(replies.moves[i]);
    }
    p.undo_move(m);
    if (forced) return true;
  }
  return false;
}

// Exactly mate in n: mate within n and not within n - 1.
bool exact_mate_in(const std::string& fen, int n) {
  Position p;
  if (!p.set_fen(fen).empty()) return false;
  return mate_within(p, n) && (n == 1 || !mate_within(p, n - 1));
}

// Red to move and mate in one.
const char* const kMateInOne[] = {
    "9/2R6/4ka3/7R1/9/9/9/9/9/3K5 w - - 0 1",
    "9/9/3a1k3/9/9/9/9/2R3R2/9/4K4 w - - 0 1",
    "9/9/3ak4/9/9/9/3R5/5K3/9/7R1 w - - 0 1",
    "3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1",
};
// Red to move and mate in two.
const char* const kMateInTwo[] = {
    "3a1a3/5k3/9/9/9/1R7/9/9/3K5/R8 w - - 0 1",
    "9/5k3/3a1a3/3R5/9/4R4/9/5K3/9/9 w - - 0 1",
    "3ak4/9/3a5/9/H8/5C3/9/9/2R2K3/9 w - - 0 1",
    "3k5/9/3a1a3/9/9/9/9/9/1R4C2/H3K4 w - - 0 1",
    "3a5/5k3/5a3/9/2C6/9/9/4K1R2/6H2/9 w - - 0 1",
    "3k5/7C1/3a5/9/4H4/9/9/4H4/5K3/9 w - - 0 1",
};

class SearchMate : public ::testing::TestWithParam<std::tuple<Algorithm, bool, bool>> {
 protected:
  SearchResult search(const Position& pos, Depth depth) {
    SearchOptions opt;
    opt.algorithm = std::get<0>(GetParam());
    opt.exact = std::get<1>(GetParam());
    const bool modern = std::get<2>(GetParam());
    opt.features = modern ? Features::modern() : Features::thesis();
    opt.limits.depth = modern && !opt.exact ? depth + 3 : depth;
    backend_->clear();
    Observer quiet;
    return backend_->search(pos, opt, quiet);
  }
  std::unique_ptr<Backend> backend_ = make_backend("serial", BackendConfig{});
};

TEST_P(SearchMate, MateInOne) {
  for (const char* fen : kMateInOne) {
    ASSERT_TRUE(exact_mate_in(fen, 1)) << fen;
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    for (Depth d : {1, 3}) {
      const SearchResult r = search(pos, d);
      ASSERT_TRUE(r.mate().has_value()) << fen << " depth " << d << " score " << r.score;
      EXPECT_EQ(*r.mate(), 1) << fen;
      EXPECT_EQ(r.score, mate_in(1)) << fen;
      Position after = pos;
      after.do_move(r.best_move);
      EXPECT_EQ(MoveList(after).size, 0) << fen << " " << move_name(r.best_move);
    }
  }
}

TEST_P(SearchMate, MateInTwo) {
  for (const char* fen : kMateInTwo) {
    ASSERT_TRUE(exact_mate_in(fen, 2)) << fen;
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    const SearchResult r = search(pos, 4);
    ASSERT_TRUE(r.mate().has_value()) << fen << " score " << r.score;
    EXPECT_EQ(*r.mate(), 2) << fen;
    EXPECT_EQ(r.score, mate_in(3)) << fen;
    // The move played keeps the mate: every reply is mated at once.
    Position after = pos;
    after.do_move(r.best_move);
    bool forced = MoveList(after).size > 0;
    for (Move reply : MoveList(after)) {
      after.do_move(reply);
      forced = forced && mate_within(after, 1);
      after.undo_move(reply);
    }
    EXPECT_TRUE(forced) << fen << " " << move_name(r.best_move);
  }
}

// Stalemate is a loss: c9c8 leaves Black no legal move without giving check,
// and the search scores it as mate in one.
TEST_P(SearchMate, StalemateInOneIsMate) {
  const char* fen = "2R2aH2/4ak2C/9/9/9/9/9/9/3K5/9 w - - 0 1";
  ASSERT_TRUE(exact_mate_in(fen, 1));
  Position pos;
  ASSERT_EQ(pos.set_fen(fen), "");
  const SearchResult r = search(pos, 3);
  ASSERT_TRUE(r.mate().has_value()) << r.score;
  EXPECT_EQ(*r.mate(), 1);
  EXPECT_EQ(move_name(r.best_move), "c9c8");
  pos.do_move(r.best_move);
  EXPECT_EQ(MoveList(pos).size, 0);
  EXPECT_FALSE(pos.in_check());
}

// After the first move of a mate in two, the defender is mated in one.
TEST_P(SearchMate, MatedInOne) {
  for (const char* fen : kMateInTwo) {
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    Move key_move;
    for (Move m : MoveList(pos)) {
      Position p = pos;
      p.do_move(m);
      bool forced = MoveList(p).size > 0;
      for (Move reply : MoveList(p)) {
        p.do_move(reply);
        forced = forced && mate_within(p, 1);
        p.undo_move(reply);
      }
      if (forced) {
        key_move = m;
        break;
      }
    }
    ASSERT_TRUE(key_move) << fen;
    pos.do_move(key_move);
    const SearchResult r = search(pos, 3);
    ASSERT_TRUE(r.mate().has_value()) << fen << " score " << r.score;
    EXPECT_EQ(*r.mate(), -1) << fen;
    EXPECT_EQ(r.score, mated_in(2)) << fen;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Algorithms, SearchMate,
    ::testing::Combine(::testing::Values(Algorithm::Pvs, Algorithm::AlphaBeta, Algorithm::Mtdf),
                       ::testing::Bool(), ::testing::Bool()),
    [](const auto& p) {
      return std::string(algorithm_name(std::get<0>(p.param))) +
             (std::get<1>(p.param) ? "_exact" : "_full") +
             (std::get<2>(p.param) ? "_modern" : "_thesis");
    });

// Mate in three needs depth 5 (and more to be sure nothing shorter exists).
TEST(SearchMateInThree, FoundAtDepth7) {
  const char* const fens[] = {
      "1R1a1a3/5k3/9/9/9/9/9/9/1R2K4/9 w - - 0 1",
      "3a1a3/4k4/9/9/1RR6/9/9/3K5/9/9 w - - 0 1",
  };
  auto backend = make_backend("serial", BackendConfig{});
  int searched = 0;
  for (const char* fen : fens) {
    ASSERT_TRUE(exact_mate_in(fen, 3)) << fen;
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    for (const char* profile : {"thesis", "modern"}) {
      SearchOptions opt;
      opt.features = profile_features(profile);
      opt.limits.depth = std::string(profile) == "modern" ? 9 : 7;
      backend->clear();
      Observer quiet;
      const SearchResult r = backend->search(pos, opt, quiet);
      ++searched;
      ASSERT_TRUE(r.mate().has_value()) << fen << " " << profile;
      EXPECT_EQ(*r.mate(), 3) << fen << " " << profile;
      EXPECT_EQ(r.score, mate_in(5)) << fen << " " << profile;
    }
  }
  EXPECT_EQ(searched, 4);
}

}  // namespace
}  // namespace xq
