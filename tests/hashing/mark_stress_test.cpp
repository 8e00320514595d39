// The busy-mark mode of the stress harness (run_mark_stress): claims and
// releases of searcher counts from several threads, compared with the truth
// (every count 0 once every thread has left what it entered). One thread
// loses nothing on any scheme; the schemes with exact counts (locked, or
// atomic16's compare-and-swap) lose nothing at 2-4 threads while the threads
// really contend for the same marks (exclusive claims answered busy prove
// it); the other lockless figures are printed, not asserted.
// Suite names with "Stress" carry the ctest label `stress` (also run under
// ThreadSanitizer in CI), so their op counts are bounded.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include "tests/hashing/scheme_types.h"

namespace xq::testing {
namespace {

template <class T>
struct Counts : std::bool_constant<T::kCountsSearchers> {};
// Counts changed under a lock or by compare-and-swap (spinlock, mutex,
// tbbspin, atomic16): nothing may be lost.
template <class T>
struct ExactCounts : std::bool_constant<T::kExactSearcherCounts> {};
// Counts rewritten without either (xor, sandwich, unprotected): losses are measured.
template <class T>
struct HintCounts : std::bool_constant<T::kCountsSearchers && !T::kExactSearcherCounts> {};
using CountingSchemes = SchemesWhere<Counts>;
using ExactSchemes = SchemesWhere<ExactCounts>;
using MarkLocklessSchemes = SchemesWhere<HintCounts>;

StressConfig marks_config(int threads, std::uint64_t ops, std::size_t entries) {
  StressConfig c;
  c.threads = threads;
  c.max_ops = ops;
  c.entries = entries;
  c.seconds = 60;  // the op count ends the run
  return c;
}

template <class Table>
class MarkStressOneThread : public ::testing::Test {};
TYPED_TEST_SUITE(MarkStressOneThread, CountingSchemes, SchemeName);

TYPED_TEST(MarkStressOneThread, LosesNothingAndMeetsTheOpCount) {
  for (const std::uint64_t ops : {1ull, 2ull, 1001ull, 20000ull}) {
    const MarkStressResult r = run_mark_stress<TypeParam>(marks_config(1, ops, 64));
    // An odd quota may end with one enter whose leave is one op more.
    EXPECT_GE(r.ops, ops);
    EXPECT_LE(r.ops, ops + 1);
    EXPECT_EQ(r.lost_updates(), 0u) << ops;
    EXPECT_EQ(r.underflows, 0u);
    EXPECT_EQ(r.leaks, 0u);
    EXPECT_EQ(r.busy, 0u) << "a thread never holds a key twice, so never finds its own mark";
    if (ops >= 2) {
      EXPECT_GT(r.enters, 0u);
    }
    EXPECT_GE(r.entries, 64u);
  }
}

TEST(MarkStress, RefusesATableWithoutCountsAndATooSmallTable) {
  EXPECT_THROW(run_mark_stress<PerThreadTable>(marks_config(2, 100, 64)), std::invalid_argument);
  // Two teams (4 threads) of at least 8 keys each need 16 entries.
  EXPECT_THROW(run_mark_stress<XorTable>(marks_config(4, 100, 8)), std::invalid_argument);
  EXPECT_NO_THROW(run_mark_stress<XorTable>(marks_config(4, 100, 16)));
}

template <class Table>
class StressMarksExact : public ::testing::Test {};
TYPED_TEST_SUITE(StressMarksExact, ExactSchemes, SchemeName);

// Runs repeat (every one must lose nothing) until the threads have met on a
// mark, within 10 s: a loaded machine may run one thread's whole quota
// before the other starts, which would test nothing.
TYPED_TEST(StressMarksExact, LoseNoUpdateWhileThreadsContend) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one hardware thread";
  for (const int threads : {2, 3, 4}) {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t busy = 0;
    int runs = 0;
    while (busy == 0 && std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
      // 16 entries: one or two teams of threads on 8-16 keys, so marks collide.
      const MarkStressResult r = run_mark_stress<TypeParam>(marks_config(threads, 200000, 16));
      ++runs;
      EXPECT_GE(r.ops, 200000u);
      EXPECT_EQ(r.lost_updates(), 0u) << threads << " threads";
      EXPECT_EQ(r.underflows, 0u);
      EXPECT_EQ(r.leaks, 0u);
      busy += r.busy;
    }
    EXPECT_GT(busy, 0u) << threads << " threads never met on a mark in " << runs
                        << " runs: nothing was tested";
  }
}

template <class Table>
class StressMarksLockless : public ::testing::Test {};
TYPED_TEST_SUITE(StressMarksLockless, MarkLocklessSchemes, SchemeName);

// What a race does to the lockless marks is measured, not asserted; the
// accounting still has to be consistent with the table.
TYPED_TEST(StressMarksLockless, ReportsWhatItLost) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one hardware thread";
  const MarkStressResult r = run_mark_stress<TypeParam>(marks_config(2, 200000, 16));
  EXPECT_GE(r.ops, 200000u);
  EXPECT_LE(r.leaks, r.residual);  // every leaking entry holds at least one count
  EXPECT_EQ(r.lost_updates(), r.underflows + r.residual);
  std::printf("[ marks    ] %-11s 2 threads: %llu ops, %llu lost (%.1f per 1e8), %llu "
              "underflows, %llu leaks\n",
              std::string(TypeParam::kName).c_str(), static_cast<unsigned long long>(r.ops),
              static_cast<unsigned long long>(r.lost_updates()), r.lost_per_1e8(),
              static_cast<unsigned long long>(r.underflows),
              static_cast<unsigned long long>(r.leaks));
}

}  // namespace
}  // namespace xq::testing
