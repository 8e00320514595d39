// `xqlab tune`: which values of a backend's split parameters reach a depth
// fastest on a suite at a thread count (the statistics: lab/common/stats.h).
// Every candidate setting runs as a configuration of the lab runner
// (interleaved runs, fresh tables), and each is compared with the current
// default by paired per-position time ratios:
//  * for position p, d_p = mean over runs r of log(T_cand(p, r) / T_def(p, r))
//    (same run: the runs are interleaved, so a slow spell of the machine hits
//    both sides of a pair);
//  * the estimate is the median of the d_p, reported as the time ratio
//    exp(median); its 95% interval is a percentile bootstrap of the median
//    over positions; a sign test counts positions faster / slower;
//  * a candidate is better (worse) than the default when the whole interval
//    is below (above) 0; when none is better, the default stays and the
//    report says the settings cannot be told apart.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lab/common/stats.h"
#include "lab/timing/runner.h"

namespace xq::lab::timing {

// One parameter and the values to try ("min_split_depth", {"2", "4", "6"}).
struct TuneAxis {
  std::string name;
  std::vector<std::string> values;
};

// Parses "NAME=V1,V2,..." (each value checked as --param would); throws
// std::invalid_argument naming the problem.
TuneAxis parse_axis(const std::string& text);

// The default space for a backend: every integer or enumerated parameter it
// reads (not the table's, nor an ablation: ParamSpec::tuned), integers at
// default / 2, default, default x 2 (within range), enumerations at every
// choice. An axis given by name (parse_axis) may still name an ablation.
std::vector<TuneAxis> default_space(const std::string& backend, const BackendConfig& base);

// Every combination of the axes as NAME=VALUE lists; the default setting
// (the values `base` holds) first, each combination once.
std::vector<std::vector<std::string>> tune_candidates(const std::vector<TuneAxis>& space,
                                                      const BackendConfig& base);

// d_p per position of configuration `cand` against `base` (means over runs
// of log time ratios; pairs with a zero time are skipped).
std::vector<double> paired_log_ratios(const std::vector<LabRun>& runs, int cand, int base,
                                      std::size_t positions);

struct TuneRow {
  std::vector<std::string> params;
  double seconds = 0;  // median over runs of the summed time
  common::PairedComparison vs_default;  // empty for the default itself
};

struct TuneReport {
  std::vector<TuneRow> rows;  // rows[0]: the default
  int best = 0;               // index of the chosen row (0 when none is better)
  bool decided() const { return best != 0; }
};

// Rows from the lab runs of the candidates (config i = candidate i).
TuneReport tune_report(const LabSettings& s, std::size_t positions,
                       const std::vector<LabRun>& runs);

// The chosen setting as a file --params reads: a comment line, then one
// NAME=VALUE line per parameter of the backend.
std::string params_file_text(const std::string& backend, const BackendConfig& config,
                             const std::string& comment);

}  // namespace xq::lab::timing
