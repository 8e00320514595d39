// Work and span beyond the nodes: the split points on the critical path.
//
// The split and task backends count Kuszmaul's work W (nodes) and critical
// path C (the longest chain of nodes searched one after another, in
// SearchStats::critical_path). Each split point (a task group, a pvsplit
// region) on that chain also costs its owner a publish and the helper that
// searches the longest move a join -- the burden that Cilkview's "burdened
// span" adds per spawn, which is what predicted where a measured speedup
// stopped in published game-search work. `critical_splits` counts them
// along the chain C follows (the longest move by nodes at each split
// point), so that the lab can give the burdened parallelism
// W / (C + K * b), b the burden of one split point in nodes
// (lab/timing/summary.h).
#pragma once

#include "search/counters.h"

namespace xq {

inline const DeclaredCount critical_splits{{
    .group = "work and span", .name = "critical_splits", .unit = "count",
    .merge = Merge::Max, .show = Show::PerSearch,
    .meaning = "split points on the critical path (each adds a publish and a join to it)"}};

}  // namespace xq
