// A search on a table that answers a share of its probes with random words
// finishes with a legal PV and scores within +-kInfinite; the impossible
// entries are rejected and counted, the illegal moves caught and counted.
#include <gtest/gtest.h>

#include <memory>

#include "search/driver.h"
#include "tests/search/test_table.h"

namespace xq {
namespace {

class ScoreRange : public Observer {
 public:
  void on_iteration(const SearchResult& r) override {
    ++iterations;
    out_of_range += r.score < -kInfinite || r.score > kInfinite;
  }
  int iterations = 0, out_of_range = 0;
};

TEST(LyingTable, SerialSearchStaysLegalAndInRange) {
  int cases = 0;
  for (const char* fen :
       {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
        "3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1"}) {
    Position root;
    ASSERT_EQ(root.set_fen(fen), "");
    for (const Algorithm a : {Algorithm::Pvs, Algorithm::Mtdf}) {
      testing::LyingTable<testing::SimpleTable> tt;
      tt.set_share(0.3);
      tt.set_seed(17);
      SerialHooks hooks;
      SearchShared shared;
      shared.options.limits.depth = 6;
      shared.options.algorithm = a;
      Search<testing::LyingTable<testing::SimpleTable>, SerialHooks> search(tt, hooks, shared);
      auto w = std::make_unique<Worker>(0);
      w->pos = root;
      ScoreRange scores;
      const SearchResult r = iterative_deepening(search, *w, shared, &scores);
      EXPECT_TRUE(r.completed) << fen;
      EXPECT_EQ(scores.out_of_range, 0) << fen;
      EXPECT_GT(scores.iterations, 0);
      EXPECT_GT(tt.lies(), 0u);
      EXPECT_GT(r.stats.bad_tt_moves, 0u) << fen;
      EXPECT_GT(r.stats.tt_rejected, 0u) << fen;
      Position p = root;
      for (const Move m : r.pv) {
        ASSERT_TRUE(p.is_pseudo_legal(m) && p.is_legal(m)) << fen;
        p.do_move(m);
      }
      ++cases;
    }
  }
  EXPECT_EQ(cases, 6);
}

}  // namespace
}  // namespace xq
