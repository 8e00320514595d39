// A DTS-style backend (after Hyatt's Dynamic Tree Splitting and Crafty's
// "generation II" splitting) on the split pool (pool.h).
//
// As in ybwc, a node splits only after its eldest brother is searched, at
// remaining depth >= min_split_depth, and the owner and its helpers take
// moves from the node's picker under the split point's lock. What differs is
// the policy, i.e. who decides where a helper works:
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
#pragma once

#include <array>
#include <atomic>
#include <string_view>
#include <vector>

#include "parallel/split/dts_policy.h"
#include "parallel/split/pool.h"
#include "parallel/split/pool_backend.h"
#include "parallel/split/split_counters.h"

namespace xq::dts {

using split::Clock;

// The thresholds and the selection policy, from BackendConfig.
struct Settings {
  Depth gratuitous_depth = 6;
  int gratuitous_limit = 2;
  bool gratuitous_at_cut = false;
  int gratuitous_moves = 1;
  int max_helpers = 0;  // 0: no limit
  Policy policy = Policy::Depth;
  int proven_moves = 2;
};
Settings settings_of(const BackendConfig& config);
// dts's parameters (the split pool's and the settings above).
const std::vector<ParamSpec>& params();

struct SplitPolicy;
using SplitPoint = split::SplitPoint<SplitPolicy>;
using Thread = split::Thread<SplitPolicy>;

// Reads the descriptors of sps[0..n) and appends the open ones (candidates
// and their split points). Used by the pool's scan and its benchmark.
void gather(SplitPoint* sps, int n, std::vector<Candidate>& candidates,
            std::vector<SplitPoint*>& where);

struct SplitPolicy : split::PolicyDefaults {
  static constexpr std::string_view kName = "dts";

  struct PointData {
    // Written by the owner under the lock when it opens the split point.
    NodeType type = NodeType::Pv;  // predicted type of the node
    bool gratuitous = false;       // published while no thread was idle
    // Guarded by the lock.
    int moves_left = 0;
    // The descriptor (dts_policy.h pack()), 0 once closed; written under the lock.
    std::atomic<std::uint64_t> summary{0};
  };
  struct ThreadData {
    int gratuitous_open = 0;  // its split points published gratuitously
    // The predicted type of the node at each ply of its current path.
    NodeTypes path;
    // Scratch for the scan of open split points (sized once).
    std::vector<Candidate> candidates;
    std::vector<SplitPoint*> where;
  };

  explicit SplitPolicy(const BackendConfig& config) : settings(settings_of(config)) {}
  const Settings settings;

  void init_thread(Thread& t, int threads, int max_splits) const {
    t.data.candidates.reserve(std::size_t(threads * max_splits));
    t.data.where.reserve(std::size_t(threads * max_splits));
  }
  void reset_thread(Thread& t) const { t.data.gratuitous_open = 0; }

  bool want_split(const Thread& t, const SplitContext& ctx, bool anyone_idle) const {
    if (anyone_idle) return true;
    if (ctx.depth < settings.gratuitous_depth ||
        t.data.gratuitous_open >= settings.gratuitous_limit ||
        ctx.moves_searched < settings.gratuitous_moves)
      return false;
    // A node predicted CUT that has not cut off yet may still do so and
    // throw away the work of whoever joined it.
    return settings.gratuitous_at_cut || ctx.pv_node ||
           t.data.path.at(ctx.ply) != NodeType::Cut;
  }

  // Picks, by the policy, an open split point of another thread (one below
  // `below` when given) that the pool lets t enter; nullptr when none.
  template <class Pool>
  SplitPoint* find(Pool& pool, Thread& t, const SplitPoint* below) const {
    auto& candidates = t.data.candidates;
    auto& where = t.data.where;
    candidates.clear();
    where.clear();
    const int n = pool.size();
    for (int k = 1; k < n; ++k) {  // the scan order ybwc uses: the next threads first
      Thread& other = pool.thread((t.id + k) % n);
      gather(other.splits, other.split_count.load(std::memory_order_acquire), candidates,
             where);
    }
    while (true) {
      const int i = pick(candidates, settings.policy, settings.proven_moves);
      if (i < 0) return nullptr;
      SplitPoint* sp = where[std::size_t(i)];
      if (pool.enter(t, *sp, below)) return sp;
      candidates[std::size_t(i)].moves_left = 0;  // closed or not below: the next best
    }
  }

  bool admits(const SplitPoint& sp) const {
    return settings.max_helpers <= 0 || sp.workers <= settings.max_helpers;
  }
  void on_enter(Thread& t, SplitPoint& sp) const {
    if (sp.data.gratuitous || sp.joins > 0) ++t.stats[dts::late_joins];
  }
  void changed(SplitPoint& sp) const {
    sp.data.summary.store(sp.open ? pack({sp.ctx->depth, sp.ctx->ply, sp.data.moves_left,
                                          sp.data.type, sp.workers,
                                          sp.result.moves_searched})
                                  : 0,
                          std::memory_order_relaxed);
  }
  void on_take(SplitPoint& sp) const { sp.data.moves_left = sp.ctx->picker->remaining(); }
  void on_serve(Thread& t, SplitPoint& sp) const {
    // every move of a split point is a younger brother
    t.data.path.resume(sp.ctx->ply, sp.data.type, 1);
  }
  void on_publish(Thread& t, SplitPoint& sp, const SplitContext& ctx, bool anyone_idle) const {
    sp.data.type = ctx.pv_node ? NodeType::Pv : t.data.path.at(ctx.ply);
    sp.data.gratuitous = !anyone_idle;
    sp.data.moves_left = ctx.picker->remaining();
    if (sp.data.gratuitous) {
      ++t.stats[dts::gratuitous_splits];
      ++t.data.gratuitous_open;
    }
  }
  // Counts whether the node-type prediction held (an unfinished node proves
  // nothing).
  void on_close(Thread& t, SplitPoint& sp, bool finished) const {
    if (sp.data.gratuitous) --t.data.gratuitous_open;
    if (!finished) return;
    const bool cut = sp.result.best >= sp.ctx->beta;
    if (sp.data.type == NodeType::All) {
      ++t.stats[dts::predicted_all];
      if (!cut) ++t.stats[dts::prediction_held];
    } else if (sp.data.type == NodeType::Cut) {
      ++t.stats[dts::predicted_cut];
      if (cut) ++t.stats[dts::prediction_held];
    }
  }
};

using Pool = split::Pool<SplitPolicy>;
using split::chain_cut;

// The hooks policy the node function is compiled with: on_enter() carries
// the node-type prediction down the thread's path.
class Hooks : public split::PoolHooks<Pool> {
 public:
  static constexpr bool kTracksNodes = true;
  using PoolHooks::PoolHooks;

  void on_enter(Worker& w, int ply) { static_cast<Thread&>(w).data.path.enter(ply); }
};

}  // namespace xq::dts
