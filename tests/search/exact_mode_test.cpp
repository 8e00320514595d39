#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <random>

#include "search/driver.h"
#include "tests/search/minimax.h"
#include "tests/search/test_table.h"

namespace xq {

// Names the algorithm in test listings (GoogleTest would print its byte).
void PrintTo(Algorithm a, std::ostream* os) { *os << algorithm_name(a); }

namespace {

SearchResult run(const Position& pos, SearchOptions opt) {
  testing::SimpleTable tt;
  SerialHooks hooks;
  SearchShared shared;
  shared.options = opt;
  Search<testing::SimpleTable, SerialHooks> search(tt, hooks, shared);
  auto w = std::make_unique<Worker>(0);
  w->pos = pos;
  return iterative_deepening(search, *w, shared, nullptr);
}

// Positions reached by short random games from a few openings: quiet, tactical
// and check positions alike.
std::vector<Position> sample_positions(int count, int plies, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Position> out;
  while (int(out.size()) < count) {
    Position pos;
    for (int i = 0; i < plies; ++i) {
      MoveList moves(pos);
      if (moves.size == 0) break;
      pos.do_move(moves.moves[rng() % moves.size]);
    }
    Position fresh;
    if (!fresh.set_fen(pos.fen()).empty()) continue;
    if (MoveList(fresh).size > 0) out.push_back(fresh);
  }
  return out;
}

class ExactMode : public ::testing::TestWithParam<Algorithm> {};

TEST_P(ExactMode, EqualsMinimaxAtDepths1To3) {
  const Features features = Features::all();
  int checked = 0;
  for (const Position& p : sample_positions(12, 24, 7)) {
    for (Depth d = 1; d <= 3; ++d) {
      Position ref = p;
      const Value expected = testing::minimax(ref, d, 0, features);
      SearchOptions opt;
      opt.algorithm = GetParam();
      opt.exact = true;
      opt.limits.depth = d;
      const SearchResult r = run(p, opt);
      EXPECT_EQ(r.score, expected) << p.fen() << " depth " << d;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 36);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, ExactMode,
                         ::testing::Values(Algorithm::Pvs, Algorithm::AlphaBeta, Algorithm::Mtdf),
                         [](const auto& info) { return std::string(algorithm_name(info.param)); });

TEST(SearchBasics, FindsMateInOne) {
  Position pos;
  ASSERT_EQ(pos.set_fen("3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1"), "");
  SearchOptions opt;
  opt.limits.depth = 3;
  const SearchResult r = run(pos, opt);
  ASSERT_TRUE(r.mate().has_value());
  EXPECT_EQ(*r.mate(), 1);
  pos.do_move(r.best_move);
  EXPECT_EQ(MoveList(pos).size, 0);
}

TEST(SearchBasics, DeterministicNodeCount) {
  SearchOptions opt;
  opt.limits.depth = 6;
  const SearchResult a = run(Position(), opt);
  const SearchResult b = run(Position(), opt);
  EXPECT_EQ(a.stats.nodes, b.stats.nodes);
  EXPECT_EQ(a.best_move, b.best_move);
  EXPECT_GT(a.stats.nodes, 1000u);
}

}  // namespace
}  // namespace xq
