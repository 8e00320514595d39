// What the root-level baselines (parallel/shared/aspiration.cpp and
// uidpabs.cpp) do beyond the contract every backend keeps
// (backend_contract_test.cpp covers exact values at 1-4 threads for every
// scheme, stop, start/stop cycles and the reports):
//  * parallel aspiration: in exact mode the windows never disagree, so one
//    window always holds the value (no full-window re-search), the other
//    windows' nodes are counted as wasted, and the critical path is shorter
//    than the work from two threads on; at one thread the one window is the
//    full one, so the search is the serial search without aspiration windows,
//    node for node;
//  * UIDPABS: every thread deepens its own share (the critical path is
//    shorter than the work), the full-window restart after every share
//    failed low happens on the same root_positions whatever the thread count
//    (it depends only on the root value and the depth-2 value), and a
//    search by time returns the best report as a legal line; its choice of
//    report (uidpabs::choose) keeps a share whose last iteration failed low
//    out of the running.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parallel/backend.h"
#include "parallel/shared/uidpabs.h"
#include "tests/parallel/exact_grid.h"

namespace xq {
namespace {

std::unique_ptr<Backend> root_backend(const std::string& name, int threads) {
  BackendConfig c;
  c.threads = threads;
  c.hash_mib = 1;
  return make_backend(name, c);
}

const std::vector<Position>& root_positions() {
  static const std::vector<Position> ps = test::contract_positions(4);
  return ps;
}

TEST(Aspiration, OneThreadIsSerialWithoutAspirationWindows) {
  Observer quiet;
  int compared = 0;
  for (const Position& p : root_positions()) {
    SearchOptions o;
    o.limits.depth = 5;
    o.features.aspiration = false;
    auto serial = root_backend("serial", 1);
    auto asp = root_backend("aspiration", 1);
    const SearchResult a = serial->search(p, o, quiet);
    const SearchResult b = asp->search(p, o, quiet);
    EXPECT_EQ(b.stats.nodes, a.stats.nodes) << p.fen();
    EXPECT_EQ(b.score, a.score) << p.fen();
    EXPECT_EQ(b.best_move, a.best_move) << p.fen();
    EXPECT_EQ(b.stats.critical_path, b.stats.nodes);
    EXPECT_EQ(b.stats.wasted_nodes, 0u);
    ++compared;
  }
  EXPECT_EQ(compared, int(root_positions().size()));
}

TEST(Aspiration, OneWindowHoldsTheValueAndTheOthersAreWasted) {
  Observer quiet;
  for (int threads : {2, 3, 4}) {
    auto b = root_backend("aspiration", threads);
    std::uint64_t nodes = 0, chain = 0, wasted = 0, researches = 0;
    for (const Position& p : root_positions()) {
      const SearchResult r = b->search(p, test::exact_options(5), quiet);
      nodes += r.stats.nodes;
      chain += r.stats.critical_path;
      wasted += r.stats.wasted_nodes;
      researches += r.stats.researches;
      EXPECT_LE(r.stats.critical_path, r.stats.nodes);
    }
    EXPECT_EQ(researches, 0u) << "threads " << threads;
    EXPECT_GT(wasted, 0u) << "threads " << threads;
    EXPECT_LT(chain, nodes) << "threads " << threads;
    EXPECT_LT(wasted, nodes) << "threads " << threads;
  }
}

TEST(Uidpabs, SharesDeepenApartAndRestartsDependOnlyOnTheValues) {
  Observer quiet;
  std::vector<std::uint64_t> restarts;
  for (int threads : {1, 2, 3}) {
    auto b = root_backend("uidpabs", threads);
    std::uint64_t nodes = 0, chain = 0, n = 0;
    for (const Position& p : root_positions()) {
      const SearchResult r = b->search(p, test::exact_options(5), quiet);
      nodes += r.stats.nodes;
      chain += r.stats.critical_path;
      n += r.stats.researches;
    }
    if (threads == 1) EXPECT_EQ(chain, nodes);
    else EXPECT_LT(chain, nodes) << "threads " << threads;
    restarts.push_back(n);
  }
  ASSERT_EQ(restarts.size(), 3u);
  EXPECT_GE(restarts[0], 1u) << "no position made every share fail low";
  EXPECT_EQ(restarts[1], restarts[0]);
  EXPECT_EQ(restarts[2], restarts[0]);
}

uidpabs::Share share(Depth exact_depth, Value score, Depth last_depth) {
  uidpabs::Share s;
  s.last_exact.depth = exact_depth;
  s.last_exact.score = score;
  s.last_depth = last_depth;
  return s;
}

TEST(Uidpabs, ChoiceAtTheDepthLimitIsTheBestExactReportThere) {
  // Share 1 is exact at 6 with the best score; share 2's exact 6 is lower;
  // share 0 failed low at 6 (its exact report is from depth 5).
  const std::vector<uidpabs::Share> shares = {share(5, 90, 6), share(6, 40, 6), share(6, 20, 6)};
  EXPECT_EQ(uidpabs::choose(shares, 6), 1);
  // Ties go to the lower thread.
  EXPECT_EQ(uidpabs::choose({share(6, 40, 6), share(6, 40, 6)}, 6), 0);
  // Nobody exact at the limit: no report (the backend then searches again).
  EXPECT_EQ(uidpabs::choose({share(5, 40, 6), share(4, 70, 6)}, 6), -1);
  EXPECT_EQ(uidpabs::choose({}, 6), -1);
}

TEST(Uidpabs, ChoiceByTimeIgnoresSharesWhoseLastIterationFailedLow) {
  // Share 0's last iteration (7) failed low: its depth-2 report of 150 is
  // stale and must not beat share 1's exact 7 of 30 or share 2's exact 6 of 10.
  const std::vector<uidpabs::Share> shares = {share(2, 150, 7), share(7, 30, 7), share(6, 10, 6)};
  EXPECT_EQ(uidpabs::choose(shares, 0), 1);
  // Among the shares whose last iteration was exact, the highest score wins,
  // whatever its depth; equal scores go to the deeper report.
  EXPECT_EQ(uidpabs::choose({share(7, 30, 7), share(6, 45, 6)}, 0), 1);
  EXPECT_EQ(uidpabs::choose({share(6, 30, 6), share(7, 30, 7)}, 0), 1);
  // Every share's last iteration failed low: the deepest exact report.
  EXPECT_EQ(uidpabs::choose({share(3, 80, 7), share(5, 20, 6), share(2, 99, 8)}, 0), 1);
  // No exact report at all (a search stopped in its first iteration).
  EXPECT_EQ(uidpabs::choose({share(0, 0, 0), share(0, 0, 0)}, 0), -1);
}

TEST(Uidpabs, SearchByTimeReturnsTheBestReportAsALegalLine) {
  Observer quiet;
  auto b = root_backend("uidpabs", 3);
  int searched = 0;
  for (std::size_t i = 0; i < root_positions().size(); i += 6) {
    const Position& root = root_positions()[i];
    SearchOptions o;
    o.limits.movetime_ms = 150;
    const SearchResult r = b->search(root, o, quiet);
    EXPECT_TRUE(r.completed) << root.fen();
    EXPECT_GE(r.depth, 3) << root.fen();
    ASSERT_FALSE(r.pv.empty()) << root.fen();
    EXPECT_EQ(r.pv.front(), r.best_move);
    Position pos = root;
    for (Move m : r.pv) {
      ASSERT_TRUE(pos.is_pseudo_legal(m) && pos.is_legal(m)) << root.fen();
      pos.do_move(m);
    }
    ++searched;
  }
  EXPECT_EQ(searched, int((root_positions().size() + 5) / 6));
}

}  // namespace
}  // namespace xq
