// Concurrent stress: every safe scheme accepts no corrupt entry, and the
// stress harness can catch the unprotected scheme accepting one. Suite names
// contain "Stress" (ctest label `stress`; CI also runs them under TSan). Each
// run is bounded in time: XQLAB_STRESS_SECONDS (default 0.25) per safe scheme,
// and up to 10x that (at least 3 s) hunting for corruption in the unprotected one.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

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
    const StressResult res = run_stress<TypeParam>(c);
    EXPECT_GT(res.ops, 0u);
    EXPECT_GT(res.hits, 0u);
    EXPECT_EQ(res.corrupt_accepted, 0u)
        << TypeParam::kName << ": " << res.corrupt_accepted << " corrupt in " << res.ops << " ops";
  }
}

TYPED_TEST(HashStress, AcceptsNoCorruptEntryOversubscribed) {
  StressConfig c;
  c.threads = 4;
  c.entries = 16;
  c.seconds = stress_seconds() / 2;
  c.replacement = Replacement::DepthPreferred;
  const StressResult res = run_stress<TypeParam>(c);
  EXPECT_GT(res.ops, 0u);
  EXPECT_EQ(res.corrupt_accepted, 0u) << TypeParam::kName;
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

// The unprotected scheme must be *shown* to let corruption through: run until
// the first corrupt entry is accepted, within a time bound. Tearing needs two
// threads really running at once and the tiny window between a writer's two
// stores, so a machine (or sanitizer build) may never show it; then the test
// is skipped with that reason rather than passed.
TEST(HashStressUnprotected, StressToolCatchesCorruption) {
  const double budget = std::max(3.0, 10 * stress_seconds());
  StressConfig c;
  c.threads = 2;
  c.entries = 16;  // four buckets: both threads fight over the same cache lines
  c.seconds = 0.1;
  double spent = 0;
  std::uint64_t ops = 0, corrupt = 0;
  while (spent < budget && corrupt == 0) {
    c.seed += 1;
    const StressResult r = run_stress<UnprotectedTable>(c);
    spent += r.seconds;
    ops += r.ops;
    corrupt += r.corrupt_accepted;
    EXPECT_EQ(r.torn_detected, 0u);  // it detects nothing by construction
  }
  if (corrupt == 0)
    GTEST_SKIP() << "no torn entry observed in " << ops << " operations (" << spent
                 << " s at 2 threads); this machine or build never interleaved a writer's two "
                    "stores with a reader";
  RecordProperty("ops_until_corruption", std::to_string(ops));
  EXPECT_GT(corrupt, 0u);
}

}  // namespace
}  // namespace xq::testing
