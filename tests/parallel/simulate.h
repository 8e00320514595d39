// One search on a simulated machine (parallel/sim/machine.h) sized for the
// backend, for the tests of the simulated machine and of what runs on it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parallel/backend.h"
#include "parallel/sim/machine.h"
#include "tests/parallel/exact_grid.h"

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
                          const sim::Costs& costs = sim::Costs{}, int cores = 0,
                          sim::Carrier carrier = sim::default_carrier()) {
  sim::Machine m(costs, quantum, seed, std::max(threads, b.simulated_threads()), cores, carrier);
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

// The backends the simulated machine runs at several threads (not those
// whose helpers are processes).
inline std::vector<std::string> simulable_backends() {
  std::vector<std::string> out;
  for (const BackendInfo& b : backends())
    if (b.simulable) out.emplace_back(b.name);
  return out;
}

inline std::unique_ptr<Backend> sim_backend(const std::string& name, int threads,
                                            const std::string& scheme = "") {
  BackendConfig c;
  c.threads = threads;
  c.hash_mib = 1;
  c.hash = scheme.empty() ? std::string(find_backend(name).default_hash) : scheme;
  c.set("task_depth", 3);  // jamboree: reach its tasks at these depths
  if (threads == 1) c.set("ranks", 1);  // mpi-lazy: one thread in all
  return make_backend(name, c);
}

inline SearchOptions sim_depth(Depth d) {
  SearchOptions o;
  o.limits.depth = d;
  return o;
}

// Two openings and two random positions of the contract suite.
inline const std::vector<Position>& sample_positions() {
  static const std::vector<Position> ps = [] {
    std::vector<Position> v = contract_positions(2);
    v.erase(v.begin() + 2, v.end() - 2);
    return v;
  }();
  return ps;
}

}  // namespace xq::test
