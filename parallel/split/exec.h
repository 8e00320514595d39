// Where the split pool's threads run: the Exec parameter of split::Pool
// (pool.h). Threads share one address space: a helper reads the owner's node
// (its SplitContext, its move picker, the node's child-search closure) in
// place, on the owner's stack, and split points lock with std::mutex. Worker
// processes (ybwc-proc) share only what was mapped before they were forked:
// the threads' state and split points live in a shared mapping, a split
// point locks with a spin lock in that mapping, and a split copies the node
// itself into the split point, since the owner's stack is its own process's.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>

#include "hashing/memory.h"
#include "hashing/processes.h"
#include "parallel/split/common.h"
#include "search/hooks.h"
#include "search/movepick.h"

namespace xq::split {

// A lock that works between processes: one word in shared memory, spun on
// (briefly with pause, then yielding). It holds no owner, so a process that
// dies holding it can be released by force (force_unlock) once every other
// user is known to be dead or stopped.
class SharedSpinLock {
 public:
  bool try_lock() noexcept {
    return !word_.load(std::memory_order_relaxed) &&
           !word_.exchange(1, std::memory_order_acquire);
  }
  void lock() noexcept {
    for (int spins = 0; !try_lock(); ++spins) {
      if (spins < 64) {
        cpu_relax();
      } else {
        std::this_thread::yield();
        // A helper waiting for a lock its killed parent held leaves.
        if ((spins & 1023) == 1023) WorkerProcesses::leave_if_orphaned();
      }
    }
  }
  void unlock() noexcept { word_.store(0, std::memory_order_release); }
  void force_unlock() noexcept { unlock(); }

 private:
  std::atomic<std::uint32_t> word_{0};
};
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

// Threads: the owner's node is read in place; nothing to copy.
struct ThreadExec {
  static constexpr bool kProcesses = false;
  static constexpr TableMemory kMemory = TableMemory::Private;
  using Lock = std::mutex;
  struct NodeCopy {};
};

// Processes: the split point carries a copy of the node (its context, its
// picker with the moves not yet handed out, and the bytes of the child
// search's closure, which holds only a pointer to the Search object; that
// object sits at the same address in every process, see ybwc_proc.cpp).
struct ProcessExec {
  static constexpr bool kProcesses = true;
  static constexpr TableMemory kMemory = TableMemory::Shared;
  using Lock = SharedSpinLock;
  static constexpr std::size_t kClosureBytes = 16;
  // Called by a waiting thread after each idle round (`spins` of them so
  // far): a helper process whose parent is gone leaves, since nobody will
  // end the search it waits in (it looks every 256 rounds once it sleeps
  // between them, some 13 ms apart).
  static void leave_if_orphaned(int spins) {
    if (spins >= 1024 && (spins & 255) == 0) WorkerProcesses::leave_if_orphaned();
  }
  struct NodeCopy {
    SplitContext ctx;
    MovePicker picker;
    alignas(16) unsigned char closure[kClosureBytes] = {};
  };
};

}  // namespace xq::split
