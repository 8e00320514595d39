// The search of the "hybrid PVS" engine: principal-variation search
// (or plain alpha-beta) with a transposition table, null move, MVV-LVA,
// killers, history, check extension and quiescence, each switchable -- the
// thesis profile -- and the modern profile's selective search on top of it:
// late-move reductions, reverse futility, razoring, move-count, futility and
// SEE pruning, adaptive and verified null move, internal iterative
// reduction, ProbCut and singular extension (search/options.h, Features).
// With the modern features off the thesis's engine runs node for node.
//
// Search<Table, Hooks> is compiled once per (hash scheme, backend) pair. It is
// stateless apart from references to the shared table, the backend's hooks and
// the shared search state, so several threads can use one Search object, each
// passing its own Worker. This header declares it; its members are defined
// by concept: the node function (search/node.h), the coordination with the
// table and the backends (search/node_coordination.h), the selectivity
// (search/node_selectivity.h).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <type_traits>

#include <array>
#include <cmath>
#include <cstdlib>

#include "board/eval.h"
#include "board/movegen.h"
#include "board/see.h"
#include "hashing/entry.h"
#include "search/hooks.h"
#include "search/movepick.h"
#include "search/node_guard.h"
#include "search/options.h"
#include "search/shared.h"
#include "search/split_child.h"
#include "search/values.h"
#include "search/worker.h"
#include "search/coordination.h"

namespace xq {

// Which node a call of the node function searches: the root (Search::root(),
// called by the driver) or one below it. The root's own rules -- no
// repetition, table cutoff or null move, the banned root moves, the running
// best shared with other threads -- are compile-time branches of the Root
// instantiation; the nodes below it do not test for the root.
enum class NodeKind { Root, Inner };


template <class Table, class Hooks>
class Search {
 public:
  // Nodes a thread searches between two looks at the limits.
  static constexpr std::uint64_t kNodeBatch = 1024;

  Search(Table& tt, Hooks& hooks, SearchShared& shared)
      : tt_(tt),
        hooks_(hooks),
        shared_(shared),
        f_(effective_features(shared.options)),
        t_(shared.options.tuning),
        selective_(f_.selective()) {
    if (f_.lmr) fill_reductions();
  }

  // The features a search runs with: the options' own, less in exact mode
  // every one that prunes, reduces or extends, and the evaluation's
  // knowledge (move ordering stays).
  static Features effective_features(const SearchOptions& o) {
    Features f = o.features;
    if (o.exact) {
      f.null = false;
      f.aspiration = false;
      f.lmr = f.rfp = f.razor = f.lmp = f.futility = f.see = false;
      f.nullplus = f.iir = f.probcut = f.singular = f.aspdelta = false;
      f.knowledge = false;  // the thesis's evaluation: one exact value per tree
    }
    if (!f.null) f.nullplus = false;
    return f;
  }
  const Features& features() const { return f_; }
  const SearchTuning& tuning() const { return t_; }
  const Hooks& hooks() const { return hooks_; }
  Hooks& hooks() { return hooks_; }  // the driver's run_iteration() may keep state
  // The table's fill in permille (UCI "hashfull"), or -1 when it cannot say.
  int hashfull() const {
    if constexpr (requires(const Table& t) { t.hashfull(); }) return tt_.hashfull();
    else return -1;
  }
  bool pvs() const { return shared_.options.algorithm == Algorithm::Pvs; }

  // True when this thread must unwind: global stop or a backend abort.
  bool stopped(const Worker& w) const { return shared_.stopped() || hooks_.aborted(w); }

  // Searches the root of w.pos with the window (alpha, beta): the driver's
  // entry (search/driver.h), the Root instantiation of node().
  Value root(Worker& w, Value alpha, Value beta, Depth depth) {
    if (f_.singular) {  // the singular extensions' ply bound (node())
      int seen = shared_.root_depth.load(std::memory_order_relaxed);
      while (seen < depth &&
             !shared_.root_depth.compare_exchange_weak(seen, depth, std::memory_order_relaxed)) {
      }
    }
    return node<NodeKind::Root>(w, alpha, beta, depth, 0, true, false);
  }

  // The node function and its child and quiescence searches: search/node.h.
  template <class Refresh = KeepAlpha>
  Value child(Worker& w, Move m, Value alpha, Value beta, Depth depth, int ply, bool pv_node,
              bool first, bool exclusive = false, Refresh refresh = {}, Depth reduce = 0);
  template <NodeKind K = NodeKind::Inner>
  Value node(Worker& w, Value alpha, Value beta, Depth depth, int ply, bool pv_node,
             bool null_allowed, bool exclusive = false);
  Value qsearch(Worker& w, Value alpha, Value beta, int ply);

 private:
  static constexpr bool kDeferral = Hooks::kClaimsNodes || Hooks::kDefersMoves;
  static constexpr int kLmrSize = 64;

  // A move's plan in the modern profile: pruned, or reduced by so many plies.
  struct MovePlan {
    bool skip = false;  // pruned: not searched
    Depth reduce = 0;   // late-move reduction of its first search
  };

  // The node function's own steps (search/node.h).
  static bool boxable_opponent(const Position& pos);
  void update_pv(Worker& w, int ply, Move m) { set_line(w.pv[ply], m, w.pv[ply + 1]); }
  void on_cutoff(Worker& w, Move m, Depth depth, int ply, bool first);
  void check_limits(Worker& w) { check_search_limits(w, shared_, kNodeBatch); }

  // The table and the backends: probes and claims, deferral, the shared
  // root, split points (search/node_coordination.h).
  template <class Guard>
  std::optional<Value> probe_table(Worker& w, Value alpha, Value beta, Depth depth, int ply,
                                   bool full_width, bool exclusive, Move& tt_move, Guard& guard,
                                   TTData& entry, bool& hit);
  TTClaim claim(Key key, Depth depth, bool exclusive, int tid);
  bool exclusive_child(Depth depth, int ply) const;
  void defer(Worker& w, MovePicker& picker, Move m);
  std::optional<Value> reprobe(Worker& w, Value beta, Depth depth, int ply);
  bool adopt_root_best(Worker& w, Depth depth, Value alpha_orig, Value beta, Value& alpha,
                       Value& best, Move& best_move);
  Value root_child(Worker& w, Move m, Value& alpha, Value beta, Depth depth, bool pv_node,
                   bool first, bool exclusive, Value alpha_orig, Value& best, Move& best_move,
                   Depth reduce);
  void split_and_merge(Worker& w, SplitContext& ctx, Value& alpha, Value& best, Move& best_move,
                       int& searched);

  // Selectivity (search/node_selectivity.h): the thesis's null move, the
  // modern profile's steps and their tables.
  std::optional<Value> try_null_move(Worker& w, Value beta, Depth depth, int ply);
  static int attackers(const Position& pos);
  // Its steps are kept out of the node function's body (noinline): the
  // thesis profile never calls them, and inlined they would grow the hot
  // loop it runs.
  static int history_bonus(Depth depth) { return std::min(32 * depth * depth + 64 * depth, 2000); }
  [[gnu::noinline]] void history_malus(Worker& w, const std::array<Move, 32>& quiets, int n,
                                       Depth depth);
  void fill_reductions();
  static bool gives_check(Position& pos, Move m);
  [[gnu::noinline]] MovePlan plan_move(Worker& w, Move m, int ordinal, Depth depth, int ply,
                                       bool pv_node, bool in_check, Value eval, bool improving,
                                       Value alpha, Move tt_move, bool may_prune);
  [[gnu::noinline]] std::optional<Value> static_cutoff(Worker& w, Value alpha, Value beta,
                                                       Depth depth, int ply, Value eval,
                                                       bool improving);
  [[gnu::noinline]] std::optional<Value> try_null_move_plus(Worker& w, Value beta, Depth depth,
                                                            int ply, Value eval);
  [[gnu::noinline]] std::optional<Value> probcut(Worker& w, Value beta, Depth depth, int ply,
                                                 Value eval);
  [[gnu::noinline]] std::optional<Value> singular_search(Worker& w, Value beta, Depth depth,
                                                         int ply, Move tt_move, const TTData& e,
                                                         Depth& extension);

  Table& tt_;
  Hooks& hooks_;
  SearchShared& shared_;
  const Features f_;
  const SearchTuning t_;
  const bool selective_;  // any of the modern profile's pruning features
  std::array<std::array<std::uint8_t, kLmrSize>, kLmrSize> reductions_{};
};

}  // namespace xq

// The members' definitions, by concept.
#include "search/node.h"
#include "search/node_coordination.h"
#include "search/node_selectivity.h"
