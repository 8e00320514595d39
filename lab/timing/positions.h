// Per-position figures of a lab run, so that a suite's summed speedup never
// hides the positions where a configuration collapses. For every
// configuration, one entry per suite position:
//   {"index", "name", "fen", "serial_seconds", "seconds", "seconds_min",
//    "seconds_max", "speedup", "speedup_min", "speedup_max", "nodes",
//    "run_seconds": [...], "run_nodes": [...]}
// seconds and nodes are medians over runs; speedup = serial_seconds /
// seconds (serial_seconds is the median of the configuration's serial
// reference); speedup_min/max use the slowest and fastest run; the run_
// arrays (one number per run, in run order; plain arrays so that a
// thousand-run file stays quick to read) only when there was more than one
// run. Without a reference the serial and speedup keys are null.
#pragma once

#include <vector>

#include "lab/common/json.h"
#include "lab/timing/runner.h"

namespace xq::lab::timing {

// One JSON array per configuration of `s`, in configuration order.
std::vector<Json> position_figures(const LabSettings& s,
                                   const std::vector<common::SuiteEntry>& suite,
                                   const std::vector<LabRun>& runs);

}  // namespace xq::lab::timing
