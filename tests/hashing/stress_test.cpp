// Concurrent stress: every safe scheme accepts no corrupt entry while threads
// really race, the lockless schemes (xor, sandwich) are shown to see and
// reject torn entries, and the unprotected scheme is shown to accept corrupt
// ones. A harness that never raced cannot pass: each run counts the
// operations during which another thread was inside the table too
// (overlapping operations) and the tests require them, and the torn and
// corrupt counts are required to be positive. Runs repeat in short slices
// until what they must show has shown, within a time bound (XQLAB_STRESS_SECONDS,
// default 0.25 s per safe-scheme run; at least 10 s hunting for torn entries),
// so a loaded machine or a sanitizer build takes longer rather than failing.
// Suite names contain "Stress" (ctest label `stress`; CI runs them under TSan).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>

#include "tests/hashing/scheme_types.h"

namespace xq::testing {
namespace {

double stress_seconds() {
  if (const char* env = std::getenv("XQLAB_STRESS_SECONDS")) {
    const double s = std::atof(env);
    if (s > 0) return s;
  }
  return 0.25;
}

double hunt_budget() { return std::max(10.0, 40 * stress_seconds()); }

// A table that records, per thread, how many of its operations began while
// another thread was inside the table: a positive total proves the run
// raced. Own-thread flags and relaxed atomics keep it cheap and add no
// synchronisation that could hide a race from ThreadSanitizer.
template <class Table>
class Watched : public Table {
 public:
  static constexpr int kThreads = 8;
  bool probe(Key key, TTData& out, int tid) {
    enter(tid);
    const bool hit = Table::probe(key, out, tid);
    leave(tid);
    return hit;
  }
  void store(Key key, const TTData& d, int tid) {
    enter(tid);
    Table::store(key, d, tid);
    leave(tid);
  }
  static void reset() {
    for (Slot& s : slots_) {
      s.inside.store(false, std::memory_order_relaxed);
      s.overlapping.store(0, std::memory_order_relaxed);
    }
  }
  static std::uint64_t overlapping() {
    std::uint64_t sum = 0;
    for (const Slot& s : slots_) sum += s.overlapping.load(std::memory_order_relaxed);
    return sum;
  }

 private:
  struct alignas(kCacheLine) Slot {
    std::atomic<bool> inside{false};
    std::atomic<std::uint64_t> overlapping{0};
  };
  static void enter(int tid) {
    Slot& me = slots_[std::size_t(tid)];
    me.inside.store(true, std::memory_order_relaxed);
    for (int t = 0; t < kThreads; ++t) {
      if (t != tid && slots_[std::size_t(t)].inside.load(std::memory_order_relaxed)) {
        me.overlapping.store(me.overlapping.load(std::memory_order_relaxed) + 1,
                             std::memory_order_relaxed);
        return;
      }
    }
  }
  static void leave(int tid) { slots_[std::size_t(tid)].inside.store(false, std::memory_order_relaxed); }
  inline static std::array<Slot, kThreads> slots_{};
};

struct Raced {
  StressResult total;
  std::uint64_t overlapping = 0;
  int runs = 0;
};

// Runs `c` (reseeded each time) until `done(sum so far)` or `budget` seconds.
template <class Table, class Done>
Raced race_until(StressConfig c, double budget, Done done) {
  EXPECT_LE(c.threads, Watched<Table>::kThreads);
  Raced r;
  Watched<Table>::reset();
  while (r.runs == 0 || (!done(r) && r.total.seconds < budget)) {
    c.seed += 1;
    const StressResult s = run_stress<Watched<Table>>(c);
    r.total.ops += s.ops;
    r.total.probes += s.probes;
    r.total.stores += s.stores;
    r.total.hits += s.hits;
    r.total.torn_detected += s.torn_detected;
    r.total.corrupt_accepted += s.corrupt_accepted;
    r.total.seconds += s.seconds;
    r.overlapping = Watched<Table>::overlapping();
    ++r.runs;
  }
  return r;
}

// Racing needs two threads running at once; one hardware thread cannot.
bool can_race() { return std::thread::hardware_concurrency() >= 2; }

auto overlapped = [](const Raced& r) { return r.overlapping > 0; };

template <class Table>
class HashStress : public ::testing::Test {};
TYPED_TEST_SUITE(HashStress, SafeSchemes, SchemeName);

TYPED_TEST(HashStress, AcceptsNoCorruptEntryAtTwoThreads) {
  for (Replacement r : {Replacement::AlwaysReplace, Replacement::TwoTier}) {
    StressConfig c;
    c.threads = 2;
    c.entries = 64;
    c.seconds = stress_seconds() / 2;
    c.replacement = r;
    const Raced res = race_until<TypeParam>(c, hunt_budget(), overlapped);
    EXPECT_GT(res.total.ops, 0u);
    EXPECT_GT(res.total.hits, 0u);
    if (can_race()) {
      EXPECT_GT(res.overlapping, 0u) << "the threads never overlapped: nothing was tested";
    }
    EXPECT_EQ(res.total.corrupt_accepted, 0u)
        << TypeParam::kName << ": " << res.total.corrupt_accepted << " corrupt in "
        << res.total.ops << " ops (" << res.overlapping << " overlapping)";
  }
}

TYPED_TEST(HashStress, AcceptsNoCorruptEntryOversubscribed) {
  StressConfig c;
  c.threads = 4;
  c.entries = 16;
  c.seconds = stress_seconds() / 2;
  c.replacement = Replacement::DepthPreferred;
  const Raced res = race_until<TypeParam>(c, hunt_budget(), overlapped);
  EXPECT_GT(res.total.ops, 0u);
  if (can_race()) {
    EXPECT_GT(res.overlapping, 0u) << "the threads never overlapped: nothing was tested";
  }
  EXPECT_EQ(res.total.corrupt_accepted, 0u) << TypeParam::kName;
}

TYPED_TEST(HashStress, CountersMatchTheOperations) {
  StressConfig c;
  c.threads = 2;
  c.max_ops = 1 << 16;
  c.seconds = 60;
  const StressResult res = run_stress<TypeParam>(c);
  EXPECT_EQ(res.ops, res.probes + res.stores);
  EXPECT_EQ(res.ops, std::uint64_t{1} << 16);
  EXPECT_LE(res.hits, res.probes);
}

// The lockless schemes must be shown to meet torn entries and reject them:
// with 2 threads on four buckets a reader meets a writer between its stores
// within well under a second of racing on an idle 2-core machine.
template <class Table>
class HashStressLockless : public ::testing::Test {};
using TornSchemes = ::testing::Types<XorTable, SandwichTable>;
TYPED_TEST_SUITE(HashStressLockless, TornSchemes, SchemeName);

TYPED_TEST(HashStressLockless, SeesAndRejectsTornEntries) {
  if (!can_race()) GTEST_SKIP() << "one hardware thread: two threads never run at once";
  StressConfig c;
  c.threads = 2;
  c.entries = 16;
  c.seconds = 0.1;
  const Raced r = race_until<TypeParam>(
      c, hunt_budget(), [](const Raced& s) { return s.total.torn_detected > 0; });
  this->RecordProperty("ops_until_torn", std::to_string(r.total.ops));
  EXPECT_GT(r.overlapping, 0u);
  EXPECT_GT(r.total.torn_detected, 0u)
      << TypeParam::kName << " saw no torn entry in " << r.total.ops << " ops ("
      << r.overlapping << " overlapping, " << r.total.seconds << " s)";
  EXPECT_EQ(r.total.corrupt_accepted, 0u) << TypeParam::kName;
}

// The unprotected scheme must be *shown* to let corruption through.
TEST(HashStressUnprotected, StressToolCatchesCorruption) {
  if (!can_race()) GTEST_SKIP() << "one hardware thread: two threads never run at once";
  StressConfig c;
  c.threads = 2;
  c.entries = 16;  // four buckets: both threads fight over the same cache lines
  c.seconds = 0.1;
  const Raced r = race_until<UnprotectedTable>(
      c, hunt_budget(), [](const Raced& s) { return s.total.corrupt_accepted > 0; });
  RecordProperty("ops_until_corruption", std::to_string(r.total.ops));
  EXPECT_GT(r.overlapping, 0u);
  // torn_detected is not asserted: the scheme flags nothing (UnprotectedLayout
  // test in schemes_test.cpp), but the bucket array's foreign-key count, common
  // to every scheme, can see a reader's key 0 beside a writer's new data.
  EXPECT_GT(r.total.corrupt_accepted, 0u)
      << "no corrupt entry accepted in " << r.total.ops << " ops (" << r.overlapping
      << " overlapping, " << r.total.seconds << " s)";
}

}  // namespace
}  // namespace xq::testing
