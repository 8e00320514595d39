// Time slicing on the simulated machine (--sim-cores, parallel/sim/machine.h):
//  * p busy logical threads on c < p cores take p / c times one thread's
//    work, share the cores fairly (every thread finishes near the end, not
//    one after another, even when their slices end at the same instants),
//    and the time they waited for a core is exactly their clocks' excess
//    over their work;
//  * a thread that sleeps gives its core away, and one that wakes, less
//    served than the running thread, takes the core at its next quantum
//    (wake-up preemption), not at its slice's end;
//  * an idle thread spins, then yields its core for a slice at each look,
//    then sleeps (on its timer, or until a signal), as the real back-off;
//  * a core for every thread changes nothing;
//  * in exact mode every simulable backend returns the serial value at 4 and
//    8 logical threads on 2 cores, and is taken off its cores on the way;
//  * the split backends' thread time still adds up to p x the search's time;
//  * the same seed gives the same counts and times.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "parallel/backend.h"
#include "parallel/sim/machine.h"
#include "search/worker.h"
#include "tests/parallel/exact_grid.h"
#include "tests/parallel/simulate.h"

namespace xq {
namespace {

constexpr int kQuantum = 100;
constexpr sim::Time kNode = 1000;                   // 1 ns a node: 0.1 us a quantum
constexpr sim::Time kQuantumTime = kQuantum * kNode;

sim::Costs busy_costs(sim::Time slice) {
  sim::Costs c;
  c.node = c.qnode = kNode;
  c.slice = slice;
  return c;
}

// Logical threads 0..threads-1 each search `quanta` quanta of interior
// nodes; returns each one's clock when it finished, and the machine's
// time when all had (thread 0's, after waiting for the others).
struct BusyRun {
  std::vector<sim::Time> finish;
  sim::Time end = 0;
  std::uint64_t preemptions = 0;
  sim::Time core_wait = 0;
};

BusyRun run_busy(int threads, int cores, int quanta, sim::Time slice) {
  sim::Machine m(busy_costs(slice), kQuantum, 0, threads, cores);
  BusyRun out;
  out.finish.assign(std::size_t(threads), 0);
  const auto work = [&](int id) {
    auto w = std::make_unique<Worker>();
    w->next_time_check = kQuantum;
    for (int q = 0; q < quanta; ++q) {
      w->stats.nodes += kQuantum;
      m.at_quantum(*w);
    }
    out.finish[std::size_t(id)] = m.now();
  };
  m.begin();
  for (int i = 1; i < threads; ++i) m.spawn(i, 0);
  std::vector<std::thread> os;
  for (int i = 1; i < threads; ++i)
    os.emplace_back([&, i] {
      m.attach(i);
      work(i);
      m.detach();
    });
  work(0);
  m.wait_others();
  out.end = m.now();
  m.end();
  for (std::thread& t : os) t.join();
  out.preemptions = m.preemptions();
  out.core_wait = m.core_wait();
  return out;
}

TEST(SimSlicing, BusyThreadsShareTheCoresFairly) {
  const int quanta = 200;
  const sim::Time work = quanta * kQuantumTime, slice = 10 * kQuantumTime;
  int checked = 0;
  for (const auto& [threads, cores] : std::vector<std::pair<int, int>>{{4, 2}, {3, 1}, {8, 2}, {5, 3}}) {
    const BusyRun r = run_busy(threads, cores, quanta, slice);
    const sim::Time total = threads * work;
    // The cores are never idle while a thread waits: the last finish is the
    // total work over the cores, give or take a slice.
    const sim::Time ideal = total / cores;
    EXPECT_GE(r.end, ideal) << threads << " on " << cores;
    EXPECT_LE(r.end, ideal + slice + kQuantumTime) << threads << " on " << cores;
    EXPECT_GT(r.preemptions, 0u);
    // Round-robin: nobody is done before the last few slices (run to
    // completion would finish the first threads at work, a fraction of end).
    const sim::Time first = *std::min_element(r.finish.begin(), r.finish.end());
    EXPECT_GE(first, r.end - sim::Time(threads) * slice)
        << threads << " on " << cores << ": " << ::testing::PrintToString(r.finish);
    // A thread's clock is its work plus its waits for a core (no jitter).
    const sim::Time clocks = std::accumulate(r.finish.begin(), r.finish.end(), sim::Time(0));
    EXPECT_EQ(r.core_wait, clocks - total) << threads << " on " << cores;
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

TEST(SimSlicing, ACoreForEveryThreadChangesNothing) {
  const int quanta = 50;
  const sim::Time slice = 10 * kQuantumTime;
  for (int cores : {0, 4, 9}) {
    const BusyRun r = run_busy(4, cores, quanta, slice);
    EXPECT_EQ(r.end, quanta * kQuantumTime) << cores;
    EXPECT_EQ(r.preemptions, 0u);
    EXPECT_EQ(r.core_wait, 0);
  }
}

// On machine m (2 logical threads), thread 1 runs `other` while thread 0,
// the caller, searches `quanta` quanta of interior nodes, calling
// `after(q)` after its quantum q; returns thread 0's clock after its last
// quantum. Thread 0 runs first (it holds the token).
sim::Time beside_busy(sim::Machine& m, int quanta, const std::function<void()>& other,
                      const std::function<void(int)>& after = {}) {
  m.begin();
  m.spawn(1, 0);
  std::thread t([&] {
    m.attach(1);
    other();
    m.detach();
  });
  auto w = std::make_unique<Worker>();
  w->next_time_check = kQuantum;
  for (int q = 0; q < quanta; ++q) {
    w->stats.nodes += kQuantum;
    m.at_quantum(*w);
    if (after) after(q);
  }
  const sim::Time finished = m.now();
  m.wait_others();
  m.end();
  t.join();
  return finished;
}

TEST(SimSlicing, ASleeperGivesItsCoreAwayAndTakesItBackWhenItWakes) {
  const sim::Time slice = 10 * kQuantumTime, nap = 35 * kQuantumTime + 7;
  sim::Machine m(busy_costs(slice), kQuantum, 0, 2, 1);
  sim::Time woke = 0;
  // Thread 1 gets the core at thread 0's first slice end, goes to sleep at
  // once, and thread 0 runs on.
  const sim::Time finished = beside_busy(m, 100, [&] {
    m.sleep_until(m.now() + nap);
    woke = m.now();
  });
  // Thread 1 first ran at thread 0's slice end (10 quanta) and slept from
  // then until `nap` later; less served than thread 0, it took the core at
  // thread 0's first quantum after that, not at the end of its slice.
  const sim::Time due = slice + nap;
  EXPECT_GE(woke, due);
  EXPECT_LT(woke, due + kQuantumTime);
  EXPECT_EQ(woke % kQuantumTime, 0) << "it resumed at a quantum of thread 0, not when due";
  // Thread 0 lost only the time thread 1 held the core (none: it slept at
  // once) and ran its 100 quanta end to end.
  EXPECT_EQ(finished, 100 * kQuantumTime);
}

// An idle thread beside a busy one on one core, as the real back-off: its
// first looks spin on the core, the next ones each give the core to the
// busy thread (which keeps it for a whole slice: a yielder is not a woken
// sleeper and takes no core early), and then it sleeps.
TEST(SimSlicing, AnIdleThreadSpinsThenYieldsItsCoreForASliceThenSleeps) {
  const sim::Time slice = 10 * kQuantumTime;
  sim::Costs costs = busy_costs(slice);
  costs.idle_poll = kQuantumTime / 4;
  const int yields = 5, busy_quanta = 200;
  sim::Machine m(costs, kQuantum, 0, 2, 1);
  std::vector<sim::Time> looks;  // thread 1's clock after each look, polls 1..
  const sim::Time finished = beside_busy(m, busy_quanta, [&] {
    for (int polls = 1; polls <= sim::kIdleSpins - 1 + yields; ++polls) {
      m.idle_wait(polls, false);
      looks.push_back(m.now());
    }
  });
  ASSERT_EQ(looks.size(), std::size_t(sim::kIdleSpins - 1 + yields));
  // Thread 1 first ran at thread 0's first slice end; its spins then follow
  // each other on the core, one poll apart.
  EXPECT_EQ(looks[0], slice + costs.idle_poll);
  for (int i = 1; i < sim::kIdleSpins - 1; ++i)
    EXPECT_EQ(looks[std::size_t(i)] - looks[std::size_t(i) - 1], costs.idle_poll) << "spin " << i;
  // Each yield gave the core to thread 0 for a whole slice (to the first
  // quantum past it), and the next look came after it.
  for (int i = sim::kIdleSpins - 1; i < int(looks.size()); ++i) {
    const sim::Time gap = looks[std::size_t(i)] - looks[std::size_t(i) - 1];
    EXPECT_GE(gap, slice) << "look " << i + 1;
    EXPECT_LE(gap, slice + kQuantumTime + costs.idle_poll) << "look " << i + 1;
  }
  EXPECT_EQ(m.yields(), std::uint64_t(yields));
  // Thread 0 lost only the time thread 1 held the core.
  const sim::Time held = (sim::kIdleSpins - 1 + yields) * costs.idle_poll;
  EXPECT_GE(finished, busy_quanta * kQuantumTime + held);
  EXPECT_LE(finished, busy_quanta * kQuantumTime + held + (yields + 1) * kQuantumTime);
}

// Past its yields an idle thread sleeps: a split pool's helper on its timer
// (wake_on_signal false: work published meanwhile does not wake it), a task
// pool's worker until work is posted.
TEST(SimSlicing, AnIdleSleeperWakesOnItsTimerOrOnASignal) {
  const sim::Time slice = 10 * kQuantumTime;
  sim::Costs costs = busy_costs(slice);
  costs.idle_poll = 0;
  costs.idle_timeout = 30 * kQuantumTime;
  int checked = 0;
  for (const bool on_signal : {false, true}) {
    sim::Machine m(costs, kQuantum, 0, 2, 1);
    sim::Time slept = -1, woke = -1;
    beside_busy(
        m, 100,
        [&] {
          slept = m.now();
          m.idle_wait(sim::kIdleYields, on_signal);
          woke = m.now();
        },
        [&](int q) {
          if (q == 14) m.signal();  // thread 1 is asleep since thread 0's first slice end
        });
    EXPECT_EQ(slept, slice) << on_signal;
    // Woken by the signal at 15 quanta (it took the core at thread 0's next
    // quantum: wake-up preemption), or by its timer at a quantum's end.
    EXPECT_EQ(woke, on_signal ? 16 * kQuantumTime : slice + costs.idle_timeout) << on_signal;
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

// A slice of 20 us (70 nodes at the built-in cost): short enough that
// depth-4 searches are taken off their cores many times.
sim::Costs sliced_costs() {
  sim::Costs c;
  c.slice = 20'000'000;
  return c;
}

using test::sample_positions;
using test::sim_backend;
using test::sim_depth;

// Two openings and two random positions; under AddressSanitizer the first
// opening and the last random position (19 s of the lane's 923 summed on
// 2026-12-03 with all four).
TEST(SimSlicing, EveryBackendExactAt4And8ThreadsOn2Cores) {
  static const std::vector<Position> ps = test::fewer_under_asan(sample_positions(), 3);
  ASSERT_EQ(ps.size(), test::kAddressSanitized ? 2u : 4u);
  const std::vector<Value>& expected = test::serial_values(ps, 4);
  int searched = 0, backends_run = 0;
  for (const BackendInfo& info : backends()) {
    if (!info.simulable) continue;
    const std::string name(info.name);
    std::uint64_t preemptions = 0;
    for (int threads : {4, 8}) {
      for (std::size_t i = 0; i < ps.size(); ++i) {
        auto b = sim_backend(name, threads);
        const test::Simulated s =
            test::simulate(*b, ps[i], test::exact_options(4), threads, 1, 64, sliced_costs(), 2);
        EXPECT_EQ(s.result.score, expected[i]) << name << " threads " << threads << " "
                                               << ps[i].fen();
        EXPECT_EQ(s.result.depth, 4);
        preemptions += s.preemptions;
        ++searched;
      }
    }
    // serial runs one thread whatever --threads says: nothing waits for its core.
    if (name != "serial") {
      EXPECT_GT(preemptions, 0u) << name << " was never taken off a core";
    }
    ++backends_run;
  }
  EXPECT_GE(backends_run, 7);
  EXPECT_EQ(searched, backends_run * 2 * int(ps.size()));
}

TEST(SimSlicing, SplitBackendsThreadTimeStillAddsUp) {
  int checked = 0;
  for (const std::string& name : test::time_booking_backends(true)) {
    const int threads = 5;
    auto b = sim_backend(name, threads);
    const test::Simulated s =
        test::simulate(*b, sample_positions()[1], sim_depth(7), threads, 1, 64, sliced_costs(), 2);
    const SearchStats& st = s.result.stats;
    const double parts = st.search_seconds + st.idle_seconds + st.lock_seconds + st.copy_seconds;
    EXPECT_NEAR(parts, st.span_seconds, 1e-9 * threads) << name;
    EXPECT_LE(st.span_seconds, threads * s.seconds + 1e-6) << name;
    EXPECT_GT(s.preemptions, 0u) << name;
    EXPECT_GT(s.core_wait, 0.0) << name;
    ++checked;
  }
  EXPECT_EQ(checked, int(test::time_booking_backends(true).size()));
  EXPECT_GE(checked, 3);
}

TEST(SimSlicing, SameSeedSameCountsAndTimes) {
  int compared = 0;
  for (const std::string name : {"lazysmp", "ybwc", "abdada"}) {
    std::vector<double> a, b;
    for (std::vector<double>* out : {&a, &b}) {
      auto backend = sim_backend(name, 6);
      const test::Simulated s =
          test::simulate(*backend, sample_positions()[0], sim_depth(6), 6, 3, 64, sliced_costs(), 2);
      *out = {double(s.result.stats.nodes), double(s.preemptions), s.core_wait, s.seconds,
              double(s.result.score), s.result.stats.search_seconds, s.result.stats.idle_seconds};
    }
    EXPECT_EQ(a, b) << name;
    ++compared;
  }
  EXPECT_EQ(compared, 3);
}

}  // namespace
}  // namespace xq
