// One search on a simulated machine (parallel/sim/machine.h) sized for the
// backend, for the tests of the simulated machine and of what runs on it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "parallel/backend.h"
#include "parallel/sim/machine.h"

namespace xq::test {

struct Simulated {
  SearchResult result;
  double seconds = 0;  // virtual
  std::uint64_t switches = 0;
};

// At least `threads` logical threads (a distributed backend runs more than
// its --threads: every rank's, and their wire threads).
inline Simulated simulate(Backend& b, const Position& pos, const SearchOptions& o, int threads,
                          std::uint64_t seed = 1, int quantum = 64,
                          const sim::Costs& costs = sim::Costs{}) {
  sim::Machine m(costs, quantum, seed, std::max(threads, b.simulated_threads()));
  m.begin();
  Observer quiet;
  Simulated out;
  out.result = b.search(pos, o, quiet);
  out.seconds = m.now_seconds();
  out.switches = m.switches();
  m.end();
  return out;
}

}  // namespace xq::test
