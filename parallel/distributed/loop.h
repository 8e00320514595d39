// The loop wire: R ranks in one process, each with an inbox, and a message
// visible to its receiver `latency` after it was sent (0: at once). What a
// distributed backend does over it is what it does over MPI, minus the
// processes: the contract tests and ThreadSanitizer check the protocols in
// every build, and a latency shows what a slower network would cost.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "parallel/distributed/transport.h"

namespace xq::dist {

class LoopWorld {
 public:
  LoopWorld(int ranks, std::chrono::microseconds latency);
  ~LoopWorld();
  LoopWorld(const LoopWorld&) = delete;
  LoopWorld& operator=(const LoopWorld&) = delete;

  int size() const { return int(ends_.size()); }
  Transport& rank(int r);

 private:
  class End;
  std::vector<std::unique_ptr<End>> ends_;
};

}  // namespace xq::dist
