// Where the task family (jamboree) runs its tasks: groups of tasks that a
// task may spawn and wait for, with work stealing between threads. On real
// threads that is oneTBB (a task_arena of the backend's thread count, a
// tbb::task_group per group); on a simulated machine (parallel/sim) it is a
// small deterministic work-stealing scheduler of the same shape, because
// TBB's worker threads cannot hand the machine's token over when they wait.
//
// The shape both keep: run_group(n, body) runs body(0..n-1) as n tasks and
// returns when every one has run or was skipped; the calling thread runs
// tasks itself while it waits (its own group's first, newest first, then any
// other thread's, oldest first). Tasks are spawned in reverse order, so the
// caller works through the group in order while thieves take its last
// tasks. A task that finds the group's cut flag set when it starts returns
// at once: that is how a group is cancelled. TBB's own cancellation
// (task_group::cancel(), or a task's exception reaching TBB) is not used: it
// finishes tasks without running them, and a task finished that way never
// runs the acquire below. The first exception a task throws sets the cut
// flag and is rethrown by run_group() after every task of the group has
// finished.
//
// Every task start synchronises with the spawn (an acquire of the group's
// release) and every task end with the wait's return, on atomics of this
// file: ThreadSanitizer sees the hand-overs even though libtbb is not
// instrumented.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "parallel/thread_pool.h"

namespace xq::tasks {

class Executor {
 public:
  using Body = std::function<void(int index)>;

  explicit Executor(int threads);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  int threads() const { return threads_; }

  // Runs `root` on the calling thread as slot 0 with the executor's other
  // threads ready to run tasks, and returns when it has returned and no task
  // runs any more. On a simulated machine (the caller's thread attached to
  // it) the helpers are logical threads 1..threads-1.
  void run(const std::function<void()>& root);

  // The calling thread's slot, in [0, threads()): stable while a task runs.
  int slot() const;

  // Runs body(i) for i in [0, n) as tasks (see the file comment) and returns
  // when all have finished or were skipped because `cut` was set.
  void run_group(int n, const Body& body, std::atomic<bool>& cut);

  // Tasks that ran on another slot than the one that spawned them, since the
  // last reset (both schedulers count the same way).
  std::uint64_t stolen() const { return stolen_.load(std::memory_order_relaxed); }
  void reset_counts() { stolen_.store(0, std::memory_order_relaxed); }

 private:
  struct Spawned;
  struct SimGroup;
  struct SimTask {
    SimGroup* group = nullptr;
    int index = 0;
  };
  void run_simulated(const std::function<void()>& root);
  void simulated_group(int n, const Body& body, std::atomic<bool>& cut);
  bool take_simulated(int slot, SimTask& out);
  void run_simulated_task(int slot, const SimTask& t);
  void serve_simulated(int slot);
  // Runs one task if there is one (polls = 0), else waits as an idle look.
  void run_or_wait_simulated(int slot, int& polls);

  const int threads_;
  struct Tbb;  // the arena and the process's TBB settings (executor.cpp)
  std::unique_ptr<Tbb> tbb_;
  std::atomic<std::uint64_t> stolen_{0};

  // The simulated scheduler: per logical thread a deque of tasks (its newest
  // at the back), touched under sim_lock_ by the token holder only; the
  // helpers' OS threads are made on the first simulated search.
  bool simulating_ = false;
  int sim_base_ = 0;  // simulating: the logical id of run()'s caller (slot 0)
  int sim_slot() const;
  std::atomic<bool> sim_done_{false};
  std::mutex sim_lock_;
  std::vector<std::deque<SimTask>> sim_queues_;
  std::unique_ptr<ThreadPool> sim_threads_;
};

}  // namespace xq::tasks
