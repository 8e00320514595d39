// The threads of a backend whose threads never split: every thread searches
// from the root on the shared table (simplified ABDADA, Lazy SMP, UIDPABS
// deepen on their own; parallel aspiration's threads search one iteration's
// windows at a time). Thread 0 is the caller's (the main thread, whose iterations are
// reported); the helpers run on a ThreadPool and end when the main thread is
// done (helper_stopped(), read by the hooks' aborted()) or at a global stop.
#pragma once

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

#include "parallel/backend_base.h"
#include "parallel/heuristics_share.h"
#include "parallel/shared/first_complete.h"
#include "parallel/split/timing.h"
#include "parallel/thread_pool.h"
#include "search/result.h"

namespace xq {

template <class ThreadT>
class RootThreads {
 public:
  // config.threads threads, their history and killers shared as the
  // config's history_share and killer_share say (parallel/heuristics_share.h).
  explicit RootThreads(const BackendConfig& config) : share_(config), pool_(config.threads) {
    for (int i = 0; i < config.threads; ++i) {
      threads_.push_back(std::make_unique<ThreadT>(i));
      share_.attach(*threads_.back());
    }
  }
  ~RootThreads() { finish(); }
  RootThreads(const RootThreads&) = delete;
  RootThreads& operator=(const RootThreads&) = delete;

  int size() const { return int(threads_.size()); }
  ThreadT& thread(int i) { return *threads_[std::size_t(i)]; }
  const ThreadT& thread(int i) const { return *threads_[std::size_t(i)]; }

  // Readies every thread for a search of `pos` (no helper may be running).
  void reset(const Position& pos) {
    done_.store(false, std::memory_order_relaxed);
    for (auto& t : threads_) reset_worker(*t, pos);
  }
  void clear_heuristics() {
    for (auto& t : threads_) t->clear_heuristics();
  }

  // Runs job(thread) once on every helper; returns at once. The pool's
  // wake-up (a mutex) orders everything written before it.
  template <class Job>
  void start(Job job) {
    running_ = true;
    pool_.run([this, job](int id) { job(thread(id)); });
  }

  // Returns once every helper's job has returned on its own (the helpers are
  // not told to stop; parallel aspiration's per-iteration barrier, UIDPABS's
  // wait at the depth limit). Rethrows a helper's exception.
  void join() {
    if (!running_) return;
    running_ = false;
    pool_.wait_parked();
  }

  // Ends the helpers' jobs and returns once none touches search state.
  // Idempotent; called by the thread that called start().
  void finish() noexcept {
    done_.store(true, std::memory_order_relaxed);
    if (!running_) return;
    running_ = false;
    try {
      pool_.wait_parked();
    } catch (...) {
      // A helper's search threw (only std::bad_alloc can): the main thread's
      // result stands on its own.
    }
  }

  // True for a helper once the main thread is done.
  bool helper_stopped(const Worker& w) const {
    return w.id != 0 && done_.load(std::memory_order_relaxed);
  }

  // Counters may be read while the helpers run (single-writer relaxed atomics).
  void add_helpers(SearchStats& s) const {
    for (std::size_t i = 1; i < threads_.size(); ++i) s += threads_[i]->stats;
  }
  SearchStats sum() const {
    SearchStats s = threads_[0]->stats;
    add_helpers(s);
    return s;
  }

 private:
  HeuristicsShare share_;  // before threads_: their tables may point into it
  std::vector<std::unique_ptr<ThreadT>> threads_;
  std::atomic<bool> done_{false};
  bool running_ = false;  // touched by the caller's thread only
  // Declared last: its helpers are joined before the threads above go away.
  ThreadPool pool_;
};

// What every backend on root threads repeats: its threads (one table slot
// each), clear(), and the counters summed over the threads. Members of the
// derived backend (hooks, Search) go away before the threads, and the
// threads before the table.
template <class Table, class ThreadT>
class RootBackend : public BackendBase<Table> {
 public:
  explicit RootBackend(const BackendConfig& c) : BackendBase<Table>(c), threads_(c) {
    this->require_thread_slots(c.threads);
  }
  void clear() override {
    this->tt_.clear();
    threads_.clear_heuristics();
  }

 protected:
  SearchStats thread_stats() const override { return threads_.sum(); }

  RootThreads<ThreadT> threads_;
};

// A root thread whose time the split family's Ledger books (parallel
// aspiration, UIDPABS): searching while its part of the iteration or of the
// root runs, idle before and after it.
struct LedgerThread : Worker {
  explicit LedgerThread(int thread_id) : Worker(thread_id) {}
  split_timing::Ledger ledger;
};

// At the search's start: the main thread searching, the helpers idle until
// their job starts.
template <class ThreadT>
void open_ledgers(RootThreads<ThreadT>& threads) {
  const auto start = split_timing::now();
  for (int i = 0; i < threads.size(); ++i)
    threads.thread(i).ledger.open(start, i == 0 ? split_timing::Part::Search
                                                : split_timing::Part::Idle);
}
// At the search's end, once no helper runs.
template <class ThreadT>
void close_ledgers(RootThreads<ThreadT>& threads) {
  const auto end = split_timing::now();
  for (int i = 0; i < threads.size(); ++i) {
    ThreadT& t = threads.thread(i);
    t.ledger.close(t.stats, end);
  }
}

// Forwards the main thread's iteration reports; at the last iteration the
// depth limit allows, it first ends the helpers, so that this report counts
// every node the search's result will count. With a FirstComplete, it also
// tells it which depth the main thread has completed. Helpers is anything
// with finish() (end the helpers' jobs) and sum() (every thread's counters):
// RootThreads, or a backend whose helpers are processes.
template <class Helpers>
class LastIterationGate final : public Observer {
 public:
  LastIterationGate(Observer& inner, Helpers& threads, Depth depth_limit,
                    FirstComplete* first = nullptr)
      : inner_(inner), threads_(threads), limit_(depth_limit), first_(first) {}

  void on_iteration(const SearchResult& r) override {
    if (first_) first_->main_reached(r.depth);
    if (limit_ <= 0 || r.depth < limit_) {
      inner_.on_iteration(r);
      return;
    }
    threads_.finish();
    SearchResult all = r;
    all.stats = threads_.sum();
    inner_.on_iteration(all);
  }

 private:
  Observer& inner_;
  Helpers& threads_;
  Depth limit_;
  FirstComplete* first_;
};

}  // namespace xq
