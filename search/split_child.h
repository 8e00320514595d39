// How the node function searches a younger brother at a split point
// (Search::split_and_merge). Kept beside search/node.h, whose one child search
// (Search::child) it calls; only the split-point backends instantiate it.
#pragma once

#include <atomic>

#include "search/hooks.h"
#include "search/worker.h"

namespace xq {

// The alpha-refresh policy of Search::child(): what a younger brother whose
// null-window result landed inside (alpha, beta) does before its open-window
// re-search. KeepAlpha, the ordinary move loop: nothing, the node's alpha is
// the thread's own. Any other policy is a functor
// `bool(Worker&, Value& alpha, Value v)` that may raise alpha to a bound
// other threads reached meanwhile and returns true when the move must first
// be tested with a null window at the new alpha: Search::root_child() (a root
// shared with other threads) and LiveAlpha (a split point, split_child.h).
struct KeepAlpha {};

// The alpha-refresh policy (see KeepAlpha) of a younger brother
// of a split node, searched from the alpha the thread read when it took the
// move. Other threads may have raised the node's alpha since: a PVS
// null-window result above the old alpha is tested against the current one
// (SplitContext::live_alpha, when the backend publishes it) before the
// full-window re-search, which then starts from it. The serial search would
// have searched the move against the raised bound; re-searching from the old
// one proves a value the node no longer needs (at the root, a whole PV).
struct LiveAlpha {
  const std::atomic<Value>* live;
  Value beta;
  bool operator()(Worker&, Value& alpha, Value v) const {
    const Value now = live->load(std::memory_order_relaxed);
    if (now <= alpha || now >= beta) return false;
    alpha = now;
    return v <= alpha;
  }
};

// Searches move m of a split node: the node's own child search, with the
// LiveAlpha refresh when the backend publishes the node's alpha, reduced by
// `reduce` plies first (late-move reductions, Search::plan_move).
template <class S>
Value split_child(S& s, Worker& w, Move m, Value alpha, const SplitContext& c, Depth reduce) {
  if (!c.live_alpha)
    return s.child(w, m, alpha, c.beta, c.depth, c.ply, c.pv_node, false, false, KeepAlpha{},
                   reduce);
  return s.child(w, m, alpha, c.beta, c.depth, c.ply, c.pv_node, false, false,
                 LiveAlpha{c.live_alpha, c.beta}, reduce);
}

}  // namespace xq
