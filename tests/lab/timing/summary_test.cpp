// The lab's summary over synthetic runs whose figures are known: the ratio of
// median sums, the paired per-run speedups beside it, and the busy-mark counts.
#include <gtest/gtest.h>

#include <vector>

#include "lab/timing/summary.h"

namespace xq::lab::timing {
namespace {

// Two configurations (serial reference, abdada at 2 threads), 3 runs of 2
// positions. Run k's times are given per configuration and position.
struct Synthetic {
  LabSettings settings;
  std::vector<LabRun> runs;

  Synthetic() {
    settings.runs = 3;
    settings.configs = {{"serial", "xor", 1, {}}, {"abdada", "xor", 2, {}}};
  }
  void add(int config, int run, int position, double seconds, std::uint64_t deferrals = 0,
           std::uint64_t leaks = 0) {
    LabRun r;
    r.config = config;
    r.run = run;
    r.position = position;
    r.seconds = seconds;
    r.cpu_seconds = seconds * settings.configs[std::size_t(config)].threads;
    r.result.stats.nodes = 1000;
    r.result.stats.deferrals = deferrals;
    r.result.stats.busy_answers = deferrals;
    r.result.stats.mark_leaks = leaks;
    runs.push_back(r);
  }
};

TEST(LabSummary, PairedSpeedupsAreTakenRunByRun) {
  Synthetic s;
  // The machine slows down in run 3: serial 10 / 10 / 20 s (two positions of
  // half each), abdada 5 / 6 / 10 s. Medians: 10 / 6, so S = 1.667; the runs
  // pair as 2.0, 1.667, 2.0, so the paired median is 2.0.
  const double serial[] = {10, 10, 20}, abdada[] = {5, 6, 10};
  for (int k = 0; k < 3; ++k)
    for (int p = 0; p < 2; ++p) {
      s.add(0, k, p, serial[k] / 2);
      s.add(1, k, p, abdada[k] / 2, /*deferrals=*/std::uint64_t(10 * (k + 1)), /*leaks=*/0);
    }
  const std::vector<LabSummary> out = summarise(s.settings, 2, s.runs);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[1].speedup, 10.0 / 6.0, 1e-12);
  ASSERT_EQ(out[1].run_speedups.size(), 3u);
  EXPECT_NEAR(out[1].run_speedups[0], 2.0, 1e-12);
  EXPECT_NEAR(out[1].run_speedups[1], 10.0 / 6.0, 1e-12);
  EXPECT_NEAR(out[1].run_speedups[2], 2.0, 1e-12);
  EXPECT_NEAR(out[1].paired_median, 2.0, 1e-12);
  EXPECT_NEAR(out[1].paired_min, 10.0 / 6.0, 1e-12);
  EXPECT_NEAR(out[1].paired_max, 2.0, 1e-12);
  // The reference pairs with itself.
  EXPECT_NEAR(out[0].paired_median, 1.0, 1e-12);
  // Deferrals per run summed over positions: 20, 40, 60; median 40.
  EXPECT_DOUBLE_EQ(out[1].deferrals, 40.0);
  EXPECT_DOUBLE_EQ(out[1].busy_answers, 40.0);
  EXPECT_DOUBLE_EQ(out[1].mark_leaks, 0.0);
  EXPECT_TRUE(out[1].coordinates());
  EXPECT_FALSE(out[0].coordinates());
}

TEST(LabSummary, NoReferenceMeansNoPairedSpeedup) {
  Synthetic s;
  s.settings.configs = {{"abdada", "xor", 2, {}}};
  for (int k = 0; k < 3; ++k) s.add(0, k, 0, 1.0 + k, 0, /*leaks=*/std::uint64_t(k));
  const std::vector<LabSummary> out = summarise(s.settings, 1, s.runs);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].run_speedups.empty());
  EXPECT_DOUBLE_EQ(out[0].paired_median, 0.0);
  EXPECT_DOUBLE_EQ(out[0].mark_leaks, 1.0);  // median of 0, 1, 2
}

// Abort latency: cutoffs and the time from each cutoff to the end of its
// cancelled group's wait, summed over positions, median over runs.
TEST(LabSummary, AbortLatencyIsTheMedianWaitOverTheMedianCutoffs) {
  Synthetic s;
  s.settings.configs = {{"jamboree", "xor", 2, {}}, {"ybwc", "xor", 2, {}}};
  // Run k: two positions with 10 (k + 1) cutoffs and 0.001 (k + 1) s of
  // waiting each: sums 20, 40, 60 cutoffs and 0.002, 0.004, 0.006 s.
  int added = 0;
  for (int k = 0; k < 3; ++k)
    for (int p = 0; p < 2; ++p) {
      s.add(0, k, p, 1.0);
      s.runs.back().result.stats.aborts = std::uint64_t(10 * (k + 1));
      s.runs.back().result.stats.cancel_wait_seconds += 0.001 * (k + 1);
      s.add(1, k, p, 1.0);  // aborts but no timed wait: no latency
      s.runs.back().result.stats.aborts = 5;
      added += 2;
    }
  ASSERT_EQ(added, 12);
  const std::vector<LabSummary> out = summarise(s.settings, 2, s.runs);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_DOUBLE_EQ(out[0].aborts, 40.0);
  EXPECT_NEAR(out[0].cancel_wait_seconds, 0.004, 1e-12);
  ASSERT_TRUE(out[0].has_abort_latency());
  EXPECT_NEAR(out[0].abort_latency_seconds(), 0.0001, 1e-12);
  EXPECT_FALSE(out[1].has_abort_latency());
  EXPECT_DOUBLE_EQ(out[1].abort_latency_seconds(), 0.0);
}

// PV-splitting's schedule bound: the reference's nodes over the bound's
// median over runs (each run's bounds summed over positions).
TEST(LabSummary, BoundSpeedupIsReferenceNodesOverTheMedianBound) {
  Synthetic s;
  s.settings.configs = {{"serial", "xor", 1, {}}, {"pvsplit", "xor", 2, {}}};
  int added = 0;
  for (int k = 0; k < 3; ++k)
    for (int p = 0; p < 2; ++p) {
      s.add(0, k, p, 1.0);  // 1000 nodes a position
      s.add(1, k, p, 0.6);
      s.runs.back().result.stats.critical_path = 400;
      s.runs.back().result.stats.schedule_bound = std::uint64_t(500 + 100 * k);
      added += 2;
    }
  ASSERT_EQ(added, 12);
  const std::vector<LabSummary> out = summarise(s.settings, 2, s.runs);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_DOUBLE_EQ(out[1].schedule_bound, 1200.0);  // median of 1000, 1200, 1400
  EXPECT_NEAR(out[1].bound_speedup, 2000.0 / 1200.0, 1e-12);
  EXPECT_DOUBLE_EQ(out[0].bound_speedup, 0.0);  // the serial reference reports no bound
}

}  // namespace
}  // namespace xq::lab::timing
