// The split pool: split points on persistent threads, written once for every
// backend of the split family that publishes split points (ybwc, dts). What
// differs between them is a Policy: where a thread that falls idle goes,
// when a node offers itself beyond "a thread is idle", and what a split point
// records for that choice. Everything else is here, once: the threads and
// their split stacks, publishing, joining, taking moves under the split
// point's lock, merging results (Outcome), the helpful master's wait, the
// owner's abandon on an exception, and the time accounting (timing.h).
//
// A node offers itself to the pool only after its eldest brother is searched
// (Step 8 of the node function; at any later move too; with
// eldest_first=no, tree splitting, before it instead: Step 7'), only at remaining
// depth >= min_split_depth and while its owner holds fewer than
// max_splits_per_thread split points. The owner publishes a SplitPoint on its
// own split stack; idle threads find it by scanning the stacks (the policy's
// find()), join, copy the node's position and the owner's history and
// killers as they were at the split (Snapshot), and take moves from the
// node's own picker under the split point's lock until none is left. The
// owner takes moves too and, once the picker is empty, waits for its helpers
// while helping at split points below its own (a "helpful master"), so it
// never joins work that could be waiting on it; meanwhile it counts as idle,
// so the helper holding the last move splits it for the owner.
//
// A beta cutoff sets the split point's atomic `cutoff` flag; every thread
// below it (in any nested split point) sees it through chain_cut(), which
// walks the thread's chain of active split points (usually 0-3 links; at one
// thread the chain is always empty, so the hook is one load and a branch).
//
// A Policy (see ybwc.h and dts.h) derives from PolicyDefaults and provides:
//   kName; PointData and ThreadData (its fields on every split point and
//   thread); a constructor from BackendConfig; want_split(t, ctx, anyone_idle)
//   beyond the pool's own depth and stack checks; find(pool, t, below), which
//   returns a split point that pool.enter() admitted t to, or nullptr; and
//   any of the event hooks of PolicyDefaults.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "parallel/backend.h"
#include "parallel/backend_base.h"
#include "parallel/heuristics_share.h"
#include "parallel/split/common.h"
#include "parallel/split/exec.h"
#include "parallel/split/timing.h"
#include "parallel/thread_pool.h"
#include "search/hooks.h"
#include "search/worker.h"
#include "parallel/split/split_counters.h"

namespace xq::split {

using split_timing::Part;

// The parameters of the split family.
inline ParamSpec min_split_depth_param() {
  return {"min_split_depth", "only nodes with at least this remaining depth split", 1, kMaxDepth,
          {}, 4};
}
// The parameters every split-pool backend (ybwc, dts) reads.
inline std::vector<ParamSpec> pool_params() {
  std::vector<ParamSpec> v = {min_split_depth_param(),
          {"max_splits_per_thread", "most split points one thread may own at once", 1, 64, {}, 8},
          // Off by default: on the shipped suites it moved search overhead by
          // less than its run-to-run spread.
          {"live_alpha",
           "re-search a split point's younger brother from the node's current alpha",
           0,
           1,
           {"no", "yes"},
           0},
          // Off: Finkel and Fishburn's tree splitting, the ablation of the
          // young brothers' wait (search/node.h Step 7').
          {"eldest_first",
           "a node splits only once its eldest brother is searched (yes: young brothers wait) "
           "or before it, all its moves at once (no: tree splitting)",
           0,
           1,
           {"no", "yes"},
           1,
           false}};
  return with_heuristics_share(std::move(v));
}

template <class Policy, class Exec = ThreadExec>
struct SplitPoint {
  // -- Constant while the split point is in use: written by the owner before
  //    it is opened under `lock`, read by helpers after they joined.
  SplitPoint* parent = nullptr;  // the owner's enclosing split point (abort chain)
  // The owner's node: beta, depth, ply, pv_node, picker (with processes, the
  // copy in `node`).
  SplitContext* ctx = nullptr;
  SearchMoveFn search_move = nullptr;
  const void* closure = nullptr;
  Snapshot snapshot;
  [[no_unique_address]] typename Exec::NodeCopy node;

  // -- Mutable, guarded by `lock` (the picker behind ctx too).
  typename Exec::Lock lock;
  bool open = false;  // moves left and no cutoff: helpers may join
  int workers = 0;    // threads inside, the owner included
  int joins = 0;      // helpers that have joined so far
  Outcome result;

  // -- Read without the lock.
  std::atomic<bool> cutoff{false};  // at every node of every thread below
  // result.alpha as last written under `lock`, for the node's re-search
  // test (SplitContext::live_alpha).
  std::atomic<Value> live_alpha{0};
  // The longest critical path of a move searched to the end here (guarded
  // by `lock`; see Thread::crit_extra).
  std::uint64_t longest = 0;
  std::int64_t longest_splits = 0;  // ... and the split points on its chain

  // The policy's own fields (their guards are the policy's to state).
  typename Policy::PointData data;
};

// A search thread: the engine's Worker plus its split-point bookkeeping.
// The pool sets its id and its split stack (a slice of the pool's block of
// split points) before any search.
template <class Policy, class Exec = ThreadExec>
struct Thread : Worker {
  using Point = SplitPoint<Policy, Exec>;

  // -- Touched by this thread only (and by begin/end_search around a search).
  Point* active = nullptr;  // the innermost split point it works in
  split_timing::Ledger ledger;
  // Work and critical path (Kuszmaul's W and C, in nodes): the thread's
  // chain is its own node count plus crit_extra. A move searched at a split
  // point leaves the chain of whoever searched it (its nodes and nested
  // extras are taken off) and counts in the split point's `longest`; the
  // owner adds `longest` when the split point closes. So C at thread 0 is
  // the nodes it searched outside split points' moves plus, per split
  // point on its line, the longest move: every younger brother on its own
  // processor.
  std::int64_t crit_extra = 0;
  // The split points on that chain (parallel/work_span.h), kept the same way.
  std::int64_t crit_splits = 0;
  typename Policy::ThreadData data;

  // -- Written by this thread, read by scanning threads: the split points it
  //    owns are splits[0 .. split_count).
  alignas(64) std::atomic<int> split_count{0};
  Point* splits = nullptr;
};

// A cutoff at sp or above it: its moves are worth nothing any more.
template <class Policy, class Exec>
bool chain_cut(const Thread<Policy, Exec>& t) {
  return t.active && cut_off(*t.active);
}

// The do-nothing hooks: a policy overrides the ones it uses.
struct PolicyDefaults {
  struct PointData {};
  struct ThreadData {};
  template <class T>
  void init_thread(T&, int /*threads*/, int /*max_splits*/) const {}
  template <class T>
  void reset_thread(T&) const {}
  // Under sp's lock, before t is counted in: whether t may join.
  template <class P>
  bool admits(const P&) const { return true; }
  // Under sp's lock, t admitted, before sp.joins and sp.workers count it.
  template <class T, class P>
  void on_enter(T&, P&) const {}
  // Under sp's lock, after any change of open, workers, moves or result.
  template <class P>
  void changed(P&) const {}
  // Under sp's lock, after a move was taken from the picker.
  template <class P>
  void on_take(P&) const {}
  // t starts taking moves at sp (joined; its own thread).
  template <class T, class P>
  void on_serve(T&, P&) const {}
  // Under sp's lock, as the owner opens sp; anyone_idle: a thread was idle.
  template <class T, class P>
  void on_publish(T&, P&, const SplitContext&, bool /*anyone_idle*/) const {}
  // The owner popped sp; finished: neither a stop nor a cutoff above ended it.
  template <class T, class P>
  void on_close(T&, P&, bool /*finished*/) const {}
};

// With Exec = ProcessExec the threads, their split points and the pool's
// words live in shared mappings made at construction, and the pool starts no
// OS thread: the backend forks its helper processes after building it, runs
// serve_helper() in each, and stops them by stop_helpers() and its own wait
// (ybwc_proc.cpp). A helper that dies mid-search is handled by break_up().
template <class Policy, class Exec_ = ThreadExec>
class Pool {
 public:
  using Exec = Exec_;
  using Point = SplitPoint<Policy, Exec>;
  using Thread = split::Thread<Policy, Exec>;
  static constexpr std::string_view kBackendName = Policy::kName;

  explicit Pool(const BackendConfig& config)
      : policy_(config),
        min_split_depth_(Depth(config.param("min_split_depth"))),
        max_splits_(int(config.param("max_splits_per_thread"))),
        live_alpha_(config.param("live_alpha") != 0),
        eldest_first_(config.param("eldest_first") != 0),
        // Processes: a table in one process's heap is not shared.
        share_(Exec::kProcesses ? HeuristicsShare() : HeuristicsShare(config)),
        threads_(std::size_t(config.threads), Exec::kMemory),
        points_(std::size_t(config.threads) * std::size_t(max_splits_), Exec::kMemory),
        words_(1, Exec::kMemory),
        os_threads_(Exec::kProcesses ? 1 : config.threads) {
    for (int i = 0; i < config.threads; ++i) {
      Thread& t = thread(i);
      t.id = i;
      share_.attach(t);
      t.splits = &points_[std::size_t(i) * std::size_t(max_splits_)];
      policy_.init_thread(t, config.threads, max_splits_);
    }
  }
  ~Pool() { end_search(); }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  int size() const { return int(threads_.size()); }
  Thread& thread(int i) { return threads_[std::size_t(i)]; }
  const Thread& thread(int i) const { return threads_[std::size_t(i)]; }
  const Policy& policy() const { return policy_; }

  // Resets every thread for a search of `pos`, opens every thread's span
  // (timing.h: a helper is idle from the search's start) and sets the
  // helpers looking for split points (with processes, once the backend
  // wakes them).
  void begin_search(const Position& pos, SearchShared& shared) {
    shared_ = &shared;
    words_[0].idle.store(0, std::memory_order_relaxed);
    words_[0].broken.store(false, std::memory_order_relaxed);
    const split_timing::Clock::time_point start = split_timing::now();
    for (int i = 0; i < size(); ++i) {
      Thread& t = thread(i);
      reset_worker(t, pos);
      t.active = nullptr;
      t.crit_extra = 0;
      t.crit_splits = 0;
      t.split_count.store(0, std::memory_order_relaxed);
      policy_.reset_thread(t);
      t.ledger.open(start, t.id == 0 ? Part::Search : Part::Idle);
    }
    words_[0].searching.store(true, std::memory_order_release);
    // The pool's wake-up happens after the writes above (it takes a mutex).
    if constexpr (!Exec::kProcesses)
      os_threads_.run([this](int id) { look_for_work(thread(id)); });
  }

  // Processes: helper `id`'s job for one search, in its own process, with
  // its own view of the search (`shared`: options and a stop flag it sets
  // when its hooks see the search end). Returns once stop_helpers() was called.
  void serve_helper(int id, SearchShared& shared) {
    static_assert(Exec::kProcesses);
    shared_ = &shared;
    look_for_work(thread(id));
  }

  // Tells the helpers that the search is over: they leave once their current
  // split point is done (none is open once thread 0 has returned).
  void stop_helpers() noexcept {
    words_[0].searching.store(false, std::memory_order_release);
    sim::signal();  // sleeping helpers see the end at once
  }

  // Ends the helpers' job; returns once none touches search state any more,
  // and closes thread 0's span. Safe to call when no search was begun, and twice.
  // Processes: the backend waits for its helper processes itself.
  void end_search() noexcept {
    stop_helpers();
    try {
      os_threads_.wait_parked();
    } catch (...) {
      // A helper's search threw (only std::bad_alloc can): the search it served
      // is over either way, and the owner reports its own result.
    }
    if (size() > 0) thread(0).ledger.close(thread(0).stats);
  }

  // Processes: a helper process died mid-search (every other one has been
  // killed). Its split points, and the owner's wait for it, would never
  // end: every wait for other threads gives up from now on, and every split
  // point lock is released (the dead one may have held one). The search's
  // result is thrown away; begin_search() makes the pool whole again.
  void break_up() noexcept {
    words_[0].broken.store(true, std::memory_order_relaxed);
    for (std::size_t i = 0; i < points_.size(); ++i) points_[i].lock.force_unlock();
  }

  // Forgets history and killers.
  void clear() {
    for (int i = 0; i < size(); ++i) thread(i).clear_heuristics();
  }

  bool want_split(const Thread& t, const SplitContext& ctx) const {
    return ctx.depth >= min_split_depth_ && size() > 1 &&
           t.split_count.load(std::memory_order_relaxed) < max_splits_ &&
           policy_.want_split(t, ctx, words_[0].idle.load(std::memory_order_relaxed) > 0);
  }

  // Tree splitting (eldest_first=no): a node offers itself before its eldest
  // brother too (and, should nobody want it then, after every move as usual).
  bool want_split_first(const Thread& t, const SplitContext& ctx) const {
    return !eldest_first_ && want_split(t, ctx);
  }

  // Publishes ctx as a split point owned by t, takes its moves with the
  // helpers that join, and returns once every helper has left it. Should the
  // owner's child search throw, the split point is cut off and emptied of
  // helpers before the exception leaves (the node's frame dies with it).
  // closure_bytes: the size of *closure (copied into the split point with
  // processes).
  void split(Thread& t, SplitContext& ctx, SearchMoveFn fn, const void* closure,
             std::size_t closure_bytes = 0) {
    const int index = t.split_count.load(std::memory_order_relaxed);
    Point& sp = t.splits[index];
    publish(t, sp, ctx, fn, closure, closure_bytes);
    t.split_count.store(index + 1, std::memory_order_release);
    t.active = &sp;
    try {
      run_moves(t, sp);
      wait_for_helpers(t, sp);
    } catch (...) {
      abandon(t, sp, index);
      throw;
    }
    pop(t, sp, index);
    policy_.on_close(t, sp, !shared_->stopped() && !chain_cut(t));
    t.crit_extra += std::int64_t(sp.longest);  // no other thread touches sp now
    t.crit_splits += 1 + sp.longest_splits;
    sp.result.finish(ctx, t);
  }

  // For a policy's find(): counts idle t in at sp when sp is still worth
  // joining (open, no cutoff at or above it, below `below` when given, and
  // admitted by the policy). True when t is now one of sp's workers.
  bool enter(Thread& t, Point& sp, const Point* below) {
    const split_timing::TimedLock g(sp.lock, t.ledger, t.stats);
    if (!sp.open || cut_off(sp) || (below && !descends_from(sp, below)) || !policy_.admits(sp))
      return false;
    policy_.on_enter(t, sp);
    ++sp.workers;
    ++sp.joins;
    policy_.changed(sp);
    return true;
  }

 private:
  bool stopped(const Thread& t) const { return shared_->stopped() || chain_cut(t); }

  // A helper's job for one search: join split points until the search ends.
  // Its ledger has been in Idle since the search began.
  void look_for_work(Thread& t) {
    words_[0].idle.fetch_add(1, std::memory_order_relaxed);
    int spins = 0;
    while (words_[0].searching.load(std::memory_order_acquire)) {
      if (try_join(t, nullptr)) {
        spins = 0;
        continue;
      }
      idle_round(spins);
    }
    words_[0].idle.fetch_sub(1, std::memory_order_relaxed);
    t.ledger.close(t.stats);
  }

  // Idle t finds a split point (one below `below` when given), copies its
  // snapshot, serves it, and returns whether it did; t is idle again after.
  bool try_join(Thread& t, const Point* below) {
    if (shared_->stopped()) return false;  // nothing worth joining is left
    Point* const sp = policy_.find(*this, t, below);
    if (!sp) return false;
    words_[0].idle.fetch_sub(1, std::memory_order_relaxed);
    // The snapshot stays constant while t counts among sp's workers.
    t.ledger.to(Part::Copy, t.stats);
    sp->snapshot.give(t, !below);  // an owner helping below keeps its own tables
    t.ledger.to(Part::Search, t.stats);
    ++t.stats.joins;
    if (sp->parent) ++t.stats[split::nested_joins];
    if (below) ++t.stats[split::master_joins];
    serve(t, *sp);
    t.ledger.to(Part::Idle, t.stats);
    words_[0].idle.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

  // Takes moves from sp (entered) until none is left, then leaves it.
  void serve(Thread& t, Point& sp) {
    Point* const saved = t.active;
    t.active = &sp;
    policy_.on_serve(t, sp);
    const auto leave = [&] {
      t.active = saved;
      const split_timing::TimedLock g(sp.lock, t.ledger, t.stats);
      --sp.workers;
      policy_.changed(sp);
      sim::signal();  // an owner waiting for its helpers may go on
    };
    try {
      run_moves(t, sp);
    } catch (...) {
      leave();  // the owner must not wait for this thread
      throw;
    }
    leave();
  }

  // Takes moves from sp until none is left, a cutoff happens or the search
  // stops. The nodes of a move's search that a cutoff (at sp or above it)
  // aborted count as wasted, each once (timing.h ChildNodes).
  void run_moves(Thread& t, Point& sp) {
    const SplitContext& ctx = *sp.ctx;
    while (!stopped(t)) {
      Move m;
      Value alpha;
      int ordinal;
      {
        const split_timing::TimedLock g(sp.lock, t.ledger, t.stats);
        if (!sp.open) return;
        m = ctx.picker->next();
        ordinal = ctx.picker->ordinal();
        if (!m) sp.open = false;
        policy_.on_take(sp);
        policy_.changed(sp);
        if (!m) return;
        alpha = sp.result.alpha;
      }
      if (!t.pos.is_legal(m)) continue;
      const split_timing::ChildNodes child(t.stats);
      const std::int64_t chain0 = std::int64_t(t.stats.nodes) + t.crit_extra;
      const std::int64_t splits0 = t.crit_splits;
      const Value v = sp.search_move(sp.closure, t, m, ordinal, alpha, ctx);
      const std::int64_t crit = std::int64_t(t.stats.nodes) + t.crit_extra - chain0;
      const std::int64_t splits = t.crit_splits - splits0;
      t.crit_extra -= crit;  // the move's chain is the split point's, not t's
      t.crit_splits -= splits;
      if (stopped(t)) {  // v is meaningless
        if (chain_cut(t)) child.discard(t.stats);
        return;
      }
      const split_timing::TimedLock g(sp.lock, t.ledger, t.stats);
      const std::uint64_t chain = std::uint64_t(std::max<std::int64_t>(crit, 0));
      if (chain > sp.longest || (chain == sp.longest && splits > sp.longest_splits)) {
        sp.longest = chain;
        sp.longest_splits = splits;
      }
      const bool cut = sp.result.record(m, v, t.pv[std::size_t(ctx.ply) + 1], ctx.beta);
      sp.live_alpha.store(sp.result.alpha, std::memory_order_relaxed);
      if (cut) {
        sp.open = false;
        if (!sp.cutoff.exchange(true, std::memory_order_relaxed) && sp.workers > 1)
          ++t.stats.aborts;
      }
      policy_.changed(sp);
      if (cut) return;
    }
  }

  // Helpful master: while helpers finish the split point's last moves, the
  // owner works at split points below it (nothing below can wait on it, so
  // this cannot deadlock). It counts as idle meanwhile, so that a helper deep
  // in the last move offers it a split point instead of leaving it to spin;
  // the wait counts as idle time.
  void wait_for_helpers(Thread& t, Point& sp) {
    const auto finished = [&] {
      const split_timing::TimedLock g(sp.lock, t.ledger, t.stats);
      if (sp.workers != 1 && !broken()) return false;
      sp.open = false;
      sp.workers = 0;
      policy_.changed(sp);
      return true;
    };
    if (finished()) return;
    words_[0].idle.fetch_add(1, std::memory_order_relaxed);
    t.ledger.to(Part::Idle, t.stats);
    int spins = 0;
    while (!finished()) {
      bool joined;
      try {
        joined = try_join(t, &sp);
      } catch (...) {
        words_[0].idle.fetch_sub(1, std::memory_order_relaxed);
        t.ledger.to(Part::Search, t.stats);
        throw;
      }
      if (!joined) {
        idle_round(spins);
        continue;
      }
      // Serving replaced the position with the helped node's, a descendant
      // of sp's on the owner's own line: the cheap copy restores it.
      const split_timing::InPart copying(t.ledger, t.stats, Part::Copy);
      sp.snapshot.give(t, false);
      spins = 0;
    }
    words_[0].idle.fetch_sub(1, std::memory_order_relaxed);
    t.ledger.to(Part::Search, t.stats);
  }

  // The owner's child search threw: cut the split point off so its helpers
  // unwind at their next node, and wait (without helping) until they have left,
  // since the node's frame, the picker and the closure die with the exception.
  void abandon(Thread& t, Point& sp, int index) noexcept {
    sp.cutoff.store(true, std::memory_order_relaxed);
    int spins = 0;
    while (true) {
      {
        std::lock_guard g(sp.lock);
        sp.open = false;
        if (sp.workers == 1 || broken()) sp.workers = 0;
        policy_.changed(sp);
        if (sp.workers == 0) break;
      }
      idle_round(spins);
    }
    pop(t, sp, index);
    policy_.on_close(t, sp, false);
  }

  // Fills sp from the node (closed and unused, so no other thread reads it)
  // and opens it to scanning threads.
  void publish(Thread& t, Point& sp, SplitContext& ctx, SearchMoveFn fn, const void* closure,
               std::size_t closure_bytes) {
    ctx.live_alpha = live_alpha_ ? &sp.live_alpha : nullptr;
    {
      const split_timing::InPart copying(t.ledger, t.stats, Part::Copy);
      sp.snapshot.take(t);
      if constexpr (Exec::kProcesses) {  // the node itself goes to shared memory
        sp.node.ctx = ctx;
        sp.node.picker = *ctx.picker;
        sp.node.ctx.picker = &sp.node.picker;
        if (closure_bytes > sizeof(sp.node.closure)) std::abort();  // PoolHooks checks at compile time
        std::memcpy(sp.node.closure, closure, closure_bytes);
      }
    }
    const bool anyone_idle = words_[0].idle.load(std::memory_order_relaxed) > 0;
    {
      const split_timing::TimedLock g(sp.lock, t.ledger, t.stats);
      sp.parent = t.active;
      if constexpr (Exec::kProcesses) {
        sp.ctx = &sp.node.ctx;
        sp.closure = sp.node.closure;
      } else {
        sp.ctx = &ctx;
        sp.closure = closure;
      }
      sp.search_move = fn;
      sp.open = true;
      sp.workers = 1;
      sp.joins = 0;
      sp.longest = 0;
      sp.longest_splits = 0;
      sp.result.start(ctx);
      sp.cutoff.store(false, std::memory_order_relaxed);
      sp.live_alpha.store(ctx.alpha, std::memory_order_relaxed);
      policy_.on_publish(t, sp, ctx, anyone_idle);
      policy_.changed(sp);
    }
    ++t.stats.splits;
    if (ctx.moves_searched == 0) ++t.stats.eldest_splits;
    sim::signal();  // idle threads look for it
  }

  static void pop(Thread& t, Point& sp, int index) {
    t.active = sp.parent;
    t.split_count.store(index, std::memory_order_relaxed);
  }

  bool broken() const { return words_[0].broken.load(std::memory_order_relaxed); }

  // One round of a thread waiting for work or for helpers. With processes,
  // a helper whose parent died leaves here: nobody would end its wait.
  static void idle_round(int& spins) {
    back_off(spins);
    if constexpr (Exec::kProcesses) Exec::leave_if_orphaned(spins);
  }

  // The pool's words, shared by every thread (and process).
  struct Words {
    alignas(64) std::atomic<int> idle{0};  // threads looking for a split point
    alignas(64) std::atomic<bool> searching{false};
    std::atomic<bool> broken{false};  // processes: a helper died (break_up)
  };

  Policy policy_;
  const Depth min_split_depth_;
  const int max_splits_;
  const bool live_alpha_;
  const bool eldest_first_;
  HeuristicsShare share_;  // before threads_: their tables may point into it
  TableBlock<Thread> threads_;
  TableBlock<Point> points_;  // thread i's split stack: [i * max_splits_, (i + 1) * max_splits_)
  TableBlock<Words> words_;
  SearchShared* shared_ = nullptr;  // set before helpers wake, constant during a search
  // Declared last: its helpers are joined before the threads above go away.
  ThreadPool os_threads_;
};

}  // namespace xq::split
