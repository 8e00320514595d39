// The backends whose helpers are worker processes (parallel/process_crew.h):
// lazysmp-proc (Lazy SMP, parallel/shared/lazysmp_proc.cpp) and ybwc-proc
// (split points in shared memory, parallel/split/ybwc_proc.cpp). The
// contract suites (exact values, stop, start/stop cycles, reports, a
// throwing observer) run them with every other backend; these tests hold
// what only processes can do wrong: a helper killed in mid-search (with
// ybwc-proc, maybe while it serves a split point or holds its lock),
// processes left behind, counters that must cross the process boundary.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "hashing/memory.h"
#include "hashing/processes.h"
#include "hashing/spinlock.h"
#include "parallel/backend.h"
#include "parallel/split/exec.h"
#include "tests/parallel/exact_grid.h"
#include "tests/support/orphans.h"
#include "tests/support/schemes.h"

namespace xq {
namespace {

using test::children;

class ProcessBackend : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Backend> proc_backend(int threads, const std::string& scheme = "xor") const {
    BackendConfig c;
    c.threads = threads;
    c.hash = scheme;
    c.hash_mib = 4;
    return make_backend(GetParam(), c);
  }
  bool splits() const { return find_backend(GetParam()).sharing == Sharing::Splits; }
};

// Runs an unlimited search on another thread until `stop` or an error; the
// error's text, or "" when it ended without one.
struct Background {
  std::atomic<bool> stop{false};
  std::string error;
  std::thread thread;
  Background(Backend& b, const Position& p) {
    thread = std::thread([this, &b, p] {
      SearchOptions o;
      o.stop_signal = &stop;
      Observer quiet;
      try {
        b.search(p, o, quiet);
      } catch (const std::runtime_error& e) {
        error = e.what();
      }
    });
  }
  void join() {
    stop.store(true);
    thread.join();
  }
};

TEST_P(ProcessBackend, HelpersAreForkedOnceAndLeaveWithTheBackend) {
  ASSERT_TRUE(children().empty()) << "a process was left over from an earlier test";
  auto b = proc_backend(3);
  const std::vector<pid_t> helpers = children();
  EXPECT_EQ(helpers.size(), 2u);
  Observer quiet;
  const Position start;
  for (int i = 0; i < 3; ++i) b->search(start, test::exact_options(4), quiet);
  EXPECT_EQ(children(), helpers) << "searches must reuse the helpers, not fork new ones";
  b.reset();
  EXPECT_TRUE(children().empty());
}

// Every helper's nodes reach the result: the counters cross the process
// boundary through the helpers' slots.
TEST_P(ProcessBackend, TheResultCountsTheHelpersNodes) {
  auto one = proc_backend(1), two = proc_backend(2);
  Observer quiet;
  SearchOptions o;
  o.limits.depth = 7;
  const Position start;
  const SearchResult alone = one->search(start, o, quiet);
  const SearchResult both = two->search(start, o, quiet);
  EXPECT_EQ(alone.depth, 7);
  EXPECT_EQ(both.depth, 7);
  // Lazy SMP: the helper searches from the root too, ahead of or beside the
  // main thread: it adds nodes of its own (its table stores are what it
  // shares). ybwc: the helper's nodes are the split points' moves it took.
  EXPECT_GT(both.stats.nodes, alone.stats.nodes / 2);
  EXPECT_GT(both.stats.tt_probes, 0u);
  EXPECT_GT(both.stats.helper_cpu_seconds, 0.0);
  if (splits()) {
    EXPECT_GT(both.stats.splits, 0u);
    EXPECT_GT(both.stats.joins, 0u);
    EXPECT_GT(both.stats.idle_seconds + both.stats.search_seconds, 0.0);
  }
}

// A node limit binds the nodes of every process together, as it binds those
// of every thread: within a few publishing batches (1,024 nodes) per helper
// and the main thread's node batch.
TEST_P(ProcessBackend, ANodeLimitBindsTheSumOverProcesses) {
  auto b = proc_backend(2);
  Observer quiet;
  SearchOptions o;
  o.limits.nodes = 400000;
  const SearchResult r = b->search(Position(), o, quiet);
  EXPECT_TRUE(r.stopped);
  EXPECT_GE(r.stats.nodes, o.limits.nodes);
  EXPECT_LE(r.stats.nodes, o.limits.nodes + 64 * 1024) << r.stats.nodes;
}

// A helper killed with SIGKILL in mid-search: that search fails with one
// line naming it, no process is left behind, and the next search works
// (fresh helpers, the table cleared) and returns the serial value.
TEST_P(ProcessBackend, AKilledHelperFailsItsSearchInOneLineAndTheNextOneWorks) {
  auto b = proc_backend(2);
  const std::vector<pid_t> helpers = children();
  ASSERT_EQ(helpers.size(), 1u);
  const Position start;
  Background search(*b, start);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(::kill(helpers[0], SIGKILL), 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (children() == helpers && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // The main thread's watch reaps the helper and ends the search by itself.
  search.thread.join();
  EXPECT_EQ(search.error, GetParam() + " helper process 1 of 1 (pid " +
                              std::to_string(helpers[0]) + ") was killed by signal 9 (Killed)");
  EXPECT_TRUE(children().empty());

  Observer quiet;
  const std::vector<Position> ps = {start};
  const SearchResult r = b->search(start, test::exact_options(4), quiet);
  EXPECT_EQ(r.score, test::serial_values(ps, 4)[0]);
  const std::vector<pid_t> fresh = children();
  ASSERT_EQ(fresh.size(), 1u);
  EXPECT_NE(fresh[0], helpers[0]);
}

// Repeated: searches during which a random helper is killed at a random
// moment, mixed with searches that run to their depth. Each one either
// completes or fails with the one line; none hangs (a helper that dies
// holding a bucket lock must not leave the main thread spinning on it:
// both schemes here have locks in shared memory); nothing is left behind.
// 6 kills per scheme, times XQLAB_STRESS_SCALE (17: the 100 and more).
TEST_P(ProcessBackend, KillsInRepeatedSearchesLeaveNoProcessBehind) {
  const char* scale_text = std::getenv("XQLAB_STRESS_SCALE");
  const int kills = 6 * std::max(1, scale_text ? std::atoi(scale_text) : 1);
  const std::vector<Position> ps = {Position()};
  int schemes = 0, left_out = 0;
  for (const char* scheme : {"spinlock", "tbbspin"}) {
    if (!scheme_built(scheme)) {
      std::printf("[ kills    ] %s: %s\n", scheme, test::scheme_not_built(scheme).c_str());
      ++left_out;
      continue;
    }
    auto b = proc_backend(3, scheme);
    std::mt19937 rng(2026);
    int failed = 0, completed = 0;
    for (int i = 0; i < 2 * kills; ++i) {
      if (i % 2 == 0) {
        Observer quiet;
        const SearchResult r = b->search(ps[0], test::exact_options(4), quiet);
        EXPECT_EQ(r.score, test::serial_values(ps, 4)[0]) << scheme << " " << i;
        ++completed;
        continue;
      }
      const std::vector<pid_t> helpers = children();
      ASSERT_EQ(helpers.size(), 2u) << scheme << " " << i;
      Background search(*b, ps[0]);
      std::this_thread::sleep_for(
          std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 30)(rng)));
      ::kill(helpers[std::size_t(rng() % 2)], SIGKILL);
      search.thread.join();
      EXPECT_NE(search.error.find("was killed by signal 9"), std::string::npos) << search.error;
      failed += !search.error.empty();
    }
    EXPECT_EQ(completed, kills) << scheme;
    EXPECT_EQ(failed, kills) << scheme;
    std::printf("[ kills    ] %s: %d searches with a helper killed, %d completed\n", scheme, failed,
                completed);
    b.reset();
    EXPECT_TRUE(children().empty()) << scheme;
    ++schemes;
  }
  EXPECT_EQ(schemes + left_out, 2);
  if (schemes == 0) GTEST_SKIP() << "neither scheme is built here (CMake XQLAB_SCHEMES)";
}

// Helpers forked by a thread that ends before them (the engine's search
// thread, a test's worker) live on: they are the backend's, not the thread's.
TEST_P(ProcessBackend, HelpersOutliveTheThreadThatForkedThem) {
  std::unique_ptr<Backend> b;
  std::thread([&] { b = proc_backend(2); }).join();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(children().size(), 1u);
  Observer quiet;
  const std::vector<Position> ps = {Position()};
  const SearchResult r = b->search(ps[0], test::exact_options(4), quiet);
  EXPECT_EQ(r.score, test::serial_values(ps, 4)[0]);
  b.reset();
  EXPECT_TRUE(children().empty());
}

// Forks a parent that builds `backend` with 2 helpers and, when `search`,
// runs an unlimited search; kills it outright 30 ms later (SIGKILL: no
// destructor of it runs, and Ctrl-C of a program that does not catch it is
// the same); returns how many of its helpers left by themselves (and
// expects none to stay).
int orphans_that_left(const std::function<std::unique_ptr<Backend>()>& backend, bool search) {
  const test::Orphans o = test::kill_parent_and_reap([&](int ready) {
    auto b = backend();
    std::atomic<bool> stop{false};
    SearchOptions options;
    options.stop_signal = &stop;
    Observer quiet;
    std::thread thread;
    if (search) thread = std::thread([&] { b->search(Position(), options, quiet); });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    (void)!::write(ready, "x", 1);
    // Killed here, the backend alive: returning would destroy it, and its
    // destructor would end and reap the helpers before the kill lands.
    for (;;) ::pause();
  });
  EXPECT_TRUE(o.ready);
  EXPECT_EQ(o.stayed, 0) << o.stayed << " helper(s) outlived their parent";
  return o.left;
}

// Helpers searching, helpers waiting between searches, and (ybwc-proc)
// helpers waiting for a split point that never comes (nothing splits at
// min_split_depth 64) all see a dead parent and leave.
TEST_P(ProcessBackend, HelpersLeaveWhenTheirParentIsKilled) {
  ASSERT_TRUE(children().empty()) << "a process was left over from an earlier test";
  EXPECT_EQ(orphans_that_left([&] { return proc_backend(3); }, true), 2) << "searching";
  EXPECT_EQ(orphans_that_left([&] { return proc_backend(3); }, false), 2) << "between searches";
  if (splits()) {
    const auto no_splits = [&] {
      BackendConfig c;
      c.threads = 3;
      c.hash_mib = 4;
      c.set("min_split_depth", 64);
      return make_backend(GetParam(), c);
    };
    EXPECT_EQ(orphans_that_left(no_splits, true), 2) << "waiting for a split point";
  }
}

// A worker spinning on a lock word in shared memory that its parent held
// when it was killed would spin for ever: it looks for its parent while it
// spins and leaves. Both lock words a helper can wait on: a bucket lock of
// the spinlock scheme, and a split point's lock of ybwc-proc.
template <class Spin>
int spinners_that_left(Spin spin) {
  const test::Orphans o = test::kill_parent_and_reap([&](int ready) {
    TableBlock<std::atomic<std::uint64_t>> word(1, TableMemory::Shared);
    TableBlock<split::SharedSpinLock> lock(1, TableMemory::Shared);
    word[0].store(1);  // held by this process, which is about to die
    lock[0].lock();
    WorkerProcesses spinner(
        "spinner", 1,
        [&](int) {
          (void)!::write(ready, "x", 1);
          spin(word[0], lock[0]);
        },
        false);
    ::pause();  // killed here, holding both
  });
  EXPECT_TRUE(o.ready);
  EXPECT_EQ(o.stayed, 0) << "a worker spun on after its parent died";
  return o.left;
}

TEST(OrphanedSpinner, LeavesABucketLockItsKilledParentHeld) {
  EXPECT_EQ(spinners_that_left([](std::atomic<std::uint64_t>& word, split::SharedSpinLock&) {
              SpinlockLayout::Guard g(word);
            }),
            1);
}

TEST(OrphanedSpinner, LeavesASplitPointLockItsKilledParentHeld) {
  EXPECT_EQ(spinners_that_left([](std::atomic<std::uint64_t>&, split::SharedSpinLock& lock) {
              lock.lock();
            }),
            1);
}

TEST_P(ProcessBackend, SchemesWithProcessPrivateLocksAreRefused) {
  EXPECT_FALSE(find_backend(GetParam()).supports("mutex"));
  EXPECT_TRUE(find_backend(GetParam()).supports("spinlock"));
  EXPECT_THROW(proc_backend(2, "mutex"), std::invalid_argument);
  EXPECT_TRUE(children().empty());
}

INSTANTIATE_TEST_SUITE_P(Proc, ProcessBackend, ::testing::Values("lazysmp-proc", "ybwc-proc"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace xq
