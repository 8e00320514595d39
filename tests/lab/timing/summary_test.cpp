// The lab's summary over synthetic runs whose figures are known: the ratio of
// median sums, the paired per-run speedups beside it, and the busy-mark counts.
#include <gtest/gtest.h>

#include <vector>

#include "lab/timing/summary.h"
#include "parallel/work_span.h"
#include "search/coordination.h"

namespace xq::lab::timing {
namespace {

// Two configurations (serial reference, abdada at 2 threads), 3 runs of 2
// positions. Run k's times are given per configuration and position.
// Counters this test declares as a family would (search/counters.h): a
// time shown over the core's aborts (a mean latency), and a node count
// shown as the serial nodes over it (a bound on the speedup).
const DeclaredSeconds summary_test_wait{{
    .group = "summary test latency", .name = "summary_test_wait_seconds", .unit = "seconds",
    .show = Show::Ratio, .of = "aborts", .meaning = "time from a cutoff to the end of its wait"}};
const DeclaredCount summary_test_bound{{
    .group = "summary test bound", .name = "summary_test_bound", .unit = "nodes",
    .show = Show::SerialNodesOver, .meaning = "the least time any schedule could take"}};

// The declared counter of `row` named `name` (fails the test when absent).
const CounterFigure& figure(const LabSummary& row, const std::string& name) {
  for (const CounterFigure& f : row.counters)
    if (f.name == name) return f;
  ADD_FAILURE() << row.config.label() << " shows no counter " << name;
  static const CounterFigure none;
  return none;
}
bool shows(const LabSummary& row, const std::string& name) {
  for (const CounterFigure& f : row.counters)
    if (f.name == name) return true;
  return false;
}

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
    r.result.stats[coordination::deferrals] = deferrals;
    r.result.stats[coordination::busy_answers] = deferrals;
    r.result.stats[coordination::mark_leaks] = leaks;
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
  EXPECT_DOUBLE_EQ(figure(out[1], "deferrals").sum, 40.0);
  EXPECT_DOUBLE_EQ(figure(out[1], "busy_answers").sum, 40.0);
  // Shown per search: 40 over 2 positions.
  EXPECT_EQ(figure(out[1], "busy_answers").show, "per_search");
  EXPECT_DOUBLE_EQ(figure(out[1], "busy_answers").shown, 20.0);
  // A counter of a group the backend declares shows when zero; the serial
  // backend declares none and moved none.
  EXPECT_DOUBLE_EQ(figure(out[1], "mark_leaks").sum, 0.0);
  EXPECT_EQ(figure(out[1], "mark_leaks").group, "coordination");
  EXPECT_TRUE(out[0].counters.empty());
}

TEST(LabSummary, NoReferenceMeansNoPairedSpeedup) {
  Synthetic s;
  s.settings.configs = {{"abdada", "xor", 2, {}}};
  for (int k = 0; k < 3; ++k) s.add(0, k, 0, 1.0 + k, 0, /*leaks=*/std::uint64_t(k));
  const std::vector<LabSummary> out = summarise(s.settings, 1, s.runs);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].run_speedups.empty());
  EXPECT_DOUBLE_EQ(out[0].paired_median, 0.0);
  EXPECT_DOUBLE_EQ(figure(out[0], "mark_leaks").sum, 1.0);  // median of 0, 1, 2
}

// Abort latency: cutoffs and the time from each cutoff to the end of its
// cancelled group's wait, summed over positions, median over runs.
TEST(LabSummary, AbortLatencyIsTheMedianWaitOverTheMedianCutoffs) {
  Synthetic s;
  s.settings.configs = {{"ybwc", "xor", 2, {}}, {"abdada", "xor", 2, {}}};
  // Run k: two positions with 10 (k + 1) cutoffs and 0.001 (k + 1) s of
  // waiting each: sums 20, 40, 60 cutoffs and 0.002, 0.004, 0.006 s.
  int added = 0;
  for (int k = 0; k < 3; ++k)
    for (int p = 0; p < 2; ++p) {
      s.add(0, k, p, 1.0);
      s.runs.back().result.stats.aborts = std::uint64_t(10 * (k + 1));
      s.runs.back().result.stats[summary_test_wait] += 0.001 * (k + 1);
      s.add(1, k, p, 1.0);  // aborts but no timed wait: no latency
      s.runs.back().result.stats.aborts = 5;
      added += 2;
    }
  ASSERT_EQ(added, 12);
  const std::vector<LabSummary> out = summarise(s.settings, 2, s.runs);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_DOUBLE_EQ(out[0].aborts, 40.0);
  const CounterFigure& wait = figure(out[0], "summary_test_wait_seconds");
  EXPECT_NEAR(wait.sum, 0.004, 1e-12);
  // Shown over the aborts: the mean latency.
  EXPECT_EQ(wait.of, "aborts");
  ASSERT_TRUE(wait.known);
  EXPECT_NEAR(wait.shown, 0.0001, 1e-12);
  EXPECT_EQ(common::counter_cell(wait), "100");  // microseconds
  EXPECT_FALSE(shows(out[1], "summary_test_wait_seconds"));  // zero, of no declared group
}

// PV-splitting's schedule bound: the reference's nodes over the bound's
// median over runs (each run's bounds summed over positions).
TEST(LabSummary, BoundSpeedupIsReferenceNodesOverTheMedianBound) {
  Synthetic s;
  s.settings.configs = {{"serial", "xor", 1, {}}, {"ybwc", "xor", 2, {}}};
  int added = 0;
  for (int k = 0; k < 3; ++k)
    for (int p = 0; p < 2; ++p) {
      s.add(0, k, p, 1.0);  // 1000 nodes a position
      s.add(1, k, p, 0.6);
      s.runs.back().result.stats.critical_path = 400;
      s.runs.back().result.stats[summary_test_bound] = std::uint64_t(500 + 100 * k);
      added += 2;
    }
  ASSERT_EQ(added, 12);
  const std::vector<LabSummary> out = summarise(s.settings, 2, s.runs);
  ASSERT_EQ(out.size(), 2u);
  const CounterFigure& bound = figure(out[1], "summary_test_bound");
  EXPECT_DOUBLE_EQ(bound.sum, 1200.0);  // median of 1000, 1200, 1400
  ASSERT_TRUE(bound.known);
  EXPECT_NEAR(bound.shown, 2000.0 / 1200.0, 1e-12);
  EXPECT_EQ(common::counter_heading(bound), "summary_test_bound S bound");
  EXPECT_FALSE(shows(out[0], "summary_test_bound"));  // the serial reference reports no bound
}

// A hand-built work and span: ybwc at 4 logical threads on a simulated
// machine whose split point costs 3 + 5 = 8 nodes' time (node 1 ns,
// publish 3 ns, join 5 ns). Two positions of 1,000 nodes each, critical
// paths 200 and 300 with 5 and 10 split points on them: W = 2,000, C = 500,
// K = 15, b = 8, so W/C = 4 and the burdened W / (C + K b) = 2000 / 620.
TEST(LabSummary, BurdenedParallelismAddsEachCriticalSplitPointsPublishAndJoin) {
  LabSettings settings;
  settings.runs = 3;
  settings.configs = {{"ybwc", "xor", 4, {}}};
  SimSettings sim;
  sim.costs.node = 1000;
  sim.costs.publish = 3000;
  sim.costs.join = 5000;
  settings.sim = sim;
  EXPECT_DOUBLE_EQ(split_burden_nodes(sim.costs), 8.0);
  std::vector<LabRun> runs;
  const std::uint64_t path[] = {200, 300}, splits[] = {5, 10};
  for (int k = 0; k < 3; ++k)
    for (int p = 0; p < 2; ++p) {
      LabRun r;
      r.config = 0;
      r.run = k;
      r.position = p;
      r.seconds = 1;
      r.cpu_seconds = 4;
      r.result.stats.nodes = 1000;
      r.result.stats.critical_path = path[p];
      r.result.stats[critical_splits] = splits[p];
      runs.push_back(r);
    }
  const std::vector<LabSummary> out = summarise(settings, 2, runs);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].has_span());
  EXPECT_DOUBLE_EQ(out[0].critical_path, 500.0);
  EXPECT_DOUBLE_EQ(out[0].parallelism, 4.0);
  EXPECT_DOUBLE_EQ(out[0].critical_splits, 15.0);
  EXPECT_DOUBLE_EQ(out[0].burden_nodes, 8.0);
  EXPECT_DOUBLE_EQ(out[0].burdened_parallelism, 2000.0 / 620.0);
}

}  // namespace
}  // namespace xq::lab::timing
