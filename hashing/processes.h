// Worker processes that share memory with their parent: the executor of the
// hash stress tool's process mode (and of any backend that runs its workers
// as processes). What the workers share must have been mapped before they
// were forked (TableMemory::Shared); everything else is their own copy.
//
// A worker ignores SIGINT (its parent decides when work stops, through the
// shared memory). By default it is killed with SIGKILL when the thread that
// forked it ends (PR_SET_PDEATHSIG), so an interrupted or crashed parent
// leaves no orphan; that signal follows the forking *thread*, so workers
// forked by a thread that may end before them opt out and watch their parent
// themselves (parent_alive()). A worker that dies (killed, or its job threw) is reported by the
// parent as one line, after the parent has killed and reaped every other
// worker: a dead worker may have died holding a lock in shared memory, so
// nothing that touches that memory may go on.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace xq {

class WorkerProcesses {
 public:
  using Job = std::function<void(int)>;

  // Forks n workers from the calling thread; worker i runs job(i) and leaves
  // with _exit: status 0 when job returned, 1 when it threw (no destructor or
  // atexit handler of the parent's runs in it). `what` names them in errors
  // ("stress worker"). Throws std::runtime_error when a fork fails (the
  // workers already forked are killed and reaped).
  WorkerProcesses(std::string what, int n, const Job& job, bool die_with_thread = true);
  // Kills and reaps every worker still running.
  ~WorkerProcesses();
  WorkerProcesses(const WorkerProcesses&) = delete;
  WorkerProcesses& operator=(const WorkerProcesses&) = delete;

  int size() const { return int(workers_.size()); }
  // In a worker: whether the process that forked it still lives.
  static bool parent_alive();
  // Whether the calling process is a worker (forked by a WorkerProcesses).
  static bool in_worker();
  // In a worker whose parent is gone: leaves (_exit(0)). For loops that
  // would otherwise wait for ever on what the dead parent held or owed (a
  // lock word in shared memory, the end of a search); a no-op elsewhere.
  static void leave_if_orphaned() noexcept;
  pid_t pid(int i) const { return workers_[std::size_t(i)].pid; }

  // Reaps the workers that have ended without waiting. Throws
  // std::runtime_error (one line naming the worker, its pid and its signal
  // or status) for one that ended abnormally, after killing and reaping the
  // others. Returns how many have exited normally so far.
  int poll();
  // Waits up to grace_seconds for every worker to exit, then kills those
  // still running; throws as poll() does (one that had to be killed counts
  // as abnormal: "did not stop within ...").
  void join(double grace_seconds);
  // Kills (SIGKILL) and reaps every worker still running; never throws.
  void kill_all() noexcept;

 private:
  struct Worker {
    pid_t pid = -1;
    bool reaped = false;
    int status = 0;
  };
  // A line for worker i's abnormal end, or "" when it exited with status 0.
  std::string failure(int i) const;

  std::string what_;
  std::vector<Worker> workers_;
};

// Waiting on a word in shared memory across processes (a futex without the
// private flag: std::atomic::wait's is process-private). shared_wait returns
// when `word` no longer holds `old`, after timeout_us microseconds, or
// spuriously: callers loop. shared_wake_all wakes every waiter of `word`.
static_assert(sizeof(std::atomic<std::uint32_t>) == 4);
void shared_wait(const std::atomic<std::uint32_t>& word, std::uint32_t old, long timeout_us);
void shared_wake_all(std::atomic<std::uint32_t>& word);

}  // namespace xq
