// `xqlab tune`'s per-position log ratios and the candidate space it builds
// (its statistics are tested with the others in tests/lab/common/stats_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "lab/timing/tune.h"
#include "parallel/params.h"

namespace xq::lab::timing {
namespace {

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
