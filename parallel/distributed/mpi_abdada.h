// mpi-abdada's own counters (search/counters.h): claims of nodes homed at
// another rank (round trips), and the seconds the threads waited for their
// answers. The round trips' times go to SearchResult::round_trips.
#pragma once

#include "search/counters.h"

namespace xq::dist {

inline const DeclaredCount remote_probes{{
    .group = "remote claims", .name = "remote_probes", .unit = "round trips",
    .show = Show::PerSecond, .meaning = "claims of nodes homed at another rank (round trips)"}};
inline const DeclaredSeconds remote_wait_seconds{{
    .group = "remote claims", .name = "remote_wait_seconds", .unit = "seconds",
    .show = Show::ThreadShare, .meaning = "the threads' time spent waiting for the answers"}};

}  // namespace xq::dist
