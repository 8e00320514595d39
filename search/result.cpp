#include "search/result.h"

#include <algorithm>

namespace xq {

SearchStats& SearchStats::operator+=(const SearchStats& o) {
  // Two core counters are maxima (the critical path, the selective depth).
  const std::uint64_t path = std::max(critical_path.load(), o.critical_path.load());
  const std::uint64_t sel = std::max(seldepth.load(), o.seldepth.load());
#define XQ_ADD(n) n += o.n.load();
  XQ_SEARCH_COUNTERS(XQ_ADD)
#undef XQ_ADD
  critical_path = path;
  seldepth = sel;
  // The declared ones merge as they declare.
  for (const DeclaredRef& d : declared_counters()) {
    const std::size_t k = std::size_t(d.slot);
    const bool max = d.spec->merge == Merge::Max;
    if (d.seconds)
      seconds[k] = max ? std::max(seconds[k].load(), o.seconds[k].load())
                       : seconds[k].load() + o.seconds[k].load();
    else
      counts[k] = max ? std::max(counts[k].load(), o.counts[k].load())
                      : counts[k].load() + o.counts[k].load();
  }
  return *this;
}

double counter_value(const SearchStats& s, std::string_view name) {
  double v = 0;
  for_each_counter(s, [&](std::string_view n, const auto& c) {
    if (n == name) v = double(c.load());
  });
  return v;
}

std::optional<int> SearchResult::mate() const {
  if (score >= kMateInMaxPly) return (kMate - score + 1) / 2;
  if (score <= -kMateInMaxPly) return -((kMate + score) / 2);
  return std::nullopt;
}

}  // namespace xq
