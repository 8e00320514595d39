// The machinery around a search rather than the search: the thread pool's
// life cycle, a search that throws (the backend rethrows, stays usable and
// destructs promptly), a split point whose owner throws, and the limits a
// backend's table is configured within (thread slots, physical memory).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "hashing/memory.h"
#include "hashing/schemes.h"
#include "parallel/backend.h"
#include "parallel/backend_base.h"
#include "parallel/thread_pool.h"
#include "parallel/split/ybwc.h"

namespace xq {
namespace {

using Clock = std::chrono::steady_clock;

// Aborts the process when the scope it guards runs longer than `limit`: a
// hang becomes a failure with a name instead of a CI timeout.
class Watchdog {
 public:
  Watchdog(const char* what, std::chrono::seconds limit)
      : thread_([this, what, limit] {
          const Clock::time_point end = Clock::now() + limit;
          while (!done_.load()) {
            if (Clock::now() > end) {
              std::fprintf(stderr, "watchdog: %s hangs\n", what);
              std::abort();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          }
        }) {}
  ~Watchdog() {
    done_.store(true);
    thread_.join();
  }

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

TEST(ThreadPool, RunsEachJobOnceOnEveryHelperAndParksAfterwards) {
  ThreadPool pool(4);
  ASSERT_EQ(pool.size(), 4);
  std::vector<std::atomic<int>> calls(4);
  for (int round = 1; round <= 50; ++round) {
    pool.run([&](int id) { calls[std::size_t(id)].fetch_add(1); });
    pool.wait_parked();
    for (int id = 1; id < 4; ++id) {
      EXPECT_EQ(calls[std::size_t(id)].load(), round) << "helper " << id;
      EXPECT_EQ(pool.state(id), ThreadState::Parked);
    }
  }
  EXPECT_EQ(calls[0].load(), 0);  // thread 0 is the caller's, never a helper
}

TEST(ThreadPool, StatesAreRunningWhileTheJobRuns) {
  ThreadPool pool(3);
  std::atomic<int> inside{0};
  std::atomic<bool> release{false};
  pool.run([&](int) {
    inside.fetch_add(1);
    while (!release.load()) std::this_thread::yield();
  });
  while (inside.load() < 2) std::this_thread::yield();
  EXPECT_EQ(pool.state(1), ThreadState::Running);
  EXPECT_EQ(pool.state(2), ThreadState::Running);
  release.store(true);
  pool.wait_parked();
  EXPECT_EQ(pool.state(1), ThreadState::Parked);
}

TEST(ThreadPool, AJobsExceptionReachesWaitAndThePoolStaysUsable) {
  ThreadPool pool(3);
  pool.run([](int id) {
    if (id == 2) throw std::runtime_error("helper 2 failed");
  });
  EXPECT_THROW(pool.wait_parked(), std::runtime_error);
  std::atomic<int> ran{0};
  pool.run([&](int) { ran.fetch_add(1); });
  EXPECT_NO_THROW(pool.wait_parked());
  EXPECT_EQ(ran.load(), 2);
}

TEST(ThreadPool, OneThreadHasNoHelpers) {
  ThreadPool pool(1);
  EXPECT_EQ(pool.size(), 1);
  pool.run([](int) { FAIL() << "no helper should run"; });
  pool.wait_parked();
  EXPECT_THROW(ThreadPool(0), std::invalid_argument);
}

// Throws from the observer once `after` iterations have been reported.
class ThrowingObserver final : public Observer {
 public:
  explicit ThrowingObserver(int after) : after_(after) {}
  void on_iteration(const SearchResult&) override {
    if (++seen_ >= after_) throw std::runtime_error("observer gave up");
  }

 private:
  int after_;
  int seen_ = 0;
};

// Whether a short search's counters can show the threads sharing the work:
// not for the backends whose threads meet only in the table (busy marks or
// none), which in a search this short they do only if the scheduler runs them
// at once; their parallel work is asserted in shared_table_test.cpp,
// abdada_test.cpp (StressAbdada) and abdada_lockstep_test.cpp (a
// load-independent schedule).
bool short_search_shows_sharing(Sharing s) {
  return s == Sharing::Splits || s == Sharing::Root || s == Sharing::Leaves;
}

class BackendThrow : public ::testing::TestWithParam<std::string> {};

TEST_P(BackendThrow, ObserverThrowIsRethrownAndTheBackendStaysUsable) {
  int cases = 0;
  for (int threads : {1, 2, 3}) {
    BackendConfig c;
    c.threads = threads;
    c.set("min_split_depth", 2);
    const Watchdog dog("throwing search", std::chrono::seconds(60));
    auto b = make_backend(GetParam(), c);
    SearchOptions o;
    o.limits.depth = 5;
    for (int after : {1, 3}) {
      ThrowingObserver thrower(after);
      EXPECT_THROW(b->search(Position(), o, thrower), std::runtime_error);
      const Sharing sharing = find_backend(GetParam()).sharing;
      const bool check_sharing = b->config().threads > 1 && short_search_shows_sharing(sharing);
      // A helper that the OS does not run during a search this short (a
      // loaded machine) cannot take part: a few more searches give it the
      // chance, each of them held to the same depth and no stop.
      Observer quiet;
      bool shared = false;
      for (int attempt = 0; attempt < 5 && !shared; ++attempt) {
        const SearchResult r = b->search(Position(), o, quiet);
        EXPECT_EQ(r.depth, 5) << GetParam() << " threads " << threads;
        EXPECT_FALSE(r.stopped);
        shared = !check_sharing || shows_sharing(sharing, r.stats);
      }
      EXPECT_TRUE(shared) << GetParam() << " threads " << threads
                          << ": no sign of shared work in five searches";
      ++cases;
    }
    const Clock::time_point t0 = Clock::now();
    b.reset();
    // Bounded by the watchdog; the figure is for the log, not a speed test.
    std::printf("[ destroy  ] %s threads %d: %.2f ms\n", GetParam().c_str(), threads,
                std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  EXPECT_EQ(cases, 6);
}

std::vector<std::string> backend_names() {
  std::vector<std::string> out;
  for (const BackendInfo& b : backends()) out.emplace_back(b.name);
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, BackendThrow, ::testing::ValuesIn(backend_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string name = p.param;  // letters, digits and '_' only
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A split point whose owner's child search throws while a helper works in it:
// the helper must leave before the exception leaves split(), and the pool
// must go on splitting afterwards.
std::atomic<int> g_helper_moves{0};

Value throw_when_helped(const void*, Worker& w, Move, int, Value, const SplitContext&) {
  if (w.id != 0) {
    g_helper_moves.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return 0;
  }
  const Clock::time_point end = Clock::now() + std::chrono::seconds(5);
  while (g_helper_moves.load() == 0 && Clock::now() < end) std::this_thread::yield();
  throw std::runtime_error("owner's child search failed");
}

Value quiet_move(const void*, Worker&, Move, int, Value, const SplitContext&) { return 0; }

TEST(YbwcPool, OwnerThatThrowsEmptiesItsSplitPointFirst) {
  const Watchdog dog("split point with a throwing owner", std::chrono::seconds(60));
  BackendConfig c;
  c.threads = 2;
  ybwc::Pool pool(c);
  SearchShared shared;
  const Position start;
  pool.begin_search(start, shared);
  ybwc::Thread& t = pool.thread(0);
  const auto split = [&](ybwc::SearchMoveFn fn) {
    MovePicker picker(t.pos, t, Features{}, Move::none(), 0);
    SplitContext ctx;
    ctx.depth = 8;
    ctx.alpha = -100;
    ctx.beta = 100;
    ctx.picker = &picker;
    ctx.moves_searched = 1;
    pool.split(t, ctx, fn, nullptr);
    return ctx.moves_searched;
  };
  g_helper_moves.store(0);
  EXPECT_THROW(split(throw_when_helped), std::runtime_error);
  EXPECT_GT(g_helper_moves.load(), 0) << "the helper never joined: nothing was tested";
  EXPECT_EQ(t.split_count.load(), 0);
  EXPECT_EQ(t.active, nullptr);
  EXPECT_GT(split(quiet_move), 1);  // 44 moves at the start, minus the eldest
  pool.end_search();
  EXPECT_GE(pool.thread(1).stats.joins, 1u);
}

// A backend that claims more threads than its table was configured for.
template <class Table>
class OverSubscribed final : public BackendBase<Table> {
 public:
  explicit OverSubscribed(const BackendConfig& c) : BackendBase<Table>(c) {
    this->require_thread_slots(c.threads + 1);
  }
  std::string_view name() const override { return "oversubscribed"; }
  void clear() override {}

 protected:
  void begin_search(const Position&, SearchShared&) override {}
  SearchResult run_search(SearchShared&, Observer&) override { return {}; }
  SearchStats thread_stats() const override { return {}; }
};

TEST(TableLimits, ThreadsBeyondTheTablesSlotsAreRejectedAtConfiguration) {
  BackendConfig c;
  c.threads = 2;
  int rejected = 0;
  for (std::string_view scheme : kSchemeNames) {
    c.hash = std::string(scheme);
    visit_scheme(scheme, [&](auto tag) {
      using Table = typename decltype(tag)::type;
      try {
        OverSubscribed<Table> b(c);
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("3 threads but its table has 2"), std::string::npos)
            << e.what();
        ++rejected;
      }
    });
  }
  EXPECT_EQ(rejected, int(kSchemeNames.size()));
}

TEST(TableLimits, TableLargerThanPhysicalMemoryIsRefusedBeforeAllocation) {
  const PhysicalMemory m = physical_memory();
  ASSERT_GT(m.pages, 0u);
  const std::size_t mib = (m.bytes() >> 20) + 1;
  if (mib > kMaxTableMiB) GTEST_SKIP() << "physical memory exceeds the table size cap";
  int refused = 0, pairs = 0;
  for (const BackendInfo& info : backends())
    for (std::string_view scheme : kSchemeNames) {
      if (!info.supports(scheme)) continue;  // refused for that reason first
      ++pairs;
      BackendConfig c;
      c.hash = std::string(scheme);
      c.threads = 2;
      c.hash_mib = mib;
      try {
        (void)make_backend(info.name, c);
        ADD_FAILURE() << info.name << "/" << scheme << " accepted " << mib << " MiB";
      } catch (const std::invalid_argument& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(std::to_string(mib) + " MiB exceeds physical memory of " +
                           std::to_string(m.bytes() >> 20) + " MiB"),
                  std::string::npos)
            << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos);
        ++refused;
      }
    }
  EXPECT_EQ(refused, pairs);
  EXPECT_GE(pairs, int(kSchemeNames.size()) * 3);
}

}  // namespace
}  // namespace xq
