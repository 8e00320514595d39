// The lab runner behind `xqlab lab`: time-to-depth of every configuration
// (backend x hash scheme x thread count) on a position suite, repeated, with
// the runs interleaved, and a report in the shape of the seed thesis's Tables
// 4.3 (time, speedup, efficiency) and 4.4 (nodes, search overhead, TT hits).
//
// Definitions (DESIGN.md §5), all against the serial backend at one thread
// with the same hash scheme, which the runner always includes:
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

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/ablation.h"  // SuiteEntry, load_suite
#include "search/result.h"

namespace xq::cli {

struct LabConfig {
  std::string backend;
  std::string hash;
  int threads = 1;
  std::string label() const;  // "ybwc/xor/2t"
};

struct LabSettings {
  std::string suite_path;
  std::vector<LabConfig> configs;  // references (serial, 1 thread) first
  Depth depth = 7;
  int runs = 3;
  std::size_t hash_mib = 16;
};

// One search of one position by one configuration in one run.
struct LabRun {
  int config = 0;    // index into LabSettings::configs
  int run = 0;
  int position = 0;  // index into the suite
  double seconds = 0;  // wall time of Backend::search
  SearchResult result;
  bool agrees = true;  // best move equals the serial reference's (run 0)
};

// Runs every configuration on every position `runs` times, run r of every
// configuration before run r + 1; progress on stderr; each run also goes to
// `csv` (may be null) as soon as it is done.
std::vector<LabRun> run_lab(const LabSettings& s, const std::vector<SuiteEntry>& suite,
                            std::FILE* csv);

// One row of the report: a configuration's figures.
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

void print_lab_text(const LabSettings& s, std::size_t positions,
                    const std::vector<LabSummary>& rows);
void print_lab_json(const LabSettings& s, std::size_t positions,
                    const std::vector<LabSummary>& rows);

}  // namespace xq::cli
