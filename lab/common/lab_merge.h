// The documents of one SIMULATED sweep run a backend at a time (as
// bench/many_cores.sh does) as one lab document, so that one chart holds
// every family's curve (the report) and one decision weighs every family
// (recommend --threads LIST).
#pragma once

#include <cstddef>
#include <vector>

#include "lab/common/json.h"

namespace xq::lab::common {

// Groups of indices into `docs`, in order of first appearance, each group
// one experiment: SIMULATED lab documents run alike (mode, simulated
// machine, suite, depth, profile, runs, table, parameters) whose serial rows
// agree to the node and the virtual second (a simulation repeats exactly)
// and whose other rows do not repeat (a repeated row is a second
// measurement, not more of the sweep). A measured document, or one that
// differs, is a group of its own.
std::vector<std::vector<std::size_t>> sweep_groups(const std::vector<Json>& docs);

// One group as one document: the first one's settings, one serial row, every
// other row, "meta.merged_from" each document's command, date and commit
// (a group of one: that document unchanged).
Json merge_sweep(const std::vector<Json>& docs, const std::vector<std::size_t>& group);

// merge_sweep of every group.
std::vector<Json> merge_lab_sweeps(const std::vector<Json>& docs);

}  // namespace xq::lab::common
