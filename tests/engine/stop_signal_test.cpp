// SearchOptions::stop_signal, the mechanism behind the engine's sticky stop,
// exercised directly on every registered backend: a signal already set when
// the search starts ends it before its first iteration, and one set during an
// unlimited search ends it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "board/movegen.h"
#include "parallel/backend.h"
#include "tests/engine/engine_util.h"

namespace xq {
namespace {

constexpr int kThreads = 2;

BackendConfig config_for(const BackendInfo& b) {
  BackendConfig c;
  c.threads = kThreads;
  c.hash_mib = 4;
  c.hash = std::string(b.default_hash);
  c.set("min_split_depth", 2);
  return c;
}

TEST(EngineStopSignal, ASignalSetBeforeTheStartEndsEveryBackendAtOnce) {
  int ran = 0;
  for (const BackendInfo& b : backends()) {
    auto backend = make_backend(b.name, config_for(b));
    std::atomic<bool> flag{true};
    SearchOptions o;  // no limit: only the signal can end it
    o.stop_signal = &flag;
    Observer quiet;
    const SearchResult r = backend->search(Position(), o, quiet);
    EXPECT_EQ(r.depth, 0) << b.name;
    EXPECT_TRUE(r.stopped) << b.name;
    // At most one node batch (1024) per thread before the signal is seen.
    EXPECT_LE(r.stats.nodes, 1024u * kThreads) << b.name;
    ++ran;
  }
  EXPECT_EQ(ran, int(backends().size()));
  EXPECT_GE(ran, 3);
}

TEST(EngineStopSignal, ASignalSetDuringTheSearchEndsEveryBackend) {
  int ran = 0;
  for (const BackendInfo& b : backends()) {
    auto backend = make_backend(b.name, config_for(b));
    std::atomic<bool> flag{false};
    SearchOptions o;
    o.stop_signal = &flag;
    auto done = std::async(std::launch::async, [&] {
      Observer quiet;
      return backend->search(Position(), o, quiet);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    flag.store(true, std::memory_order_release);
    ASSERT_EQ(done.wait_for(test::kHangBound), std::future_status::ready) << b.name;
    const SearchResult r = done.get();
    EXPECT_TRUE(r.stopped) << b.name;
    EXPECT_TRUE(MoveList(Position()).contains(r.best_move)) << b.name;
    ++ran;
  }
  EXPECT_EQ(ran, int(backends().size()));
}

// The soft limit ends a search between iterations: the first iteration's
// report outlasts a 1 ms soft limit, so exactly one iteration runs, and the
// search is not reported as stopped (no hard limit cut an iteration short).
TEST(EngineStopSignal, ASoftLimitEndsTheSearchBetweenIterations) {
  struct SlowReport : Observer {
    void on_iteration(const SearchResult&) override {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      ++seen;
    }
    int seen = 0;
  };
  int ran = 0;
  for (const BackendInfo& b : backends()) {
    auto backend = make_backend(b.name, config_for(b));
    SearchOptions o;
    o.limits.soft_ms = 1;
    SlowReport report;
    const SearchResult r = backend->search(Position(), o, report);
    EXPECT_EQ(r.depth, 1) << b.name;
    EXPECT_EQ(report.seen, 1) << b.name;
    EXPECT_FALSE(r.stopped) << b.name;
    ++ran;
  }
  EXPECT_EQ(ran, int(backends().size()));
}

// Best-move stability (Features::stability, search/timeman.h) plays a forced
// move after the first iteration when the search runs on a clock's budget;
// without it, or on a fixed move time (soft == hard, spent whole), the same
// search goes on to its depth limit. Red's king on d0, checked along the
// bottom rank by a rook on a0, has one legal move (Kd1; e0 faces the black
// king and stays on the rook's rank).
TEST(EngineStopSignal, StabilityPlaysAForcedMoveAfterOneIteration) {
  Position forced;
  ASSERT_EQ(forced.set_fen("4k4/9/9/9/9/9/9/9/9/r2K5 w - - 0 1"), "");
  ASSERT_EQ(MoveList(forced).size, 1);
  struct Case {
    bool stability;
    std::int64_t soft, hard;
    Depth expected;
  };
  const Case cases[] = {{true, 60000, 120000, 1},
                        {false, 60000, 120000, 6},
                        {true, 120000, 120000, 6}};
  int ran = 0;
  for (const BackendInfo& b : backends()) {
    for (const Case& c : cases) {
      auto backend = make_backend(b.name, config_for(b));
      SearchOptions o;
      o.features.stability = c.stability;
      o.limits.depth = 6;
      o.limits.soft_ms = c.soft;
      o.limits.movetime_ms = c.hard;
      Observer quiet;
      const SearchResult r = backend->search(forced, o, quiet);
      EXPECT_EQ(r.depth, c.expected) << b.name << " stability " << c.stability << " soft "
                                     << c.soft << " hard " << c.hard;
      EXPECT_EQ(r.best_move, MoveList(forced).moves[0]) << b.name;
      ++ran;
    }
  }
  EXPECT_EQ(ran, 3 * int(backends().size()));
}

}  // namespace
}  // namespace xq
