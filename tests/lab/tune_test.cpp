// The statistics behind `xqlab tune` on synthetic data whose answer is known,
// and the candidate space it builds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "lab/timing/tune.h"
#include "parallel/params.h"

namespace xq::lab::timing {
namespace {

std::vector<double> noisy(int n, double centre, double spread, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, spread);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(centre + noise(rng));
  return v;
}

TEST(TuneStats, SignTestExactValues) {
  EXPECT_NEAR(common::sign_test_p(10, 0), 2.0 / 1024.0, 1e-12);
  EXPECT_NEAR(common::sign_test_p(0, 10), 2.0 / 1024.0, 1e-12);
  EXPECT_DOUBLE_EQ(common::sign_test_p(5, 5), 1.0);
  EXPECT_NEAR(common::sign_test_p(9, 3), 2.0 * (1 + 12 + 66 + 220) / 4096.0, 1e-12);
  EXPECT_DOUBLE_EQ(common::sign_test_p(0, 0), 1.0);
}

TEST(TuneStats, ClearlyFasterCandidateIsBetter) {
  // 20 % faster on every position, with small noise.
  const std::vector<double> d = noisy(12, std::log(0.8), 0.03, 1);
  const common::PairedComparison c = common::compare_paired(d);
  EXPECT_EQ(c.positions, 12);
  EXPECT_TRUE(c.better());
  EXPECT_FALSE(c.worse());
  EXPECT_NEAR(c.time_ratio(), 0.8, 0.05);
  EXPECT_LT(c.lo, c.median_log_ratio);
  EXPECT_GT(c.hi, c.median_log_ratio);
  EXPECT_EQ(c.faster, 12);
  EXPECT_LT(c.sign_p, 0.001);
}

TEST(TuneStats, ClearlySlowerCandidateIsWorse) {
  const common::PairedComparison c = common::compare_paired(noisy(12, std::log(1.3), 0.05, 2));
  EXPECT_TRUE(c.worse());
  EXPECT_FALSE(c.better());
}

TEST(TuneStats, PureNoiseCannotBeToldApart) {
  // No effect, large noise: over many seeds the interval almost always holds 0.
  int undecided = 0;
  constexpr int kTrials = 50;
  for (int seed = 0; seed < kTrials; ++seed) {
    const common::PairedComparison c = common::compare_paired(noisy(12, 0.0, 0.3, 100u + std::uint32_t(seed)));
    undecided += !c.better() && !c.worse();
  }
  EXPECT_GE(undecided, 44);  // a 95 % interval: about 47.5 of 50 expected
}

TEST(TuneStats, BootstrapIsDeterministic) {
  const std::vector<double> d = noisy(10, -0.1, 0.2, 3);
  const common::PairedComparison a = common::compare_paired(d), b = common::compare_paired(d);
  EXPECT_EQ(a.lo, b.lo);
  EXPECT_EQ(a.hi, b.hi);
}

TEST(TuneStats, PairedRatiosAverageRunsPerPosition) {
  std::vector<LabRun> runs;
  auto add = [&](int config, int run, int position, double seconds) {
    LabRun r;
    r.config = config;
    r.run = run;
    r.position = position;
    r.seconds = seconds;
    runs.push_back(r);
  };
  // Position 0: the candidate takes half the time in both runs; position 1:
  // twice, then equal.
  add(0, 0, 0, 2.0), add(1, 0, 0, 1.0), add(0, 1, 0, 4.0), add(1, 1, 0, 2.0);
  add(0, 0, 1, 1.0), add(1, 0, 1, 2.0), add(0, 1, 1, 3.0), add(1, 1, 1, 3.0);
  const std::vector<double> d = paired_log_ratios(runs, 1, 0, 2);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NEAR(d[0], std::log(0.5), 1e-12);
  EXPECT_NEAR(d[1], std::log(2.0) / 2, 1e-12);
}

TEST(TuneSpace, DefaultFirstAndEveryCombinationOnce) {
  BackendConfig base;
  const std::vector<TuneAxis> space = default_space("ybwc", base);
  ASSERT_EQ(space.size(), 3u);  // min_split_depth, max_splits_per_thread, live_alpha
  const auto c = tune_candidates(space, base);
  EXPECT_EQ(c.size(),
            space[0].values.size() * space[1].values.size() * space[2].values.size());
  EXPECT_EQ(c[0], (std::vector<std::string>{
                      "min_split_depth=" + find_param("min_split_depth").value_text(base),
                      "max_splits_per_thread=" +
                          find_param("max_splits_per_thread").value_text(base),
                      "live_alpha=" + find_param("live_alpha").value_text(base)}));
  for (std::size_t i = 0; i < c.size(); ++i)
    for (std::size_t j = i + 1; j < c.size(); ++j) EXPECT_NE(c[i], c[j]);
}

TEST(TuneSpace, AxisParsingChecksValues) {
  const TuneAxis a = parse_axis("omp_schedule=static,dynamic,static");
  EXPECT_EQ(a.values, (std::vector<std::string>{"static", "dynamic"}));
  EXPECT_THROW(parse_axis("min_split_depth=0"), std::invalid_argument);
  EXPECT_THROW(parse_axis("no_such=1"), std::invalid_argument);
  EXPECT_THROW(parse_axis("min_split_depth"), std::invalid_argument);
  EXPECT_THROW(parse_axis("min_split_depth=2,,3"), std::invalid_argument);
}

}  // namespace
}  // namespace xq::lab::timing
