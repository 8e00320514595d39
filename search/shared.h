// The state every thread of one search shares: options, start time, the stop
// flag and the node count flushed by the workers.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "search/options.h"

namespace xq {

// State shared by every thread of one search; set up before threads start.
struct SearchShared {
  // Constant after set-up.
  SearchOptions options;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  // Mutable, touched by every thread.
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> nodes{0};  // flushed by workers in batches (node limit)

  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  }
  bool stopped() const { return stop.load(std::memory_order_relaxed); }
};

}  // namespace xq
