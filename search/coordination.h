// The counters of the node function's shared-table coordination (the hooks
// kClaimsNodes and kDefersMoves, search/hooks.h, and the root's shared
// best): declared here, beside the code that counts them, as any family
// declares its own (search/counters.h). Zero for a backend that does not
// coordinate through the table.
#pragma once

#include "search/counters.h"

namespace xq::coordination {

inline const DeclaredCount busy_answers{{
    .group = "coordination", .name = "busy_answers", .unit = "count",
    .meaning = "exclusive probes answered 'being searched' (or moves found marked busy)"}};
inline const DeclaredCount deferrals{{
    .group = "coordination", .name = "deferrals", .unit = "count",
    .meaning = "moves put aside to the deferred pass"}};
inline const DeclaredCount deferred_searches{{
    .group = "coordination", .name = "deferred_searches", .unit = "count",
    .meaning = "deferred moves searched in the second pass"}};
inline const DeclaredCount cutoff_reprobes{{
    .group = "coordination", .name = "cutoff_reprobes", .unit = "count",
    .meaning = "table re-probes made because a move was deferred"}};
inline const DeclaredCount root_retests{{
    .group = "coordination", .name = "root_retests", .unit = "count",
    .meaning = "root fail highs re-tested at another thread's raised best"}};
inline const DeclaredCount root_adoptions{{
    .group = "coordination", .name = "root_adoptions", .unit = "count",
    .meaning = "root bests taken from another thread (or rank)"}};
inline const DeclaredCount mark_underflows{{
    .group = "coordination", .name = "mark_underflows", .unit = "count", .show = Show::Total,
    .meaning = "busy-mark releases that found the count already at zero (lost updates)"}};
inline const DeclaredCount mark_leaks{{
    .group = "coordination", .name = "mark_leaks", .unit = "count", .show = Show::Total,
    .meaning = "busy marks still set when the search ended"}};

}  // namespace xq::coordination
