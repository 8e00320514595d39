#include "hashing/processes.h"

#include <linux/futex.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <ctime>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace xq {

namespace {
pid_t g_parent = 0;  // in a worker: the pid of the process that forked it
}  // namespace

bool WorkerProcesses::parent_alive() { return ::getppid() == g_parent; }
bool WorkerProcesses::in_worker() { return g_parent != 0; }
void WorkerProcesses::leave_if_orphaned() noexcept {
  if (in_worker() && !parent_alive()) ::_exit(0);
}

WorkerProcesses::WorkerProcesses(std::string what, int n, const Job& job, bool die_with_thread)
    : what_(std::move(what)) {
  const pid_t parent = ::getpid();
  workers_.reserve(std::size_t(n));
  for (int i = 0; i < n; ++i) {
    const pid_t pid = ::fork();
    if (pid < 0) {
      const int err = errno;
      kill_all();
      throw std::runtime_error("cannot fork " + what_ + " " + std::to_string(i + 1) + " of " +
                               std::to_string(n) + ": " + std::strerror(err));
    }
    if (pid == 0) {
      // The worker: leaves SIGINT to the parent; dies with the forking thread
      // unless it watches its parent itself.
      g_parent = parent;
      if (die_with_thread) ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(1);  // the parent died already
      ::signal(SIGINT, SIG_IGN);
      try {
        job(i);
      } catch (...) {
        ::_exit(1);
      }
      ::_exit(0);
    }
    workers_.push_back({pid});
  }
}

WorkerProcesses::~WorkerProcesses() { kill_all(); }

std::string WorkerProcesses::failure(int i) const {
  const Worker& w = workers_[std::size_t(i)];
  const std::string who = what_ + " process " + std::to_string(i + 1) + " of " +
                          std::to_string(size()) + " (pid " + std::to_string(w.pid) + ")";
  if (WIFSIGNALED(w.status))
    return who + " was killed by signal " + std::to_string(WTERMSIG(w.status)) + " (" +
           ::strsignal(WTERMSIG(w.status)) + ")";
  if (WIFEXITED(w.status) && WEXITSTATUS(w.status) != 0)
    return who + " exited with status " + std::to_string(WEXITSTATUS(w.status)) +
           (WEXITSTATUS(w.status) == 1 ? " (its work threw)" : "");
  return "";
}

int WorkerProcesses::poll() {
  int done = 0;
  for (int i = 0; i < size(); ++i) {
    Worker& w = workers_[std::size_t(i)];
    if (!w.reaped) {
      int status = 0;
      const pid_t r = ::waitpid(w.pid, &status, WNOHANG);
      if (r == w.pid) {
        w.reaped = true;
        w.status = status;
      } else if (r < 0 && errno == ECHILD) {  // reaped by someone else: its end is unknown
        w.reaped = true;
        w.status = 0;
      }
    }
    if (!w.reaped) continue;
    if (const std::string line = failure(i); !line.empty()) {
      kill_all();
      throw std::runtime_error(line);
    }
    ++done;
  }
  return done;
}

void WorkerProcesses::join(double grace_seconds) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(grace_seconds));
  while (poll() < size()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      int late = 0;
      while (workers_[std::size_t(late)].reaped) ++late;
      const std::string who = what_ + " process " + std::to_string(late + 1) + " of " +
                              std::to_string(size()) + " (pid " +
                              std::to_string(workers_[std::size_t(late)].pid) + ")";
      kill_all();
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", grace_seconds);
      throw std::runtime_error(who + " did not stop within " + seconds + " s and was killed");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

void WorkerProcesses::kill_all() noexcept {
  for (Worker& w : workers_)
    if (!w.reaped) ::kill(w.pid, SIGKILL);
  for (Worker& w : workers_) {
    if (w.reaped) continue;
    int status = 0;
    while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    w.reaped = true;
    w.status = status;
  }
}

void shared_wait(const std::atomic<std::uint32_t>& word, std::uint32_t old, long timeout_us) {
  if (word.load(std::memory_order_acquire) != old) return;
  timespec t{};
  t.tv_sec = timeout_us / 1000000;
  t.tv_nsec = (timeout_us % 1000000) * 1000;
  ::syscall(SYS_futex, reinterpret_cast<const std::uint32_t*>(&word), FUTEX_WAIT, old, &t,
            nullptr, 0);
}

void shared_wake_all(std::atomic<std::uint32_t>& word) {
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, INT_MAX, nullptr,
            nullptr, 0);
}

}  // namespace xq
