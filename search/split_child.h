// How the node function searches a younger brother at a split point
// (Search::split_and_merge). Kept beside search.h, whose node function it
// calls; only the split-point backends instantiate it.
#pragma once

#include <algorithm>
#include <atomic>

#include "search/hooks.h"
#include "search/worker.h"

namespace xq {

// Searches move m of a split node from the alpha the thread read when it
// took the move. Other threads may have raised the node's alpha since: a
// PVS null-window result above the old alpha is tested against the current
// one (c.live_alpha, when the backend publishes it) before the full-window
// re-search, which then starts from it. The serial search would have
// searched the move against the raised bound; re-searching from the old one
// proves a value the node no longer needs (at the root, a whole PV).
template <class S>
Value split_child(S& s, Worker& w, Move m, Value alpha, const SplitContext& c) {
  if (!c.live_alpha || !s.pvs()) return s.child(w, m, alpha, c.beta, c.depth, c.ply, c.pv_node, false);
  const Value beta = c.beta;
  const Depth d = c.depth - 1;
  w.pos.do_move(m);
  Value v = -s.node(w, -alpha - 1, -alpha, d, c.ply + 1, false, true);
  if (v > alpha && v < beta && !s.stopped(w)) {
    const Value now = c.live_alpha->load(std::memory_order_relaxed);
    if (now > alpha && now < beta) {
      alpha = now;
      if (v <= alpha) v = -s.node(w, -alpha - 1, -alpha, d, c.ply + 1, false, true);
    }
    if (v > alpha && v < beta && !s.stopped(w))
      v = -s.node(w, -beta, -alpha, d, c.ply + 1, true, true);
  }
  w.pos.undo_move(m);
  return v;
}

}  // namespace xq
