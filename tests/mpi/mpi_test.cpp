// The distributed backends over the MPI wire; a backend's own tests there
// live in tests/mpi/<backend>_mpi_test.cpp (the same binary). Two kinds:
//  * MpiWorld.*: run by ctest under `mpiexec -n N` (N = 2, 3, 4): rank 0
//    runs GoogleTest, the other ranks serve the backends it builds, as
//    xqlab's own ranks do. For each backend: exact mode returns the serial
//    value at 1..N ranks x 1-2 threads, one rank is the serial search node
//    for node (mpi-lazy), APHID's leaves are searched on every
//    rank, every search ends drained (sent = received, rank by rank),
//    200 start/stop cycles end, and bad requests are refused in one line.
//  * MpiLaunch.*: run as a plain process; they start `mpiexec ... xqlab` and
//    check what a user sees: the wire's counters against Open MPI's own
//    message monitoring, the engine under mpirun, and clear errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "parallel/backend.h"
#include "parallel/distributed/mpi_world.h"
#include "parallel/params.h"
#include "tests/parallel/exact_grid.h"
#include "tests/parallel/dist_checks.h"
#include "tests/mpi/mpi_support.h"
#include "tests/support/run_xqlab.h"
#include "parallel/distributed/wire_counters.h"
#include "parallel/shared/aphid.h"
#include "search/coordination.h"

namespace xq {
namespace {

using namespace std::chrono_literals;

using mpitest::dist_backends;
using mpitest::expect_drained;
using mpitest::launch;
using mpitest::mpiexec;
using mpitest::MpiWorld;
using mpitest::on_mpi;
using mpitest::world_size;

TEST_F(MpiWorld, ExactModeIsTheSerialValueAtEveryRankCount) {
  std::vector<Position> ps = test::contract_positions(2);
  ps.erase(ps.begin() + 4, ps.end() - 2);  // four openings, two random positions
  const std::vector<Value>& expected = test::serial_values(ps, 4);
  int searched = 0;
  for (const std::string& backend : dist_backends())
    for (int ranks = 1; ranks <= world_size(); ++ranks)
      for (int threads = 1; threads <= 2; ++threads) {
        auto b = on_mpi(backend, ranks, threads, threads == 1 ? "xor" : "spinlock");
        Observer quiet;
        for (std::size_t i = 0; i < ps.size(); ++i) {
          const SearchResult r = b->search(ps[i], test::exact_options(4), quiet);
          const std::string what = backend + " " + std::to_string(ranks) + "x" +
                                   std::to_string(threads) + " " + ps[i].fen();
          EXPECT_EQ(r.score, expected[i]) << what;
          EXPECT_EQ(r.depth, 4) << what;
          expect_drained(r, ranks, what);
          ++searched;
        }
      }
  EXPECT_EQ(searched, int(dist_backends().size()) * world_size() * 2 * int(ps.size()));
}

TEST_F(MpiWorld, OneRankOfMpiLazyIsTheSerialSearchNodeForNode) {
  auto one = on_mpi("mpi-lazy", 1, 1);
  EXPECT_GE(test::expect_serial_node_for_node(*one), 10);
}


// APHID across processes: rank 0's master hands leaves to the other ranks'
// searchers, whose results reach its table (with a dedicated master, every
// leaf is searched on another rank).
TEST_F(MpiWorld, AphidLeavesAreSearchedOnEveryRank) {
  const int ranks = world_size();
  for (const bool dedicated : {false, true}) {
    BackendConfig c;
    c.hash = "perthread";
    c.hash_mib = 4;
    set_param(c, "wire=mpi");
    set_param(c, "ranks=" + std::to_string(ranks));
    set_param(c, dedicated ? "aphid_master=no" : "aphid_master=yes");
    auto b = make_backend("mpi-aphid", c);
    SearchOptions o;
    o.limits.depth = 8;
    Observer quiet;
    const SearchResult r = b->search(Position(), o, quiet);
    const std::string what = dedicated ? "dedicated master" : "searching master";
    EXPECT_EQ(r.depth, 8) << what;
    EXPECT_GT(r.stats[aphid::master_passes], 0u) << what;
    EXPECT_GT(r.stats[aphid::leaf_searches], 0u) << what;
    expect_drained(r, ranks, what);
    for (const RankFigures& f : r.ranks) EXPECT_GT(f.nodes, 0u) << what << ": every rank searched";
  }
}

TEST_F(MpiWorld, EntriesReachEveryOtherRankAndTheNodeLimitBindsAll) {
  const int ranks = world_size();
  auto b = on_mpi("mpi-lazy", ranks, 1);
  SearchOptions o;
  o.limits.depth = 8;
  Observer quiet;
  const SearchResult r = b->search(Position(), o, quiet);
  EXPECT_GT(r.stats[dist::entries_shipped], 0u);
  EXPECT_EQ(r.stats[dist::entries_received], r.stats[dist::entries_shipped] * std::uint64_t(ranks - 1));
  expect_drained(r, ranks, "depth 8");
  for (const RankFigures& f : r.ranks) EXPECT_GT(f.nodes, 0u) << "every rank searched";
  SearchOptions n;
  n.limits.nodes = 400000;
  const SearchResult limited = b->search(Position(), n, quiet);
  EXPECT_TRUE(limited.stopped);
  EXPECT_GE(limited.stats.nodes, n.limits.nodes);
  // Rank 0 stopped on the cluster's count, before its own reached the limit.
  EXPECT_LT(limited.ranks.at(0).nodes, n.limits.nodes);
  expect_drained(limited, ranks, "node limit");
}

TEST_F(MpiWorld, TwoHundredStartStopCyclesEndDrained) {
  const int ranks = world_size();
  int cycles = 0;
  for (const std::string& backend : dist_backends()) {
    auto b = on_mpi(backend, ranks, 1);
    for (int i = 0; i < 200; ++i) {
      const SearchResult r =
          test::stopped_search(*b, Position(), std::chrono::microseconds(300 * (i % 4)));
      expect_drained(r, ranks, backend + " cycle " + std::to_string(i));
      ++cycles;
    }
  }
  EXPECT_EQ(cycles, 200 * int(dist_backends().size()));
}

TEST_F(MpiWorld, BadRequestsAreRefusedInOneLine) {
  try {
    on_mpi("mpi-lazy", world_size() + 1, 1);
    ADD_FAILURE() << "more ranks than mpiexec started were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "mpi-lazy: ranks=" + std::to_string(world_size() + 1) +
                                         " but mpirun started " + std::to_string(world_size()) +
                                         " processes");
  }
  auto first = on_mpi("mpi-lazy", 2, 1);
  // Any other distributed backend (the registry's last) is refused the
  // ranks mpi-lazy holds.
  const std::string other = dist_backends().back();
  ASSERT_NE(other, "mpi-lazy");
  try {
    on_mpi(other, 2, 1);
    ADD_FAILURE() << "two backends were given the same ranks";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              other + ": the MPI ranks already serve another backend (one at a time)");
  }
  // The first still works.
  Observer quiet;
  const SearchResult r = first->search(Position(), test::exact_options(3), quiet);
  EXPECT_EQ(r.depth, 3);
  expect_drained(r, 2, "after the refusals");
}

// ---------------------------------------------------------------- launched

// "E<TAB>src<TAB>dst<TAB>N bytes<TAB>M msgs sent..." lines of Open MPI's
// monitoring (user point-to-point messages), summed per sender.
struct Sent {
  std::uint64_t bytes = 0, msgs = 0;
};
std::map<int, Sent> monitored_sends(const std::string& out) {
  std::map<int, Sent> sent;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("E\t", 0) != 0) continue;
    std::istringstream f(line.substr(2));
    int src = 0, dst = 0;
    std::uint64_t bytes = 0, msgs = 0;
    std::string word;
    f >> src >> dst >> bytes >> word >> msgs;
    sent[src].bytes += bytes;
    sent[src].msgs += msgs;
  }
  return sent;
}

TEST(MpiLaunch, TheWiresCountersAgreeWithOpenMpisMonitoring) {
  for (int n : {2, 3}) {
    const test::XqlabRun r = launch(
        n, {"--mca", "pml_monitoring_enable", "2", "--mca", "pml_monitoring_enable_output", "1"},
        {"search", "--fen", "startpos", "--depth", "7", "--backend", "mpi-lazy", "--param",
         "ranks=" + std::to_string(n), "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string first_line = r.out.substr(0, r.out.find('\n'));
    const nlohmann::json j = nlohmann::json::parse(first_line);
    ASSERT_EQ(j.at("ranks").size(), std::size_t(n));
    const std::map<int, Sent> sent = monitored_sends(r.out);
    int checked = 0;
    // Ranks 1..n-1 send only inside the search: every message the monitor
    // saw is in their counters. Rank 0 also sent the backend's
    // configuration, its Quit and the session's Shutdown to each.
    for (int rank = 1; rank < n; ++rank) {
      const nlohmann::json& f = j.at("ranks").at(std::size_t(rank));
      ASSERT_TRUE(sent.count(rank)) << r.out;
      EXPECT_EQ(sent.at(rank).msgs, f.at("msgs_sent").get<std::uint64_t>()) << "rank " << rank;
      EXPECT_EQ(sent.at(rank).bytes, f.at("bytes_sent").get<std::uint64_t>()) << "rank " << rank;
      ++checked;
    }
    EXPECT_EQ(sent.at(0).msgs,
              j.at("ranks").at(0).at("msgs_sent").get<std::uint64_t>() + 3u * std::uint64_t(n - 1));
    EXPECT_EQ(j.at("counters").at("msgs_sent"), j.at("counters").at("msgs_received"));
    EXPECT_EQ(checked, n - 1);
  }
}

TEST(MpiLaunch, TheEngineSpeaksUciFromRankZero) {
  test::RunLimits limits;
  // Each option rebuilds the backend: the old one lets the ranks go first.
  limits.input =
      "uci\nsetoption name Backend value mpi-lazy\nsetoption name Hash value 8\n"
      "setoption name Threads value 2\nisready\nposition startpos\ngo depth 6\n";
  const test::XqlabRun r = launch(2, {}, {"engine"}, limits);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("uciok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bestmove "), std::string::npos) << r.out;
  // Only rank 0 prints: one uciok.
  EXPECT_EQ(r.out.find("uciok"), r.out.rfind("uciok")) << r.out;
}


// A rank that dies mid-search (killed: fault injection) ends the job at
// once: no hang, a non-zero exit, and rank 0 says so in one line (with
// mpirun -q the only line; without it mpirun adds its own notice).
TEST(MpiLaunch, ADeadRankEndsTheJobWithOneLineFromRankZero) {
  test::RunLimits limits;
  limits.seconds = 60;
  // A search that only a dead rank can end (not an engine session, whose
  // end of input could stop the search before rank 1 is asked to help).
  const auto start = std::chrono::steady_clock::now();
  const test::XqlabRun r =
      launch(2, {"-q", "-x", "XQLAB_FAULT_KILL_RANK=1"},
             {"search", "--fen", "startpos", "--depth", "40", "--backend", "mpi-lazy"}, limits);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_NE(r.status, 0) << r.err;
  EXPECT_LT(took, std::chrono::seconds(30)) << "the job outlived its dead rank";
  const std::string line = "xqlab: mpirun is ending the job (a rank died, or the job was stopped)\n";
  ASSERT_NE(r.err.find(line), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(line), r.err.rfind(line)) << "one line, from rank 0 only: " << r.err;
}

// An mpirun asked for more processes than the machine has slots refuses
// before any xqlab starts: its own explanation (Open MPI's text, not
// xqlab's: no process of ours runs to shorten it), a non-zero exit, no
// hang.
TEST(MpiLaunch, TooFewSlotsEndsAtOnceWithOpenMpisExplanation) {
  if (std::getenv("OMPI_MCA_rmaps_base_oversubscribe"))
    GTEST_SKIP() << "OMPI_MCA_rmaps_base_oversubscribe is set: this mpirun oversubscribes";
  test::RunLimits limits;
  limits.seconds = 60;
  limits.program = mpiexec();
  const int n = 4 * int(std::max(1u, std::thread::hardware_concurrency()));
  const auto start = std::chrono::steady_clock::now();
  const test::XqlabRun r =
      test::run_xqlab({"-n", std::to_string(n), XQLAB_BINARY, "search", "--fen", "startpos",
                       "--depth", "3", "--backend", "mpi-lazy", "--param",
                       "ranks=" + std::to_string(n)},
                      limits);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_NE(r.status, 0) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("not enough slots"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(r.out.find("bestmove"), std::string::npos) << r.out;
}

TEST(MpiLaunch, WireMpiWithoutMpirunIsOneLine) {
  const test::XqlabRun r =
      test::xqlab({"search", "--fen", "startpos", "--depth", "3", "--backend", "mpi-lazy",
                   "--param", "wire=mpi"});
  test::expect_one_line_error(r, "wire=mpi without mpirun");
  EXPECT_NE(r.err.find("mpirun"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace xq

int main(int argc, char** argv) {
  xq::dist::MpiSession mpi(argc, argv);
  if (mpi.serving()) return mpi.serve();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
