#include "lab/common/verdict.h"

#include <algorithm>

#include "lab/common/stats.h"

namespace xq::lab::common {

Spread spread_of(const std::vector<double>& samples) {
  Spread s;
  if (samples.empty()) return s;
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  s.median = median(samples);
  s.min = *lo;
  s.max = *hi;
  s.n = samples.size();
  return s;
}

FastestVerdict fastest(const std::vector<Samples>& alternatives) {
  FastestVerdict v;
  std::vector<Spread> spread;
  for (const Samples& a : alternatives) spread.push_back(spread_of(a.values));
  for (std::size_t i = 0; i < alternatives.size(); ++i) v.ranking.push_back(i);
  std::stable_sort(v.ranking.begin(), v.ranking.end(),
                   [&](std::size_t a, std::size_t b) { return spread[a].median > spread[b].median; });
  if (v.ranking.empty()) return v;
  if (v.ranking.size() == 1) {
    v.contenders = 1;
    return v;
  }
  for (const Spread& s : spread) v.too_few_samples |= s.n < kMinSamples;
  if (v.too_few_samples) {
    v.contenders = v.ranking.size();
    return v;
  }
  // Every rival whose fastest sample reaches the leader's slowest; ranked by
  // median, so they are not necessarily consecutive: move them up.
  const Spread& lead = spread[v.ranking.front()];
  const auto tied = std::stable_partition(v.ranking.begin() + 1, v.ranking.end(),
                                          [&](std::size_t i) { return spread[i].max >= lead.min; });
  v.contenders = std::size_t(tied - v.ranking.begin());
  return v;
}

std::string and_list(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) s += i + 1 == names.size() ? " and " : ", ";
    s += names[i];
  }
  return s;
}

}  // namespace xq::lab::common
