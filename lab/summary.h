// The lab's report over the runs of lab/runner.h, in the shape of the seed
// thesis's Tables 4.3 (time, speedup, efficiency) and 4.4 (nodes, search
// overhead, TT hits). Definitions (DESIGN.md §5), all against the serial
// backend at one thread with the same hash scheme:
//  * T(c)  = median over runs of the time summed over the suite's positions;
//  * S(c)  = T(serial) / T(c): a ratio of summed times, so long positions
//            weigh more than short ones; the per-position spread (median time
//            per position, min/median/max of the per-position speedups) is
//            reported beside it;
//  * E(c)  = S(c) / threads;  SO(c) = nodes(c) / nodes(serial), nodes being
//            the median over runs of the summed node counts;
//  * agreement = share of (position, run) searches whose best move equals
//            the serial backend's first-run best move.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lab/runner.h"

namespace xq::lab {

struct LabSummary {
  LabConfig config;
  int reference = -1;  // config index of its serial reference
  double seconds = 0;  // T: median over runs of the summed time
  double ms_per_position = 0;  // median over positions of the median time
  double speedup = 0, efficiency = 0;
  double spread_min = 0, spread_median = 0, spread_max = 0;  // per-position S
  double nodes = 0, overhead = 0, nps = 0;
  double tt_hits = 0, tt_hit_rate = 0;
  double splits = 0, joins = 0, aborts = 0;
  double agreement = 0;  // percent
};

std::vector<LabSummary> summarise(const LabSettings& s, std::size_t positions,
                                  const std::vector<LabRun>& runs);

// The note on thread counts above the machine's cores ("" when none is).
std::string oversubscription_note(const LabSettings& s);

}  // namespace xq::lab
