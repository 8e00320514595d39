// `xqlab lab --simulate`: the lab's searches on a simulated machine
// (parallel/sim/machine.h) instead of the real one. A profile file holds a
// machine's costs (written by `xqlab sim-calibrate`); what-if overrides scale
// or replace one cost; run k of the lab uses seed `seed + k`, so the median
// [min, max] over runs is over seeds. Every figure it produces is SIMULATED
// and says so (text header, JSON "mode", CSV column).
#pragma once

#include <cstdint>
#include <string>

#include "lab/common/json.h"
#include "parallel/backend.h"
#include "parallel/sim/machine.h"
#include "search/options.h"
#include "search/result.h"

namespace xq::lab::timing {

// Nodes between two hand-overs by default (docs/RESULTS.md, quantum
// sensitivity).
inline constexpr int kDefaultSimQuantum = 256;

struct SimSettings {
  sim::Costs costs;
  int quantum = kDefaultSimQuantum;
  std::uint64_t seed = 1;  // run k uses seed + k; 0 turns speed jitter off
  // Virtual cores the logical threads are time-sliced on (--sim-cores); 0:
  // a core for every logical thread.
  int cores = 0;
  // What the logical threads run on (--sim-carrier): the figures are the
  // same on both, the wall time is not.
  sim::Carrier carrier = sim::default_carrier();
  std::string profile_path;  // "" for the built-in costs
  std::string machine;       // the profile's description of its machine
  std::string measured;      // when and how the profile was measured
  std::string overrides;     // the --sim-cost assignments applied, comma-separated
};

// The cost names of a profile and of --sim-cost, in file order.
const std::vector<std::string>& sim_cost_names();

// Reads a profile file; throws std::runtime_error naming the file and the
// fault (unreadable, not JSON, a cost missing, negative or not a number).
SimSettings load_sim_profile(const std::string& path);
// The profile's JSON (what sim-calibrate writes and load_sim_profile reads).
Json sim_profile_json(const SimSettings& s);
// Applies "NAME=Fx" (scale) or "NAME=Vps|ns|us" (replace); throws
// std::invalid_argument on an unknown name or a malformed value.
void apply_sim_cost(SimSettings& s, const std::string& assignment);
// The settings as the lab document's "simulation" object.
Json sim_settings_json(const SimSettings& s, int runs);
// One line for the text header: "SIMULATED machine: ...".
std::string sim_banner(const SimSettings& s, int runs);

// One search on a simulated machine of `threads` logical threads: the
// result, the virtual seconds the caller's thread took (Backend::search from
// call to return), and the processor hand-overs it made. `observer` (may be
// null) hears the iterations, on the caller's logical thread.
// With time slicing (settings' cores below the thread count) also the
// threads taken off a core, the idle threads' yields of theirs, and the
// virtual seconds threads waited for one. `timeline`: record every
// hand-over (Machine::record_timeline).
struct SimulatedSearch {
  SearchResult result;
  double seconds = 0;
  std::uint64_t switches = 0;
  std::uint64_t preemptions = 0;
  std::uint64_t yields = 0;
  double core_wait_seconds = 0;
  std::vector<sim::TimelineEvent> timeline;
};
SimulatedSearch simulate_search(Backend& backend, const Position& pos, const SearchOptions& options,
                                const SimSettings& s, std::uint64_t seed, int threads,
                                Observer* observer = nullptr, bool timeline = false);
// The machine's counts of one simulated search, for a search's JSON:
// hand-overs, and with time slicing preemptions, yields and core-wait.
Json simulated_counts_json(const SimulatedSearch& r, const SimSettings& s, int threads);

}  // namespace xq::lab::timing
