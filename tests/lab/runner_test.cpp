// The lab runner's order: position by position, every configuration before
// the next position, the order reversed at every other position; one pass
// report per configuration and run with that run's summed time.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "lab/timing/runner.h"

namespace xq::lab::timing {
namespace {

TEST(LabRunner, InterleavesPositionByPositionInAlternatingOrder) {
  Position other;
  ASSERT_EQ(other.set_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"), "");
  const std::vector<common::SuiteEntry> suite = {{"start", Position()}, {"other", other}, {"start again", Position()}};
  LabSettings s;
  s.depth = 2;
  s.runs = 2;
  s.configs = {{"serial", "xor", 1, {}}, {"serial", "spinlock", 1, {}}, {"serial", "mutex", 1, {}}};
  std::vector<std::pair<int, int>> order;  // (run, position x 10 + config)
  std::vector<double> summed(s.configs.size() * 2, 0.0);
  int passes = 0;
  LabCallbacks cb;
  cb.on_search = [&](const LabRun& r) {
    order.emplace_back(r.run, r.position * 10 + r.config);
    summed[std::size_t(r.run) * s.configs.size() + std::size_t(r.config)] += r.seconds;
  };
  cb.on_pass = [&](const LabConfig& c, int run, double seconds, double) {
    std::size_t ci = 0;
    while (s.configs[ci].hash != c.hash) ++ci;
    EXPECT_DOUBLE_EQ(seconds, summed[std::size_t(run) * s.configs.size() + ci]) << c.label();
    ++passes;
  };
  const std::vector<LabRun> runs = run_lab(s, suite, cb);
  ASSERT_EQ(runs.size(), 18u);
  const std::vector<std::pair<int, int>> want = {
      {0, 0},  {0, 1},  {0, 2},  {0, 12}, {0, 11}, {0, 10}, {0, 20}, {0, 21}, {0, 22},
      {1, 0},  {1, 1},  {1, 2},  {1, 12}, {1, 11}, {1, 10}, {1, 20}, {1, 21}, {1, 22}};
  EXPECT_EQ(order, want);
  EXPECT_EQ(passes, 6);
  // Every configuration is its own serial reference here: all agree.
  for (const LabRun& r : runs) EXPECT_TRUE(r.agrees);
}

}  // namespace
}  // namespace xq::lab::timing
