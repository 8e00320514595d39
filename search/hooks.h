// The seam through which a parallel backend plugs into the one node function
// (DESIGN.md §3). The node function is templated on a Hooks policy; the serial
// engine uses SerialHooks, whose members are empty and `constexpr false`, so
// the compiler removes every hook and the serial hot path pays nothing.
//
// How each planned backend uses the seam:
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
//  * ABDADA: no split; the backend's table hook marks a node busy on entry and
//    the move loop defers moves whose child is busy to a second pass
//    (defer_move()/on_enter()/on_leave() below, unused by the other backends).
//  * Lazy SMP: no split either; every thread runs the iterative-deepening
//    driver on the shared table with its own depth offset, so only aborted()
//    (the global stop) is used.
//  * Jamboree (TBB): split() spawns the younger brothers as tasks that first
//    test them with a null window and re-search the ones that fail high.
#pragma once

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
};

struct SerialHooks {
  static constexpr bool kSplits = false;
  // A cutoff above made this thread's work useless (split-point backends).
  bool aborted(const Worker&) const { return false; }
  // Whether to split this node now: called after each move searched, from the
  // eldest brother on (ctx.moves_searched >= 1), until the node splits.
  bool want_split(const Worker&, const SplitContext&) const { return false; }
  // Searches the remaining moves of ctx in parallel and returns when all have
  // been searched or a cutoff happened. `search_move` is the node's own child
  // search: Value search_move(Worker&, Move, Value alpha, const SplitContext&).
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
