// The lab's statistics (lab/common/stats.h): the median, the paired
// comparison behind `xqlab tune` on synthetic data whose answer is known, and
// the Elo and SPRT maths of matches against hand-computed and published
// values.
#include "lab/common/stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace xq::lab::common {
namespace {

std::vector<double> noisy(int n, double centre, double spread, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, spread);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(centre + noise(rng));
  return v;
}

TEST(LabStats, Median) {
  EXPECT_EQ(median({}), 0.0);
  EXPECT_EQ(median({3}), 3.0);
  EXPECT_EQ(median({5, 1, 3}), 3.0);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
}

TEST(TuneStats, SignTestExactValues) {
  EXPECT_NEAR(sign_test_p(10, 0), 2.0 / 1024.0, 1e-12);
  EXPECT_NEAR(sign_test_p(0, 10), 2.0 / 1024.0, 1e-12);
  EXPECT_DOUBLE_EQ(sign_test_p(5, 5), 1.0);
  EXPECT_NEAR(sign_test_p(9, 3), 2.0 * (1 + 12 + 66 + 220) / 4096.0, 1e-12);
  EXPECT_DOUBLE_EQ(sign_test_p(0, 0), 1.0);
}

TEST(TuneStats, ClearlyFasterCandidateIsBetter) {
  // 20 % faster on every position, with small noise.
  const std::vector<double> d = noisy(12, std::log(0.8), 0.03, 1);
  const PairedComparison c = compare_paired(d);
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
  const PairedComparison c = compare_paired(noisy(12, std::log(1.3), 0.05, 2));
  EXPECT_TRUE(c.worse());
  EXPECT_FALSE(c.better());
}

TEST(TuneStats, PureNoiseCannotBeToldApart) {
  // No effect, large noise: over many seeds the interval almost always holds 0.
  int undecided = 0;
  constexpr int kTrials = 50;
  for (int seed = 0; seed < kTrials; ++seed) {
    const PairedComparison c = compare_paired(noisy(12, 0.0, 0.3, 100u + std::uint32_t(seed)));
    undecided += !c.better() && !c.worse();
  }
  EXPECT_GE(undecided, 44);  // a 95 % interval: about 47.5 of 50 expected
}

TEST(TuneStats, BootstrapIsDeterministic) {
  const std::vector<double> d = noisy(10, -0.1, 0.2, 3);
  const PairedComparison a = compare_paired(d), b = compare_paired(d);
  EXPECT_EQ(a.lo, b.lo);
  EXPECT_EQ(a.hi, b.hi);
}

TEST(MatchStats, EloOfAScore) {
  EXPECT_DOUBLE_EQ(elo_from_score(0.5), 0);
  EXPECT_NEAR(elo_from_score(0.75), 400 * std::log10(3.0), 1e-9);  // 190.85
  EXPECT_NEAR(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12);
  EXPECT_TRUE(std::isinf(elo_from_score(1.0)));
}

// Hand-computed: 10 LL pairs and 30 WW pairs: mean 0.75, variance
// 0.75 * 0.25 = 0.1875 per pair, se = sqrt(0.1875 / 40) = 0.0684653.
TEST(MatchStats, EloIntervalAndLosFromPentanomialVariance) {
  const auto e = elo_estimate(Penta{10, 0, 0, 0, 30});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->pairs, 40);
  EXPECT_NEAR(e->elo, 190.85, 0.01);
  const double se = std::sqrt(0.1875 / 40);
  EXPECT_NEAR(e->lower, elo_from_score(0.75 - 1.959964 * se), 1e-3);
  EXPECT_NEAR(e->upper, elo_from_score(0.75 + 1.959964 * se), 1e-3);
  EXPECT_NEAR(e->lower, 81.96, 0.01);   // score 0.615811
  EXPECT_NEAR(e->upper, 353.12, 0.01);  // score 0.884189
  EXPECT_NEAR(e->los, 0.99987, 1e-5);   // Phi(0.25 / se) = Phi(3.6515)
  EXPECT_FALSE(elo_estimate(Penta{}));
  const auto even = elo_estimate(Penta{0, 0, 7, 0, 0});  // no variance
  ASSERT_TRUE(even);
  EXPECT_DOUBLE_EQ(even->los, 0.5);
  // Every pair alike: no spread, so no interval (never a zero-width one).
  EXPECT_FALSE(even->estimable);
  EXPECT_TRUE(std::isnan(even->lower) && std::isnan(even->upper));
  EXPECT_EQ(elo_interval_text(*even, "%.1f"), "not estimable");
  EXPECT_TRUE(e->estimable);
  EXPECT_EQ(elo_interval_text(*e, "%+.1f"), "[+82.0, +353.1]");
  const auto one = elo_estimate(Penta{0, 0, 0, 1, 0});  // one pair
  ASSERT_TRUE(one);
  EXPECT_FALSE(one->estimable);
  const auto sweep = elo_estimate(Penta{0, 0, 0, 0, 5});  // a clean sweep: no variance either
  ASSERT_TRUE(sweep);
  EXPECT_FALSE(sweep->estimable);
  EloEstimate open{100, 50, std::numeric_limits<double>::infinity(), 0.9, 8};
  EXPECT_EQ(elo_interval_text(open, "%+.0f"), "[+50, +inf]");
}

// By hand: two openings, one pair each, scoring 3 and 1 half points (mean
// 0.75 and 0.25). A resample of two openings is AA (1/4: score 0.75), AB or
// BA (1/2: 0.5) or BB (1/4: 0.25), so the 2.5 % and 97.5 % quantiles of 2000
// resamples are 0.25 and 0.75: Elo -190.85 and +190.85 around 0.
TEST(MatchStats, ClusteredIntervalResamplesOpenings) {
  const auto e = elo_estimate_clustered({3, 1}, {7, 9});
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->clustered);
  EXPECT_TRUE(e->estimable);
  EXPECT_EQ(e->clusters, 2);
  EXPECT_EQ(e->pairs, 2);
  EXPECT_NEAR(e->elo, 0.0, 1e-9);
  EXPECT_NEAR(e->lower, elo_from_score(0.25), 1e-9);
  EXPECT_NEAR(e->upper, elo_from_score(0.75), 1e-9);
  EXPECT_NEAR(e->upper, 190.85, 0.01);
  // One opening replayed: 12 pairs, but one piece of evidence; every
  // resample is that opening, so the interval is not estimable, where the
  // pentanomial one would claim [+31, +432]-like certainty.
  std::vector<int> points(12, 3);
  points[0] = 4;
  const auto replayed = elo_estimate_clustered(points, std::vector<std::int64_t>(12, 0));
  ASSERT_TRUE(replayed);
  EXPECT_FALSE(replayed->estimable);
  EXPECT_TRUE(elo_estimate(Penta{0, 0, 0, 11, 1})->estimable);
  // Many openings each played once: close to the pentanomial interval.
  std::vector<int> pts;
  std::vector<std::int64_t> ids;
  for (int k = 0; k < 400; ++k) {
    pts.push_back(k % 5);
    ids.push_back(k);
  }
  const auto many = elo_estimate_clustered(pts, ids);
  const auto penta = elo_estimate(Penta{80, 80, 80, 80, 80});
  ASSERT_TRUE(many && penta);
  EXPECT_NEAR(many->lower, penta->lower, 8.0);
  EXPECT_NEAR(many->upper, penta->upper, 8.0);
  EXPECT_THROW((void)elo_estimate_clustered({5}, {0}), std::invalid_argument);
  EXPECT_THROW((void)elo_estimate_clustered({1, 2}, {0}), std::invalid_argument);
  EXPECT_FALSE(elo_estimate_clustered({}, {}));
}

// By hand (as tests/lab/games/transfer_test.cpp): E = 100 [0, 200] against
// D = 100 [50, 150] gives 2.00 [0.92144, 4.34102]; E = 0 leaves only E's
// spread: log2 F = 0 +- 1.95996 * 0.51021 -> [2^-1, 2^+1] = [0.5, 2].
TEST(MatchStats, TimeFactorCarriesBothIntervals) {
  const EloEstimate d{100, 50, 150, 0.99, 40};
  const auto f = time_factor_interval(EloEstimate{100, 0, 200, 0.98, 40}, d);
  ASSERT_TRUE(f);
  EXPECT_DOUBLE_EQ(f->factor, 2.0);
  EXPECT_NEAR(f->lower, 0.92144, 5e-5);
  EXPECT_NEAR(f->upper, 4.34102, 5e-5);
  const auto level = time_factor_interval(EloEstimate{0, -100, 100, 0.5, 40}, d);
  ASSERT_TRUE(level);
  EXPECT_NEAR(level->lower, 0.5, 1e-9);
  EXPECT_NEAR(level->upper, 2.0, 1e-9);
  const double inf = std::numeric_limits<double>::infinity();
  const auto swept = time_factor_interval(EloEstimate{400, 200, inf, 1, 40}, d);
  ASSERT_TRUE(swept);
  EXPECT_EQ(swept->lower, 0.0);
  EXPECT_EQ(swept->upper, inf);
  EXPECT_FALSE(time_factor_interval(EloEstimate{100, 0, 200, 0.98, 40}, EloEstimate{-5, -50, 40, 0.4, 40}));
  EloEstimate flat{100, 0, 0, 1, 4};
  flat.estimable = false;
  EXPECT_FALSE(time_factor_interval(flat, d));
}

TEST(MatchStats, SprtBoundsFromAlphaBeta) {
  SprtParams p;
  p.alpha = 0.05;
  p.beta = 0.05;
  EXPECT_NEAR(sprt_lower_bound(p), -2.944, 1e-3);  // ln(0.05 / 0.95)
  EXPECT_NEAR(sprt_upper_bound(p), 2.944, 1e-3);
  p.beta = 0.1;
  EXPECT_NEAR(sprt_lower_bound(p), std::log(0.1 / 0.95), 1e-12);
  EXPECT_EQ(sprt_decision(p, 3.0), SprtDecision::AcceptH1);
  EXPECT_EQ(sprt_decision(p, -2.26), SprtDecision::AcceptH0);
  EXPECT_EQ(sprt_decision(p, 0.0), SprtDecision::Continue);
}

// fishtest's published test: pentanomial 351/32192/77370/32138/353, bounds
// [-1.75, 0.25] normalized Elo, LLR 2.95 (2.9463 here).
TEST(MatchStats, NormalizedLlrMatchesFishtest) {
  SprtParams p;
  p.elo0 = -1.75;
  p.elo1 = 0.25;
  p.model = SprtModel::Normalized;
  const double v = llr(p, Penta{351, 32192, 77370, 32138, 353});
  EXPECT_NEAR(v, 2.95, 0.005);
  EXPECT_EQ(sprt_decision(p, v), SprtDecision::AcceptH1);
}

// Symmetric results with hypotheses symmetric about 0: LLR 0 in both models;
// swapping the engines negates the LLR.
TEST(MatchStats, LlrSymmetries) {
  for (SprtModel m : {SprtModel::Normalized, SprtModel::Logistic}) {
    SprtParams p;
    p.elo0 = -5;
    p.elo1 = 5;
    p.model = m;
    EXPECT_NEAR(llr(p, Penta{10, 20, 40, 20, 10}), 0, 1e-9) << sprt_model_name(m);
    const double up = llr(p, Penta{5, 20, 40, 25, 12});
    EXPECT_GT(up, 0);
    EXPECT_NEAR(llr(p, Penta{12, 25, 40, 20, 5}), -up, 1e-9);
  }
}

// Logistic model by hand: with only LL and WW pairs the maximum-likelihood
// distribution of mean s puts s on WW (the regularized empty cells carry
// 1e-3 counts and shift it slightly): LLR ~ n_w ln(s1/s0) + n_l ln((1-s1)/(1-s0)).
TEST(MatchStats, LogisticLlrByHand) {
  SprtParams p;
  p.elo0 = 0;
  p.elo1 = 100;
  p.model = SprtModel::Logistic;
  const double s0 = 0.5, s1 = score_from_elo(100);
  const double expect = 60 * std::log(s1 / s0) + 40 * std::log((1 - s1) / (1 - s0));
  EXPECT_NEAR(llr(p, Penta{40, 0, 0, 0, 60}), expect, 0.01);
}

}  // namespace
}  // namespace xq::lab::common
