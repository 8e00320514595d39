// Game scores, W/D/L and pentanomial counts, and the --sprt option
// (lab/games/match_stats.h); the Elo and SPRT maths is tested in
// tests/lab/common/stats_test.cpp.
#include "lab/games/match_stats.h"

#include <gtest/gtest.h>

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
