// The split family's one time-accounting rule (parallel/split/timing.h),
// proved with an injected clock: every read of it advances a global counter
// by one whole second, so every booked duration is an integer number of
// seconds, exact in a double. For every backend that splits, every thread's
// search + idle + lock + copy must then equal its span exactly (summed over
// threads: any part counted twice, or a gap, shows as a whole second), no
// thread's span may exceed the search's length, and the parts a split search
// must have (search, idle, copy) are not zero.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "parallel/backend.h"
#include "parallel/split/timing.h"
#include "tests/parallel/exact_grid.h"

namespace xq {
namespace {

std::atomic<std::int64_t> g_ticks{0};

split_timing::Clock::time_point tick() {
  return split_timing::Clock::time_point(std::chrono::seconds(g_ticks.fetch_add(1) + 1));
}

// Installs the ticking clock for the test's lifetime.
struct TickingClock {
  TickingClock() { split_timing::set_clock(&tick); }
  ~TickingClock() { split_timing::set_clock(nullptr); }
};

struct Booked {
  int searches = 0;
  std::uint64_t splits = 0;
  double search = 0, idle = 0, lock = 0, copy = 0, span = 0;
};

Booked run(const std::string& backend, int threads, const std::vector<Position>& ps) {
  BackendConfig c;
  c.threads = threads;
  c.hash_mib = 2;
  c.set("min_split_depth", 2);
  auto b = make_backend(backend, c);
  Observer quiet;
  Booked out;
  for (const Position& p : ps) {
    const std::int64_t before = g_ticks.load();
    const SearchResult r = b->search(p, test::exact_options(4), quiet);
    const double length = double(g_ticks.load() - before);
    const SearchStats& s = r.stats;
    const double parts = s.search_seconds + s.idle_seconds + s.lock_seconds + s.copy_seconds;
    EXPECT_EQ(parts, double(s.span_seconds))
        << backend << " threads " << threads << ": parts do not add up to the spans, " << p.fen();
    EXPECT_LE(double(s.span_seconds), threads * length)
        << backend << " threads " << threads << ": a span longer than the search, " << p.fen();
    EXPECT_GT(double(s.span_seconds), 0.0) << backend;
    out.searches += 1;
    out.splits += s.splits;
    out.search += s.search_seconds;
    out.idle += s.idle_seconds;
    out.lock += s.lock_seconds;
    out.copy += s.copy_seconds;
    out.span += s.span_seconds;
  }
  return out;
}

TEST(SplitTiming, PartsAddUpToTheSpanOfEveryThreadWithAnInjectedClock) {
  const TickingClock clock;
  const std::vector<Position> ps = test::contract_positions(2);
  int backends = 0;
  for (const std::string& name : test::time_booking_backends(false)) {
    for (int threads : {2, 3}) {
      const Booked b = run(name, threads, ps);
      EXPECT_EQ(b.searches, int(ps.size()));
      EXPECT_GT(b.splits, 0u) << name << " threads " << threads << ": nothing split";
      EXPECT_GT(b.search, 0.0) << name;
      EXPECT_GT(b.idle, 0.0) << name << ": helpers are idle until their first join";
      EXPECT_GT(b.copy, 0.0) << name << ": splits copy positions";
      EXPECT_EQ(b.search + b.idle + b.lock + b.copy, b.span) << name;
    }
    ++backends;
  }
  EXPECT_EQ(backends, int(test::time_booking_backends(false).size()));
  EXPECT_GE(backends, 3);
}

// A backend that does not split keeps no ledger: nothing is booked at all,
// rather than parts that do not add up.
TEST(SplitTiming, SerialBooksNothing) {
  const TickingClock clock;
  auto b = make_backend("serial", BackendConfig{});
  Observer quiet;
  const SearchResult r = b->search(Position(), test::exact_options(4), quiet);
  EXPECT_EQ(double(r.stats.span_seconds), 0.0);
  EXPECT_EQ(double(r.stats.idle_seconds), 0.0);
}

}  // namespace
}  // namespace xq
