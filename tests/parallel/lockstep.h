// ABDADA's threads run one at a time, in turns of a fixed number of nodes:
// a schedule that does not depend on the machine's load, so node counts,
// busy answers and search overhead come out the same on every run. A
// thread waits for its turn inside aborted() (called at every node), so the
// node function and the table are the backend's own; only the schedule is
// the test's. Thread 0 reports, as in the backend: once it has completed
// the depth limit the other threads' counts are read (they are waiting for
// their turn, so frozen) and they are told to unwind.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "parallel/abdada.h"
#include "search/driver.h"

namespace xq::testing {

// Whose turn it is; a thread that has finished is skipped.
class Baton {
 public:
  explicit Baton(int threads) : finished_(std::size_t(threads)) {}
  int threads() const { return int(finished_.size()); }
  void wait(int id) const {
    while (turn_.load(std::memory_order_acquire) != id) std::this_thread::yield();
  }
  // Gives the turn to the next thread still running (or keeps it).
  void pass(int id) {
    const int n = threads();
    for (int k = 1; k <= n; ++k) {
      const int next = (id + k) % n;
      if (!finished_[std::size_t(next)].load(std::memory_order_acquire)) {
        turn_.store(next, std::memory_order_release);
        return;
      }
    }
  }
  void finish(int id) {
    finished_[std::size_t(id)].store(true, std::memory_order_release);
    pass(id);
  }

 private:
  std::atomic<int> turn_{0};
  std::vector<std::atomic<bool>> finished_;
};

// AbdadaHooks whose threads take turns of `quantum` nodes.
class LockstepHooks : public AbdadaHooks {
 public:
  LockstepHooks(const BackendConfig& c, const AbdadaWorkers& w, const std::atomic<bool>& done,
                RootShare* root, Baton& baton, std::uint64_t quantum)
      : AbdadaHooks(c, w, done, root), baton_(baton), quantum_(quantum), next_(w.size(), quantum) {}
  bool aborted(const Worker& w) const {
    std::uint64_t& next = next_[std::size_t(w.id)];
    if (w.stats.nodes >= next) {
      next = w.stats.nodes + quantum_;
      baton_.pass(w.id);
      baton_.wait(w.id);
    }
    return AbdadaHooks::aborted(w);
  }

 private:
  Baton& baton_;
  const std::uint64_t quantum_;
  mutable std::vector<std::uint64_t> next_;  // element i: touched by thread i only
};

struct LockstepResult {
  Value score = 0;
  SearchStats stats;        // all threads, read when thread 0 completed the depth
  std::uint64_t leaks = 0;  // busy marks left in the table after every thread ended
};

// One abdada search of pos to `depth` on a fresh table of the given scheme,
// with c.threads threads taking turns of `quantum` nodes; share_root = false
// leaves each thread its own root alpha (the backend before root sharing).
template <class Table>
LockstepResult lockstep_search(const Position& pos, const BackendConfig& c, Depth depth,
                               std::uint64_t quantum, bool exact = false,
                               bool share_root = true) {
  Table tt;
  tt.configure(c.hash_mib, c.threads, c.replacement);
  tt.new_search();
  SearchShared shared;
  shared.options.limits.depth = depth;
  shared.options.exact = exact;
  AbdadaWorkers workers;
  for (int i = 0; i < c.threads; ++i) {
    workers.push_back(std::make_unique<Worker>(i));
    workers.back()->pos = pos;
  }
  std::atomic<bool> done{false};
  Baton baton(c.threads);
  RootShare root;
  LockstepHooks hooks(c, workers, done, share_root ? &root : nullptr, baton, quantum);
  Search<Table, LockstepHooks> search(tt, hooks, shared);
  std::vector<std::thread> helpers;
  for (int i = 1; i < c.threads; ++i)
    helpers.emplace_back([&, i] {
      Worker& w = *workers[std::size_t(i)];
      baton.wait(i);
      iterative_deepening(search, w, shared, nullptr);
      baton.finish(i);
    });
  LockstepResult r;
  r.score = iterative_deepening(search, *workers[0], shared, nullptr).score;
  for (const auto& w : workers) r.stats += w->stats;
  done.store(true, std::memory_order_relaxed);
  baton.finish(0);
  for (std::thread& t : helpers) t.join();
  r.leaks = tt.clear_busy_marks();
  return r;
}

}  // namespace xq::testing
