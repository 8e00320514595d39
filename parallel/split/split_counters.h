// The split family's own counters (search/counters.h): how deep the split
// machinery reached, DTS-style splitting's predictions and late joins, and
// PV-splitting's schedule bound. The core's splits, joins, aborts and time
// parts (search/result.h) are counted by every splitting backend.
#pragma once

#include "search/counters.h"

namespace xq::split {

inline const DeclaredCount nested_joins{{
    .group = "split points", .name = "nested_joins", .unit = "count",
    .meaning = "joins of a split point made inside another"}};
inline const DeclaredCount master_joins{{
    .group = "split points", .name = "master_joins", .unit = "count",
    .meaning = "joins by an owner waiting for its helpers"}};

}  // namespace xq::split

namespace xq::dts {

// Split points published while no thread was idle; joins of one published
// gratuitously or already joined by another helper; split points whose
// node was predicted ALL or CUT (Knuth-Moore) when they closed, and how
// many of those predictions held (ALL: no cutoff, CUT: a cutoff).
inline const DeclaredCount gratuitous_splits{{
    .group = "dts", .name = "gratuitous_splits", .unit = "count",
    .meaning = "split points published while no thread was idle"}};
inline const DeclaredCount late_joins{{
    .group = "dts", .name = "late_joins", .unit = "count",
    .meaning = "joins of a gratuitous or already joined split point"}};
inline const DeclaredCount predicted_all{{
    .group = "dts", .name = "predicted_all", .unit = "count",
    .meaning = "split points predicted ALL when they closed"}};
inline const DeclaredCount predicted_cut{{
    .group = "dts", .name = "predicted_cut", .unit = "count",
    .meaning = "split points predicted CUT when they closed"}};
inline const DeclaredCount prediction_held{{
    .group = "dts", .name = "prediction_held", .unit = "count",
    .meaning = "predictions that held (ALL: no cutoff; CUT: a cutoff)"}};

}  // namespace xq::dts

namespace xq::pvsplit {

// The least time, in nodes, that any schedule of the run's regions could
// take on its threads: the master's nodes outside regions plus, for each
// region, the larger of its longest move and its nodes over the thread
// count. Serial nodes over it bound the speedup any PV-splitting schedule
// could reach on this tree.
inline const DeclaredCount schedule_bound{{
    .group = "pv-splitting", .name = "schedule_bound", .unit = "nodes",
    .show = Show::SerialNodesOver,
    .meaning = "serial nodes over the least time any schedule of the PV-split regions could take"}};

}  // namespace xq::pvsplit
