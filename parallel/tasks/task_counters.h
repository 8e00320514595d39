// The task family's own counters (search/counters.h): tasks run, those run
// by another thread than the one that spawned them, and the abort latency.
// The core's splits (tasks spawned), aborts, researches and critical path
// (search/result.h) are counted here too.
#pragma once

#include "search/counters.h"

namespace xq::tasks {

inline const DeclaredCount tasks{{
    .group = "tasks", .name = "tasks", .unit = "count", .show = Show::PerSecond,
    .meaning = "tasks run"}};
inline const DeclaredCount stolen_tasks{{
    .group = "tasks", .name = "stolen_tasks", .unit = "count", .show = Show::Ratio,
    .of = "tasks", .meaning = "tasks run by another thread than the one that spawned them"}};
// The time from a cutoff to the end of its group's wait, summed over
// cutoffs: over the aborts, the mean abort latency.
inline const DeclaredSeconds cancel_wait_seconds{{
    .group = "tasks", .name = "cancel_wait_seconds", .unit = "seconds", .show = Show::Ratio,
    .of = "aborts", .meaning = "time from a cutoff to the end of its cancelled group's wait"}};

}  // namespace xq::tasks
