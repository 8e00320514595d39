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
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <thread>
#include <vector>

#include "parallel/shared/abdada.h"
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
                RootShare* root, const FirstComplete* first, Baton& baton, std::uint64_t quantum)
      : AbdadaHooks(c, w, done, root, first),
        baton_(baton),
        quantum_(quantum),
        next_(w.size(), quantum) {}
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
  // All threads' nodes when the first thread (any) completed the depth, and
  // which thread that was: what a search that ends with the first complete
  // iteration would have cost.
  std::uint64_t first_nodes = 0;
  int first_id = -1;
  bool from_helper = false;  // the score is a helper's iteration (FirstComplete)
};

// Records the summed nodes when the first thread completes the depth limit
// (the other threads are waiting for their turn then, so their counts are
// frozen: the baton's release/acquire orders the reads), and offers the
// iteration to the backend's FirstComplete as a helper's.
class FirstToDepth final : public Observer {
 public:
  FirstToDepth(const AbdadaWorkers& w, Depth depth, int id, LockstepResult& r,
               FirstComplete& first)
      : workers_(w), depth_(depth), id_(id), r_(r), first_(first) {}
  void on_iteration(const SearchResult& s) override {
    if (std::getenv("XQ_TRACE")) {  // the threads' iterations, for a diagnosis by hand
      std::uint64_t all = 0;
      for (const auto& w : workers_) all += w->stats.nodes;
      std::printf("  thread %d depth %2d score %5d move %s own nodes %10llu all %10llu\n", id_,
                  int(s.depth), int(s.score), move_name(s.best_move).c_str(),
                  static_cast<unsigned long long>(workers_[std::size_t(id_)]->stats.nodes),
                  static_cast<unsigned long long>(all));
    }
    if (id_ != 0) first_.offer(s);
    else first_.main_reached(s.depth);
    if (s.depth < depth_ || r_.first_id >= 0) return;
    r_.first_id = id_;
    for (const auto& w : workers_) r_.first_nodes += w->stats.nodes;
  }

 private:
  const AbdadaWorkers& workers_;
  const Depth depth_;
  const int id_;
  LockstepResult& r_;
  FirstComplete& first_;
};

// One abdada search of pos to `depth` on a fresh table of the given scheme,
// with c.threads threads taking turns of `quantum` nodes; share_root = false
// leaves each thread its own root alpha (the backend before root sharing).
// As in the backend, a helper that completes the depth first ends the
// search with its iteration (c.param("abdada_first_complete")).
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
  FirstComplete first;
  first.reset(c.param("abdada_first_complete") ? depth : 0);
  LockstepHooks hooks(c, workers, done, share_root ? &root : nullptr, &first, baton, quantum);
  Search<Table, LockstepHooks> search(tt, hooks, shared);
  LockstepResult r;
  std::vector<std::thread> helpers;
  for (int i = 1; i < c.threads; ++i)
    helpers.emplace_back([&, i] {
      Worker& w = *workers[std::size_t(i)];
      FirstToDepth to_depth(workers, depth, i, r, first);
      baton.wait(i);
      iterative_deepening(search, w, shared, &to_depth);
      baton.finish(i);
    });
  FirstToDepth to_depth(workers, depth, 0, r, first);
  const SearchResult own = iterative_deepening(search, *workers[0], shared, &to_depth);
  r.score = own.score;
  if (const std::optional<SearchResult> h = first.take_over(own)) {
    r.score = h->score;
    r.from_helper = true;
  }
  for (const auto& w : workers) r.stats += w->stats;
  done.store(true, std::memory_order_relaxed);
  baton.finish(0);
  for (std::thread& t : helpers) t.join();
  r.leaks = tt.clear_busy_marks();
  return r;
}

}  // namespace xq::testing
