// The APHID table's rules (parallel/shared/aphid.h): dealing, the master's
// visits, the searchers' jobs and results. The backend that runs it is
// aphid.cpp.
#include "parallel/shared/aphid.h"

#include <algorithm>
#include <utility>

namespace xq {
namespace aphid {

Depth Leaf::searched() const {
  for (std::size_t d = at.size(); d-- > 1;)
    if (at[d].any()) return Depth(d);
  return 0;
}

const Bounds* Leaf::bounds(Depth d) const {
  return d >= 1 && std::size_t(d) < at.size() && at[std::size_t(d)].any() ? &at[std::size_t(d)]
                                                                          : nullptr;
}

Table::Table(Settings s) : s_(std::move(s)) {
  if (s_.searchers.empty()) s_.searchers.push_back(0);
}

void Table::clear() {
  leaves_.clear();
  index_.clear();
  pass_ = 0;
  order_ = 0;
  version_ = 0;
}

void Table::begin_pass() {
  ++pass_;
  order_ = 0;
}

bool Table::decided(const Leaf& l, Window w, Value* value) const {
  const Depth top = s_.deeper_decides ? Depth(l.at.size()) - 1 : l.need;
  for (Depth d = top; d >= l.need && d >= 1; --d) {
    const Bounds* b = l.bounds(d);
    if (!b) continue;
    if (b->lower >= w.beta) *value = b->lower;
    else if (b->upper <= w.alpha) *value = b->upper;
    else if (b->exact()) *value = b->lower;
    else continue;
    return true;
  }
  return false;
}

Answer Table::visit(Key key, std::span<const Move> path, Depth need, Window w) {
  const auto [it, fresh] = index_.try_emplace(key, leaves_.size());
  if (fresh) {
    Leaf l;
    l.key = key;
    l.path.assign(path.begin(), path.end());
    l.owner = s_.searchers[leaves_.size() % s_.searchers.size()];
    leaves_.push_back(std::move(l));
  }
  Leaf& l = leaves_[it->second];
  const bool seen = l.pass == pass_;
  l.need = need;
  if (!seen) {
    l.pass = pass_;
    l.order = order_++;
    l.want = w;
    l.open = false;
  }
  Answer a;
  if (decided(l, w, &a.value)) {
    a.certain = true;
    return a;
  }
  l.want = l.open ? Window{std::min(l.want.alpha, w.alpha), std::max(l.want.beta, w.beta)} : w;
  l.open = true;
  a.blind = true;
  for (Depth d = Depth(l.at.size()) - 1; d >= 1; --d) {
    if (d == need) continue;
    if (const Bounds* b = l.bounds(d)) {
      a.value = b->lower > -kInfinite ? b->lower : b->upper;
      a.blind = false;
      break;
    }
  }
  if (const Bounds* b = l.bounds(need)) {
    a.value = a.blind ? (b->lower > -kInfinite ? b->lower : b->upper)
                      : std::clamp(a.value, b->lower, b->upper);
    a.blind = false;
  }
  return a;
}

const std::vector<Move>* Table::line(Key key) const {
  const Leaf* l = find(key);
  return l && !l->pv.empty() ? &l->pv : nullptr;
}

const Leaf* Table::find(Key key) const {
  const auto it = index_.find(key);
  return it == index_.end() ? nullptr : &leaves_[it->second];
}

bool Table::wanted(const Leaf& l) const {
  Value v;
  return l.pass == pass_ && l.need > 0 && !decided(l, l.want, &v);
}

std::optional<Job> Table::job(Leaf& l, bool speculative) {
  l.busy = true;
  Job j;
  j.key = l.key;
  j.path = l.path;
  j.speculative = speculative;
  j.first = std::max(1, l.searched() + 1);
  if (!speculative) {
    j.again = l.searched() >= l.need;
    j.depth = l.need;
    j.window = l.want;
  } else {
    j.depth = l.need + 1;
    const Bounds& b = l.at[std::size_t(l.need)];  // decided: some bound exists
    const Value centre = b.exact() || b.lower > -kInfinite ? b.lower : b.upper;
    j.window = {std::max(Value(centre - s_.margin), -kInfinite),
                std::min(Value(centre + s_.margin), kInfinite)};
  }
  j.first = std::min(j.first, j.depth);
  return j;
}

std::optional<Job> Table::take(int searcher, bool speculative_ok) {
  Leaf* best = nullptr;
  const auto before = [](const Leaf& a, bool a_own, const Leaf& b, bool b_own) {
    if (a_own != b_own) return a_own;
    return a.order < b.order;
  };
  for (Leaf& l : leaves_) {
    const bool own = l.owner == searcher;
    if (l.busy || (!own && !s_.steal) || !wanted(l)) continue;
    if (!best || before(l, own, *best, best->owner == searcher)) best = &l;
  }
  if (best) return job(*best, false);
  if (!s_.speculate || !speculative_ok) return std::nullopt;
  for (Leaf& l : leaves_) {
    if (l.busy || l.owner != searcher || l.pass != pass_ || l.need < 1) continue;
    if (l.searched() != l.need || !l.bounds(l.need)) continue;
    if (!best || l.order < best->order) best = &l;
  }
  if (best) return job(*best, true);
  return std::nullopt;
}

void Table::record(Key key, Depth d, Window w, Value v, std::span<const Move> pv, bool done) {
  const auto it = index_.find(key);
  if (it == index_.end() || d < 1) return;
  Leaf& l = leaves_[it->second];
  if (done) l.busy = false;
  if (l.at.size() <= std::size_t(d)) l.at.resize(std::size_t(d) + 1);
  Bounds found;
  if (v <= w.alpha) found.upper = v;
  else if (v >= w.beta) found.lower = v;
  else found.lower = found.upper = v;
  Bounds& b = l.at[std::size_t(d)];
  const Bounds both{std::max(b.lower, found.lower), std::min(b.upper, found.upper)};
  b = both.lower <= both.upper ? both : found;
  if (found.exact() && d >= l.pv_depth) {
    l.pv.assign(pv.begin(), pv.end());
    l.pv_depth = d;
  }
  if (d >= l.need) ++version_;
}

bool Table::has_work(int searcher) const {
  for (const Leaf& l : leaves_)
    if (l.owner == searcher && !l.busy && wanted(l)) return true;
  return false;
}

void Table::release(Key key) {
  const auto it = index_.find(key);
  if (it != index_.end()) leaves_[it->second].busy = false;
}

}  // namespace aphid

}  // namespace xq
