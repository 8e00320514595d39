// The distributed backends on the simulated machine (parallel/sim): every
// rank's threads and wire thread are logical threads, the loop wire's
// messages are due in virtual time (parallel/distributed/loop.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "parallel/sim/machine.h"
#include "tests/parallel/dist_checks.h"
#include "tests/parallel/simulate.h"
#include "tests/support/positions.h"

namespace xq {
namespace {

using test::loop_cluster;

using test::Simulated;

Simulated simulate(Backend& b, const Position& pos, const SearchOptions& o,
                   const sim::Costs& costs = sim::Costs{}, std::uint64_t seed = 1) {
  return test::simulate(b, pos, o, 1, seed, 64, costs);
}

SearchOptions to_depth(Depth d) {
  SearchOptions o;
  o.limits.depth = d;
  return o;
}

const std::vector<std::string>& dist_backends() {
  static const std::vector<std::string> v = {"mpi-lazy", "mpi-abdada"};
  return v;
}

TEST(DistSim, LogicalThreadsAreEveryRanksThreadsAndWire) {
  for (const std::string& name : dist_backends()) {
    EXPECT_EQ(loop_cluster(name, 1, 3, "xor", {})->simulated_threads(), 3) << name;
    EXPECT_EQ(loop_cluster(name, 4, 2, "xor", {})->simulated_threads(), 12) << name;
    // A machine too small for them is refused in one line, before any rank starts.
    auto b = loop_cluster(name, 4, 2, "xor", {});
    sim::Machine m(sim::Costs{}, 64, 1, 8);
    m.begin();
    Observer quiet;
    try {
      b->search(test::contract_positions(1)[0], to_depth(3), quiet);
      ADD_FAILURE() << name << " ran 12 logical threads on a machine of 8";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("runs 12 logical threads"), std::string::npos) << e.what();
    }
    m.end();
  }
}

// Exact mode at 1-4 ranks x 1-2 threads on the simulated machine: the
// serial value, every message received, no claim left marked.
TEST(DistSim, ExactAtOneToFourRanksIsTheSerialValue) {
  int searched = 0;
  for (const std::string& name : dist_backends()) {
    // Two openings and a position after a random game.
    std::vector<Position> ps = test::contract_positions(1);
    ps.erase(ps.begin() + 2, ps.end() - 1);
    const std::vector<Value>& expected = test::serial_values(ps, 4);
    for (int ranks = 1; ranks <= 4; ++ranks)
      for (int threads = 1; threads <= 2; ++threads)
        for (std::size_t i = 0; i < ps.size(); ++i) {
          auto b = loop_cluster(name, ranks, threads, "xor", {});
          const Simulated s = simulate(*b, ps[i], test::exact_options(4));
          const std::string what = name + " " + std::to_string(ranks) + "x" +
                                   std::to_string(threads) + " " + ps[i].fen();
          EXPECT_EQ(s.result.score, expected[i]) << what;
          EXPECT_EQ(s.result.depth, 4) << what;
          EXPECT_EQ(s.result.stats.mark_leaks, 0u) << what;
          test::expect_balanced(s.result.stats, what);
          EXPECT_GT(s.seconds, 0.0) << what;
          ++searched;
        }
  }
  EXPECT_EQ(searched, 2 * 8 * 3);
}

// The same inputs and seed give the same counts, messages and virtual
// time; another seed moves the threads out of step.
TEST(DistSim, SlowSameSeedSameSearch) {
  const Position p = test::contract_positions(1)[0];
  for (const std::string& name : dist_backends()) {
    const auto run = [&](std::uint64_t seed) {
      auto b = loop_cluster(name, 3, 2, "xor", {});
      return simulate(*b, p, to_depth(7), sim::Costs{}, seed);
    };
    const Simulated a = run(1), b = run(1), c = run(2);
    EXPECT_EQ(a.result.stats.nodes, b.result.stats.nodes) << name;
    EXPECT_EQ(a.result.stats.msgs_sent, b.result.stats.msgs_sent) << name;
    EXPECT_EQ(a.result.stats.bytes_sent, b.result.stats.bytes_sent) << name;
    EXPECT_EQ(a.result.best_move, b.result.best_move) << name;
    EXPECT_EQ(a.seconds, b.seconds) << name;
    EXPECT_EQ(a.switches, b.switches) << name;
    EXPECT_GT(a.result.stats.msgs_sent, 0u) << name;
    EXPECT_NE(a.result.stats.nodes, c.result.stats.nodes) << name << ": seeds 1 and 2";
  }
}

// Every rank's threads share the root's running best, as one process's
// threads do: a rank adopts a best another rank found before its next root
// move (root_adoptions counts them; a lone rank of one thread has nobody's
// to adopt). Deterministic: the simulated machine with fixed seeds.
TEST(DistSim, SlowRanksAdoptEachOthersRootBest) {
  std::uint64_t adopted = 0, alone = 0;
  int searched = 0;
  for (const Position& p : test::contract_positions(1)) {
    for (std::uint64_t seed : {1, 2}) {
      auto two = loop_cluster("mpi-abdada", 2, 1, "xor", {});
      adopted += simulate(*two, p, to_depth(6), sim::Costs{}, seed).result.stats.root_adoptions;
      ++searched;
    }
    auto one = loop_cluster("mpi-abdada", 1, 1, "xor", {});
    alone += simulate(*one, p, to_depth(6), sim::Costs{}).result.stats.root_adoptions;
  }
  EXPECT_GE(searched, 4);
  EXPECT_GT(adopted, 0u);
  EXPECT_EQ(alone, 0u);
}

// mpi-abdada's home_claims=exclusive sends only the claims that can be
// deferred home: on the simulated machine (deterministic, so two runs
// compare) the same searches make fewer round trips than with
// home_claims=all, and still make some.
TEST(DistSim, SlowExclusiveHomeClaimsMakeFewerRoundTrips) {
  std::uint64_t trips[2] = {};
  int searched = 0;
  for (const Position& p : test::contract_positions(1))
    for (int i = 0; i < 2; ++i) {
      auto b = loop_cluster("mpi-abdada", 2, 1, "xor",
                            {"home_depth=3", std::string("home_claims=") + (i ? "exclusive" : "all")});
      trips[i] += simulate(*b, p, to_depth(7)).result.stats.remote_probes;
      ++searched;
    }
  EXPECT_GE(searched, 4);
  EXPECT_GT(trips[1], 0u);
  EXPECT_LT(trips[1], trips[0]);
}

// A round trip costs what the machine's wire says: two flights and four
// message costs at the least, in virtual time; a slower wire, more.
TEST(DistSim, RoundTripsTakeTheWiresVirtualTime) {
  const Position p = test::contract_positions(1)[0];
  for (const sim::Time latency : {sim::Time(2'000'000), sim::Time(50'000'000)}) {
    sim::Costs costs;
    costs.latency = latency;
    auto b = loop_cluster("mpi-abdada", 2, 1, "xor", {});
    const Simulated s = simulate(*b, p, to_depth(7), costs);
    const RoundTrips& trips = s.result.round_trips;
    ASSERT_GT(trips.total(), 0u) << latency;
    const double least_us = sim::seconds(2 * latency + 4 * costs.message) * 1e6;
    // The histogram's buckets are a quarter octave (19 %) wide.
    EXPECT_GE(trips.quantile_us(0.5), least_us / 1.19) << latency;
    EXPECT_LE(trips.quantile_us(0.5), least_us * 1.5) << latency;
    EXPECT_GT(s.result.stats.remote_wait_seconds, 0.0);
    EXPECT_LT(s.result.stats.remote_wait_seconds, s.seconds * 2);
  }
}

// A thread that waits on claims counts few nodes, so it looks at the clock
// seldom: rank 0's wire thread looks for it (at least once a millisecond)
// and wakes it. On a slow wire (5 ms a flight) a 50 ms search ends within
// four flights of its time, in virtual time (the STOP's, the FIN's, an
// answer that another rank awaits, one to spare): 60 and 65 ms at 2 and 3
// ranks; 111 and 81 ms when only the waiting thread looked at the clock.
TEST(DistSim, AMovetimeSearchOnASlowWireEndsNearItsTime) {
  const Position p = test::contract_positions(1)[0];
  sim::Costs costs;
  costs.latency = sim::Time(5'000'000'000);  // ps
  for (int ranks : {2, 3}) {
    auto b = loop_cluster("mpi-abdada", ranks, 1, "xor", {});
    SearchOptions o;
    o.limits.movetime_ms = 50;
    const Simulated s = test::simulate(*b, p, o, 1, 1, 1024, costs);
    EXPECT_TRUE(s.result.stopped) << ranks;
    EXPECT_GT(s.result.round_trips.total(), 0u) << ranks;
    EXPECT_LE(s.seconds, 0.050 + 4 * sim::seconds(costs.latency)) << ranks;
  }
}

}  // namespace
}  // namespace xq
