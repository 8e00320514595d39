// The node function's coordination with the table and the backends
// (Search<Table, Hooks>, search/search.h): the table probe with its claims
// (Step 4), deferral and the re-probe after it (7b), the root's best shared
// with other threads (7c, 7d at the root) and the split point (7', 8). Each
// is a compile-time branch on the backend's hooks (search/hooks.h): a
// backend that does not coordinate compiles none of it.
#pragma once

#include "search/search.h"

namespace xq {

// Whether a younger brother of this node is searched exclusively: only
// for claiming hooks, and only where the child would claim its entry.
template <class Table, class Hooks>
inline bool Search<Table, Hooks>::exclusive_child(Depth depth, int ply) const {
  if constexpr (Hooks::kClaimsNodes)
    return depth - 1 >= hooks_.claim_depth() && (ply > 0 || hooks_.defer_root());
  return false;
}

// Step 7c of node() at a root shared with other threads (kSharesRoot):
// adopts a better best another thread published for the same depth and
// root window -- best, best_move and the root line w.pv[0] change, alpha
// rises to it. Returns false when there is none.
template <class Table, class Hooks>
inline bool Search<Table, Hooks>::adopt_root_best(
    Worker& w, Depth depth, Value alpha_orig, Value beta, Value& alpha, Value& best,
    Move& best_move) {
  if (!hooks_.adopt_root(w, depth, alpha_orig, beta, best)) return false;
  ++w.stats[coordination::root_adoptions];
  best_move = w.pv[0].moves[0];
  alpha = std::max(alpha, best);
  return true;
}

// Step 7d of node() at the root: child(), except for a younger root move of
// a thread that shares the root's running best (Hooks::retest_root(),
// PVS). When its null-window search fails high, another thread may
// meanwhile have raised the root's best: it is adopted as in Step 7c and
// the move is tested against it with a null window before any open-window
// re-search. A move searched at a stale alpha fails high on a bound the
// root has already passed, and its open-window re-search is the most
// expensive search of the iteration.
template <class Table, class Hooks>
inline Value Search<Table, Hooks>::root_child(
    Worker& w, Move m, Value& alpha, Value beta, Depth depth, bool pv_node, bool first,
    bool exclusive, Value alpha_orig, Value& best, Move& best_move, Depth reduce) {
  if (first || !hooks_.retest_root() || !pvs())
    return child(w, m, alpha, beta, depth, 0, pv_node, first, exclusive, KeepAlpha{}, reduce);
  const auto adopt = [&](Worker& cw, Value& child_alpha, Value) {
    if (!adopt_root_best(cw, depth, alpha_orig, beta, alpha, best, best_move)) return false;
    ++cw.stats[coordination::root_retests];
    child_alpha = alpha;
    return child_alpha < beta;
  };
  return child(w, m, alpha, beta, depth, 0, pv_node, false, exclusive, adopt, reduce);
}

template <class Table, class Hooks>
inline void Search<Table, Hooks>::defer(Worker& w, MovePicker& picker, Move m) {
  picker.defer(m);
  ++w.stats[coordination::deferrals];
}

// Once a move of the node was deferred, another thread may have finished
// the node meanwhile: its stored result can cut the rest of the move loop
// off (Kerrigan's "cutoff checks"). Not in exact mode, at the root or at
// PVS's PV nodes, like every table cutoff.
template <class Table, class Hooks>
inline std::optional<Value> Search<Table, Hooks>::reprobe(
    Worker& w, Value beta, Depth depth, int ply) {
  const Depth from = hooks_.reprobe_depth();
  if (from == 0 || depth < from || ply == 0 || shared_.options.exact || !f_.tt)
    return std::nullopt;
  ++w.stats[coordination::cutoff_reprobes];
  TTData e;
  if (!tt_.probe(w.pos.key(), e, w.id) || !plausible_entry(e) || e.depth < depth)
    return std::nullopt;
  const Value v = value_from_tt(e.value, ply);
  if (v < beta || (e.bound != Bound::Lower && e.bound != Bound::Exact)) return std::nullopt;
  ++w.stats.tt_cutoffs;
  return v;
}

// Step 4 of node(): probes the table, sets tt_move to the entry's move when
// it is legal here, and returns the entry's value when it cuts the node
// off. An entry may hold any bits (torn or colliding entries, a faulty
// table), so an impossible one is rejected and counted, and its move is
// validated before use and counted when it fails.
// The entry found (plausible) is left in `entry`, with `hit` set.
template <class Table, class Hooks>
template <class Guard>
inline std::optional<Value> Search<Table, Hooks>::probe_table(
    Worker& w, Value alpha, Value beta, Depth depth, int ply, bool full_width, bool exclusive,
    Move& tt_move, Guard& guard, TTData& entry, bool& hit) {
  const Position& pos = w.pos;
  TTData e;
  ++w.stats.tt_probes;
  if constexpr (Hooks::kClaimsNodes) {
    if (depth >= hooks_.claim_depth()) {
      const TTClaim c = claim(pos.key(), depth, exclusive, w.id);
      if (c.busy) {
        ++w.stats[coordination::busy_answers];
        return kOnEvaluation;
      }
      guard.claimed(c.slot);
      if (!c.found) return std::nullopt;
      e = c.data;
    } else if (!tt_.probe(pos.key(), e, w.id)) {
      return std::nullopt;
    }
  } else {
    if (!tt_.probe(pos.key(), e, w.id)) return std::nullopt;
  }
  if (!plausible_entry(e)) {
    ++w.stats.tt_rejected;
    return std::nullopt;
  }
  ++w.stats.tt_hits;
  entry = e;
  hit = true;
  if (e.move && f_.ttmove) {
    if (pos.is_pseudo_legal(e.move) && pos.is_legal(e.move)) tt_move = e.move;
    else ++w.stats.bad_tt_moves;
  }
  const Value v = value_from_tt(e.value, ply);
  if (!shared_.options.exact && !full_width && ply > 0 && e.depth >= depth &&
      (e.bound == Bound::Exact || (e.bound == Bound::Lower && v >= beta) ||
       (e.bound == Bound::Upper && v <= alpha))) {
    ++w.stats.tt_cutoffs;
    return v;
  }
  return std::nullopt;
}

// A table that keeps deep entries elsewhere (mpi-abdada's home ranks)
// is told the node's depth with its claim.
template <class Table, class Hooks>
inline TTClaim Search<Table, Hooks>::claim(Key key, Depth depth, bool exclusive, int tid) {
  if constexpr (requires { tt_.claim(key, depth, exclusive, tid); })
    return tt_.claim(key, depth, exclusive, tid);
  else
    return tt_.claim(key, exclusive, tid);
}

// Step 8 of node(): hands the rest of the move loop to the backend and
// merges what its threads found into the node's running best. split()
// leaves the line of a move that raised alpha in w.pv[ply]. A helper plans
// each move as the node's own loop would (plan_move, from the node's state
// in ctx); a pruned move returns -kInfinite, which improves nothing.
template <class Table, class Hooks>
inline void Search<Table, Hooks>::split_and_merge(
    Worker& w, SplitContext& ctx, Value& alpha, Value& best, Move& best_move, int& searched) {
  hooks_.split(w, ctx, [this](Worker& hw, Move hm, int ordinal, Value a, const SplitContext& c) {
    if (hm == c.excluded) return -kInfinite;
    Depth reduce = 0;
    if (selective_) {
      const MovePlan plan = plan_move(hw, hm, ordinal, c.depth, c.ply, c.pv_node, c.in_check,
                                      c.static_eval, c.improving, a, c.tt_move, c.may_prune);
      if (plan.skip) return -kInfinite;
      reduce = plan.reduce;
    }
    return split_child(*this, hw, hm, a, c, reduce);
  });
  if (stopped(w)) return;
  searched = std::max(searched, ctx.moves_searched);
  if (ctx.best_value > best) {
    best = ctx.best_value;
    best_move = ctx.best_move;
    if (best > alpha) alpha = best;
  }
  if (best >= ctx.beta) on_cutoff(w, best_move, ctx.depth, ctx.ply, false);
}

}  // namespace xq
