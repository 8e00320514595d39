#include "lab/common/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <stdexcept>

namespace xq::lab::common {
namespace {

constexpr double kZ95 = 1.959963984540054;  // two-sided 95 % normal quantile
constexpr double kNeloPerT = 800.0 / 2.302585092994046;  // 800 / ln 10
constexpr double kEmptyCount = 1e-3;  // stands in for a zero count in the LLR
constexpr double kInf = std::numeric_limits<double>::infinity();

// A discrete distribution over per-game scores of a pair.
struct Pdf {
  std::array<double, 5> value{0, 0.25, 0.5, 0.75, 1};
  std::array<double, 5> prob{};
};

struct Moments {
  double mean = 0, var = 0;
};

Moments moments(const Pdf& d) {
  Moments m;
  for (int i = 0; i < 5; ++i) m.mean += d.prob[i] * d.value[i];
  for (int i = 0; i < 5; ++i) m.var += d.prob[i] * (d.value[i] - m.mean) * (d.value[i] - m.mean);
  return m;
}

// The observed distribution and the number of pairs, zero counts replaced.
Pdf observed(const Penta& counts, double& pairs) {
  Pdf d;
  pairs = 0;
  for (int i = 0; i < 5; ++i) pairs += std::max(kEmptyCount, double(counts[i]));
  for (int i = 0; i < 5; ++i) d.prob[i] = std::max(kEmptyCount, double(counts[i])) / pairs;
  return d;
}

// The x in (-1/max b, -1/min b) with sum_i p_i b_i / (1 + x b_i) = 0 (the
// Lagrange multiplier of "maximize sum phat_i ln p_i subject to sum p_i b_i
// = 0"). The left side falls strictly in x, so bisection finds it.
double secular_root(const Pdf& hat, const std::array<double, 5>& b) {
  double lo_b = b[0], hi_b = b[0];
  for (double v : b) lo_b = std::min(lo_b, v), hi_b = std::max(hi_b, v);
  if (!(lo_b < 0 && hi_b > 0)) return 0;  // constraint unreachable: keep phat
  double lo = -1 / hi_b, hi = -1 / lo_b;
  auto f = [&](double x) {
    double s = 0;
    for (int i = 0; i < 5; ++i) s += hat.prob[i] * b[i] / (1 + x * b[i]);
    return s;
  };
  for (int it = 0; it < 200; ++it) {
    const double mid = (lo + hi) / 2;
    if (mid <= lo || mid >= hi) break;
    (f(mid) > 0 ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

Pdf reweight(const Pdf& hat, const std::array<double, 5>& b, double x) {
  Pdf d = hat;
  double total = 0;
  for (int i = 0; i < 5; ++i) total += d.prob[i] = hat.prob[i] / (1 + x * b[i]);
  for (double& p : d.prob) p /= total;
  return d;
}

// The most likely distribution given phat whose mean is s.
Pdf mle_mean(const Pdf& hat, double s) {
  std::array<double, 5> b{};
  for (int i = 0; i < 5; ++i) b[i] = hat.value[i] - s;
  return reweight(hat, b, secular_root(hat, b));
}

// The most likely distribution given phat whose t-value (mean - ref) / sigma
// is t: a fixed-point iteration on the linearized constraint, from uniform.
Pdf mle_t_value(const Pdf& hat, double ref, double t) {
  Pdf d = hat;
  d.prob.fill(0.2);
  for (int it = 0; it < 100; ++it) {
    const Moments m = moments(d);
    const double sigma = std::sqrt(m.var);
    std::array<double, 5> b{};
    for (int i = 0; i < 5; ++i) {
      const double z = (m.mean - hat.value[i]) / sigma;
      b[i] = hat.value[i] - ref - t * sigma * (1 + z * z) / 2;
    }
    const Pdf next = reweight(hat, b, secular_root(hat, b));
    double change = 0;
    for (int i = 0; i < 5; ++i) change = std::max(change, std::abs(next.prob[i] - d.prob[i]));
    d = next;
    if (change < 1e-12) break;
  }
  return d;
}

double log_ratio(const Pdf& hat, double pairs, const Pdf& p0, const Pdf& p1) {
  double s = 0;
  for (int i = 0; i < 5; ++i) s += hat.prob[i] * std::log(p1.prob[i] / p0.prob[i]);
  return pairs * s;
}

}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double PairedComparison::time_ratio() const { return std::exp(median_log_ratio); }

double sign_test_p(int faster, int slower) {
  const int n = faster + slower;
  if (n == 0) return 1.0;
  const int k = std::min(faster, slower);
  // P(X <= k) for X ~ Binomial(n, 1/2), summed in logs to stay finite.
  double tail = 0;
  for (int i = 0; i <= k; ++i)
    tail += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) -
                     n * std::log(2.0));
  return std::min(1.0, 2.0 * tail);
}

Interval bootstrap_median_interval(const std::vector<double>& d, int resamples,
                                   std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, d.size() - 1);
  std::vector<double> medians, sample(d.size());
  for (int r = 0; r < resamples; ++r) {
    for (double& x : sample) x = d[pick(rng)];
    medians.push_back(median(sample));
  }
  std::sort(medians.begin(), medians.end());
  const auto at = [&](double q) {
    return medians[std::min(medians.size() - 1, std::size_t(q * double(medians.size())))];
  };
  return {at(0.025), at(0.975)};
}

PairedComparison compare_paired(const std::vector<double>& d, int resamples, std::uint64_t seed) {
  PairedComparison c;
  c.positions = int(d.size());
  if (d.empty()) return c;
  c.median_log_ratio = median(d);
  for (double x : d) {
    c.faster += x < 0;
    c.slower += x > 0;
  }
  c.sign_p = sign_test_p(c.faster, c.slower);
  const Interval ci = bootstrap_median_interval(d, resamples, seed);
  c.lo = ci.lo;
  c.hi = ci.hi;
  return c;
}

double elo_from_score(double score) {
  if (score <= 0) return -kInf;
  if (score >= 1) return kInf;
  return -400.0 * std::log10(1 / score - 1);
}

double score_from_elo(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

std::optional<EloEstimate> elo_estimate(const Penta& p) {
  EloEstimate e;
  for (auto c : p) e.pairs += c;
  if (e.pairs == 0) return std::nullopt;
  Pdf d;
  for (int i = 0; i < 5; ++i) d.prob[i] = double(p[i]) / double(e.pairs);
  const Moments m = moments(d);
  const double se = std::sqrt(m.var / double(e.pairs));
  e.elo = elo_from_score(m.mean);
  e.lower = elo_from_score(m.mean - kZ95 * se);
  e.upper = elo_from_score(m.mean + kZ95 * se);
  if (se > 0) e.los = 0.5 * std::erfc(-(m.mean - 0.5) / (se * std::sqrt(2.0)));
  else e.los = m.mean > 0.5 ? 1 : m.mean < 0.5 ? 0 : 0.5;
  if (!(se > 0)) {
    e.estimable = false;
    e.lower = e.upper = std::nan("");
  }
  return e;
}

std::optional<EloEstimate> elo_estimate_clustered(const std::vector<int>& pair_points,
                                                  const std::vector<std::int64_t>& cluster,
                                                  int resamples, std::uint64_t seed) {
  if (pair_points.size() != cluster.size())
    throw std::invalid_argument("elo_estimate_clustered: one opening per pair");
  Penta counts{};
  for (int p : pair_points) {
    if (p < 0 || p > 4) throw std::invalid_argument("elo_estimate_clustered: pair score outside 0..4");
    ++counts[std::size_t(p)];
  }
  std::optional<EloEstimate> e = elo_estimate(counts);
  if (!e) return e;
  // Per opening: its pairs and their half points.
  std::vector<std::int64_t> ids = cluster;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<std::int64_t> pairs(ids.size(), 0), points(ids.size(), 0);
  for (std::size_t k = 0; k < cluster.size(); ++k) {
    const std::size_t c = std::size_t(std::lower_bound(ids.begin(), ids.end(), cluster[k]) - ids.begin());
    ++pairs[c];
    points[c] += pair_points[k];
  }
  e->clustered = true;
  e->clusters = std::int64_t(ids.size());
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, ids.size() - 1);
  std::vector<double> scores;
  for (int r = 0; r < resamples; ++r) {
    std::int64_t n = 0, pts = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const std::size_t c = pick(rng);
      n += pairs[c];
      pts += points[c];
    }
    scores.push_back(double(pts) / (4.0 * double(n)));
  }
  std::sort(scores.begin(), scores.end());
  const auto at = [&](double q) {
    return scores[std::min(scores.size() - 1, std::size_t(q * double(scores.size())))];
  };
  const double lo = at(0.025), hi = at(0.975);
  if (!(hi > lo)) {
    e->estimable = false;
    e->lower = e->upper = std::nan("");
  } else {
    e->estimable = true;
    e->lower = elo_from_score(lo);
    e->upper = elo_from_score(hi);
  }
  return e;
}

std::string elo_interval_text(const EloEstimate& e, const char* format) {
  if (!e.estimable) return "not estimable";
  const auto bound = [&](double b) {
    if (std::isfinite(b)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, format, b == 0 ? 0.0 : b);
      return std::string(buf);
    }
    return std::string(b < 0 ? "-inf" : "+inf");
  };
  return "[" + bound(e.lower) + ", " + bound(e.upper) + "]";
}

std::optional<FactorInterval> time_factor_interval(const EloEstimate& e, const EloEstimate& d) {
  if (!(d.elo > 0) || !std::isfinite(d.elo) || !std::isfinite(e.elo) || !e.estimable || !d.estimable)
    return std::nullopt;
  FactorInterval f;
  const double ratio = e.elo / d.elo;
  f.factor = std::exp2(ratio);
  const double se_e = (e.upper - e.lower) / (2 * kZ95), se_d = (d.upper - d.lower) / (2 * kZ95);
  const double se = std::sqrt(se_e * se_e / (d.elo * d.elo) +
                              e.elo * e.elo * se_d * se_d / (d.elo * d.elo * d.elo * d.elo));
  if (!std::isfinite(se)) {  // an infinite bound: nothing bounds the factor
    f.lower = 0;
    f.upper = kInf;
    return f;
  }
  f.lower = std::exp2(ratio - kZ95 * se);
  f.upper = std::exp2(ratio + kZ95 * se);
  return f;
}

std::string sprt_model_name(SprtModel m) {
  return m == SprtModel::Normalized ? "normalized" : "logistic";
}

std::optional<SprtModel> parse_sprt_model(const std::string& text) {
  if (text == "normalized") return SprtModel::Normalized;
  if (text == "logistic") return SprtModel::Logistic;
  return std::nullopt;
}

void validate(const SprtParams& p) {
  if (!(p.elo0 < p.elo1))
    throw std::invalid_argument("sprt: elo0 must be below elo1");
  for (double v : {p.alpha, p.beta})
    if (!(v > 0 && v <= 0.5))
      throw std::invalid_argument("sprt: alpha and beta must be in (0, 0.5]");
  for (double v : {p.elo0, p.elo1})
    if (!(std::abs(v) < 1000)) throw std::invalid_argument("sprt: elo0 and elo1 must be in (-1000, 1000)");
}

double sprt_lower_bound(const SprtParams& p) { return std::log(p.beta / (1 - p.alpha)); }
double sprt_upper_bound(const SprtParams& p) { return std::log((1 - p.beta) / p.alpha); }

double llr(const SprtParams& p, const Penta& counts) {
  double pairs = 0;
  const Pdf hat = observed(counts, pairs);
  if (p.model == SprtModel::Logistic)
    return log_ratio(hat, pairs, mle_mean(hat, score_from_elo(p.elo0)),
                     mle_mean(hat, score_from_elo(p.elo1)));
  const double t0 = p.elo0 / kNeloPerT * std::sqrt(2.0);
  const double t1 = p.elo1 / kNeloPerT * std::sqrt(2.0);
  return log_ratio(hat, pairs, mle_t_value(hat, 0.5, t0), mle_t_value(hat, 0.5, t1));
}

SprtDecision sprt_decision(const SprtParams& p, double v) {
  if (v >= sprt_upper_bound(p)) return SprtDecision::AcceptH1;
  if (v <= sprt_lower_bound(p)) return SprtDecision::AcceptH0;
  return SprtDecision::Continue;
}

std::string decision_name(SprtDecision d) {
  return d == SprtDecision::Continue ? "continue" : d == SprtDecision::AcceptH0 ? "H0" : "H1";
}

}  // namespace xq::lab::common
