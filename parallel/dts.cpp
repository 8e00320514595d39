// The dts backend: the pool and split points of dts.h, and the Backend that
// runs iterative deepening on thread 0 (the caller's thread) with the pool's
// helpers choosing split points to serve.
#include "parallel/dts.h"

#include <algorithm>

#include "parallel/backend_factory.h"
#include "parallel/split_backend.h"

namespace xq {
namespace dts {

using split::account;
using split::seconds_since;
using split::TimedLock;

Settings settings_of(const BackendConfig& c) {
  Settings s;
  s.min_split_depth = std::max<Depth>(c.min_split_depth, 1);
  s.max_splits = std::max(c.max_splits_per_thread, 1);
  s.gratuitous_depth = std::max<Depth>(c.gratuitous_depth, 1);
  s.gratuitous_limit = std::max(c.gratuitous_limit, 0);
  s.gratuitous_at_cut = c.gratuitous_at_cut;
  s.gratuitous_moves = std::max(c.gratuitous_moves, 1);
  s.max_helpers = std::max(c.split_max_helpers, 0);
  s.policy = Policy(std::clamp(c.split_policy, 0, int(kPolicyNames.size()) - 1));
  s.proven_moves = std::max(c.proven_moves, 1);
  s.live_alpha = c.split_live_alpha;
  return s;
}

void gather(SplitPoint* sps, int n, std::vector<Candidate>& candidates,
            std::vector<SplitPoint*>& where) {
  for (int s = 0; s < n; ++s) {
    const std::uint64_t word = sps[s].summary.load(std::memory_order_relaxed);
    if (word == 0) continue;
    candidates.push_back(unpack(word));
    where.push_back(&sps[s]);
  }
}

Pool::Pool(const BackendConfig& config)
    : settings_(settings_of(config)), os_threads_(config.threads) {
  for (int i = 0; i < config.threads; ++i) {
    threads_.push_back(std::make_unique<Thread>(i, settings_.max_splits));
    threads_.back()->candidates.reserve(std::size_t(config.threads * settings_.max_splits));
    threads_.back()->where.reserve(std::size_t(config.threads * settings_.max_splits));
  }
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
    t->gratuitous_open = 0;
    t->started = Clock::now();
    t->split_count.store(0, std::memory_order_relaxed);
  }
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
    account(thread(0), thread(0).started);
  }
}

// A helper's job for one search: join split points until the search ends.
void Pool::look_for_work(Thread& t) {
  t.started = Clock::now();
  idle_.fetch_add(1, std::memory_order_relaxed);
  Clock::time_point idle_since = Clock::now();
  int spins = 0;
  while (searching_.load(std::memory_order_acquire)) {
    if (try_join(t, nullptr, &idle_since)) {
      spins = 0;
      continue;
    }
    split::back_off(spins);
  }
  idle_.fetch_sub(1, std::memory_order_relaxed);
  t.stats.idle_seconds += seconds_since(idle_since);
  account(t, t.started);
}

// Picks, by the policy, an open split point of another thread (one below
// `below` when given) and enters it; nullptr when none can be entered.
SplitPoint* Pool::choose(Thread& t, const SplitPoint* below) {
  t.candidates.clear();
  t.where.clear();
  const int n = size();
  for (int k = 1; k < n; ++k) {  // the scan order ybwc uses: the next threads first
    Thread& other = thread((t.id + k) % n);
    gather(other.splits.get(), other.split_count.load(std::memory_order_acquire), t.candidates,
           t.where);
  }
  while (true) {
    const int i = pick(t.candidates, settings_.policy, settings_.proven_moves);
    if (i < 0) return nullptr;
    SplitPoint* sp = t.where[std::size_t(i)];
    if (enter(t, *sp, below)) return sp;
    t.candidates[std::size_t(i)].moves_left = 0;  // closed or not below: the next best
  }
}

// Checks under the lock that sp is still worth joining and counts t in.
bool Pool::enter(Thread& t, SplitPoint& sp, const SplitPoint* below) {
  bool late;
  {
    TimedLock g(sp.lock, t.stats);
    if (!sp.open || split::cut_off(sp) || (below && !split::descends_from(sp, below)) ||
        (settings_.max_helpers > 0 && sp.workers > settings_.max_helpers))
      return false;
    late = sp.gratuitous || sp.joins > 0;
    ++sp.workers;
    ++sp.joins;
    sp.describe();
  }
  // The snapshot stays constant while this thread counts among sp's workers.
  const Clock::time_point t0 = Clock::now();
  sp.snapshot.give(t, !below);  // an owner helping below keeps its own tables
  t.stats.copy_seconds += seconds_since(t0);
  ++t.stats.joins;
  if (late) ++t.stats.late_joins;
  if (sp.parent) ++t.stats.nested_joins;
  if (below) ++t.stats.master_joins;
  return true;
}

// Takes moves from sp (entered) until none is left, then leaves it.
void Pool::serve(Thread& t, SplitPoint& sp) {
  SplitPoint* const saved = t.active;
  t.active = &sp;
  const auto ply = std::size_t(sp.ctx->ply);
  t.types[ply] = sp.type;
  t.children[ply] = 1;  // every move of a split point is a younger brother
  const auto leave = [&] {
    t.active = saved;
    TimedLock g(sp.lock, t.stats);
    --sp.workers;
    sp.describe();
  };
  try {
    run_moves(t, sp);
  } catch (...) {
    leave();  // the owner must not wait for this thread
    throw;
  }
  leave();
}

// Finds a split point (one below `below` when given), serves it, and returns
// whether it did. `idle_since` is given by idle threads (helpers, or an owner
// waiting for its helpers): the time they started looking.
bool Pool::try_join(Thread& t, const SplitPoint* below, Clock::time_point* idle_since) {
  if (shared_->stopped()) return false;  // nothing worth joining is left
  SplitPoint* const sp = choose(t, below);
  if (!sp) return false;
  if (idle_since) {
    idle_.fetch_sub(1, std::memory_order_relaxed);
    t.stats.idle_seconds += seconds_since(*idle_since);
  }
  serve(t, *sp);
  if (idle_since) {
    idle_.fetch_add(1, std::memory_order_relaxed);
    *idle_since = Clock::now();
  }
  return true;
}

// Takes moves from sp until none is left, a cutoff happens or the search
// stops. The nodes of a move's search that a cutoff (at sp or above it)
// aborted count as wasted, each once, as in ybwc (split_timing::ChildNodes).
void Pool::run_moves(Thread& t, SplitPoint& sp) {
  const SplitContext& ctx = *sp.ctx;
  while (!stopped(t)) {
    Move m;
    Value alpha;
    {
      TimedLock g(sp.lock, t.stats);
      if (!sp.open) return;
      m = ctx.picker->next();
      sp.moves_left = ctx.picker->remaining();
      if (!m) sp.open = false;
      sp.describe();
      if (!m) return;
      alpha = sp.result.alpha;
    }
    if (!t.pos.is_legal(m)) continue;
    const split_timing::ChildNodes child(t.stats);
    const Value v = sp.search_move(sp.closure, t, m, alpha, ctx);
    if (stopped(t)) {  // v is meaningless
      if (chain_cut(t)) child.discard(t.stats);
      return;
    }
    TimedLock g(sp.lock, t.stats);
    const bool cut = sp.result.record(m, v, t.pv[std::size_t(ctx.ply) + 1], ctx.beta);
    sp.live_alpha.store(sp.result.alpha, std::memory_order_relaxed);
    if (!cut) {
      sp.describe();  // one more move searched
      continue;
    }
    sp.open = false;
    sp.describe();
    if (!sp.cutoff.exchange(true, std::memory_order_relaxed) && sp.workers > 1)
      ++t.stats.aborts;
    return;
  }
}

// Helpful master: while helpers finish the split point's last moves, the owner
// serves split points below it, chosen by the policy (nothing below can wait
// on it, so this cannot deadlock). It counts as idle meanwhile, so that a
// helper deep in the last move offers it a split point; the wait counts as
// idle time.
void Pool::wait_for_helpers(Thread& t, SplitPoint& sp) {
  const auto finished = [&] {
    TimedLock g(sp.lock, t.stats);
    if (sp.workers != 1) return false;
    sp.open = false;
    sp.workers = 0;
    sp.describe();
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
    if (!joined) {
      split::back_off(spins);
      continue;
    }
    const Clock::time_point t0 = Clock::now();
    sp.snapshot.give(t, false);  // serving replaced the position with the helped node's
    t.stats.copy_seconds += seconds_since(t0);
    spins = 0;
  }
  idle_.fetch_sub(1, std::memory_order_relaxed);
  t.stats.idle_seconds += seconds_since(idle_since);
}

// Pops sp off t's stack and counts whether its node-type prediction held.
void Pool::close(Thread& t, SplitPoint& sp, int index) {
  t.active = sp.parent;
  t.split_count.store(index, std::memory_order_relaxed);
  if (sp.gratuitous) --t.gratuitous_open;
  if (shared_->stopped() || chain_cut(t)) return;  // an unfinished node proves nothing
  const bool cut = sp.result.best >= sp.ctx->beta;
  if (sp.type == NodeType::All) {
    ++t.stats.predicted_all;
    if (!cut) ++t.stats.prediction_held;
  } else if (sp.type == NodeType::Cut) {
    ++t.stats.predicted_cut;
    if (cut) ++t.stats.prediction_held;
  }
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
      sp.describe();
      if (sp.workers == 1) {
        sp.workers = 0;
        break;
      }
    }
    split::back_off(spins);
  }
  t.active = sp.parent;
  t.split_count.store(index, std::memory_order_relaxed);
  if (sp.gratuitous) --t.gratuitous_open;
}

// Fills sp from the node (closed and unused, so no other thread reads it)
// and opens it to scanning threads.
void Pool::publish(Thread& t, SplitPoint& sp, SplitContext& ctx, split::SearchMoveFn fn,
                   const void* closure) {
  const Clock::time_point t0 = Clock::now();
  sp.snapshot.take(t);
  t.stats.copy_seconds += seconds_since(t0);
  const bool gratuitous = idle_.load(std::memory_order_relaxed) == 0;
  {
    TimedLock g(sp.lock, t.stats);
    sp.parent = t.active;
    sp.ctx = &ctx;
    sp.search_move = fn;
    sp.closure = closure;
    sp.type = ctx.pv_node ? NodeType::Pv : t.types[std::size_t(ctx.ply)];
    sp.gratuitous = gratuitous;
    sp.open = true;
    sp.workers = 1;
    sp.joins = 0;
    sp.moves_left = ctx.picker->remaining();
    sp.result.start(ctx);
    sp.cutoff.store(false, std::memory_order_relaxed);
    sp.live_alpha.store(ctx.alpha, std::memory_order_relaxed);
    sp.describe();
    ctx.live_alpha = settings_.live_alpha ? &sp.live_alpha : nullptr;
  }
  ++t.stats.splits;
  if (gratuitous) {
    ++t.stats.gratuitous_splits;
    ++t.gratuitous_open;
  }
}

void Pool::split(Thread& t, SplitContext& ctx, split::SearchMoveFn fn, const void* closure) {
  const int index = t.split_count.load(std::memory_order_relaxed);
  SplitPoint& sp = t.splits[index];
  publish(t, sp, ctx, fn, closure);
  t.split_count.store(index + 1, std::memory_order_release);
  t.active = &sp;
  try {
    run_moves(t, sp);
    wait_for_helpers(t, sp);
  } catch (...) {
    abandon(t, sp, index);
    throw;
  }
  close(t, sp, index);
  sp.result.finish(ctx, t);  // no other thread touches sp now
}

}  // namespace dts

namespace {

template <class Table>
using DtsBackend = split::PoolBackend<dts::Pool, dts::Hooks, Table>;

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme, real or test.
extern const BackendInfo kDtsBackend = {
    "dts",
    "DTS-style: idle threads pick among all open split points by a policy, gratuitous split "
    "points, late join, node-type prediction, helpful master",
    "xor", [](std::string_view scheme) { return is_known_scheme(scheme); },
    [](const BackendConfig& config) { return make_for_scheme<DtsBackend>(config); }};

}  // namespace xq
