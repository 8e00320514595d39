// The seam through which a simulated machine (parallel/sim/) runs the
// engine's own code on virtual time. A thread attached to a simulated
// machine sees it through sim::current(); every other thread sees nullptr
// and pays one thread-local load per limit check (every Search::kNodeBatch
// nodes) and per time-accounting clock read, nothing per node.
//
// Under a simulated machine exactly one logical thread runs at a time, and
// the node function hands the processor over only at its limit check
// (check_search_limits), which the machine moves to every `quantum` nodes;
// the thread's virtual clock advances by the costs of the nodes it searched.
// Declared here (search/ knows nothing of parallel/); implemented by
// parallel/sim/machine.h.
#pragma once

#include <cstdint>

namespace xq {
struct Worker;
}

namespace xq::sim {

class Clock {
 public:
  // At a worker's limit check: charges the nodes it searched since the last
  // call, may hand the processor to another logical thread (returning when
  // this one runs again), and sets w.next_time_check to the next quantum.
  virtual void at_quantum(Worker& w) = 0;
  // The calling logical thread's virtual time in seconds.
  virtual double now_seconds() const = 0;

 protected:
  ~Clock() = default;
};

namespace detail {
inline Clock*& current_slot() {
  static thread_local Clock* clock = nullptr;
  return clock;
}
}  // namespace detail

// The simulated machine the calling thread is attached to, or nullptr.
inline Clock* current() { return detail::current_slot(); }

}  // namespace xq::sim
