// What the jamboree backend (parallel/tasks/jamboree.cpp) does beyond the
// contract every backend keeps (backend_contract_test.cpp covers exact
// values at 1-4 threads, stop and start/stop cycles):
//  * its parallel parts ran: tests spawned as tasks, tasks run by another
//    thread than their spawner (on the simulated machine, where the schedule
//    is the same on every run), fail-highs re-searched in the second phase,
//    cutoffs that cancelled a group;
//  * work and critical path: 0 < C <= W, C < W once the tree splits, and at
//    one thread W is the whole node count;
//  * its executor runs nested groups, skips the tasks of a cut group and
//    rethrows a task's exception after the group has finished.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "parallel/backend.h"
#include "parallel/sim/machine.h"
#include "parallel/tasks/executor.h"
#include "tests/parallel/exact_grid.h"
#include "parallel/tasks/task_counters.h"

namespace xq {
namespace {

std::unique_ptr<Backend> jamboree(int threads, int task_depth = 3, bool ordered = false,
                                  int heuristics = 0, bool steal_next = false) {
  BackendConfig c;
  c.threads = threads;
  c.hash_mib = 1;
  c.hash = "xor";
  c.set("task_depth", task_depth);
  c.set("continuation", ordered ? 1 : 0);
  c.set("task_heuristics", heuristics);  // owner, slot, killers, thread
  c.set("steal", steal_next ? 1 : 0);
  return make_backend("jamboree", c);
}

SearchOptions depth_options(Depth d) {
  SearchOptions o;
  o.limits.depth = d;
  return o;
}

// One search of b on a simulated machine of `threads` logical threads.
SearchResult simulate(Backend& b, const Position& p, Depth depth, int threads, std::uint64_t seed) {
  sim::Machine m(sim::Costs{}, 64, seed, threads);
  m.begin();
  Observer quiet;
  const SearchResult r = b.search(p, depth_options(depth), quiet);
  m.end();
  return r;
}

const std::vector<Position>& positions() {
  static const std::vector<Position> ps = test::contract_positions(4);
  return ps;
}

TEST(Jamboree, OneThreadRunsTheTasksAndCountsWorkAndCriticalPath) {
  int searched = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    auto b = jamboree(1);
    Observer quiet;
    const SearchResult r = b->search(positions()[i], depth_options(6), quiet);
    const SearchStats& s = r.stats;
    EXPECT_GT(s.splits, 0u);
    EXPECT_GT(s[tasks::tasks], 0u);
    EXPECT_EQ(s[tasks::stolen_tasks], 0u) << "one thread steals from nobody";
    EXPECT_GT(s.critical_path, 0u);
    EXPECT_LT(s.critical_path, s.nodes) << "the tests of a split are parallel work";
    ++searched;
  }
  EXPECT_EQ(searched, 4);
}

// The contract suite runs the defaults (the ordered continuation); the
// other settings keep the serial value too, in exact mode (DESIGN.md §4).
TEST(Jamboree, SlowEverySettingKeepsTheSerialValue) {
  const std::vector<Position>& ps = positions();
  const std::vector<Value>& expected = test::serial_values(ps, 4);
  int searched = 0;
  SearchStats sum;
  for (int threads : {1, 2, 3})
    for (bool ordered : {false, true})
      for (int heuristics : {0, 1, 2, 3})
        for (bool next : {false, true})
          for (std::size_t i = 0; i < ps.size(); ++i) {
            auto b = jamboree(threads, 2, ordered, heuristics, next);
            Observer quiet;
            const SearchResult r = b->search(ps[i], test::exact_options(4), quiet);
            EXPECT_EQ(r.score, expected[i]) << threads << " threads, ordered " << ordered
                                            << ", task_heuristics " << heuristics
                                            << ", steal=next " << next << " " << ps[i].fen();
            sum += r.stats;
            ++searched;
          }
  EXPECT_EQ(searched, int(3 * 2 * 4 * 2 * ps.size()));
  EXPECT_GT(sum.researches, 0u) << "fail-highs were re-searched";
}

// Both steal orders: a thief takes a group's last brother (steal=last) or
// the next untested one (steal=next).
TEST(Jamboree, SlowSimulatedTwoThreadsStealReSearchAndCancel) {
  for (bool next : {false, true}) {
    SCOPED_TRACE(next ? "steal=next" : "steal=last");
    SearchStats sum;
    int searched = 0;
    for (const Position& p : positions()) {
      auto b = jamboree(2, 3, false, 0, next);
      const SearchResult r = simulate(*b, p, 6, 2, 1);
      EXPECT_EQ(r.depth, 6);
      EXPECT_LE(r.stats.critical_path, r.stats.nodes);
      sum += r.stats;
      ++searched;
    }
    EXPECT_EQ(searched, int(positions().size()));
    EXPECT_GT(sum[tasks::tasks], 0u);
    EXPECT_GT(sum[tasks::stolen_tasks], 0u) << "the second logical thread ran tasks";
    EXPECT_GT(sum.researches, 0u) << "some test failed high below beta";
    EXPECT_GT(sum.aborts, 0u) << "some test reached beta and cut its group off";
  }
}

TEST(Jamboree, SimulatedSearchIsTheSameOnEveryRun) {
  const Position& p = positions()[1];
  SearchResult first;
  for (int run = 0; run < 2; ++run) {
    auto b = jamboree(4);
    const SearchResult r = simulate(*b, p, 6, 4, 7);
    if (run == 0) {
      first = r;
      continue;
    }
    EXPECT_EQ(r.stats.nodes, first.stats.nodes);
    EXPECT_EQ(r.stats[tasks::tasks], first.stats[tasks::tasks]);
    EXPECT_EQ(r.stats[tasks::stolen_tasks], first.stats[tasks::stolen_tasks]);
    EXPECT_EQ(r.stats.critical_path, first.stats.critical_path);
    EXPECT_EQ(r.score, first.score);
    EXPECT_EQ(r.best_move, first.best_move);
  }
}

TEST(Jamboree, RealThreadsSplitAndAccountTheirTime) {
  auto b = jamboree(2);
  Observer quiet;
  const SearchResult r = b->search(positions()[0], depth_options(7), quiet);
  const SearchStats& s = r.stats;
  EXPECT_EQ(r.depth, 7);
  EXPECT_GT(s[tasks::tasks], 0u);
  EXPECT_LE(s.critical_path, s.nodes);
  // Every slot's span is booked to exactly one part (timing.h).
  const double parts = s.search_seconds + s.idle_seconds + s.lock_seconds + s.copy_seconds;
  EXPECT_NEAR(parts, s.span_seconds, 1e-6 * std::max(1.0, double(s.span_seconds)));
  EXPECT_GT(s.span_seconds, 0.0);
}

TEST(TaskExecutor, NestedGroupsRunEveryTask) {
  tasks::Executor e(3);
  std::atomic<int> ran{0};
  e.run([&] {
    std::atomic<bool> outer_cut{false};
    e.run_group(
        8,
        [&](int) {
          std::atomic<bool> inner_cut{false};
          e.run_group(5, [&](int) { ran.fetch_add(1); }, inner_cut);
        },
        outer_cut);
  });
  EXPECT_EQ(ran.load(), 40);
}

TEST(TaskExecutor, ACutGroupSkipsItsUnstartedTasks) {
  tasks::Executor e(1);  // one thread: tasks run in order, so the count is exact
  int ran = 0;
  e.run([&] {
    std::atomic<bool> cut{false};
    e.run_group(
        10,
        [&](int i) {
          ++ran;
          if (i == 3) cut.store(true);
        },
        cut);
  });
  EXPECT_EQ(ran, 4) << "tasks run in order 0, 1, ... on the spawning thread";
}

TEST(TaskExecutor, ATaskExceptionReachesTheWaiterAfterTheGroup) {
  tasks::Executor e(2);
  std::atomic<int> finished{0};
  EXPECT_THROW(e.run([&] {
    std::atomic<bool> cut{false};
    e.run_group(
        6,
        [&](int i) {
          if (i == 0) throw std::runtime_error("task failed");
          finished.fetch_add(1);
        },
        cut);
  }),
               std::runtime_error);
  EXPECT_LE(finished.load(), 5);
  // The executor is usable afterwards.
  std::atomic<int> ran{0};
  e.run([&] {
    std::atomic<bool> cut{false};
    e.run_group(4, [&](int) { ran.fetch_add(1); }, cut);
  });
  EXPECT_EQ(ran.load(), 4);
}

TEST(TaskExecutor, SimulatedNestedGroupsRunEveryTask) {
  tasks::Executor e(4);
  sim::Machine m(sim::Costs{}, 64, 1, 4);
  m.begin();
  int ran = 0;  // one logical thread runs at a time
  e.run([&] {
    std::atomic<bool> outer_cut{false};
    e.run_group(
        6,
        [&](int) {
          std::atomic<bool> inner_cut{false};
          e.run_group(3, [&](int) { ++ran; }, inner_cut);
        },
        outer_cut);
  });
  m.end();
  EXPECT_EQ(ran, 18);
}

}  // namespace
}  // namespace xq
