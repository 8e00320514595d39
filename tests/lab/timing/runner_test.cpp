// The lab runner's order: position by position, every configuration before
// the next position, the order reversed at every other position; one pass
// report per configuration and run with that run's summed time; and the
// configuration list (serial references first).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
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
  s.configs = {{"serial", "xor", 1, {}}, {"serial", "spinlock", 1, {}}, {"serial", "perthread", 1, {}}};
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

TEST(LabRunner, ConfigurationsPutSerialReferencesFirst) {
  std::vector<std::string> skipped;
  const auto configs = build_configs({"ybwc", "serial"}, {"xor", "spinlock"}, {1, 2},
                                     [&](const std::string& s) { skipped.push_back(s); });
  ASSERT_EQ(configs.size(), 2u + 2u * 2u);
  EXPECT_EQ(configs[0].label(), "serial/xor/1t");
  EXPECT_EQ(configs[1].label(), "serial/spinlock/1t");
  EXPECT_EQ(configs[5].label(), "ybwc/spinlock/2t");
  const std::vector<int> refs = reference_configs(configs);
  EXPECT_EQ(refs, (std::vector<int>{0, 1, 0, 0, 1, 1}));
  EXPECT_TRUE(skipped.empty());
  EXPECT_THROW(build_configs({"nope"}, {"xor"}, {1}, nullptr), std::invalid_argument);
  EXPECT_THROW(build_configs({"ybwc"}, {"nope"}, {1}, nullptr), std::invalid_argument);
}

// --vary: the readers of the parameter once per value, side by side; the
// serial reference and a backend that does not read it once.
TEST(LabRunner, VariantsRepeatOnlyTheParametersReaders) {
  const auto configs = with_variants(build_configs({"ybwc", "mpi-lazy"}, {"xor"}, {2}, nullptr),
                                     "history_share=thread,all");
  std::vector<std::string> labels;
  for (const LabConfig& c : configs) labels.push_back(c.label());
  EXPECT_EQ(labels, (std::vector<std::string>{"serial/xor/1t", "ybwc/xor/2t history_share=thread",
                                              "ybwc/xor/2t history_share=all",
                                              "mpi-lazy/xor/2t"}));
  EXPECT_EQ(reference_configs(configs), (std::vector<int>{0, 0, 0, 0}));
  const auto two = build_configs({"ybwc"}, {"xor"}, {2}, nullptr);
  for (const char* bad : {"history_share=thread", "history_share=thread,thread",
                          "history_share=thread,group4", "nope=1,2", "history_share",
                          "min_split_depth=2,3"}) {
    const auto& base = std::string(bad) == "min_split_depth=2,3"
                           ? build_configs({"lazysmp"}, {"xor"}, {2}, nullptr)
                           : two;
    EXPECT_THROW(with_variants(base, bad), std::invalid_argument) << bad;
  }
  // Repeated: the cross product; one parameter twice is refused.
  const auto both = with_variants(with_variants(two, "history_share=thread,all"),
                                  "killer_share=thread,group2");
  ASSERT_EQ(both.size(), 5u);
  EXPECT_EQ(both[4].label(), "ybwc/xor/2t history_share=all killer_share=group2");
  EXPECT_THROW(with_variants(both, "history_share=group2,group8"), std::invalid_argument);
  // Two names, one value list: set together.
  const auto tied = with_variants(two, "history_share,killer_share=thread,all");
  ASSERT_EQ(tied.size(), 3u);
  EXPECT_EQ(tied[2].label(), "ybwc/xor/2t history_share=all killer_share=all");
  EXPECT_THROW(with_variants(two, "history_share,history_share=thread,all"), std::invalid_argument);
  EXPECT_THROW(with_variants(two, "history_share,min_split_depth=thread,all"),
               std::invalid_argument);
}

}  // namespace
}  // namespace xq::lab::timing
