// A single-threaded, always-replace table for search tests that must not
// depend on a concurrent scheme.
#pragma once

#include <vector>

#include "hashing/entry.h"
#include "hashing/faulty.h"

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

// A table that lies (hashing/faulty.h): set_share / set_seed, lies().
template <class Inner>
using LyingTable = Lying<Inner>;

}  // namespace xq::testing
