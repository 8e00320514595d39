// The state every thread of one search shares: options, start time, the stop
// flag and the node count flushed by the workers.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "search/options.h"
#include "search/virtual_time.h"
#include "search/worker.h"

namespace xq {

// State shared by every thread of one search; set up before threads start.
struct SearchShared {
  // Constant after set-up.
  SearchOptions options;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  // Under a simulated machine (search/virtual_time.h): its virtual time at
  // the start, and elapsed_ms() counts virtual time.
  sim::Clock* sim = sim::current();
  double sim_start = sim ? sim->now_seconds() : 0.0;
  // Mutable, touched by every thread.
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> nodes{0};  // flushed by workers in batches (node limit)
  // The deepest iteration any thread has started (kept with the singular
  // extension on: it extends only down to twice this many plies).
  std::atomic<int> root_depth{0};

  double elapsed_ms() const {
    if (sim) return 1000.0 * (sim->now_seconds() - sim_start);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  }
  bool stopped() const { return stop.load(std::memory_order_relaxed); }
};

// Whether the time limit has passed or the caller's stop signal is set (the
// limits that need no node count). A thread that waits on something other
// than its own nodes (a distributed rank's claim round trips) has another
// thread ask this for it.
inline bool clock_or_signal_stops(const SearchShared& shared) {
  const SearchOptions& opt = shared.options;
  return (opt.limits.movetime_ms && shared.elapsed_ms() >= double(opt.limits.movetime_ms)) ||
         (opt.stop_signal && opt.stop_signal->load(std::memory_order_relaxed));
}

// At a thread's first node and every `batch` nodes after it: adds the nodes
// it searched since the last call to the shared count, then tests the node
// limit, the time limit and the caller's stop signal. The node limit is
// reached when the shared count is; every other thread has at most one batch
// unflushed and stops at its next node, so a search ends within
// [N, N + batch x threads] nodes.
// Under a simulated machine the batch is its quantum, and the machine may
// hand the processor to another logical thread here first.
inline void check_search_limits(Worker& w, SearchShared& shared, std::uint64_t batch) {
  w.next_time_check = w.stats.nodes + batch;
  if (shared.sim) shared.sim->at_quantum(w);
  const std::uint64_t fresh = w.stats.nodes - w.flushed_nodes;
  w.flushed_nodes = w.stats.nodes;
  const SearchOptions& opt = shared.options;
  const std::uint64_t total = shared.nodes.fetch_add(fresh, std::memory_order_relaxed) + fresh;
  if ((opt.limits.nodes && total >= opt.limits.nodes) || clock_or_signal_stops(shared))
    shared.stop.store(true, std::memory_order_relaxed);
}

}  // namespace xq
