// The lab's statistics, in one place: the median of measurements; the paired
// comparison `xqlab tune` makes (median of per-position log time ratios, a
// percentile bootstrap interval of that median, a sign test); and the Elo and
// SPRT maths of matches. Pure functions; equal input gives equal output (the
// bootstrap is seeded).
//
// Elo and SPRT: every score is from one engine's point of view (1 win, 0.5
// draw, 0 loss). The formulas are those fishtest uses (M. Van den Bergh's
// notes on the generalized SPRT, "normalized Elo"), written from their
// definitions:
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

namespace xq::lab::common {

// ---- Summaries of measurements

// The median (mean of the two middle values for an even count); 0 when empty.
double median(std::vector<double> v);

// ---- Paired comparisons (xqlab tune, lab/timing/tune.h)

// Two-sided exact sign test (ties dropped before).
double sign_test_p(int faster, int slower);

struct Interval {
  double lo = 0, hi = 0;
};
// The 95% percentile bootstrap interval of the median of `d` (not empty):
// `resamples` resamples drawn with a generator seeded with `seed`.
Interval bootstrap_median_interval(const std::vector<double>& d, int resamples,
                                   std::uint64_t seed);

// Per-position log ratios d_p of a candidate against a base (< 0: the
// candidate is faster), summarised.
struct PairedComparison {
  int positions = 0;
  double median_log_ratio = 0;  // < 0: the candidate is faster
  double lo = 0, hi = 0;        // 95% bootstrap interval of the median
  int faster = 0, slower = 0;   // positions with d_p < 0, > 0
  double sign_p = 1;            // two-sided sign test
  double time_ratio() const;    // exp(median): candidate time / base time
  bool better() const { return positions > 0 && hi < 0; }
  bool worse() const { return positions > 0 && lo > 0; }
};
PairedComparison compare_paired(const std::vector<double>& log_ratios, int resamples = 2000,
                                std::uint64_t seed = 0x5eed);

// ---- Elo and SPRT (xqlab match and recommend, lab/games/)

// Counts of pairs scoring 0, 1/2, 1, 3/2, 2 points (LL, LD, LW+DD, DW, WW).
using Penta = std::array<std::int64_t, 5>;

// The Elo difference of a score fraction in (0, 1).
double elo_from_score(double score);
double score_from_elo(double elo);

struct EloEstimate {
  double elo = 0;
  double lower = 0, upper = 0;  // 95 % interval; +-inf when the score is 0 or 1
  double los = 0.5;             // probability that the true Elo is above 0
  std::int64_t pairs = 0;
  // False when the pairs show no spread (every pair scored alike: one pair,
  // or "+1 =16 -1" as colour-reversed draws): a zero-width interval would
  // claim a certainty the games do not give, so lower and upper are NaN and
  // the interval reads "not estimable".
  bool estimable = true;
  // True when the interval comes from the bootstrap over openings (an
  // opening repeats, so its pairs are not independent).
  bool clustered = false;
  std::int64_t clusters = 0;  // distinct openings behind a clustered interval
};
// From the pentanomial counts; std::nullopt without a single pair.
std::optional<EloEstimate> elo_estimate(const Penta& p);
// From pairs that share openings: pair_points[k] is pair k's score in half
// points (0..4), cluster[k] its opening. The point estimate is the
// pentanomial one; the interval is a percentile bootstrap over openings
// (resample the openings with replacement, each with all of its pairs), so
// that an opening replayed many times counts as one piece of evidence, not
// many. std::nullopt without a pair; throws std::invalid_argument when the
// two vectors differ in size or a score is outside 0..4.
std::optional<EloEstimate> elo_estimate_clustered(const std::vector<int>& pair_points,
                                                  const std::vector<std::int64_t>& cluster,
                                                  int resamples = 2000,
                                                  std::uint64_t seed = 0x5eed);
// "[-12.3, +45.6]" with the bounds through `format` ("%+.1f"; an infinite
// bound "-inf" / "+inf"), or "not estimable".
std::string elo_interval_text(const EloEstimate& e, const char* format);

// The Elo-equivalent time factor 2^(E / D) of an Elo difference E measured
// against a reference (serial) and the Elo D gained by doubling the
// reference's time, both with 95 % intervals. The factor's interval carries
// both uncertainties by the delta method on log2 F = E / D: each standard
// error taken as its interval's width / (2 * 1.96), then
// se(E/D)^2 = se_E^2 / D^2 + E^2 se_D^2 / D^4. An infinite bound of E or D
// (a clean sweep) leaves the factor unbounded: [0, +inf].
// std::nullopt unless D > 0 and both intervals are estimable.
struct FactorInterval {
  double factor = 1, lower = 1, upper = 1;
};
std::optional<FactorInterval> time_factor_interval(const EloEstimate& e, const EloEstimate& doubling);

enum class SprtModel : std::uint8_t { Normalized, Logistic };
std::string sprt_model_name(SprtModel m);
// "normalized" or "logistic"; std::nullopt otherwise.
std::optional<SprtModel> parse_sprt_model(const std::string& text);

struct SprtParams {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  SprtModel model = SprtModel::Normalized;
};
// Throws std::invalid_argument unless elo0 < elo1 and alpha, beta in (0, 0.5].
void validate(const SprtParams& p);
double sprt_lower_bound(const SprtParams& p);  // ln(beta / (1 - alpha))
double sprt_upper_bound(const SprtParams& p);  // ln((1 - beta) / alpha)

double llr(const SprtParams& p, const Penta& counts);

enum class SprtDecision : std::uint8_t { Continue, AcceptH0, AcceptH1 };
SprtDecision sprt_decision(const SprtParams& p, double llr_value);
std::string decision_name(SprtDecision d);  // "continue", "H0", "H1"

}  // namespace xq::lab::common
