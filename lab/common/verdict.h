// Which of a few measured alternatives is the fastest, and whether the
// measurements can tell. Each alternative brings repeated samples (rounds
// run interleaved, A B C A B C ..., so a drift of the machine — other jobs,
// clock changes — falls on all of them alike). The leader is the one with
// the highest median; it is named the winner only when its slowest sample
// beats the fastest sample of every rival, i.e. when the spread does not
// cover the difference. Otherwise the verdict is "undecided" between the
// leader and every rival whose range reaches the leader's. For two
// alternatives with n samples each from one and the same distribution, the
// ranges miss each other with probability 2 / C(2n, n): 33 % at n = 2, 10 %
// at 3, 0.8 % at 5. So a winner needs at least kMinSamples samples from
// every contender; with fewer, the verdict is undecided between all of them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace xq::lab::common {

inline constexpr std::size_t kMinSamples = 3;

// Median and range of some samples (all 0 when there are none).
struct Spread {
  double median = 0, min = 0, max = 0;
  std::size_t n = 0;
};
Spread spread_of(const std::vector<double>& samples);

struct Samples {
  std::string name;
  std::vector<double> values;  // larger is better (throughput)
};

struct FastestVerdict {
  // The alternatives by decreasing median (indices into the input); the
  // first `contenders` of them are undecided between themselves: 1 = the
  // first is the winner. 0 only for an empty input.
  std::vector<std::size_t> ranking;
  std::size_t contenders = 0;
  bool too_few_samples = false;  // some contender has fewer than kMinSamples
  bool decided() const { return contenders == 1; }
};

FastestVerdict fastest(const std::vector<Samples>& alternatives);

// "a", "a and b", "a, b and c".
std::string and_list(const std::vector<std::string>& names);

}  // namespace xq::lab::common
