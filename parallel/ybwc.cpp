// The ybwc backend: the pool and split points of ybwc.h, and the Backend that
// runs iterative deepening on thread 0 (the caller's thread) with the pool's
// helpers serving split points.
#include "parallel/ybwc.h"

#include <chrono>

#include "parallel/backend_factory.h"
#include "parallel/split_backend.h"

namespace xq {
namespace ybwc {

using split::back_off;
using split::cut_off;
using split::descends_from;

Pool::Pool(const BackendConfig& config)
    : min_split_depth_(std::max<Depth>(config.min_split_depth, 1)),
      max_splits_(std::max(config.max_splits_per_thread, 1)),
      live_alpha_(config.split_live_alpha),
      os_threads_(config.threads) {
  for (int i = 0; i < config.threads; ++i)
    threads_.push_back(std::make_unique<Thread>(i, max_splits_));
}

Pool::~Pool() { end_search(); }

void Pool::clear() {
  for (auto& t : threads_) t->clear_heuristics();
}

void Pool::begin_search(const Position& pos, SearchShared& shared) {
  shared_ = &shared;
  idle_.store(0, std::memory_order_relaxed);
  for (auto& t : threads_) {
    reset_worker(*t, pos);
    t->active = nullptr;
    t->split_count.store(0, std::memory_order_relaxed);
  }
  started_ = Clock::now();
  span_open_ = true;
  searching_.store(true, std::memory_order_release);
  // The pool's wake-up happens after the writes above (it takes a mutex).
  os_threads_.run([this](int id) { look_for_work(thread(id)); });
}

void Pool::end_search() noexcept {
  searching_.store(false, std::memory_order_release);
  try {
    os_threads_.wait_parked();
  } catch (...) {
    // A helper's search threw (only std::bad_alloc can): the search it served
    // is over either way, and the owner reports its own result.
  }
  if (span_open_) {
    span_open_ = false;
    split_timing::close_span(thread(0).stats, split_timing::seconds_between(started_, Clock::now()));
  }
}

// A helper's job for one search: join split points until the search ends.
void Pool::look_for_work(Thread& t) {
  idle_.fetch_add(1, std::memory_order_relaxed);
  // A helper's time counts from the start of the search: until the pool woke
  // it, it was as idle as when it waits for a split point.
  Clock::time_point idle_since = started_;
  int spins = 0;
  while (searching_.load(std::memory_order_acquire)) {
    if (try_join(t, nullptr, &idle_since)) {
      spins = 0;
      continue;
    }
    back_off(spins);
  }
  idle_.fetch_sub(1, std::memory_order_relaxed);
  const Clock::time_point end = Clock::now();
  t.stats.idle_seconds += split_timing::seconds_between(idle_since, end);
  split_timing::close_span(t.stats, split_timing::seconds_between(started_, end));
}

// Finds an open split point (one below `below` when given), joins it and
// takes moves from it until none is left. Returns whether it joined one.
// `idle_since` is given by idle threads (helpers, or an owner waiting for its
// helpers): the time they started looking.
bool Pool::try_join(Thread& t, const SplitPoint* below, Clock::time_point* idle_since) {
  if (shared_->stopped()) return false;  // nothing worth joining is left
  const int n = size();
  for (int k = 1; k < n; ++k) {
    Thread& other = thread((t.id + k) % n);
    const int count = other.split_count.load(std::memory_order_acquire);
    for (int s = 0; s < count; ++s) {  // oldest (deepest remaining depth) first
      SplitPoint& sp = other.splits[s];
      {
        std::lock_guard g(sp.lock);
        if (!sp.open || cut_off(sp) || (below && !descends_from(sp, below))) continue;
        ++sp.workers;
      }
      // The position and the ordering snapshot are constant while the split
      // point is in use, and it stays in use while this thread counts among
      // its workers: copied unlocked.
      const Clock::time_point joined = Clock::now();
      if (idle_since) {
        idle_.fetch_sub(1, std::memory_order_relaxed);
        t.stats.idle_seconds += split_timing::seconds_between(*idle_since, joined);
      }
      t.pos.copy_from(sp.pos);
      if (!below) {  // a free helper; an owner helping below keeps its own
        t.history = sp.history;
        t.killers = sp.killers;
      }
      t.stats.copy_seconds += split_timing::seconds_between(joined, Clock::now());
      ++t.stats.joins;
      if (sp.parent) ++t.stats.nested_joins;
      if (below) ++t.stats.master_joins;
      SplitPoint* const saved = t.active;
      t.active = &sp;
      const auto leave = [&] {
        t.active = saved;
        std::lock_guard g(sp.lock);
        --sp.workers;
      };
      try {
        run_moves(t, sp);
      } catch (...) {
        leave();  // the owner must not wait for this thread
        throw;
      }
      leave();
      if (idle_since) {
        idle_.fetch_add(1, std::memory_order_relaxed);
        *idle_since = Clock::now();
      }
      return true;
    }
  }
  return false;
}

// Takes moves from sp until none is left, a cutoff happens or the search stops.
void Pool::run_moves(Thread& t, SplitPoint& sp) {
  const SplitContext& ctx = *sp.ctx;
  while (!stopped(t)) {
    Move m;
    Value alpha;
    {
      const split_timing::TimedLock g(sp.lock, t.stats);
      if (!sp.open) return;
      m = ctx.picker->next();
      if (!m) {
        sp.open = false;
        return;
      }
      alpha = sp.alpha;
    }
    if (!t.pos.is_legal(m)) continue;
    const split_timing::ChildNodes child(t.stats);
    const Value v = sp.search_move(sp.closure, t, m, alpha, ctx);
    if (stopped(t)) {  // v is meaningless
      if (chain_cut(t)) child.discard(t.stats);
      return;
    }
    const split_timing::TimedLock g(sp.lock, t.stats);
    ++sp.moves_searched;
    if (v > sp.best) {
      sp.best = v;
      sp.best_move = m;
      if (v > sp.alpha) {
        sp.alpha = v;
        sp.live_alpha.store(v, std::memory_order_relaxed);
        set_line(sp.pv, m, t.pv[std::size_t(ctx.ply) + 1]);
        sp.has_pv = true;
        if (v >= ctx.beta) {
          sp.open = false;
          sp.cutoff.store(true, std::memory_order_relaxed);
          if (sp.workers > 1) ++t.stats.aborts;
        }
      }
    }
  }
}

// Helpful master: while helpers finish the split point's last moves, the owner
// works at split points below it (nothing below can wait on it, so this cannot
// deadlock). It counts as idle meanwhile, so that a helper deep in the last
// move offers it a split point instead of leaving it to spin; the wait counts
// as idle time.
void Pool::wait_for_helpers(Thread& t, SplitPoint& sp) {
  const auto finished = [&sp] {
    std::lock_guard g(sp.lock);
    if (sp.workers != 1) return false;
    sp.open = false;
    sp.workers = 0;
    return true;
  };
  if (finished()) return;
  idle_.fetch_add(1, std::memory_order_relaxed);
  Clock::time_point idle_since = Clock::now();
  int spins = 0;
  while (!finished()) {
    bool joined;
    try {
      joined = try_join(t, &sp, &idle_since);
    } catch (...) {
      idle_.fetch_sub(1, std::memory_order_relaxed);
      throw;
    }
    if (joined) {
      // Joining replaced the position with the helped node's, a descendant
      // of sp's on the owner's own line: the cheap copy restores it.
      const Clock::time_point back = Clock::now();
      t.pos.copy_from(sp.pos);
      idle_since = Clock::now();
      t.stats.copy_seconds += split_timing::seconds_between(back, idle_since);
      spins = 0;
    } else {
      back_off(spins);
    }
  }
  idle_.fetch_sub(1, std::memory_order_relaxed);
  t.stats.idle_seconds += split_timing::seconds_between(idle_since, Clock::now());
}

// The owner's child search threw: cut the split point off so its helpers
// unwind at their next node, and wait (without helping) until they have left,
// since the node's frame, the picker and the closure die with the exception.
void Pool::abandon(Thread& t, SplitPoint& sp, int index) noexcept {
  sp.cutoff.store(true, std::memory_order_relaxed);
  int spins = 0;
  while (true) {
    {
      std::lock_guard g(sp.lock);
      sp.open = false;
      if (sp.workers == 1) {
        sp.workers = 0;
        break;
      }
    }
    back_off(spins);
  }
  t.active = sp.parent;
  t.split_count.store(index, std::memory_order_relaxed);
}

void Pool::split(Thread& t, SplitContext& ctx, SearchMoveFn fn, const void* closure) {
  const int index = t.split_count.load(std::memory_order_relaxed);
  SplitPoint& sp = t.splits[index];
  {
    const split_timing::TimedLock g(sp.lock, t.stats);
    const Clock::time_point copying = Clock::now();
    sp.parent = t.active;
    sp.ctx = &ctx;
    sp.search_move = fn;
    sp.closure = closure;
    sp.pos.copy_from(t.pos);
    sp.history = t.history;
    sp.killers = t.killers;
    t.stats.copy_seconds += split_timing::seconds_between(copying, Clock::now());
    sp.open = true;
    sp.workers = 1;
    sp.alpha = ctx.alpha;
    sp.best = ctx.best_value;
    sp.best_move = ctx.best_move;
    sp.moves_searched = ctx.moves_searched;
    sp.has_pv = false;
    sp.cutoff.store(false, std::memory_order_relaxed);
    sp.live_alpha.store(ctx.alpha, std::memory_order_relaxed);
    ctx.live_alpha = live_alpha_ ? &sp.live_alpha : nullptr;
  }
  t.split_count.store(index + 1, std::memory_order_release);
  t.active = &sp;
  ++t.stats.splits;

  try {
    run_moves(t, sp);
    wait_for_helpers(t, sp);
  } catch (...) {
    abandon(t, sp, index);
    throw;
  }
  t.active = sp.parent;
  t.split_count.store(index, std::memory_order_relaxed);

  // No other thread touches sp now.
  ctx.alpha = sp.alpha;
  ctx.best_value = sp.best;
  ctx.best_move = sp.best_move;
  ctx.moves_searched = sp.moves_searched;
  ctx.cutoff = sp.best >= ctx.beta;
  if (sp.has_pv) t.pv[std::size_t(ctx.ply)] = sp.pv;
}

}  // namespace ybwc

namespace {

template <class Table>
using YbwcBackend = split::PoolBackend<ybwc::Pool, ybwc::Hooks, Table>;

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme, real or test.
extern const BackendInfo kYbwcBackend = {
    "ybwc", "young brothers wait: split points on a persistent std::thread pool, helpful master", "xor",
    [](std::string_view scheme) { return is_known_scheme(scheme); },
    [](const BackendConfig& config) { return make_for_scheme<YbwcBackend>(config); }};

}  // namespace xq
