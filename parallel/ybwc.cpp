// The ybwc backend: the pool and split points of ybwc.h, and the Backend that
// runs iterative deepening on thread 0 (the caller's thread) with the pool's
// helpers serving split points.
#include "parallel/ybwc.h"

#include <chrono>

#include "parallel/backend_base.h"
#include "parallel/factories.h"
#include "parallel/table_setup.h"
#include "search/driver.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace xq {
namespace ybwc {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// Spin briefly, then give the core away, and sleep only once that has gone
// on for a while (about a millisecond when the core is otherwise free): at 2
// threads on 2 cores a helper's idle gaps are short and sleeping through them
// costs nodes, while at thread counts above the core count (or beside other
// work) a waiter that keeps yielding takes CPU from the threads that hold the
// work it waits for.
inline void back_off(int& spins) {
  if (++spins < 64) {
    cpu_relax();
  } else if (spins < 1024) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

bool descends_from(const SplitPoint& sp, const SplitPoint* ancestor) {
  for (const SplitPoint* p = sp.parent; p; p = p->parent)
    if (p == ancestor) return true;
  return false;
}

}  // namespace

Pool::Pool(const BackendConfig& config)
    : min_split_depth_(std::max<Depth>(config.min_split_depth, 1)),
      max_splits_(std::max(config.max_splits_per_thread, 1)) {
  for (int i = 0; i < config.threads; ++i)
    threads_.push_back(std::make_unique<Thread>(i, max_splits_));
  for (int i = 1; i < config.threads; ++i)
    os_threads_.emplace_back([this, i] { helper_main(thread(i)); });
}

Pool::~Pool() {
  {
    std::lock_guard g(park_mutex_);
    quit_ = true;
  }
  wake_cv_.notify_all();
  for (std::thread& t : os_threads_) t.join();
}

void Pool::clear() {
  for (auto& t : threads_) t->clear_heuristics();
}

void Pool::begin_search(const Position& pos, SearchShared& shared) {
  std::lock_guard g(park_mutex_);
  shared_ = &shared;
  for (auto& t : threads_) {
    reset_worker(*t, pos);
    t->active = nullptr;
    t->split_count.store(0, std::memory_order_relaxed);
  }
  ++generation_;
  searching_.store(true, std::memory_order_release);
  wake_cv_.notify_all();
}

void Pool::end_search() {
  std::unique_lock g(park_mutex_);
  searching_.store(false, std::memory_order_release);
  parked_cv_.wait(g, [&] { return parked_ == size() - 1; });
}

void Pool::helper_main(Thread& t) {
  std::uint64_t seen = 0;
  while (true) {
    {
      std::unique_lock g(park_mutex_);
      ++parked_;
      parked_cv_.notify_all();
      wake_cv_.wait(g, [&] { return quit_ || (generation_ != seen && searching_.load()); });
      --parked_;
      if (quit_) return;
      seen = generation_;
    }
    idle_.fetch_add(1, std::memory_order_relaxed);
    Clock::time_point idle_since = Clock::now();
    int spins = 0;
    while (searching_.load(std::memory_order_acquire)) {
      if (try_join(t, nullptr, &idle_since)) {
        spins = 0;
        continue;
      }
      back_off(spins);
    }
    idle_.fetch_sub(1, std::memory_order_relaxed);
    t.stats.idle_seconds += std::chrono::duration<double>(Clock::now() - idle_since).count();
  }
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
        if (!sp.open || (below && !descends_from(sp, below))) continue;
        ++sp.workers;
        t.pos = sp.pos;
      }
      // The snapshot is constant while the split point is in use, and it stays
      // in use while this thread counts among its workers: copied unlocked.
      if (!below) {  // a free helper; an owner helping below keeps its own
        t.history = sp.history;
        t.killers = sp.killers;
      }
      if (idle_since) {
        idle_.fetch_sub(1, std::memory_order_relaxed);
        t.stats.idle_seconds +=
            std::chrono::duration<double>(Clock::now() - *idle_since).count();
      }
      ++t.stats.joins;
      SplitPoint* const saved = t.active;
      t.active = &sp;
      run_moves(t, sp);
      t.active = saved;
      {
        std::lock_guard g(sp.lock);
        --sp.workers;
      }
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
      std::lock_guard g(sp.lock);
      if (!sp.open) return;
      m = ctx.picker->next();
      if (!m) {
        sp.open = false;
        return;
      }
      alpha = sp.alpha;
    }
    if (!t.pos.is_legal(m)) continue;
    const Value v = sp.search_move(sp.closure, t, m, alpha, ctx);
    if (stopped(t)) return;  // v is meaningless
    std::lock_guard g(sp.lock);
    ++sp.moves_searched;
    if (v > sp.best) {
      sp.best = v;
      sp.best_move = m;
      if (v > sp.alpha) {
        sp.alpha = v;
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
    if (try_join(t, &sp, &idle_since)) {
      t.pos = sp.pos;  // joining replaced the position with the helped node's
      spins = 0;
    } else {
      back_off(spins);
    }
  }
  idle_.fetch_sub(1, std::memory_order_relaxed);
  t.stats.idle_seconds += std::chrono::duration<double>(Clock::now() - idle_since).count();
}

void Pool::split(Thread& t, SplitContext& ctx, SearchMoveFn fn, const void* closure) {
  const int index = t.split_count.load(std::memory_order_relaxed);
  SplitPoint& sp = t.splits[index];
  {
    std::lock_guard g(sp.lock);
    sp.parent = t.active;
    sp.ctx = &ctx;
    sp.search_move = fn;
    sp.closure = closure;
    sp.pos = t.pos;
    sp.history = t.history;
    sp.killers = t.killers;
    sp.open = true;
    sp.workers = 1;
    sp.alpha = ctx.alpha;
    sp.best = ctx.best_value;
    sp.best_move = ctx.best_move;
    sp.moves_searched = ctx.moves_searched;
    sp.has_pv = false;
    sp.cutoff.store(false, std::memory_order_relaxed);
  }
  t.split_count.store(index + 1, std::memory_order_release);
  t.active = &sp;
  ++t.stats.splits;

  run_moves(t, sp);
  wait_for_helpers(t, sp);
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
class YbwcBackend final : public BackendBase<Table> {
 public:
  explicit YbwcBackend(const BackendConfig& c) : BackendBase<Table>(c), pool_(c) {}
  std::string_view name() const override { return "ybwc"; }

  SearchResult search(const Position& pos, const SearchOptions& options,
                      Observer& observer) override {
    SearchShared shared;
    shared.options = options;
    const typename BackendBase<Table>::Running run(*this, shared);
    pool_.begin_search(pos, shared);
    ybwc::Hooks hooks(pool_);
    Search<Table, ybwc::Hooks> search(this->tt_, hooks, shared);
    SearchResult r = iterative_deepening(search, pool_.thread(0), shared, &observer);
    pool_.end_search();
    SearchStats summed = pool_.thread(0).stats;
    hooks.add_helper_stats(summed);
    run.finish(r, summed);
    return r;
  }

  void clear() override {
    this->tt_.clear();
    pool_.clear();
  }

 private:
  ybwc::Pool pool_;
};

}  // namespace

bool ybwc_supports(std::string_view scheme) { return is_known_scheme(scheme); }

std::unique_ptr<Backend> make_ybwc_backend(const BackendConfig& config) {
  validate_config(config, "ybwc");
  return make_for_scheme<YbwcBackend>(config);
}

}  // namespace xq
