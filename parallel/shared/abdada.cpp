// ABDADA (Weill 1996): threads that never split and coordinate only through
// the shared transposition table. Every thread runs iterative deepening from
// the root on the shared table. A node marks its entry busy while it is
// searched (Weill's nproc: the entry's searcher count, raised by
// Table::claim and lowered by the node's guard on every exit); the eldest
// son of every node is searched by all threads, the younger ones exclusively
// in a first pass, where a son that another thread is searching answers "on
// evaluation" and is deferred; the second pass searches the deferred sons.
// The node function does all of this for hooks with kClaimsNodes; this file
// holds the threads and the parameters.
//
// The reports are the main thread's (thread 0, the caller's): its completed
// iterations, with the counters of every thread. The depth limit binds each
// thread's iterative deepening, the node limit the summed count; a stop ends
// all threads. The last iteration the depth limit allows ends the search
// when any thread completes it (parallel/first_complete.h): the main thread
// itself, or a helper, whose iteration is then reported in its place while
// the main thread unwinds (once the main thread has reported every depth
// before it). Either way the helpers are told to unwind
// (aborted()) and are waited for before that iteration is reported, so the
// last report counts every node the search made.
//
// The searcher count must be shared by every thread, so a table without one
// (perthread: each thread writes its own table) is refused. How each scheme
// updates the count, and what races can do to it, is the scheme's race model
// (hashing/bucket_array.h, claim and release): exact under a lock, a hint
// that can lose updates without one. After each search the marks still set
// (leaks) are counted and reset, and releases that found a count already at
// 0 (underflows) are counted by the node guard.
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "parallel/shared/abdada.h"
#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/heuristics_share.h"
#include "parallel/thread_pool.h"
#include "search/driver.h"
#include "search/hooks.h"
#include "search/coordination.h"

namespace xq {
namespace {

template <class Table>
class AbdadaBackend final : public BackendBase<Table> {
 public:
  explicit AbdadaBackend(const BackendConfig& c)
      : BackendBase<Table>(c), share_(c), pool_(c.threads) {
    this->require_thread_slots(c.threads);
    for (int i = 0; i < c.threads; ++i) {
      workers_.push_back(std::make_unique<Worker>(i));
      share_.attach(*workers_.back());
    }
  }
  std::string_view name() const override { return "abdada"; }

  void clear() override {
    this->tt_.clear();
    sweep_pending_ = false;
    for (auto& w : workers_) w->clear_heuristics();
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    for (auto& w : workers_) reset_worker(*w, pos);
    helpers_done_.store(false, std::memory_order_relaxed);
    first_.reset(this->config_.param("abdada_first_complete") != 0 ? shared.options.limits.depth : 0);
    root_.reset();
    leaks_ = 0;
    if (sweep_pending_) {  // the previous search's marks (see end_search)
      sweep_pending_ = false;
      leaks_ = this->tt_.clear_busy_marks();
    }
    shared_ = &shared;
    // The pool's wake-up happens after the writes above (it takes a mutex).
    if (pool_.size() > 1) pool_.run([this](int id) { run_thread(*workers_[std::size_t(id)]); });
  }

  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    AbdadaHooks hooks(this->config_, workers_, helpers_done_, &root_, &first_);
    Search<Table, AbdadaHooks> search(this->tt_, hooks, shared);
    LastIteration last(*this, observer);
    const SearchResult r = iterative_deepening(search, *workers_[0], shared, &last);
    // A helper that completed the depth limit first stands for the main thread.
    return first_.result(r, last, [this] { return sum_stats(); });
  }

  // Helpers unwind at their next node; then no thread holds a mark, and any
  // still set is a leak. A lone thread claims nothing (AbdadaHooks::kNoClaims),
  // so its table holds no mark and the scan (a pass over the whole table,
  // about 1 ms per 16 MiB) is skipped. With threads, a mark lost or torn by a
  // lockless update is visible only in the table, so the scan stays. A
  // search ended by a stop or a limit (a protocol's "stop", the clock) hands
  // the scan to the next search's start, which counts those leaks: its best
  // move is not held back by the pass (a 16 MiB pass put abdada's stop
  // latency at p50 6 ms, p99 25 ms, at 2 threads).
  void end_search() noexcept override {
    stop_helpers();
    if (pool_.size() == 1) return;
    if (shared_->stopped())
      sweep_pending_ = true;
    else
      leaks_ += this->tt_.clear_busy_marks();
  }

  SearchStats thread_stats() const override {
    SearchStats s = sum_stats();
    s[coordination::mark_leaks] = leaks_;
    return s;
  }

 private:
  // Forwards each iteration of the main thread; before the last one the
  // depth limit allows, stops the helpers and counts their final nodes.
  class LastIteration final : public Observer {
   public:
    LastIteration(AbdadaBackend& b, Observer& next) : b_(b), next_(next) {}
    void on_iteration(const SearchResult& r) override {
      b_.first_.main_reached(r.depth);
      const Depth limit = b_.shared_->options.limits.depth;
      if (limit <= 0 || r.depth < std::min(limit, kMaxDepth) || b_.pool_.size() == 1)
        return next_.on_iteration(r);
      b_.stop_helpers();
      SearchResult all = r;
      all.stats = b_.sum_stats();
      next_.on_iteration(all);
    }

   private:
    AbdadaBackend& b_;
    Observer& next_;
  };

  void run_thread(Worker& w) {
    AbdadaHooks hooks(this->config_, workers_, helpers_done_, &root_, &first_);
    Search<Table, AbdadaHooks> search(this->tt_, hooks, *shared_);
    FirstComplete::Offer offer(first_);
    iterative_deepening(search, w, *shared_, &offer);
  }

  void stop_helpers() noexcept {
    helpers_done_.store(true, std::memory_order_relaxed);
    try {
      pool_.wait_parked();
    } catch (...) {
      // A helper's search threw (only std::bad_alloc can): the search is
      // over either way, and the main thread reports its own result.
    }
  }

  SearchStats sum_stats() const {
    SearchStats s;
    for (const auto& w : workers_) s += w->stats;
    return s;
  }

  HeuristicsShare share_;  // before workers_: their tables may point into it
  AbdadaWorkers workers_;
  std::atomic<bool> helpers_done_{false};
  RootShare root_;
  FirstComplete first_;
  SearchShared* shared_ = nullptr;  // set before helpers wake, constant during a search
  std::uint64_t leaks_ = 0;
  bool sweep_pending_ = false;  // a stopped search left its marks to count
  // Declared last: its helpers are joined before the state above goes away.
  ThreadPool pool_;
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme that holds a
// searcher count shared by all threads, so not perthread.
extern const BackendInfo kAbdadaBackend = {
    .name = "abdada",
    .summary = "ABDADA (Weill): every thread searches from the root; busy marks in the shared table "
    "defer younger brothers",
    .default_hash = "xor",
    .sharing = Sharing::Marks,
    .supports = runs_on<SearcherCountTables>,
    .make = make_on<AbdadaBackend, SearcherCountTables>,
    .params = [] () -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = with_heuristics_share({
          {"abdada_defer_depth",
           "least remaining depth of a node that is marked busy and may be deferred", 1,
           kMaxDepth, {}, 2},
          {"abdada_defer_root", "whether root moves may be deferred", 0, 1, {"no", "yes"}, 1},
          {"abdada_reprobe_depth",
           "after a deferral, re-probe the table for a cutoff before each move at this "
           "depth or more (0: never)",
           0, kMaxDepth, {}, 4},
          first_complete_param(),
          root_retest_param()});
      return kParams;
    },
    .expect = {.reach = {{"busy_answers", 10}, {"deferred_searches", 5}}},
    .counter_groups = {"coordination"}
};

}  // namespace xq
