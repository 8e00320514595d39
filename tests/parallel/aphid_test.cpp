// APHID (parallel/shared/aphid.cpp) beyond the contract every backend keeps
// (backend_contract_test.cpp: exact values at 1-4 threads for every scheme,
// stop, cycles, reports; sim_test.cpp: the simulated machine):
//  * its table (aphid::Table): leaves dealt round-robin and kept; a leaf is
//    certain only for a window its proved bounds decide, a guess otherwise
//    (the last shallower result, else blind); a bound that no longer decides
//    the master's window makes the leaf wanted again (a re-search); each
//    searcher takes its own leftmost wanted leaf, another's only with steal,
//    and a decided one a ply deeper only when speculating;
//  * the backend: the serial value in exact mode with every setting of its
//    parameters (top tree of 1-3 plies, dedicated master, steal, no
//    speculation), at 1-3 threads; with a dedicated master the helpers
//    searched every leaf and the master passed more than once per iteration.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "parallel/backend.h"
#include "parallel/shared/aphid.h"
#include "tests/parallel/exact_grid.h"

namespace xq {
namespace {

using aphid::Settings;
using aphid::Table;
using aphid::Window;

Settings settings(std::vector<int> searchers) {
  Settings s;
  s.searchers = std::move(searchers);
  s.speculate = false;
  s.deeper_decides = false;
  return s;
}

const std::vector<Move> kPath;  // the table keeps a leaf's path for the searcher only

TEST(AphidTable, DealsLeavesRoundRobinAndKeepsThem) {
  Table t(settings({0, 1, 2}));
  t.begin_pass();
  for (Key k = 1; k <= 5; ++k) t.visit(k, kPath, 3, Window{0, 1});
  const int want[] = {0, 1, 2, 0, 1};
  for (Key k = 1; k <= 5; ++k) EXPECT_EQ(t.find(k)->owner, want[k - 1]) << k;
  t.begin_pass();
  for (Key k = 5; k >= 1; --k) t.visit(k, kPath, 4, Window{0, 1});  // another order, depth
  for (Key k = 1; k <= 5; ++k) EXPECT_EQ(t.find(k)->owner, want[k - 1]) << k;
  EXPECT_EQ(t.size(), 5u);
}

TEST(AphidTable, CertainOnlyWhenTheBoundsDecideTheWindow) {
  Table t(settings({0}));
  t.begin_pass();
  aphid::Answer a = t.visit(7, kPath, 3, Window{-10, 10});
  EXPECT_FALSE(a.certain);
  EXPECT_TRUE(a.blind);
  // A null-window search at 20 failed high with 25: a lower bound.
  t.record(7, 3, Window{19, 20}, 25, {});
  t.begin_pass();
  a = t.visit(7, kPath, 3, Window{-10, 10});  // 25 >= beta: a proved fail high
  EXPECT_TRUE(a.certain);
  EXPECT_EQ(a.value, 25);
  a = t.visit(7, kPath, 3, Window{30, 40});  // lower bound 25 says nothing here
  EXPECT_FALSE(a.certain);
  EXPECT_FALSE(a.blind);
  EXPECT_EQ(a.value, 25);
  // An upper bound from another window decides a window above it.
  t.record(7, 3, Window{30, 31}, 28, {});
  a = t.visit(7, kPath, 3, Window{30, 40});
  EXPECT_TRUE(a.certain);
  EXPECT_EQ(a.value, 28);
  // Exact inside a window: certain for any window.
  t.record(7, 3, Window{-100, 100}, 27, {});
  a = t.visit(7, kPath, 3, Window{26, 27});
  EXPECT_TRUE(a.certain);
  EXPECT_EQ(a.value, 27);
  // Another depth knows nothing yet: the depth-3 value is the guess.
  a = t.visit(7, kPath, 4, Window{-10, 10});
  EXPECT_FALSE(a.certain);
  EXPECT_EQ(a.value, 27);
}

TEST(AphidTable, DeeperResultsDecideOnlyOutsideExactMode) {
  for (bool deeper : {false, true}) {
    Settings s = settings({0});
    s.deeper_decides = deeper;
    Table t(s);
    t.begin_pass();
    t.visit(3, kPath, 2, Window{-50, 50});
    t.record(3, 4, Window{-50, 50}, 12, {});
    const aphid::Answer a = t.visit(3, kPath, 2, Window{-50, 50});
    EXPECT_EQ(a.certain, deeper);
    EXPECT_EQ(a.value, 12) << "the deeper result is at least the guess";
  }
}

TEST(AphidTable, AContradictingResultReplacesTheBounds) {
  Table t(settings({0}));
  t.begin_pass();
  t.visit(9, kPath, 3, Window{0, 1});
  t.record(9, 3, Window{0, 1}, 40, {});    // >= 40
  t.record(9, 3, Window{50, 51}, 20, {});  // <= 20: a table made the first one up
  const aphid::Bounds* b = t.find(9)->bounds(3);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->lower, -kInfinite);
  EXPECT_EQ(b->upper, 20);
}

TEST(AphidTable, EachSearcherTakesItsOwnLeftmostWantedLeaf) {
  Table t(settings({0, 1}));
  t.begin_pass();
  for (Key k = 1; k <= 4; ++k) t.visit(k, kPath, 3, Window{0, 1});  // 1, 3 to 0; 2, 4 to 1
  std::optional<aphid::Job> j = t.take(1, true);
  ASSERT_TRUE(j);
  EXPECT_EQ(j->key, 2u);
  EXPECT_EQ(j->depth, 3);
  EXPECT_EQ(j->first, 1);
  EXPECT_EQ(j->window.alpha, 0);
  EXPECT_EQ(j->window.beta, 1);
  EXPECT_FALSE(j->again);
  j = t.take(1, true);  // 2 is busy
  ASSERT_TRUE(j);
  EXPECT_EQ(j->key, 4u);
  EXPECT_FALSE(t.take(1, true)) << "no leaf of its own left, and no steal";
  EXPECT_TRUE(t.has_work(0));
  EXPECT_FALSE(t.has_work(1));
  // Decided leaves are not wanted; a bound that does not decide the next
  // pass's window is (a re-search at the same depth).
  t.record(2, 3, Window{0, 1}, 5, {});
  t.record(4, 3, Window{0, 1}, 5, {});
  t.begin_pass();
  t.visit(2, kPath, 3, Window{0, 1});
  t.visit(4, kPath, 3, Window{10, 11});
  j = t.take(1, true);
  ASSERT_TRUE(j);
  EXPECT_EQ(j->key, 4u);
  EXPECT_TRUE(j->again);
  EXPECT_EQ(j->first, 3) << "depths searched before are not searched again";
  // Leaves the last pass did not visit are not wanted.
  EXPECT_FALSE(t.take(0, true));
}

TEST(AphidTable, StealTakesAnothersLeafOwnFirst) {
  Settings s = settings({0, 1});
  s.steal = true;
  Table t(s);
  t.begin_pass();
  for (Key k = 1; k <= 3; ++k) t.visit(k, kPath, 3, Window{0, 1});  // 1, 3 to 0; 2 to 1
  std::optional<aphid::Job> j = t.take(1, true);
  ASSERT_TRUE(j);
  EXPECT_EQ(j->key, 2u);
  j = t.take(1, true);
  ASSERT_TRUE(j);
  EXPECT_EQ(j->key, 1u) << "then the leftmost of the others'";
  j = t.take(0, true);
  ASSERT_TRUE(j);
  EXPECT_EQ(j->key, 3u);
  EXPECT_FALSE(t.take(0, true));
}

TEST(AphidTable, SpeculatesOneDeeperAroundTheKnownValue) {
  Settings s = settings({0});
  s.speculate = true;
  s.margin = 30;
  Table t(s);
  t.begin_pass();
  t.visit(5, kPath, 3, Window{0, 1});
  t.visit(6, kPath, 3, Window{0, 1});
  t.record(5, 3, Window{-100, 100}, 40, {});
  t.record(6, 3, Window{0, 1}, -7, {});  // an upper bound
  t.begin_pass();
  t.visit(5, kPath, 3, Window{0, 1});
  t.visit(6, kPath, 3, Window{0, 1});
  EXPECT_FALSE(t.take(0, false)) << "nothing wanted, and no speculation asked for";
  std::optional<aphid::Job> j = t.take(0, true);
  ASSERT_TRUE(j);
  EXPECT_TRUE(j->speculative);
  EXPECT_EQ(j->key, 5u);
  EXPECT_EQ(j->depth, 4);
  EXPECT_EQ(j->first, 4);
  EXPECT_EQ(j->window.alpha, 10);
  EXPECT_EQ(j->window.beta, 70);
  j = t.take(0, true);
  ASSERT_TRUE(j);
  EXPECT_EQ(j->key, 6u);
  EXPECT_EQ(j->window.alpha, -37);
  EXPECT_EQ(j->window.beta, 23);
  EXPECT_FALSE(t.take(0, true));
}

TEST(AphidTable, VersionMovesOnlyForDepthsTheMasterNeeds) {
  Table t(settings({0}));
  t.begin_pass();
  t.visit(1, kPath, 4, Window{0, 1});
  const std::uint64_t v0 = t.version();
  t.record(1, 2, Window{0, 1}, 3, {}, false);  // iterative deepening below the need
  EXPECT_EQ(t.version(), v0);
  EXPECT_TRUE(t.find(1)->busy == false);  // never taken: record leaves busy alone
  t.record(1, 4, Window{0, 1}, 3, {});
  EXPECT_EQ(t.version(), v0 + 1);
}

std::unique_ptr<Backend> build(int threads, const std::vector<std::pair<std::string, int>>& params) {
  BackendConfig c;
  c.threads = threads;
  c.hash_mib = 1;
  c.hash = "perthread";
  for (const auto& [name, value] : params) c.set(name, value);
  return make_backend("aphid", c);
}

TEST(Aphid, SlowExactValueWithEverySetting) {
  // Two openings and two random middlegames (the contract suite runs the
  // default setting on all of them).
  std::vector<Position> ps = test::contract_positions(2);
  ps.erase(ps.begin() + 2, ps.end() - 2);
  const std::vector<std::vector<std::pair<std::string, int>>> settings_list = {
      {{"aphid_plies", 1}},
      {{"aphid_plies", 3}},
      {{"aphid_master", 0}},
      {{"aphid_deal", 1}, {"aphid_speculate", 0}},
  };
  SearchOptions o;
  o.exact = true;
  o.limits.depth = 5;
  Observer quiet;
  auto serial = make_backend("serial", BackendConfig{});
  std::vector<Value> expected;
  for (const Position& p : ps) expected.push_back(serial->search(p, o, quiet).score);
  int cases = 0;
  for (const auto& params : settings_list) {
    for (int threads : {1, 2, 3}) {
      auto b = build(threads, params);
      for (std::size_t i = 0; i < ps.size(); ++i) {
        const SearchResult r = b->search(ps[i], o, quiet);
        EXPECT_EQ(r.score, expected[i]) << params.front().first << " threads " << threads << " "
                                        << ps[i].fen();
        EXPECT_EQ(r.depth, 5);
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, int(settings_list.size() * 3 * ps.size()));
}

TEST(Aphid, DedicatedMasterPassesWhileHelpersSearch) {
  auto b = build(2, {{"aphid_master", 0}});
  SearchOptions o;
  o.exact = true;
  o.limits.depth = 5;
  Observer quiet;
  const SearchResult r = b->search(Position(), o, quiet);
  // Iterations 4 and 5 run APHID (plies 2): every leaf is the helper's, and
  // the master cannot finish an iteration before the first results come in.
  EXPECT_GT(r.stats[aphid::leaf_searches], 0u);
  EXPECT_GT(r.stats[aphid::master_passes], 2u);
  EXPECT_GT(r.stats[aphid::uncertain_leaves], 0u);
  EXPECT_GT(r.stats.idle_seconds, 0.0) << "the master waited for results";
}

}  // namespace
}  // namespace xq
