#include "search/result.h"

#include <algorithm>

namespace xq {

SearchStats& SearchStats::operator+=(const SearchStats& o) {
  // Two counters are maxima (the critical path, the selective depth).
  const std::uint64_t path = std::max(critical_path.load(), o.critical_path.load());
  const std::uint64_t sel = std::max(seldepth.load(), o.seldepth.load());
#define XQ_ADD(n) n += o.n.load();
  XQ_SEARCH_COUNTERS(XQ_ADD)
#undef XQ_ADD
  critical_path = path;
  seldepth = sel;
  return *this;
}

std::optional<int> SearchResult::mate() const {
  if (score >= kMateInMaxPly) return (kMate - score + 1) / 2;
  if (score <= -kMateInMaxPly) return -((kMate + score) / 2);
  return std::nullopt;
}

}  // namespace xq
