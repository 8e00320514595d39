// A single-threaded, always-replace table for search tests that must not
// depend on a concurrent scheme.
#pragma once

#include <random>
#include <vector>

#include "hashing/entry.h"

namespace xq::testing {

class SimpleTable {
 public:
  explicit SimpleTable(std::size_t entries = 1 << 16) : slots_(entries) {}
  bool probe(Key key, TTData& out, int) {
    const Slot& s = slots_[key % slots_.size()];
    if (s.key != key || s.data.bound == Bound::None) return false;
    out = s.data;
    return true;
  }
  void store(Key key, const TTData& d, int) { slots_[key % slots_.size()] = Slot{key, d}; }

 private:
  struct Slot {
    Key key = 0;
    TTData data;
  };
  std::vector<Slot> slots_;
};

// A table that lies: answers a share of probes with a random data word (any
// move, value, depth and bound), the rest from the inner table.
template <class Inner>
class LyingTable {
 public:
  LyingTable(Inner& inner, double share, unsigned seed) : inner_(inner), share_(share), rng_(seed) {}
  bool probe(Key key, TTData& out, int tid) {
    if (std::uniform_real_distribution<double>(0, 1)(rng_) < share_) {
      out = packed::unpack(rng_());
      ++lies;
      return true;
    }
    return inner_.probe(key, out, tid);
  }
  void store(Key key, const TTData& d, int tid) { inner_.store(key, d, tid); }
  std::uint64_t lies = 0;

 private:
  Inner& inner_;
  double share_;
  std::mt19937_64 rng_;
};

}  // namespace xq::testing
