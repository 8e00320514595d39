// The seam through which a parallel backend plugs into the one node function
// (DESIGN.md §3). The node function is templated on a Hooks policy; the serial
// engine uses SerialHooks, whose members are empty and `constexpr false`, so
// the compiler removes every hook and the serial hot path pays nothing.
//
// How each backend uses, or a planned one will use, the hooks below:
//  * pvsplit (OpenMP PV-splitting): split() only at PV nodes on the leftmost
//    path (ctx.pv_node), after the first move; the remaining moves are drawn
//    from the shared picker inside `#pragma omp parallel for`, each thread
//    searching with its own Worker and a copy of the position.
//  * ybwc / DTS-style split points: want_split() once the first move is
//    searched ("young brothers wait"), at any later move too, above a minimum
//    depth when an idle thread exists;
//    split() publishes a split point holding &ctx and the picker, idle threads
//    join (late join for DTS: a thread may join any split point still open),
//    and aborted() tells a helper that a beta cutoff at this or any ancestor
//    split point made its work useless; it is checked at every node.
//  * ABDADA (and simplified ABDADA): no split; kClaimsNodes makes the node
//    function claim its table entry on entry (the table's searcher count, see
//    TTClaim in hashing/entry.h) and release it on every exit. Younger
//    brothers are searched with `exclusive` set in the first pass; a child
//    that others are searching answers kOnEvaluation at once and the move
//    goes to the picker's deferred stage, searched non-exclusively after the
//    other moves. defer_move() lets a backend defer moves by its own rule.
//  * simplified ABDADA (Kerrigan): kDefersMoves with a side table of moves
//    being searched: before_child() marks the move (after_child() and
//    on_leave() unmark it), defer_move() defers a marked one, and
//    reprobe_depth() turns on the node function's table re-probe once a
//    move was deferred (Kerrigan's cutoff checks).
//  * Lazy SMP: no split either; every thread runs the iterative-deepening
//    driver on the shared table, skipping the depths skip_depth() names and
//    shifting its aspiration window by window_shift(); aborted() ends the
//    helpers when the main thread is done.
//  * parallel aspiration and UIDPABS: no split; run_iteration() runs each
//    iteration (p windows at once, or Newborn's window rules on a thread's
//    share of the root moves, banned_root() naming the others').
//  * jamboree (oneTBB tasks): split() spawns the younger brothers as tasks
//    that test them with a null window at the eldest's alpha, waits for the
//    group (running other tasks meanwhile), and re-searches the ones that
//    failed high below beta in move order; aborted() walks the task's chain
//    of split frames for a cutoff.
#pragma once

#include <atomic>
#include <optional>
#include <vector>

#include "board/types.h"
#include "search/movepick.h"
#include "search/worker.h"

namespace xq {

// The state of a node at the moment a backend may split it. The node function
// owns it; a backend may update best_value/best_move/alpha (under its own
// lock) and must have finished with it when split() returns.
struct SplitContext {
  Depth depth = 0;  // remaining depth of the node
  int ply = 0;
  Value alpha = 0;  // current lower bound (raised by every better move)
  Value beta = 0;
  bool pv_node = false;
  Value best_value = -kInfinite;
  Move best_move;
  int moves_searched = 0;
  MovePicker* picker = nullptr;  // the node's remaining moves
  bool cutoff = false;           // set when best_value >= beta
  // What the modern profile's move pruning and reductions need of the node
  // (Search::plan_move), constant while it is split: its static value and
  // whether it improves on the one two plies up, whether the side to move is
  // in check, the table's move, and whether moves may be pruned at all (the
  // best so far, the eldest brother's, is no mated score).
  Value static_eval = -kInfinite;
  bool improving = false;
  bool in_check = false;
  bool may_prune = false;
  Move tt_move;
  // The move a singular-extension search leaves out (none otherwise): a
  // split skips it as the node's own loop does.
  Move excluded;
  // While the node is split, the backend may point this at the node's
  // current alpha (raised by any thread, read relaxed): a thread whose
  // null-window search of a younger brother beat the alpha it started from
  // checks it against the current one before the full-window re-search.
  const std::atomic<Value>* live_alpha = nullptr;
};

// The serial no-op hooks, and the defaults of every backend's hooks: a
// backend's hooks class derives from SerialHooks and overrides only what it
// uses, so a hook added here is a no-op for the backends that predate it.
struct SerialHooks {
  static constexpr bool kSplits = false;
  // Claim each node's table entry (table searcher counts), search younger
  // brothers exclusively and defer the busy ones (see node()).
  static constexpr bool kClaimsNodes = false;
  // Ask defer_move() about every younger brother in the first pass.
  static constexpr bool kDefersMoves = false;
  // Call on_enter()/on_leave() around every node below the horizon.
  static constexpr bool kTracksNodes = false;
  // Threads that search the same root share its running best (see
  // publish_root() and adopt_root()).
  static constexpr bool kSharesRoot = false;
  // kSharesRoot: whether a younger root move that fails high is re-tested
  // against a best another thread raised meanwhile (Search::root_child).
  bool retest_root() const { return false; }

  // kClaimsNodes: nodes with less remaining depth neither claim their entry
  // nor are searched exclusively (a busy mark is not worth a deferral there).
  Depth claim_depth() const { return 1; }
  // kClaimsNodes: whether the root's younger brothers may be deferred too.
  bool defer_root() const { return true; }
  // kClaimsNodes or kDefersMoves: once a move of a node with at least this
  // remaining depth was deferred, the table is probed again before each
  // further move, for a cutoff another thread's result allows (0: never).
  Depth reprobe_depth() const { return 0; }
  // kSharesRoot: publish_root() is called when a root move raised alpha
  // (w.pv[0] holds its line); adopt_root() before each later root move, and
  // returns true after it raised `best` to a value another thread published
  // for the same depth and root window, with that thread's line in w.pv[0].
  // Without it, a thread that did not search the other threads' better root
  // moves searches its own with a stale alpha, and their table results (bounds
  // at another alpha) do not cut its searches off.
  void publish_root(Worker&, Depth, Value /*alpha_orig*/, Value /*beta*/, Value) {}
  bool adopt_root(Worker&, Depth, Value /*alpha_orig*/, Value /*beta*/, Value& /*best*/) {
    return false;
  }
  // Whether to put m aside to the deferred stage (only for moves after the
  // first, never in the deferred stage itself).
  bool defer_move(const Worker&, Move, int /*ply*/) const { return false; }
  // Called once the node is counted and not cut short by a stop, repetition
  // or the ply limit; on_leave() runs on every exit after it — return,
  // cutoff, stop or abort unwinding, exception — with the same ply, before
  // the node's table claim (kClaimsNodes) is released.
  void on_enter(Worker&, int /*ply*/) {}
  void on_leave(Worker&, int /*ply*/) {}
  // kDefersMoves: called before each child search of a node of remaining
  // `depth` (after defer_move() let the move through and the node's table
  // re-probe, see reprobe_depth(), found no cutoff). after_child() follows
  // the child's normal return; on any other exit the node's on_leave() must
  // undo what before_child() did.
  void before_child(Worker&, Move, Depth, int /*ply*/, bool /*deferred_stage*/) {}
  void after_child(Worker&, int /*ply*/) {}
  // Iterative deepening (search/driver.h): with kSkipsDepths, the thread
  // skips the iterations skip_depth() names; window_shift() moves the centre
  // of its aspiration window away from the previous score.
  static constexpr bool kSkipsDepths = false;
  bool skip_depth(const Worker&, Depth) const { return false; }
  // With kSkipsDepths: whether the depth limit binds this thread. Lazy SMP's
  // helpers deepen past it until the main thread is done; otherwise a helper
  // that reaches the limit first idles while the main thread finishes.
  bool bound_by_depth_limit(const Worker&) const { return true; }
  Value window_shift(const Worker&) const { return 0; }
  // With kRunsIterations the driver hands each iteration to run_iteration()
  // instead of its own aspiration loop (parallel aspiration runs one root
  // search per thread, each with its own window; UIDPABS applies Newborn's
  // window rules): it returns the root value at `depth` from the previous
  // iteration's `prev` and sets `line` to the worker whose pv[0] holds the
  // iteration's line. Called only when the driver would search the depth.
  static constexpr bool kRunsIterations = false;
  template <class S>
  Value run_iteration(S&, Worker& w, Depth, Value, const Worker*& line) const {
    line = &w;
    return 0;
  }
  // Root moves this thread leaves to others, besides the options' banned
  // ones (UIDPABS deals the root moves out); nullptr: none.
  const std::vector<Move>* banned_root(const Worker&) const { return nullptr; }
  // A cutoff above made this thread's work useless (split-point backends).
  bool aborted(const Worker&) const { return false; }
  // Whether to split this node now: called after each move searched, from the
  // eldest brother on (ctx.moves_searched >= 1), until the node splits.
  bool want_split(const Worker&, const SplitContext&) const { return false; }
  // Whether to split this node before its eldest brother is searched
  // (ctx.moves_searched == 0; tree splitting, Mandatory Work First): called
  // once per node that has moves to search; the split then takes them all.
  bool want_split_first(const Worker&, const SplitContext&) const { return false; }
  // Searches the remaining moves of ctx in parallel and returns when all have
  // been searched or a cutoff happened. `search_move` is the node's own child
  // search: Value search_move(Worker&, Move, int ordinal, Value alpha,
  // const SplitContext&), where ordinal is the picker's ordinal() read right
  // after it handed the move out (the modern profile reduces and prunes by
  // it); a move the profile prunes returns -kInfinite, which records nothing.
  // When a move raised ctx.alpha, the splitting worker's pv[ctx.ply] must hold
  // that move followed by the line of whichever thread searched it.
  template <class SearchMove>
  void split(Worker&, SplitContext&, SearchMove&&) {}
  // Adds the other threads' counters to the main thread's, for the report of
  // a completed iteration (called by the main thread between iterations, when
  // no split is in progress).
  void add_helper_stats(SearchStats&) const {}
};

}  // namespace xq
