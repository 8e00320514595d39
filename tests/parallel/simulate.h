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
  std::uint64_t preemptions = 0;  // with time slicing (cores > 0)
  double core_wait = 0;           // virtual seconds threads waited for a core
};

// At least `threads` logical threads (a distributed backend runs more than
// its --threads: every rank's, and their wire threads). `cores` > 0 time-
// slices the logical threads on that many virtual cores.
inline Simulated simulate(Backend& b, const Position& pos, const SearchOptions& o, int threads,
                          std::uint64_t seed = 1, int quantum = 64,
                          const sim::Costs& costs = sim::Costs{}, int cores = 0) {
  sim::Machine m(costs, quantum, seed, std::max(threads, b.simulated_threads()), cores);
  m.begin();
  Observer quiet;
  Simulated out;
  out.result = b.search(pos, o, quiet);
  out.seconds = m.now_seconds();
  out.switches = m.switches();
  out.preemptions = m.preemptions();
  out.core_wait = sim::seconds(m.core_wait());
  m.end();
  return out;
}

}  // namespace xq::test
