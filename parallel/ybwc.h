// Young Brothers Wait Concept (Feldmann) with split points, on a pool of
// persistent threads of a ThreadPool (thread_pool.h).
//
// A node offers itself to the pool only after its eldest brother is searched
// (Step 8 of the node function; at any later move too, so a thread that falls
// idle finds work in nodes already under way), only at remaining depth >=
// min_split_depth, only while some thread is idle and while its owner holds
// fewer than max_splits_per_thread split points. The owner publishes a
// SplitPoint on its own split stack; idle threads find it by scanning the
// stacks, join, copy the node's position and the owner's history and killers
// as they were at the split, and take moves from the node's own picker under
// the split point's lock until none is left. The owner takes moves too and, once the
// picker is empty, waits for its helpers while helping at split points below
// its own (a "helpful master"), so it never joins work that could be waiting
// on it; meanwhile it counts as idle, so the helper holding the last move
// splits it for the owner.
//
// A beta cutoff sets the split point's atomic `cutoff` flag; every thread
// below it (in any nested split point) sees it through aborted(), which walks
// the thread's chain of active split points (usually 0-3 links; at one thread
// the chain is always empty, so the hook is one load and a branch).
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "parallel/backend.h"
#include "parallel/split_backend.h"
#include "parallel/split_point.h"
#include "parallel/thread_pool.h"
#include "search/hooks.h"
#include "search/search.h"

namespace xq::ybwc {

using Clock = split::Clock;
using split::SearchMoveFn;

struct SplitPoint {
  // -- Constant while the split point is in use: written by the owner under
  //    `lock` before it is published, read by helpers after they joined.
  SplitPoint* parent = nullptr;  // the owner's enclosing split point (abort chain)
  SplitContext* ctx = nullptr;   // the owner's node: beta, depth, ply, pv_node, picker
  SearchMoveFn search_move = nullptr;
  const void* closure = nullptr;
  Position pos;  // the node's position, copied by each joining thread
  // The owner's move-ordering knowledge when it split, copied by each joining
  // thread: a helper that orders younger brothers with its own (emptier)
  // history and killers searches measurably more nodes than the owner would.
  // A snapshot, because the owner keeps updating its own tables meanwhile.
  History history{};
  Killers killers{};

  // -- Mutable, guarded by `lock` (the picker behind ctx too).
  std::mutex lock;
  bool open = false;  // moves left and no cutoff: helpers may join
  int workers = 0;    // threads inside, the owner included
  Value alpha = 0;
  Value best = 0;
  Move best_move;
  int moves_searched = 0;
  // The line of the move that last raised alpha, as the thread that searched
  // it saw it (valid when has_pv): the owner's PV continues with it.
  bool has_pv = false;
  PvLine pv;

  // -- Read without the lock at every node of every thread below.
  std::atomic<bool> cutoff{false};
  // `alpha` as last written under `lock`, for the node's re-search test
  // (SplitContext::live_alpha).
  std::atomic<Value> live_alpha{0};
};

// A search thread: the engine's Worker plus its split-point bookkeeping.
struct Thread : Worker {
  Thread(int thread_id, int max_splits)
      : Worker(thread_id), splits(std::make_unique<SplitPoint[]>(std::size_t(max_splits))) {}

  // Touched by this thread only: the innermost split point it works in.
  SplitPoint* active = nullptr;
  // Written by this thread, read by scanning threads: the split points it owns
  // are splits[0 .. split_count).
  std::atomic<int> split_count{0};
  std::unique_ptr<SplitPoint[]> splits;
};

// True when a cutoff at the thread's split point or above made its work useless.
inline bool chain_cut(const Thread& t) {
  for (const SplitPoint* sp = t.active; sp; sp = sp->parent)
    if (sp->cutoff.load(std::memory_order_relaxed)) return true;
  return false;
}

// The split points of a search and the threads that serve them. The OS
// threads come from a ThreadPool; ybwc gives each helper one job per search:
// look for open split points until the search ends.
class Pool {
 public:
  static constexpr std::string_view kBackendName = "ybwc";
  explicit Pool(const BackendConfig& config);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  int size() const { return int(threads_.size()); }
  Thread& thread(int i) { return *threads_[std::size_t(i)]; }
  const Thread& thread(int i) const { return *threads_[std::size_t(i)]; }

  // Resets every thread for a search of `pos` and sets the helpers looking
  // for split points.
  void begin_search(const Position& pos, SearchShared& shared);
  // Ends the helpers' job; returns once none touches search state any more.
  // Safe to call when no search was begun, and twice.
  void end_search() noexcept;
  // Forgets history and killers.
  void clear();

  bool want_split(const Thread& t, const SplitContext& ctx) const {
    return ctx.depth >= min_split_depth_ && idle_.load(std::memory_order_relaxed) > 0 &&
           t.split_count.load(std::memory_order_relaxed) < max_splits_;
  }
  // Publishes ctx as a split point owned by t, takes its moves with the
  // helpers that join, and returns once every helper has left it. Should the
  // owner's child search throw, the split point is cut off and emptied of
  // helpers before the exception leaves (the node's frame dies with it).
  void split(Thread& t, SplitContext& ctx, SearchMoveFn fn, const void* closure);

 private:
  bool stopped(const Thread& t) const { return shared_->stopped() || chain_cut(t); }
  void run_moves(Thread& t, SplitPoint& sp);
  void wait_for_helpers(Thread& t, SplitPoint& sp);
  void abandon(Thread& t, SplitPoint& sp, int index) noexcept;
  bool try_join(Thread& t, const SplitPoint* below, Clock::time_point* idle_since);
  void look_for_work(Thread& t);

  const Depth min_split_depth_;
  const int max_splits_;
  const bool live_alpha_;
  std::vector<std::unique_ptr<Thread>> threads_;
  SearchShared* shared_ = nullptr;  // set before helpers wake, constant during a search

  alignas(64) std::atomic<int> idle_{0};  // helpers looking for a split point
  std::atomic<bool> searching_{false};
  // When the search began (written before the helpers wake): every thread's
  // time is accounted from here (split_timing.h).
  Clock::time_point started_{};
  bool span_open_ = false;  // thread 0's span awaits closing (caller's thread only)
  // Declared last: its helpers are joined before the threads above go away.
  ThreadPool os_threads_;
};

// The hooks policy the node function is compiled with.
using Hooks = split::PoolHooks<Pool, Thread>;

}  // namespace xq::ybwc
