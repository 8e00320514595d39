#include "lab/games/match_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace xq::lab::games {
namespace {

using G = GameScore;

TEST(MatchStats, CountsGamesAndPairs) {
  const std::vector<G> games{G::Win, G::Loss, G::Draw, G::Draw, G::Win, G::Win, G::Loss, G::Draw, G::Win};
  const Wdl w = wdl_of(games);
  EXPECT_EQ(w.wins, 4);
  EXPECT_EQ(w.draws, 3);
  EXPECT_EQ(w.losses, 2);
  // Pairs: W+L=1, D+D=1, W+W=2, L+D=0.5; the odd last game is unpaired.
  EXPECT_EQ(penta_of(games), (common::Penta{0, 1, 2, 0, 1}));
}

TEST(MatchStats, EloOfAScore) {
  EXPECT_DOUBLE_EQ(common::elo_from_score(0.5), 0);
  EXPECT_NEAR(common::elo_from_score(0.75), 400 * std::log10(3.0), 1e-9);  // 190.85
  EXPECT_NEAR(common::score_from_elo(common::elo_from_score(0.3)), 0.3, 1e-12);
  EXPECT_TRUE(std::isinf(common::elo_from_score(1.0)));
}

// Hand-computed: 10 LL pairs and 30 WW pairs: mean 0.75, variance
// 0.75 * 0.25 = 0.1875 per pair, se = sqrt(0.1875 / 40) = 0.0684653.
TEST(MatchStats, EloIntervalAndLosFromPentanomialVariance) {
  const auto e = common::elo_estimate(common::Penta{10, 0, 0, 0, 30});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->pairs, 40);
  EXPECT_NEAR(e->elo, 190.85, 0.01);
  const double se = std::sqrt(0.1875 / 40);
  EXPECT_NEAR(e->lower, common::elo_from_score(0.75 - 1.959964 * se), 1e-3);
  EXPECT_NEAR(e->upper, common::elo_from_score(0.75 + 1.959964 * se), 1e-3);
  EXPECT_NEAR(e->lower, 81.96, 0.01);   // score 0.615811
  EXPECT_NEAR(e->upper, 353.12, 0.01);  // score 0.884189
  EXPECT_NEAR(e->los, 0.99987, 1e-5);   // Phi(0.25 / se) = Phi(3.6515)
  EXPECT_FALSE(common::elo_estimate(common::Penta{}));
  const auto even = common::elo_estimate(common::Penta{0, 0, 7, 0, 0});  // no variance
  ASSERT_TRUE(even);
  EXPECT_DOUBLE_EQ(even->los, 0.5);
}

TEST(MatchStats, SprtBoundsFromAlphaBeta) {
  common::SprtParams p;
  p.alpha = 0.05;
  p.beta = 0.05;
  EXPECT_NEAR(common::sprt_lower_bound(p), -2.944, 1e-3);  // ln(0.05 / 0.95)
  EXPECT_NEAR(common::sprt_upper_bound(p), 2.944, 1e-3);
  p.beta = 0.1;
  EXPECT_NEAR(common::sprt_lower_bound(p), std::log(0.1 / 0.95), 1e-12);
  EXPECT_EQ(common::sprt_decision(p, 3.0), common::SprtDecision::AcceptH1);
  EXPECT_EQ(common::sprt_decision(p, -2.26), common::SprtDecision::AcceptH0);
  EXPECT_EQ(common::sprt_decision(p, 0.0), common::SprtDecision::Continue);
}

// fishtest's published test: pentanomial 351/32192/77370/32138/353, bounds
// [-1.75, 0.25] normalized Elo, LLR 2.95 (2.9463 here).
TEST(MatchStats, NormalizedLlrMatchesFishtest) {
  common::SprtParams p;
  p.elo0 = -1.75;
  p.elo1 = 0.25;
  p.model = common::SprtModel::Normalized;
  const double v = common::llr(p, common::Penta{351, 32192, 77370, 32138, 353});
  EXPECT_NEAR(v, 2.95, 0.005);
  EXPECT_EQ(common::sprt_decision(p, v), common::SprtDecision::AcceptH1);
}

// Symmetric results with hypotheses symmetric about 0: LLR 0 in both models;
// swapping the engines negates the LLR.
TEST(MatchStats, LlrSymmetries) {
  for (common::SprtModel m : {common::SprtModel::Normalized, common::SprtModel::Logistic}) {
    common::SprtParams p;
    p.elo0 = -5;
    p.elo1 = 5;
    p.model = m;
    EXPECT_NEAR(common::llr(p, common::Penta{10, 20, 40, 20, 10}), 0, 1e-9) << common::sprt_model_name(m);
    const double up = common::llr(p, common::Penta{5, 20, 40, 25, 12});
    EXPECT_GT(up, 0);
    EXPECT_NEAR(common::llr(p, common::Penta{12, 25, 40, 20, 5}), -up, 1e-9);
  }
}

// Logistic model by hand: with only LL and WW pairs the maximum-likelihood
// distribution of mean s puts s on WW (the regularized empty cells carry
// 1e-3 counts and shift it slightly): LLR ~ n_w ln(s1/s0) + n_l ln((1-s1)/(1-s0)).
TEST(MatchStats, LogisticLlrByHand) {
  common::SprtParams p;
  p.elo0 = 0;
  p.elo1 = 100;
  p.model = common::SprtModel::Logistic;
  const double s0 = 0.5, s1 = common::score_from_elo(100);
  const double expect = 60 * std::log(s1 / s0) + 40 * std::log((1 - s1) / (1 - s0));
  EXPECT_NEAR(common::llr(p, common::Penta{40, 0, 0, 0, 60}), expect, 0.01);
}

TEST(MatchStats, ParsesSprtParameters) {
  const common::SprtParams p = parse_sprt({"elo0=-1", "elo1=4 alpha=0.1", "beta=0.2", "model=logistic"});
  EXPECT_EQ(p.elo0, -1);
  EXPECT_EQ(p.elo1, 4);
  EXPECT_EQ(p.alpha, 0.1);
  EXPECT_EQ(p.beta, 0.2);
  EXPECT_EQ(p.model, common::SprtModel::Logistic);
  EXPECT_THROW(parse_sprt({"elo0=5", "elo1=0"}), std::invalid_argument);
  EXPECT_THROW(parse_sprt({"alpha=0"}), std::invalid_argument);
  EXPECT_THROW(parse_sprt({"elo2=1"}), std::invalid_argument);
  EXPECT_THROW(parse_sprt({"elo1=x"}), std::invalid_argument);
  EXPECT_THROW(parse_sprt({"model=bayes"}), std::invalid_argument);
}

}  // namespace
}  // namespace xq::lab::games
