// Match statistics: game results, pentanomial counts over colour-reversed
// game pairs, the Elo estimate with its 95 % confidence interval, the
// likelihood of superiority, and the sequential probability ratio test
// (SPRT) in two models. Pure functions; every score is from one engine's
// point of view (1 win, 0.5 draw, 0 loss).
//
// The formulas are those fishtest uses (M. Van den Bergh's notes on the
// generalized SPRT, "normalized Elo"), written from their definitions:
//  - a pair of games scores 0, 0.25, 0.5, 0.75 or 1 per game; the five
//    counts are the pentanomial distribution; Elo and its interval come from
//    its mean and variance (per pair: se = sqrt(var / pairs));
//  - logistic model: H0 says the expected score is L(elo0), H1 L(elo1), with
//    L(e) = 1 / (1 + 10^(-e/400)); each hypothesis' distribution is the
//    maximum-likelihood pentanomial with that mean;
//  - normalized model: H says the t-value (mu - 0.5) / sigma equals
//    nelo * sqrt(2) / (800 / ln 10) (sigma per pair); again the maximum-
//    likelihood distribution under each constraint;
//  - LLR = pairs * sum_i phat_i ln(p1_i / p0_i); bounds ln(beta / (1 -
//    alpha)) and ln((1 - beta) / alpha).
// Zero counts are replaced by 1e-3 for the LLR (as fishtest does), so that
// the maximum-likelihood problems stay well posed after a few games.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace xq::lab {

enum class GameScore : std::uint8_t { Loss = 0, Draw = 1, Win = 2 };

struct Wdl {
  std::int64_t wins = 0, draws = 0, losses = 0;
  std::int64_t games() const { return wins + draws + losses; }
};

// Counts of pairs scoring 0, 1/2, 1, 3/2, 2 points (LL, LD, LW+DD, DW, WW).
using Penta = std::array<std::int64_t, 5>;

Wdl wdl_of(const std::vector<GameScore>& games);
// Games 2k and 2k+1 form pair k (the same opening, colours reversed); an
// odd last game has no partner yet and is not counted.
Penta penta_of(const std::vector<GameScore>& games);

// The Elo difference of a score fraction in (0, 1).
double elo_from_score(double score);
double score_from_elo(double elo);

struct EloEstimate {
  double elo = 0;
  double lower = 0, upper = 0;  // 95 % interval; +-inf when the score is 0 or 1
  double los = 0.5;             // probability that the true Elo is above 0
  std::int64_t pairs = 0;
};
// From the pentanomial counts; std::nullopt without a single pair.
std::optional<EloEstimate> elo_estimate(const Penta& p);

enum class SprtModel : std::uint8_t { Normalized, Logistic };
std::string sprt_model_name(SprtModel m);
// "normalized" or "logistic"; std::nullopt otherwise.
std::optional<SprtModel> parse_sprt_model(const std::string& text);

struct SprtParams {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  SprtModel model = SprtModel::Normalized;
};
// "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized" as words or one
// string, keys in any order, missing keys at their defaults above; throws
// std::invalid_argument for an unknown key, a bad number or bad values.
// The "key=value" items of option words given either one item a word or
// several in one word separated by spaces.
std::vector<std::string> option_items(const std::vector<std::string>& words);
SprtParams parse_sprt(const std::vector<std::string>& words);
// Throws std::invalid_argument unless elo0 < elo1 and alpha, beta in (0, 0.5].
void validate(const SprtParams& p);
double sprt_lower_bound(const SprtParams& p);  // ln(beta / (1 - alpha))
double sprt_upper_bound(const SprtParams& p);  // ln((1 - beta) / alpha)

double llr(const SprtParams& p, const Penta& counts);

enum class SprtDecision : std::uint8_t { Continue, AcceptH0, AcceptH1 };
SprtDecision sprt_decision(const SprtParams& p, double llr_value);
std::string decision_name(SprtDecision d);  // "continue", "H0", "H1"

}  // namespace xq::lab
