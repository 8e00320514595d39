// The simulated machine (parallel/sim/machine.h) runs every registered
// backend's own code on virtual clocks, one logical thread at a time:
//  * at one thread it changes nothing: nodes, score and move equal the same
//    backend's real one-thread search, and the serial backend's (for the
//    backends whose one-thread search is the serial one);
//  * in exact mode (DESIGN.md §4) every backend returns the serial value at
//    2, 3, 8 and 16 logical threads, and ends at 64;
//  * the same seed gives the same counters and the same virtual times, with
//    this machine idle or loaded by other busy threads (slow);
//  * its virtual time adds up: every split backend's thread time
//    (search + idle + lock + copy) equals p x the search's virtual time.
#include <algorithm>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "parallel/backend.h"
#include "hashing/cpu_relax.h"
#include "parallel/sim/machine.h"
#include "tests/parallel/exact_grid.h"
#include "tests/parallel/simulate.h"
#include "parallel/work_span.h"
#include "search/coordination.h"

namespace xq {
namespace {

using test::Simulated;
using test::simulate;

using test::sample_positions;
using test::sim_backend;
using test::sim_depth;
using test::simulable_backends;

TEST(SimMachine, SlowOneThreadChangesNothingForEveryBackend) {
  int compared = 0;
  for (const Position& p : sample_positions()) {
    auto serial = sim_backend("serial", 1);
    Observer quiet;
    const SearchResult ref = serial->search(p, sim_depth(6), quiet);
    for (const std::string& name : backend_names()) {
      auto real = sim_backend(name, 1);
      const SearchResult r = real->search(p, sim_depth(6), quiet);
      auto simulated = sim_backend(name, 1);
      const Simulated s = simulate(*simulated, p, sim_depth(6), 1);
      EXPECT_EQ(s.result.stats.nodes, r.stats.nodes) << name << " " << p.fen();
      EXPECT_EQ(s.result.score, r.score) << name;
      EXPECT_EQ(s.result.best_move, r.best_move) << name;
      EXPECT_EQ(s.switches, 0u) << name << ": one logical thread never hands over";
      EXPECT_GT(s.seconds, 0.0) << name;
      ++compared;
      // And the same as the serial backend's search.
      if (!find_backend(name).serial_at_one_thread) continue;
      EXPECT_EQ(s.result.stats.nodes, ref.stats.nodes) << name << " " << p.fen();
      EXPECT_EQ(s.result.score, ref.score) << name;
      EXPECT_EQ(s.result.best_move, ref.best_move) << name;
    }
  }
  EXPECT_EQ(compared, int(sample_positions().size() * backend_names().size()));
}

// Virtual time of a one-thread search is its nodes' cost, to within the
// last, uncharged quantum.
TEST(SimMachine, OneThreadTimeIsTheNodesCost) {
  const sim::Costs costs;
  auto b = sim_backend("serial", 1);
  const Position& p = sample_positions()[0];
  const Simulated s = simulate(*b, p, sim_depth(6), 1, 0, 64);
  const SearchStats& st = s.result.stats;
  const double expect = sim::seconds(sim::Time(st.nodes - st.qnodes) * costs.node +
                                     sim::Time(st.qnodes) * costs.qnode);
  EXPECT_LE(s.seconds, expect);
  EXPECT_GE(s.seconds, expect - sim::seconds(64 * std::max(costs.node, costs.qnode)));
}

class SimExact : public ::testing::TestWithParam<std::string> {};

// Two openings and two random positions; under AddressSanitizer the first
// opening and the last random position (69 of the lane's 923 summed seconds
// on 2026-12-03 with all four: each logical thread is an OS thread).
TEST_P(SimExact, SerialValueAt2To16ThreadsAndEndsAt64) {
  static const std::vector<Position> ps = test::fewer_under_asan(sample_positions(), 3);
  ASSERT_EQ(ps.size(), test::kAddressSanitized ? 2u : 4u);
  if (!find_backend(GetParam()).simulable) {
    // Its helpers are processes, or ranks waiting on a wire, which the
    // simulated machine cannot schedule: refused in one line (at one
    // thread a process backend has none, and runs).
    auto b = sim_backend(GetParam(), 2);
    try {
      simulate(*b, ps[0], test::exact_options(4), 2);
      ADD_FAILURE() << GetParam() << " ran unschedulable helpers on the simulated machine";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      const std::string head = GetParam() + " cannot run on the simulated machine: its ";
      const std::string tail = ", which the simulator does not schedule";
      EXPECT_EQ(what.substr(0, head.size()), head) << what;
      EXPECT_TRUE(what.size() > tail.size() &&
                  what.compare(what.size() - tail.size(), tail.size(), tail) == 0)
          << what;
    }
    return;
  }
  const std::vector<Value>& expected = test::serial_values(ps, 4);
  int searched = 0;
  for (int threads : {2, 3, 8, 16}) {
    for (std::size_t i = 0; i < ps.size(); ++i) {
      auto b = sim_backend(GetParam(), threads);
      const Simulated s = simulate(*b, ps[i], test::exact_options(4), threads);
      EXPECT_EQ(s.result.score, expected[i]) << GetParam() << " threads " << threads << " "
                                             << ps[i].fen();
      EXPECT_EQ(s.result.depth, 4);
      EXPECT_EQ(s.result.stats[coordination::mark_leaks], 0u);
      ++searched;
    }
  }
  EXPECT_EQ(searched, 4 * int(ps.size()));
  auto b = sim_backend(GetParam(), 64);
  const Simulated s = simulate(*b, ps[0], sim_depth(5), 64);
  EXPECT_EQ(s.result.depth, 5) << GetParam() << " at 64 logical threads";
  EXPECT_FALSE(s.result.stopped);
}

std::string sim_param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(All, SimExact, ::testing::ValuesIn(backend_names()), sim_param_name);

struct Fingerprint {
  std::vector<std::uint64_t> counts;
  std::vector<double> times;
  bool operator==(const Fingerprint&) const = default;
};

Fingerprint fingerprint(const std::string& name, int threads, std::uint64_t seed,
                        sim::Carrier carrier = sim::default_carrier(), int cores = 0) {
  Fingerprint f;
  for (const Position& p : sample_positions()) {
    auto b = sim_backend(name, threads);
    const Simulated s = simulate(*b, p, sim_depth(5), threads, seed, 64, sim::Costs{}, cores, carrier);
    const SearchStats& st = s.result.stats;
    f.counts.insert(f.counts.end(), {st.nodes, st.qnodes, st.splits, st.joins, st.aborts,
                                     st.tt_hits, st[coordination::busy_answers], st[coordination::deferrals], s.switches,
                                     std::uint64_t(s.result.best_move.raw()),
                                     std::uint64_t(std::int64_t(s.result.score))});
    f.times.insert(f.times.end(), {s.seconds, st.search_seconds, st.idle_seconds,
                                   st.lock_seconds, st.copy_seconds});
  }
  return f;
}

// The calling thread on one core while it lives: with fewer cores than
// logical threads the machine runs its threads on the core its caller is on
// (parallel/sim/machine.cpp), so the test knows which core that will be.
class PinCaller {
 public:
  PinCaller() : cpu_(sched_getcpu()) {
    ok_ = cpu_ >= 0 && pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_) == 0;
    if (!ok_) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu_, &one);
    ok_ = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
  }
  ~PinCaller() {
    if (ok_) pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
  }
  bool ok() const { return ok_; }
  int cpu() const { return cpu_; }

 private:
  int cpu_;
  bool ok_ = false;
  cpu_set_t saved_;
};

// A busy thread on one core: it competes with the simulation's threads for
// that core's time slices all the while they run.
class Load {
 public:
  explicit Load(int cpu)
      : thread_([this, cpu] {
          cpu_set_t one;
          CPU_ZERO(&one);
          CPU_SET(cpu, &one);
          pinned_.store(pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0 ? 1 : 2);
          while (!stop_.load(std::memory_order_relaxed)) cpu_relax();
        }) {
    while (pinned_.load() == 0) std::this_thread::yield();
  }
  ~Load() {
    stop_.store(true);
    thread_.join();
  }
  bool pinned() const { return pinned_.load() == 1; }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> pinned_{0};
  std::thread thread_;
};

void expect_same_twice(bool loaded) {
  int compared = 0;
  for (const std::string& name : simulable_backends()) {
    if (name == "serial") continue;
    const Fingerprint a = fingerprint(name, 4, 7);
    Fingerprint b;
    if (loaded && int(std::thread::hardware_concurrency()) < 4) {
      // Four logical threads on fewer cores: the machine keeps them on the
      // caller's core, and a busy thread there takes every other slice (one
      // on another core would only slow down the rest of the test run).
      const PinCaller caller;
      ASSERT_TRUE(caller.ok()) << "cannot pin the test thread";
      const Load load(caller.cpu());
      ASSERT_TRUE(load.pinned()) << "cannot pin the busy thread";
      b = fingerprint(name, 4, 7);
    } else if (loaded) {
      // Enough cores: the logical threads spin on their own; load them all.
      std::vector<std::unique_ptr<Load>> loads;
      for (unsigned cpu = 0; cpu < std::thread::hardware_concurrency(); ++cpu)
        loads.push_back(std::make_unique<Load>(int(cpu)));
      b = fingerprint(name, 4, 7);
    } else {
      b = fingerprint(name, 4, 7);
    }
    EXPECT_TRUE(a == b) << name << ": the same seed gave other counts or times";
    EXPECT_GT(a.counts[8], 0u) << name << ": four logical threads never handed over";
    ++compared;
  }
  EXPECT_GE(compared, 6);
}

TEST(SimMachine, SameSeedSameCountsAndTimes) { expect_same_twice(false); }

// Slow: a hand-over can still wait for the busy thread's (short) slice.
TEST(SimMachineSlow, SameSeedSameCountsAndTimesOnALoadedMachine) { expect_same_twice(true); }

// The carrier changes how fast a simulation runs, never what it says: on
// fibers and on OS threads every backend gives the same counts and virtual
// times, with a core per logical thread and time-sliced on two cores (the
// distributed ones mix the two: their ranks stay OS threads).
TEST(SimMachine, FibersAndThreadsGiveTheSameCountsAndTimes) {
  if (sim::default_carrier() != sim::Carrier::Fibers)
    GTEST_SKIP() << "a sanitizer build: its simulations run on OS threads only";
  int compared = 0;
  for (const std::string& name : simulable_backends()) {
    if (name == "serial") continue;
    for (int cores : {0, 2}) {
      const Fingerprint threads = fingerprint(name, 5, 3, sim::Carrier::Threads, cores);
      const Fingerprint fibers = fingerprint(name, 5, 3, sim::Carrier::Fibers, cores);
      EXPECT_TRUE(threads == fibers) << name << " on " << cores << " cores: the carriers disagree";
      EXPECT_GT(fibers.counts[8], 0u) << name << ": five logical threads never handed over";
      ++compared;
    }
  }
  EXPECT_EQ(compared, 2 * (int(simulable_backends().size()) - 1));
  EXPECT_GE(compared, 20);
}

// An exception that escapes a fiber's body comes out of the join.
TEST(SimMachine, AFibersEscapedExceptionComesOutOfTheJoin) {
  if (sim::default_carrier() != sim::Carrier::Fibers)
    GTEST_SKIP() << "a sanitizer build: its simulations run on OS threads only";
  sim::Machine m(sim::Costs{}, 64, 1, 3, 0, sim::Carrier::Fibers);
  m.begin();
  int ran = 0;
  m.spawn_fiber(1, 0, [&] {
    ++ran;
    throw std::runtime_error("fiber 1 failed");
  });
  m.spawn_fiber(2, 0, [&] { ++ran; });
  EXPECT_THROW(
      {
        try {
          m.wait_others();
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "fiber 1 failed");
          throw;
        }
      },
      std::runtime_error);
  EXPECT_EQ(ran, 2);
  m.end();
}

// Under ThreadSanitizer in CI: the machine's hand-overs order every logical
// thread's accesses, so the backends' shared state is race-free under it.
TEST(StressSim, EveryBackendExactAt8LogicalThreads) {
  const std::vector<Position>& ps = sample_positions();
  const std::vector<Value>& expected = test::serial_values(ps, 4);
  int searched = 0;
  for (const std::string& name : simulable_backends())
    for (std::size_t i = 0; i < ps.size(); ++i) {
      auto b = sim_backend(name, 8);
      EXPECT_EQ(simulate(*b, ps[i], test::exact_options(4), 8).result.score, expected[i]) << name;
      ++searched;
    }
  EXPECT_EQ(searched, int(simulable_backends().size() * ps.size()));
}

// With fewer cores than logical threads the machine runs its threads on one
// core, with a short time slice, while they are attached
// (parallel/sim/machine.cpp); the caller's own mask and slice come back when
// the search ends, whether it ended or threw.
// The calling thread's time-slice request (struct sched_attr's
// sched_runtime, its fourth 64-bit word), or -1 where the kernel has none.
long long slice_request() {
  std::uint64_t attr[6] = {sizeof attr};
  if (syscall(SYS_sched_getattr, 0, attr, sizeof attr, 0) != 0) return -1;
  return static_cast<long long>(attr[3]);
}

TEST(SimMachine, CallerGetsItsCoresBackAfterASearch) {
  cpu_set_t before, after;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof before, &before), 0);
  const long long slice = slice_request();
  int searched = 0;
  for (const std::string name : {"ybwc", "lazysmp", "pvsplit"}) {
    auto b = sim_backend(name, 4);
    EXPECT_GT(simulate(*b, sample_positions()[0], sim_depth(4), 4).switches, 0u) << name;
    ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof after, &after), 0);
    EXPECT_TRUE(CPU_EQUAL(&before, &after)) << name << ": the caller's mask is not restored";
    EXPECT_EQ(slice_request(), slice) << name << ": the caller's time slice is not restored";
    ++searched;
  }
  {
    sim::Machine m(sim::Costs{}, 256, 0, 64);
    m.begin();
    // An exception between begin() and end(): the machine's destructor
    // detaches the caller and restores its mask.
  }
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after)) << "the destructor did not restore the mask";
  EXPECT_EQ(slice_request(), slice) << "the destructor did not restore the time slice";
  EXPECT_EQ(searched, 3);
}

// A thread's factor holds for the whole search, or with a period is drawn
// anew per span of its clock (the first span keeps the whole-search draw).
TEST(SimMachine, ThreadFactorsAreDrawnPerSpanWithAPeriod) {
  sim::Costs whole, spans;
  whole.jitter = spans.jitter = 0.1;
  spans.jitter_period = 1000;
  const sim::Machine a(whole, 64, 1, 2), b(spans, 64, 1, 2);
  EXPECT_EQ(b.speed(1, 0), a.speed(1, 0));
  EXPECT_EQ(b.speed(1, 999), a.speed(1, 0));
  int spans_seen = 0, moved = 0;
  double lo = 2, hi = 0;
  for (sim::Time t = 1000; t < 2'001'000; t += 1000) {
    EXPECT_EQ(a.speed(1, t), a.speed(1, 0)) << "no period: one factor";
    const double f = b.speed(1, t);
    EXPECT_EQ(f, b.speed(1, t + 999)) << "one draw per span";
    EXPECT_GE(f, 0.9);
    EXPECT_LE(f, 1.1);
    moved += f != b.speed(0, t) ? 1 : 0;
    lo = std::min(lo, f);
    hi = std::max(hi, f);
    ++spans_seen;
  }
  EXPECT_EQ(spans_seen, 2000);
  EXPECT_GT(moved, 1990) << "each thread its own draw";
  EXPECT_LT(lo, 0.905);
  EXPECT_GT(hi, 1.095);
}

// A period prices a search's spans at their own factors: the same nodes,
// another time, within the jitter's reach of the plain one.
TEST(SimMachine, APeriodRepricesTheSpansOfASearch) {
  sim::Costs whole, spans;
  whole.jitter = spans.jitter = 0.1;
  spans.jitter_period = 100'000'000;  // 0.1 ms of virtual time
  const Position& p = sample_positions()[0];
  auto b0 = sim_backend("serial", 1), b1 = sim_backend("serial", 1);
  const Simulated plain = simulate(*b0, p, sim_depth(6), 1, 1, 64, whole);
  const Simulated spanned = simulate(*b1, p, sim_depth(6), 1, 1, 64, spans);
  EXPECT_EQ(spanned.result.stats.nodes, plain.result.stats.nodes);
  EXPECT_EQ(spanned.result.best_move, plain.result.best_move);
  EXPECT_GT(plain.seconds, 20 * 1e-4) << "the search spans many periods";
  EXPECT_NE(spanned.seconds, plain.seconds);
  const double unit = plain.seconds / sim::Machine(whole, 64, 1, 1).speed(0);
  EXPECT_GT(spanned.seconds, 0.9 * unit);
  EXPECT_LT(spanned.seconds, 1.1 * unit);
}

TEST(SimMachine, SeedsMoveLazySmpThreadsOutOfStep) {
  EXPECT_FALSE(fingerprint("lazysmp", 4, 1) == fingerprint("lazysmp", 4, 2));
}

TEST(SimMachine, SplitBackendsThreadTimeIsThreadsTimesVirtualTime) {
  int checked = 0;
  for (const std::string& name : test::time_booking_backends(true)) {
    for (int threads : {2, 5}) {
      auto b = sim_backend(name, threads);
      const Simulated s = simulate(*b, sample_positions()[1], sim_depth(7), threads);
      const SearchStats& st = s.result.stats;
      const double parts = st.search_seconds + st.idle_seconds + st.lock_seconds + st.copy_seconds;
      EXPECT_NEAR(parts, st.span_seconds, 1e-9 * threads) << name << " " << threads;
      // Every thread's span starts with the search; the caller's ends with
      // it, a helper's when it leaves, at most one idle sleep earlier.
      EXPECT_LE(st.span_seconds, threads * s.seconds + 1e-6) << name << " " << threads;
      EXPECT_GE(st.span_seconds, threads * (s.seconds - sim::seconds(sim::Costs{}.idle_timeout)))
          << name << " " << threads;
      EXPECT_GT(st.splits, 0u) << name << " " << threads;
      // The split points on the critical path (parallel/work_span.h): some,
      // and never more than were made.
      EXPECT_GT(st[critical_splits], 0u) << name << " " << threads;
      EXPECT_LE(st[critical_splits], st.splits) << name << " " << threads;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * int(test::time_booking_backends(true).size()));
  EXPECT_GE(checked, 6);
}

TEST(SimMachine, RejectsWhatItCannotRun) {
  EXPECT_THROW(sim::Machine(sim::Costs{}, 0, 1, 4), std::invalid_argument);
  sim::Machine m(sim::Costs{}, 64, 1, 2);
  m.begin();
  EXPECT_THROW(m.spawn(2, 0), std::out_of_range);
  m.spawn(1, 0);
  EXPECT_THROW(m.spawn(1, 0), std::logic_error);
  EXPECT_THROW(m.end(), std::logic_error);  // thread 1 is still attached
  m.unspawn(1);
  m.end();
}

}  // namespace
}  // namespace xq
