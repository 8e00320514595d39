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
#include "parallel/distributed/wire_counters.h"
#include "search/coordination.h"

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

// Every distributed backend the simulated machine can run (the registry's).
const std::vector<std::string>& dist_backends() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> out;
    for (const BackendInfo& b : backends())
      if (b.distributed && b.simulable) out.emplace_back(b.name);
    return out;
  }();
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
    // Two openings and a position after a random game; under
    // AddressSanitizer the first opening and the random position.
    std::vector<Position> ps = test::contract_positions(1);
    ps.erase(ps.begin() + 2, ps.end() - 1);
    ps = test::fewer_under_asan(ps, 2);
    ASSERT_EQ(ps.size(), test::kAddressSanitized ? 2u : 3u);
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
          EXPECT_EQ(s.result.stats[coordination::mark_leaks], 0u) << what;
          test::expect_balanced(s.result.stats, what);
          EXPECT_GT(s.seconds, 0.0) << what;
          ++searched;
        }
  }
  EXPECT_GE(dist_backends().size(), 1u);
  EXPECT_EQ(searched, int(dist_backends().size()) * 8 * (test::kAddressSanitized ? 2 : 3));
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
    EXPECT_EQ(a.result.stats[dist::msgs_sent], b.result.stats[dist::msgs_sent]) << name;
    EXPECT_EQ(a.result.stats[dist::bytes_sent], b.result.stats[dist::bytes_sent]) << name;
    EXPECT_EQ(a.result.best_move, b.result.best_move) << name;
    EXPECT_EQ(a.seconds, b.seconds) << name;
    EXPECT_EQ(a.switches, b.switches) << name;
    EXPECT_GT(a.result.stats[dist::msgs_sent], 0u) << name;
    EXPECT_NE(a.result.stats.nodes, c.result.stats.nodes) << name << ": seeds 1 and 2";
  }
}

}  // namespace
}  // namespace xq
