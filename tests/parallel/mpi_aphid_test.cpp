// mpi-aphid over the loop wire: APHID's master on rank 0, its searchers on
// every rank. At one rank of one thread it is the threads' `aphid` node for
// node (the same master and leaf search); in exact mode it returns the
// serial value at 1-4 ranks x 1-2 threads; leaves are searched on the other
// ranks (all of them with a dedicated master), every search ends with every
// message received, the node limit binds every rank, and start/stop cycles
// end drained.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "parallel/backend.h"
#include "parallel/params.h"
#include "tests/parallel/dist_checks.h"
#include "tests/parallel/exact_grid.h"
#include "parallel/distributed/wire_counters.h"
#include "parallel/shared/aphid.h"

namespace xq {
namespace {

std::unique_ptr<Backend> aphid_cluster(int ranks, int threads, const std::string& scheme,
                                       const std::vector<std::string>& params = {}) {
  return test::loop_cluster("mpi-aphid", ranks, threads, scheme, params);
}

// On a shared scheme: per-thread tables are sized by their thread slots, and
// a rank's table has one more than its threads (its wire thread's).
TEST(MpiAphid, SlowOneRankOfOneThreadIsAphidNodeForNode) {
  BackendConfig c;
  c.hash = "xor";
  c.hash_mib = 4;
  auto threads = make_backend("aphid", c);
  set_param(c, "ranks=1");
  auto ranks = make_backend("mpi-aphid", c);
  SearchOptions o;
  o.limits.depth = 7;
  Observer quiet;
  int compared = 0;
  for (const Position& p : test::contract_positions(1)) {
    const SearchResult a = threads->search(p, o, quiet);
    const SearchResult b = ranks->search(p, o, quiet);
    EXPECT_EQ(a.stats.nodes, b.stats.nodes) << p.fen();
    EXPECT_EQ(a.stats[aphid::master_passes], b.stats[aphid::master_passes]) << p.fen();
    EXPECT_EQ(a.score, b.score) << p.fen();
    EXPECT_EQ(a.best_move, b.best_move) << p.fen();
    EXPECT_EQ(b.stats[dist::msgs_sent], 0u) << p.fen();
    EXPECT_GT(b.stats[aphid::master_passes], 0u) << p.fen();
    ++compared;
  }
  EXPECT_GE(compared, 10);
}

// (At two threads per rank the other ranks' searchers hold two leaves
// each: aphid_queue=2.)
TEST(MpiAphid, SlowExactModeIsTheSerialValueAtOneToFourRanks) {
  std::map<int, std::uint64_t> remote_nodes;  // nodes of ranks other than 0, by rank count
  EXPECT_GT(test::expect_exact_at_one_to_four_ranks(
                [](int ranks, int threads) {
                  return aphid_cluster(ranks, threads, ranks % 2 ? "perthread" : "xor",
                                       {"aphid_queue=" + std::to_string(threads)});
                },
                [&](int ranks, int, const SearchResult& r) {
                  for (std::size_t i = 1; i < r.ranks.size(); ++i)
                    remote_nodes[ranks] += r.ranks[i].nodes;
                }),
            0);
  EXPECT_EQ(remote_nodes[1], 0u);
  for (int ranks = 2; ranks <= 4; ++ranks)
    EXPECT_GT(remote_nodes[ranks], 0u) << ranks << " ranks: no leaf searched on another rank";
}

// With a dedicated master (aphid_master=no) and one thread per rank, rank 0
// searches only the top tree and the shallow iterations: every leaf search
// runs on another rank and reaches rank 0 by message. Each searcher holding
// one leaf at a time, or three (a queue: the next leaves sent ahead).
TEST(MpiAphid, SlowLeavesAreSearchedOnTheOtherRanks) {
  for (const int queue : {1, 3})
  for (const bool dedicated : {false, true}) {
    auto b = aphid_cluster(3, 1, "perthread",
                           {dedicated ? "aphid_master=no" : "aphid_master=yes",
                            "aphid_queue=" + std::to_string(queue)});
    SearchOptions o;
    o.limits.depth = 8;
    Observer quiet;
    const SearchResult r = b->search(Position(), o, quiet);
    const std::string what = std::string(dedicated ? "dedicated master" : "searching master") +
                             ", queue " + std::to_string(queue);
    EXPECT_EQ(r.depth, 8) << what;
    EXPECT_GT(r.stats[aphid::master_passes], 0u) << what;
    EXPECT_GT(r.stats[aphid::leaf_searches], 0u) << what;
    ASSERT_EQ(r.ranks.size(), 3u) << what;
    for (const RankFigures& f : r.ranks) EXPECT_GT(f.nodes, 0u) << what;
    // A job goes out and each of its depths comes back in one message.
    EXPECT_GT(r.stats[dist::msgs_sent], 2 * r.stats[aphid::leaf_searches] / 3) << what;
    test::expect_balanced(r.stats, what);
    if (dedicated) {
      // Rank 0 searched the shallow iterations serially and the top trees.
      EXPECT_LT(r.ranks[0].nodes, r.stats.nodes / 3) << what;
    }
  }
}

TEST(MpiAphid, TheNodeLimitBindsEveryRank) {
  auto b = aphid_cluster(3, 1, "perthread");
  test::expect_node_limit_binds_every_rank(*b);
}

TEST(MpiAphid, StartStopCyclesAtTwoToFourRanksEndDrained) {
  EXPECT_EQ(test::expect_cycles_end_drained(
                [](int ranks) { return aphid_cluster(ranks, 1, "perthread"); }),
            600);
}

}  // namespace
}  // namespace xq
