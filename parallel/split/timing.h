// Where a splitting backend's threads spend their time (SearchStats'
// search/idle/lock/copy seconds, their span, and wasted nodes), measured only
// around splits, joins and split-point locks, never per node: a clock read
// costs ~20 ns and a split point's move takes thousands of nodes.
//
// One rule for every backend that splits (pvsplit, ybwc, dts): each thread
// keeps a Ledger, which is in exactly one Part at any instant. A thread's
// span starts when the search starts (a helper that has not woken yet is as
// idle as one waiting for a split point) and ends when the search ends; every
// instant of it goes to the Part the thread was in, so
//     search + idle + lock + copy = span
// for every thread by construction, and each part is counted once:
//   idle   waiting for work (scanning for a split point, waiting for helpers),
//          the locks taken to join included;
//   lock   waiting for a contended split-point lock while working;
//   copy   copying positions and move-ordering tables at splits and joins;
//   search everything else.
//
// The clock is a seam: tests (and a simulated machine) install their own
// with set_clock(); a real run pays one relaxed load per clock read.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

#include "parallel/sim/machine.h"
#include "search/result.h"
#include "search/virtual_time.h"

namespace xq::split_timing {

using Clock = std::chrono::steady_clock;
using NowFn = Clock::time_point (*)();

namespace detail {
inline std::atomic<NowFn>& clock_source() {
  static std::atomic<NowFn> source{nullptr};
  return source;
}
}  // namespace detail

// Installs `fn` as the clock of every ledger (nullptr: the steady clock).
// Call it only while no search runs.
inline void set_clock(NowFn fn) { detail::clock_source().store(fn, std::memory_order_relaxed); }

// On a simulated machine: the calling logical thread's virtual time.
inline Clock::time_point now() {
  if (const sim::Clock* v = sim::current())
    return Clock::time_point(std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(v->now_seconds())));
  const NowFn fn = detail::clock_source().load(std::memory_order_relaxed);
  return fn ? fn() : Clock::now();
}

inline double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

enum class Part : std::uint8_t { Search, Idle, Lock, Copy };

// One thread's time, booked part by part. Touched only by the thread it
// belongs to while the search runs (open() and close() may come from the
// thread that starts and ends the search, which synchronises with it).
class Ledger {
 public:
  // Starts the span at `start` in part p.
  void open(Clock::time_point start, Part p) {
    started_ = since_ = start;
    part_ = p;
    open_ = true;
  }
  // Books the time since the last change to the current part and switches to
  // p; returns the part it left. A no-op (no clock read) when p is current.
  Part to(Part p, SearchStats& s) {
    const Part old = part_;
    if (p == old || !open_) return old;
    book(s, now());
    part_ = p;
    return old;
  }
  Part part() const { return part_; }
  bool is_open() const { return open_; }
  // Ends the span at `end` (default: now): books the last part and the span.
  void close(SearchStats& s) { close(s, now()); }
  void close(SearchStats& s, Clock::time_point end) {
    if (!open_) return;
    book(s, end);
    s.span_seconds += seconds_between(started_, end);
    open_ = false;
  }

 private:
  void book(SearchStats& s, Clock::time_point t) {
    const double d = seconds_between(since_, t);
    since_ = t;
    switch (part_) {
      case Part::Search: s.search_seconds += d; break;
      case Part::Idle: s.idle_seconds += d; break;
      case Part::Lock: s.lock_seconds += d; break;
      case Part::Copy: s.copy_seconds += d; break;
    }
  }

  Clock::time_point started_{}, since_{};
  Part part_ = Part::Search;
  bool open_ = false;
};

// Books the time of a scope as `p`, then returns to the part it came from.
class InPart {
 public:
  InPart(Ledger& l, SearchStats& s, Part p) : l_(l), s_(s), back_(l.to(p, s)) {}
  ~InPart() { l_.to(back_, s_); }
  InPart(const InPart&) = delete;
  InPart& operator=(const InPart&) = delete;

 private:
  Ledger& l_;
  SearchStats& s_;
  Part back_;
};

// Holds a mutex; the time spent waiting for it, when it was contended, goes
// to lock. An uncontended lock reads no clock. On a simulated machine a lock
// is never contended (one logical thread runs at a time, and none is handed
// the processor while it holds a lock): each acquisition costs `lock`.
template <class Mutex = std::mutex>
class TimedLock {
 public:
  TimedLock(Mutex& m, Ledger& l, SearchStats& s) : m_(m) {
    sim::charge(sim::Cost::Lock);
    if (m_.try_lock()) return;
    const Part back = l.to(Part::Lock, s);
    m_.lock();
    l.to(back, s);
  }
  ~TimedLock() { m_.unlock(); }
  TimedLock(const TimedLock&) = delete;
  TimedLock& operator=(const TimedLock&) = delete;

 private:
  Mutex& m_;
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

}  // namespace xq::split_timing
