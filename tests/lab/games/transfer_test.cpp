// The transfer table (lab/games/transfer.h): rankings by each measure, the
// rule that separates two backends, and a verdict that says what the
// evidence decides -- on hand-made figures, so that each sentence is tested.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "lab/games/transfer.h"

namespace xq::lab::games {
namespace {

TransferRow row(const std::string& b, double s, double smin, double smax, double elo, double lo,
                double hi) {
  TransferRow r;
  r.backend = b;
  r.lab = LabFigures{b, "xor", 2, s, 1.1, smin, smax, 3};
  r.time_elo = common::EloEstimate{elo, lo, hi, 0.5, 10};  // 10 pairs
  r.depth_elo = common::EloEstimate{elo / 2, lo / 2, hi / 2, 0.5, 10};
  r.time_wdl = Wdl{5, 5, 5};
  return r;
}

TEST(Transfer, RankingAndSeparation) {
  const std::vector<TransferRow> rows = {row("dts", 1.5, 1.4, 1.6, 20, -10, 50),
                                         row("ybwc", 1.8, 1.75, 1.85, 40, 30, 50),
                                         row("lazysmp", 1.2, 1.1, 1.3, 45, 35, 55)};
  EXPECT_EQ(ranking(rows, Measure::Speedup), (std::vector<std::size_t>{1, 0, 2}));
  EXPECT_EQ(ranking(rows, Measure::TimeElo), (std::vector<std::size_t>{2, 1, 0}));
  EXPECT_TRUE(separated(rows[0], rows[1], Measure::Speedup));   // 1.4-1.6 vs 1.75-1.85
  EXPECT_FALSE(separated(rows[1], rows[2], Measure::TimeElo));  // [30,50] and [35,55] overlap
  EXPECT_FALSE(separated(rows[0], rows[2], Measure::TimeElo));  // [-10,50] and [35,55]
  TransferRow one_run = rows[0];
  one_run.lab->runs = 1;
  EXPECT_FALSE(separated(one_run, rows[2], Measure::Speedup)) << "one run separates nothing";
  TransferRow unmeasured;
  unmeasured.backend = "abdada";
  std::vector<TransferRow> with = rows;
  with.insert(with.begin(), unmeasured);
  EXPECT_EQ(ranking(with, Measure::TimeElo).back(), 0u) << "an unmeasured row ranks last";
  // Too few pairs, or an infinite bound, separate nothing.
  TransferRow few = rows[2], sweep = rows[2];
  few.time_elo = common::EloEstimate{191, 191, 191, 1, kMinSeparatingPairs - 1};
  sweep.time_elo = common::EloEstimate{400, 300, std::numeric_limits<double>::infinity(), 1, 20};
  EXPECT_TRUE(separated(rows[0], rows[2], Measure::TimeElo) == false);
  EXPECT_FALSE(separated(few, rows[0], Measure::TimeElo));
  EXPECT_FALSE(separated(sweep, rows[0], Measure::TimeElo));
  TransferRow far = rows[2];
  far.time_elo = common::EloEstimate{300, 200, 400, 1, kMinSeparatingPairs};
  EXPECT_TRUE(separated(far, rows[0], Measure::TimeElo));
}

// The time factor: 2^(Elo / Elo per doubling); its interval carries both
// Elo intervals by the delta method; none without a measurably positive
// doubling.
TEST(Transfer, TimeFactorFromTheEloPerDoubling) {
  TransferProfile p;
  p.profile = "thesis";
  p.doubling = common::EloEstimate{100, 50, 150, 0.99, kMinSeparatingPairs};
  const TransferRow r = row("ybwc", 1.8, 1.75, 1.85, 100, 0, 200);
  const auto f = time_factor(r, p);
  ASSERT_TRUE(f);
  EXPECT_DOUBLE_EQ(f->factor, 2.0);
  // By hand: E = 100 [0, 200], D = 100 [50, 150]; se_E = 200 / (2 z) =
  // 51.021, se_D = 100 / (2 z) = 25.511; log2 F = 1, se^2 = 51.021^2 / 100^2
  // + 100^2 * 25.511^2 / 100^4 = 0.26031 + 0.06508 = 0.32538, se = 0.57042;
  // F in 2^(1 -+ 1.95996 * 0.57042) = [2^-0.11800, 2^2.11800] = [0.92144, 4.34102].
  EXPECT_NEAR(f->lower, 0.92144, 5e-5);
  EXPECT_NEAR(f->upper, 4.34102, 5e-5);
  TransferRow worse = row("lazysmp", 1.2, 1.1, 1.3, -50, -100, 0);
  EXPECT_DOUBLE_EQ(time_factor(worse, p)->factor, std::exp2(-0.5));
  int refused = 0;
  for (const common::EloEstimate& d :
       {common::EloEstimate{100, 0, 200, 0.9, 20},                        // not above 0
        common::EloEstimate{100, 50, 150, 0.99, kMinSeparatingPairs - 1}}) {  // too few pairs
    TransferProfile q = p;
    q.doubling = d;
    EXPECT_FALSE(time_factor(r, q));
    ++refused;
  }
  EXPECT_EQ(refused, 2);
  TransferRow untimed = r;
  untimed.time_elo.reset();
  EXPECT_FALSE(time_factor(untimed, p));
  p.rows = {r};
  EXPECT_NE(transfer_text(TransferTable{2, "1+0.1", 10, {p}}).find("2.00 [0.92,4.34]"),
            std::string::npos);
  EXPECT_EQ(transfer_json(TransferTable{2, "1+0.1", 10, {p}})["profiles"][0]["rows"][0]
                ["time_factor"]["upper"].get<double>(),
            f->upper);
}

TEST(Transfer, VerdictSaysWhatIsDecided) {
  TransferTable t;
  t.time_control = "1+0.1";
  t.games = 10;
  // thesis: ybwc leads time to depth with separation and the games with
  // separation; modern: lazysmp leads the games, separated from the rest.
  t.profiles.push_back({"thesis", {row("ybwc", 1.8, 1.75, 1.85, 60, 40, 80),
                                   row("lazysmp", 1.2, 1.1, 1.3, 10, -10, 30)}});
  t.profiles.push_back({"modern", {row("ybwc", 1.7, 1.65, 1.75, 10, -10, 30),
                                   row("lazysmp", 1.3, 1.2, 1.4, 60, 40, 80)}});
  t.profiles[0].lab_depth = 8;
  t.profiles[0].game_depth = 6;
  t.profiles[1].lab_depth = 16;
  t.profiles[1].game_depth = 12;
  const std::string text = transfer_text(t);
  EXPECT_NE(text.find("profile modern (lab to depth 16, games at depth 12)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("by time to depth (S): ybwc > lazysmp"), std::string::npos) << text;
  EXPECT_NE(text.find("thesis: time to depth names ybwc; games name ybwc. The two measures agree."),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("modern: time to depth names ybwc; games name lazysmp. The two measures "
                      "disagree."),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("changes with the profile (ybwc -> lazysmp)"), std::string::npos) << text;
  // Overlapping intervals: nothing decided.
  t.profiles[1].rows[1].time_elo = common::EloEstimate{15, -5, 35, 0.6, 10};
  const std::string open = transfer_text(t);
  EXPECT_NE(open.find("games cannot separate lazysmp, ybwc"), std::string::npos) << open;
  EXPECT_NE(open.find("is not decided"), std::string::npos) << open;
  const Json j = transfer_json(t);
  ASSERT_EQ(j["profiles"].size(), 2u);
  EXPECT_EQ(j["profiles"][1]["rankings"]["time_elo"], "lazysmp = ybwc");
  EXPECT_EQ(j["profiles"][0]["game_depth"], 6);
  EXPECT_EQ(j["profiles"][1]["lab_depth"], 16);
  EXPECT_EQ(j["profiles"][0]["rows"][0]["time"]["wdl"]["wins"], 5);
}

}  // namespace
}  // namespace xq::lab::games
