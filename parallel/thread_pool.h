// A pool of persistent helper threads owned by no search algorithm. Thread 0
// is the caller's thread (it runs iterative deepening); threads 1..size()-1
// are helpers that sleep between searches and, per search, run one job the
// backend hands them: ybwc's look-for-split-points loop today, a Lazy-SMP or
// ABDADA thread's own iterative deepening tomorrow. Creating OS threads per
// search would cost more than a short search, so they are made once.
//
// Life of a helper: Parked (asleep on the condition variable) -> Running (the
// job) -> Parked again when the job returns, until the pool is destroyed
// (Quitting). The backend ends a job by its own means (a flag the job polls)
// and then calls wait_parked(), after which no helper touches search state.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace xq {

enum class ThreadState : std::uint8_t { Parked, Running, Quitting };

class ThreadPool {
 public:
  // The job of one search, called once on every helper with its thread id.
  using Job = std::function<void(int thread_id)>;

  // `threads` counts the caller's thread too: threads - 1 helpers are started.
  explicit ThreadPool(int threads);
  // Quits every helper and joins it; a running job is waited for, so the
  // backend must have ended it (and called wait_parked()) first.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return int(states_.size()) + 1; }

  // Wakes every helper to run `job` once and returns at once. Every helper
  // must be parked (the previous job waited for).
  void run(Job job);
  // Blocks until every helper has returned from the job and is parked again.
  // Rethrows the first exception a job let escape.
  void wait_parked();
  // The state of helper `thread_id` (1..size()-1), for tests and reports.
  ThreadState state(int thread_id) const;

 private:
  void idle_loop(int thread_id);

  mutable std::mutex mutex_;
  std::condition_variable wake_cv_;    // helpers wait here while parked
  std::condition_variable parked_cv_;  // wait_parked() waits here
  // Guarded by mutex_.
  std::vector<ThreadState> states_;  // helper i at states_[i - 1]
  int parked_ = 0;
  int pending_ = 0;  // helpers that have not finished the current job
  std::uint64_t generation_ = 0;  // bumped per job, so a helper runs each job once
  bool quit_ = false;
  Job job_;
  std::exception_ptr error_;
  int sim_base_ = 0;  // the caller's logical id in the last run() on a simulated machine
  bool sim_fibers_ = false;  // that run()'s helpers are the machine's fibers
  // Last: started after, and joined before, the state above goes away.
  std::vector<std::thread> threads_;
};

}  // namespace xq
