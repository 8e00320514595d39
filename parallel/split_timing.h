// Where a split backend's threads spend their time (SearchStats'
// search/idle/lock/copy seconds and wasted nodes), measured only around
// splits, joins and split-point locks, never per node: a clock read costs
// ~20 ns and a split point's move takes thousands of nodes.
//
// Each thread's time is split into disjoint parts: idle (waiting for work),
// lock (waiting for a contended split-point lock while working), copy
// (copying positions and move-ordering tables at splits and joins), and
// search, the rest of the thread's span (span - idle - lock - copy).
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

#include "search/result.h"

namespace xq::split_timing {

using Clock = std::chrono::steady_clock;

inline double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Holds a mutex; the time spent waiting for it, when it was contended, goes
// to `stats.lock_seconds`. An uncontended lock reads no clock.
class TimedLock {
 public:
  TimedLock(std::mutex& m, SearchStats& stats) : m_(m) {
    if (m_.try_lock()) return;
    const Clock::time_point t0 = Clock::now();
    m_.lock();
    stats.lock_seconds += seconds_between(t0, Clock::now());
  }
  ~TimedLock() { m_.unlock(); }
  TimedLock(const TimedLock&) = delete;
  TimedLock& operator=(const TimedLock&) = delete;

 private:
  std::mutex& m_;
};

// Counts the nodes of one child search at a split point as wasted when a
// cutoff threw its result away. Nested split points inside the child search
// may already have counted part of them (the same thread's nodes): those are
// subtracted, so every node is counted once.
class ChildNodes {
 public:
  explicit ChildNodes(const SearchStats& s) : nodes0_(s.nodes), wasted0_(s.wasted_nodes) {}
  void discard(SearchStats& s) const {
    const std::uint64_t all = s.nodes - nodes0_;
    const std::uint64_t inner = s.wasted_nodes - wasted0_;
    s.wasted_nodes += all - inner;
  }

 private:
  std::uint64_t nodes0_, wasted0_;
};

// Ends a thread's span: its search time is what idle, lock and copy left.
inline void close_span(SearchStats& s, double span_seconds) {
  const double rest = span_seconds - s.idle_seconds - s.lock_seconds - s.copy_seconds;
  s.search_seconds = rest > 0 ? rest : 0.0;
}

}  // namespace xq::split_timing
