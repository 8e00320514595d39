// The distributed family's own counters (search/counters.h), summed over
// ranks: message bodies sent and received over the wire (after a search
// the sums agree), table entries deep enough to share that the threads
// offered, those the ranks shipped (the rest were displaced by deeper ones
// before a tick took them), and those that arrived from other ranks.
#pragma once

#include "search/counters.h"

namespace xq::dist {

inline const DeclaredCount msgs_sent{{
    .group = "wire", .name = "msgs_sent", .unit = "messages", .show = Show::PerSecond,
    .meaning = "message bodies sent over the wire, every rank"}};
inline const DeclaredCount bytes_sent{{
    .group = "wire", .name = "bytes_sent", .unit = "bytes", .show = Show::PerSecond,
    .meaning = "bytes of message bodies sent, every rank"}};
inline const DeclaredCount msgs_received{{
    .group = "wire", .name = "msgs_received", .unit = "messages", .show = Show::Total,
    .meaning = "message bodies received (after a search: as many as were sent)"}};
inline const DeclaredCount bytes_received{{
    .group = "wire", .name = "bytes_received", .unit = "bytes", .show = Show::Total,
    .meaning = "bytes of message bodies received"}};
inline const DeclaredCount entries_offered{{
    .group = "wire", .name = "entries_offered", .unit = "entries",
    .meaning = "table entries deep enough to share that the threads offered"}};
inline const DeclaredCount entries_shipped{{
    .group = "wire", .name = "entries_shipped", .unit = "entries", .show = Show::Ratio,
    .of = "entries_offered", .meaning = "offered entries the ranks shipped"}};
inline const DeclaredCount entries_received{{
    .group = "wire", .name = "entries_received", .unit = "entries",
    .meaning = "table entries that arrived from other ranks"}};

}  // namespace xq::dist
