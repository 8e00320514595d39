// mpi-abdada over the MPI wire (test_mpi; tests/mpi/mpi_test.cpp holds the
// suites every distributed backend runs): one rank is the serial search
// node for node, deep nodes are claimed at their homes across processes,
// and the engine under mpirun plays a match.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "parallel/distributed/mpi_abdada.h"
#include "search/coordination.h"
#include "tests/mpi/mpi_support.h"
#include "tests/parallel/dist_checks.h"

namespace xq {
namespace {

using mpitest::MpiWorld;

TEST_F(MpiWorld, OneRankOfMpiAbdadaIsTheSerialSearchNodeForNode) {
  auto one = mpitest::on_mpi("mpi-abdada", 1, 1);
  EXPECT_GE(test::expect_serial_node_for_node(*one), 10);
}

TEST_F(MpiWorld, DeepNodesAreClaimedAtTheirHomesAcrossProcesses) {
  const int ranks = mpitest::world_size();
  auto b = mpitest::on_mpi("mpi-abdada", ranks, 1, "spinlock", {"home_depth=4"});
  SearchOptions o;
  o.limits.depth = 8;
  Observer quiet;
  const SearchResult r = b->search(Position(), o, quiet);
  EXPECT_GT(r.stats[dist::remote_probes], 0u);
  EXPECT_GT(r.round_trips.total(), 0u);
  EXPECT_GT(r.stats[coordination::busy_answers], 0u);
  EXPECT_EQ(r.stats[coordination::mark_leaks], 0u);
  // Every store offered was shipped: a deep one to its home (received
  // once), a shallower one (replica_depth 1 up to home_depth) to every
  // other rank (received once per rank).
  EXPECT_GT(r.stats[dist::entries_shipped], 0u);
  EXPECT_EQ(r.stats[dist::entries_shipped], r.stats[dist::entries_offered]);
  if (ranks == 2)
    EXPECT_EQ(r.stats[dist::entries_received], r.stats[dist::entries_shipped]);
  else
    EXPECT_GT(r.stats[dist::entries_received], r.stats[dist::entries_shipped]);
  EXPECT_LE(r.stats[dist::entries_received], r.stats[dist::entries_shipped] * std::uint64_t(ranks - 1));
  mpitest::expect_drained(r, ranks, "mpi-abdada depth 8");
  for (const RankFigures& f : r.ranks) EXPECT_GT(f.nodes, 0u) << "every rank searched";
}

// `uci:mpirun ...` as a match's player: the engine under mpiexec plays
// whole games against a local one, each new game on the same ranks.
TEST(MpiLaunch, AnEngineUnderMpirunPlaysAMatch) {
  const std::string spec = "uci:" + mpitest::mpiexec() + " -n 2 --oversubscribe " + XQLAB_BINARY +
                           " engine,Backend=mpi-abdada,name=cluster";
  const test::XqlabRun r = test::xqlab({"match", "--engine", spec, "--engine", "xqlab",
                                        "--games", "2", "--depth", "3", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out.substr(0, r.out.find('\n')));
  const nlohmann::json& p = j.at("match").at("pairings").at(0);
  EXPECT_EQ(p.at("wins").get<int>() + p.at("draws").get<int>() + p.at("losses").get<int>(), 2)
      << r.out;
  EXPECT_EQ(p.at("forfeits").get<int>(), 0) << r.out;
}

}  // namespace
}  // namespace xq
