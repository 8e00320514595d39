// A DTS-style backend (after Hyatt's Dynamic Tree Splitting and Crafty's
// "generation II" splitting) on a pool of persistent threads.
//
// As in ybwc (ybwc.h), a node splits only after its eldest brother is
// searched, at remaining depth >= min_split_depth, and the owner and its
// helpers take moves from the node's picker under the split point's lock.
// What differs is who decides where a helper works:
//  * Publication. A node splits when some thread is idle, as in ybwc, and
//    also gratuitously when none is: a busy thread publishes the nodes of its
//    current path with remaining depth >= gratuitous_depth, up to
//    gratuitous_limit such split points open at once (at nodes predicted CUT
//    only with gratuitous_at_cut; once gratuitous_moves moves are searched
//    without a cutoff), so that a thread that falls idle finds several nodes
//    to choose from instead of waiting for the busy thread's next split
//    opportunity.
//  * Choice. An idle thread reads the descriptors of every open split point
//    of every thread (one relaxed word each: remaining depth, ply, moves left,
//    predicted node type, workers, moves searched) and joins the one its policy picks
//    (dts_policy.h); a split point may be joined at any time while it has
//    moves left (late join), and by at most max_helpers helpers when that is
//    set (Stockfish's YBWC capped the threads of a split point too).
//  * Node types. Each thread carries the Knuth-Moore prediction (PV, CUT,
//    ALL) of every node on its path; a split point records its node's, and
//    when it closes, whether the prediction held (ALL: no cutoff; CUT: a
//    cutoff) is counted.
// The owner of a split point that has no moves left stays a helpful master:
// it joins split points below its own, chosen by the same policy, until its
// helpers are back. Cutoffs abort helpers through the chain of split points
// as in ybwc.
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "parallel/backend.h"
#include "parallel/dts_policy.h"
#include "parallel/split_backend.h"
#include "parallel/split_point.h"
#include "parallel/thread_pool.h"
#include "search/hooks.h"
#include "search/search.h"

namespace xq::dts {

using split::Clock;

struct SplitPoint {
  // -- Constant while the split point is in use: written by the owner under
  //    `lock` before it is published, read by helpers after they joined.
  SplitPoint* parent = nullptr;  // the owner's enclosing split point (abort chain)
  SplitContext* ctx = nullptr;   // the owner's node: beta, depth, ply, pv_node, picker
  split::SearchMoveFn search_move = nullptr;
  const void* closure = nullptr;
  split::Snapshot snapshot;
  NodeType type = NodeType::Pv;  // predicted type of the node
  bool gratuitous = false;       // published while no thread was idle

  // -- Mutable, guarded by `lock` (the picker behind ctx too).
  std::mutex lock;
  bool open = false;  // moves left and no cutoff: helpers may join
  int workers = 0;    // threads inside, the owner included
  int joins = 0;      // helpers that have joined so far
  int moves_left = 0;
  split::Outcome result;

  // -- Read without the lock.
  std::atomic<bool> cutoff{false};  // at every node of every thread below
  // result.alpha as last written under `lock`, for the node's re-search
  // test (SplitContext::live_alpha).
  std::atomic<Value> live_alpha{0};
  // The descriptor (dts_policy.h pack()), 0 once closed; written under `lock`.
  std::atomic<std::uint64_t> summary{0};

  // Rewrites `summary` from the fields above (call under `lock`).
  void describe() {
    summary.store(open ? pack({ctx->depth, ctx->ply, moves_left, type, workers,
                                     result.moves_searched}) : 0,
                  std::memory_order_relaxed);
  }
};

// A search thread: the engine's Worker plus its split-point bookkeeping.
struct Thread : Worker {
  Thread(int thread_id, int max_splits)
      : Worker(thread_id), splits(std::make_unique<SplitPoint[]>(std::size_t(max_splits))) {}

  // -- Touched by this thread only.
  SplitPoint* active = nullptr;  // the innermost split point it works in
  int gratuitous_open = 0;       // its split points published gratuitously
  // The predicted type of the node at each ply of its current path, and how
  // many children of it have been entered so far.
  std::array<NodeType, kMaxPly + 2> types{};
  std::array<int, kMaxPly + 2> children{};
  // Scratch for the scan of open split points (sized once).
  std::vector<Candidate> candidates;
  std::vector<SplitPoint*> where;
  Clock::time_point started;  // when it began serving the current search

  // -- Written by this thread, read by scanning threads: the split points it
  //    owns are splits[0 .. split_count).
  std::atomic<int> split_count{0};
  std::unique_ptr<SplitPoint[]> splits;
};

inline bool chain_cut(const Thread& t) { return t.active && split::cut_off(*t.active); }

// The thresholds and the policy of a Pool, from BackendConfig.
struct Settings {
  Depth min_split_depth = 4;
  int max_splits = 8;
  Depth gratuitous_depth = 6;
  int gratuitous_limit = 2;
  bool gratuitous_at_cut = false;
  int gratuitous_moves = 1;
  int max_helpers = 0;  // 0: no limit
  Policy policy = Policy::Depth;
  int proven_moves = 2;
  bool live_alpha = false;
};
Settings settings_of(const BackendConfig& config);

// Reads the descriptors of sps[0..n) and appends the open ones (candidates
// and their split points). Used by the pool's scan and its benchmark.
void gather(SplitPoint* sps, int n, std::vector<Candidate>& candidates,
            std::vector<SplitPoint*>& where);

class Pool {
 public:
  static constexpr std::string_view kBackendName = "dts";
  explicit Pool(const BackendConfig& config);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  int size() const { return int(threads_.size()); }
  Thread& thread(int i) { return *threads_[std::size_t(i)]; }
  const Thread& thread(int i) const { return *threads_[std::size_t(i)]; }
  const Settings& settings() const { return settings_; }

  // Resets every thread for a search of `pos` and sets the helpers looking
  // for split points.
  void begin_search(const Position& pos, SearchShared& shared);
  // Ends the helpers' job; returns once none touches search state any more.
  // Safe to call when no search was begun, and twice.
  void end_search() noexcept;
  void clear();
  // Thread 0's share of the time accounting, once its search returned.

  bool want_split(const Thread& t, const SplitContext& ctx) const {
    if (size() < 2 || ctx.depth < settings_.min_split_depth ||
        t.split_count.load(std::memory_order_relaxed) >= settings_.max_splits)
      return false;
    if (idle_.load(std::memory_order_relaxed) > 0) return true;
    if (ctx.depth < settings_.gratuitous_depth ||
        t.gratuitous_open >= settings_.gratuitous_limit ||
        ctx.moves_searched < settings_.gratuitous_moves)
      return false;
    // A node predicted CUT that has not cut off yet may still do so and
    // throw away the work of whoever joined it.
    return settings_.gratuitous_at_cut || ctx.pv_node ||
           t.types[std::size_t(ctx.ply)] != NodeType::Cut;
  }
  // Publishes ctx as a split point owned by t, takes its moves with the
  // helpers that join, and returns once every helper has left it. Should the
  // owner's child search throw, the split point is cut off and emptied of
  // helpers before the exception leaves (the node's frame dies with it).
  void split(Thread& t, SplitContext& ctx, split::SearchMoveFn fn, const void* closure);

 private:
  bool stopped(const Thread& t) const { return shared_->stopped() || chain_cut(t); }
  void publish(Thread& t, SplitPoint& sp, SplitContext& ctx, split::SearchMoveFn fn,
               const void* closure);
  void close(Thread& t, SplitPoint& sp, int index);
  void run_moves(Thread& t, SplitPoint& sp);
  void wait_for_helpers(Thread& t, SplitPoint& sp);
  void abandon(Thread& t, SplitPoint& sp, int index) noexcept;
  SplitPoint* choose(Thread& t, const SplitPoint* below);
  bool enter(Thread& t, SplitPoint& sp, const SplitPoint* below);
  void serve(Thread& t, SplitPoint& sp);
  bool try_join(Thread& t, const SplitPoint* below, Clock::time_point* idle_since);
  void look_for_work(Thread& t);

  const Settings settings_;
  std::vector<std::unique_ptr<Thread>> threads_;
  SearchShared* shared_ = nullptr;  // set before helpers wake, constant during a search

  alignas(64) std::atomic<int> idle_{0};  // threads looking for a split point
  std::atomic<bool> searching_{false};
  bool span_open_ = false;  // thread 0's span awaits closing (caller's thread only)
  // Declared last: its helpers are joined before the threads above go away.
  ThreadPool os_threads_;
};

// The hooks policy the node function is compiled with.
class Hooks : public split::PoolHooks<Pool, Thread> {
 public:
  // on_enter() carries the node-type prediction down the thread's path.
  static constexpr bool kTracksNodes = true;
  using PoolHooks::PoolHooks;

  void on_enter(Worker& w, int ply) {
    Thread& t = static_cast<Thread&>(w);
    const auto p = std::size_t(ply);
    t.types[p] = ply == 0 ? NodeType::Pv : child_type(t.types[p - 1], t.children[p - 1]++ == 0);
    t.children[p] = 0;
  }
};

}  // namespace xq::dts
