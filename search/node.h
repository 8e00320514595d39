// The node function of Search<Table, Hooks> (search/search.h), in steps:
// node() with the thesis profile's steps (table, null move, check
// extension, the move loop, the store), child() -- the one child search,
// PVS's null window and re-searches -- and qsearch(). The modern profile's
// steps it calls live in search/node_selectivity.h, the coordination with
// backends (claims, deferral, the shared root, split points) in
// search/node_coordination.h.
//
// The steps of node(): 1 horizon, 2 count and limits, 3 repetition, 4 enter
// and probe the table, 5 selectivity before the move loop (5a-5b reverse
// futility and razoring, 5c null move, 5d ProbCut, 5e internal iterative
// reduction, 5f singular extension), 6 check extension, 7 the move loop (7'
// split before the eldest brother; per move 7a legality, 7a' pruning and
// reduction, 7b deferral, 7c the shared root's best, 7d the child search,
// 7e the result), 8 split point, 9 no legal move, 10 store.
#pragma once

#include "search/search.h"

namespace xq {

// Step 7d of node(), the one child search: searches the child reached by m
// (already tested legal on w.pos) and returns its value from this node's
// point of view. PVS: the first move gets the full window, later ones a
// null window and, when they land inside (alpha, beta), a re-search with
// the full window; before it, `refresh` (see KeepAlpha) may raise alpha to
// a bound other threads reached meanwhile and ask for a null-window test
// at the new alpha first. `pv_node` marks the principal path: in PVS the
// open-window nodes, in alpha-beta and MTD(f) the leftmost path (where the
// PV-splitting backend splits); only PVS forbids table cutoffs and null
// moves there. `exclusive`: return kOnEvaluation instead of searching a
// child that another thread is searching (hooks with kClaimsNodes); the
// re-searches are not exclusive.
//
// `reduce` (late-move reductions, see plan_move): the first search of the
// move is that many plies shallower, unless the move gives check; when it
// beats alpha, the move is searched again at full depth before anything
// else.
template <class Table, class Hooks>
template <class Refresh>
inline Value Search<Table, Hooks>::child(
    Worker& w, Move m, Value alpha, Value beta, Depth depth, int ply, bool pv_node, bool first,
    bool exclusive, Refresh refresh, Depth reduce) {
  w.pos.do_move(m);
  if (reduce > 0 && w.pos.in_check()) reduce = 0;
  if (reduce > 0) ++w.stats.reductions;
  Value v;
  if (first || !pvs()) {
    v = -node(w, -beta, -alpha, depth - 1 - reduce, ply + 1, pv_node && first, true, exclusive);
    if (reduce > 0 && v > alpha && !stopped(w)) {
      ++w.stats.reduction_researches;
      v = -node(w, -beta, -alpha, depth - 1, ply + 1, false, true, exclusive);
    }
  } else {
    v = -node(w, -alpha - 1, -alpha, depth - 1 - reduce, ply + 1, false, true, exclusive);
    if (reduce > 0 && v > alpha && !stopped(w)) {
      ++w.stats.reduction_researches;
      v = -node(w, -alpha - 1, -alpha, depth - 1, ply + 1, false, true, exclusive);
    }
    if (v > alpha && v < beta && !stopped(w)) {
      if constexpr (std::is_same_v<Refresh, KeepAlpha>) {
        v = -node(w, -beta, -alpha, depth - 1, ply + 1, true, true);
      } else {
        if (refresh(w, alpha, v))
          v = -node(w, -alpha - 1, -alpha, depth - 1, ply + 1, false, true);
        if (v > alpha && v < beta && !stopped(w))
          v = -node(w, -beta, -alpha, depth - 1, ply + 1, true, true);
      }
    }
  }
  w.pos.undo_move(m);
  if constexpr (Hooks::kClaimsNodes)
    if (v == -kOnEvaluation) return kOnEvaluation;
  return v;
}

// The node function, in steps. NodeKind::Inner (the default) for every
// node below the root (ply > 0); the root is searched through root().
template <class Table, class Hooks>
template <NodeKind K>
inline Value Search<Table, Hooks>::node(
    Worker& w, Value alpha, Value beta, Depth depth, int ply, bool pv_node, bool null_allowed,
    bool exclusive) {
  constexpr bool kRoot = K == NodeKind::Root;
  Position& pos = w.pos;
  PvLine& pv = w.pv[ply];
  pv.size = 0;

  // Step 1. Horizon: quiescence (or the static value when it is off).
  if (depth <= 0) return qsearch(w, alpha, beta, ply);

  // Step 2. Count the node; unwind on stop, abort or a reached limit.
  ++w.stats.nodes;
  if (w.stats.nodes >= w.next_time_check) check_limits(w);
  if (stopped(w)) return 0;
  if (ply >= kMaxPly) return evaluate(pos, f_.knowledge);

  // Step 3. Repetition (simplified rule, see Position::repetition()).
  if (!kRoot && !shared_.options.exact) {
    switch (pos.repetition()) {
      case Repetition::Draw: return kDraw;
      case Repetition::Win: return kRepetitionWin - ply;
      case Repetition::Loss: return -kRepetitionWin + ply;
      case Repetition::None: break;
    }
  }

  // Step 4. Enter the node (left on every exit from here on); probe the
  // table: move for ordering, cutoff outside exact mode, kOnEvaluation for
  // an exclusive search of a node another thread is searching.
  // A singular-extension search (Step 5f) searches the node again without
  // its table move: it neither probes nor stores the table.
  NodeGuard<Table, Hooks> guard(tt_, hooks_, w, ply);
  const Value alpha_orig = alpha;
  const bool full_width = pv_node && pvs();  // PVS keeps its PV nodes exact
  const Move excluded = kRoot || !f_.singular ? Move::none() : w.excluded[std::size_t(ply)];
  Move tt_move;
  TTData tt_entry;
  bool tt_hit = false;
  if (f_.tt && !excluded) {
    if (const std::optional<Value> cut = probe_table(w, alpha, beta, depth, ply, full_width,
                                                     exclusive, tt_move, guard, tt_entry, tt_hit))
      return *cut;
  }

  // Step 5. Selectivity before the move loop. The modern profile's steps
  // 5a-5d need the node's static value; the thesis's null move computes
  // its own. None of them at the root, in check or (but IIR and
  // singular extension) at a PV node.
  const bool in_check = pos.in_check();
  Value eval = -kInfinite;
  bool improving = false;
  if (selective_ && !kRoot) {
    eval = in_check ? -kInfinite : evaluate(pos, f_.knowledge);
    w.static_eval[std::size_t(ply)] = eval;
    improving = !in_check && ply >= 2 && eval > w.static_eval[std::size_t(ply) - 2];
  }
  // Against a side left with only its palace pieces (king, advisors,
  // elephants), a quiet move that leaves it no legal move wins without
  // check: nothing that skips quiet moves or the search itself applies.
  const bool boxable = selective_ && !kRoot && boxable_opponent(pos);
  const bool prune_node = !kRoot && !pv_node && !in_check && !excluded && !boxable;
  if (selective_ && prune_node) {
    if (const std::optional<Value> cut = static_cutoff(w, alpha, beta, depth, ply, eval, improving))
      return *cut;
  }

  // Step 5c. Null move (see try_null_move for when it is tried).
  if (f_.null && !full_width && !in_check && null_allowed && !kRoot && depth >= 2 && !excluded) {
    const std::optional<Value> cut = f_.nullplus ? try_null_move_plus(w, beta, depth, ply, eval)
                                                 : try_null_move(w, beta, depth, ply);
    if (cut) return *cut;
  }
  // Step 5d. ProbCut (see probcut).
  if (f_.probcut && prune_node && depth >= t_.probcut_depth && std::abs(beta) < kMateInMaxPly) {
    if (const std::optional<Value> cut = probcut(w, beta, depth, ply, eval)) return *cut;
  }

  // Step 5e. Internal iterative reduction: a node the table knows no move
  // for is searched a ply shallower (its ordering is a guess).
  if (f_.iir && !kRoot && !excluded && !tt_move && depth >= t_.iir_depth) --depth;

  // Step 5f. Singular extension: a table move much better than every other
  // move is searched a ply deeper; when even the others reach beta, the
  // node is cut off (multi-cut).
  Depth singular = 0;
  if (f_.singular && !kRoot && !excluded && tt_hit && tt_move && depth >= t_.singular_depth) {
    const std::optional<Value> cut =
        singular_search(w, beta, depth, ply, tt_move, tt_entry, singular);
    if (cut) return *cut;
  }

  // Step 6. Check extension: a node in check is searched one ply deeper.
  if (f_.checkext && in_check) ++depth;

  // Step 7. The move loop.
  MovePicker picker(pos, w, f_, tt_move, ply);
  if constexpr (kRoot) {
    if (!shared_.options.banned_root_moves.empty())
      picker.exclude(shared_.options.banned_root_moves);
    if (const std::vector<Move>* own = hooks_.banned_root(w)) picker.exclude(*own);
  }
  SplitContext ctx;
  ctx.depth = depth;
  ctx.ply = ply;
  ctx.beta = beta;
  ctx.pv_node = pv_node;
  ctx.picker = &picker;
  ctx.static_eval = eval;
  ctx.improving = improving;
  ctx.in_check = in_check;
  ctx.tt_move = tt_move;
  ctx.excluded = excluded;
  Value best = -kInfinite;
  Move best_move;
  int searched = 0;
  // The quiet moves searched before a cutoff, for histgravity's malus.
  std::array<Move, 32> quiets;
  int quiet_count = 0;
  // Step 7'. Split before the eldest brother (tree splitting, Mandatory
  // Work First): the backend may take the whole move loop at once. Nothing
  // is searched yet, so ctx's defaults (no best, no move searched, no
  // pruning) are the node's state but for alpha.
  bool split_first = false;
  if constexpr (Hooks::kSplits) {
    if (hooks_.want_split_first(w, ctx)) {
      ctx.alpha = alpha;
      split_and_merge(w, ctx, alpha, best, best_move, searched);
      if (stopped(w)) return 0;
      split_first = true;
    }
  }
  for (Move m = split_first ? Move::none() : picker.next(); m; m = picker.next()) {
    // Step 7a. Legality (the picker's moves are pseudo-legal); the move a
    // singular-extension search leaves out.
    if (!pos.is_legal(m) || m == excluded) continue;

    // Step 7a'. The modern profile's move pruning and late-move reduction.
    MovePlan plan;
    if (selective_ && searched > 0) {
      plan = plan_move(w, m, picker.ordinal(), depth, ply, pv_node, in_check, eval, improving,
                       alpha, tt_move, kRoot || boxable ? false : best > -kMateInMaxPly);
      if (plan.skip) continue;
    }

    // Step 7b. Deferral (kDefersMoves, kClaimsNodes): a younger brother the
    // backend names waits for the deferred stage; once a move was deferred,
    // another thread's stored result may cut the rest of the loop off.
    const bool young = kDeferral && searched > 0 && !picker.deferred_stage();
    if constexpr (Hooks::kDefersMoves) {
      if (young && hooks_.defer_move(w, m, ply)) {
        defer(w, picker, m);
        continue;
      }
    }
    if constexpr (kDeferral) {
      if (picker.deferred_stage()) ++w.stats[coordination::deferred_searches];
      if (picker.has_deferred() && !full_width)
        if (const std::optional<Value> cut = reprobe(w, beta, depth, ply)) return *cut;
    }

    // Step 7c. Root shared with other threads (kSharesRoot): another
    // thread's better root best is adopted before each younger move.
    if constexpr (kRoot && Hooks::kSharesRoot)
      if (searched > 0 && adopt_root_best(w, depth, alpha_orig, beta, alpha, best, best_move) &&
          alpha >= beta)
        break;

    // Step 7d. Search the child (child(); at the root root_child()). A
    // child another thread is searching (kOnEvaluation) is deferred.
    if constexpr (Hooks::kDefersMoves)
      hooks_.before_child(w, m, depth, ply, picker.deferred_stage());
    const bool only_if_free = young && exclusive_child(depth, ply);
    Value v;
    if constexpr (kRoot)
      v = root_child(w, m, alpha, beta, depth, pv_node, searched == 0, only_if_free, alpha_orig,
                     best, best_move, plan.reduce);
    else
      v = child(w, m, alpha, beta, m == tt_move ? depth + singular : depth, ply, pv_node,
                searched == 0, only_if_free, KeepAlpha{}, plan.reduce);
    if constexpr (Hooks::kDefersMoves) hooks_.after_child(w, ply);
    if (stopped(w)) return 0;
    if constexpr (Hooks::kClaimsNodes) {
      if (v == kOnEvaluation) {
        defer(w, picker, m);
        continue;
      }
    }
    ++searched;
    if constexpr (kRoot && Hooks::kSharesRoot)  // an adopted root best at or above beta
      if (alpha >= beta) break;

    // Step 7e. Record the result: a better value raises best, then alpha
    // and the line (published to the other threads at a shared root);
    // reaching beta ends the loop with a cutoff.
    if (v > best) {
      best = v;
      best_move = m;
      if (v > alpha) {
        alpha = v;
        update_pv(w, ply, m);
        if constexpr (kRoot && Hooks::kSharesRoot)
          hooks_.publish_root(w, depth, alpha_orig, beta, v);
        if (v >= beta) {
          on_cutoff(w, m, depth, ply, searched == 1);
          if (f_.histgravity && !pos.is_capture(m)) history_malus(w, quiets, quiet_count, depth);
          break;
        }
      }
    }
    if (f_.histgravity && !pos.is_capture(m) && quiet_count < int(quiets.size()))
      quiets[std::size_t(quiet_count++)] = m;

    // Step 8. Offer a split point: the node goes to the backend once the
    // eldest brother is done (after it, at every move: a thread may fall
    // idle while this node is half searched, and a later split point is all
    // the surer an ALL node).
    if constexpr (Hooks::kSplits) {
      ctx.alpha = alpha;
      ctx.best_value = best;
      ctx.best_move = best_move;
      ctx.moves_searched = searched;
      ctx.may_prune = !kRoot && !boxable && best > -kMateInMaxPly;
      if (hooks_.want_split(w, ctx)) {
        split_and_merge(w, ctx, alpha, best, best_move, searched);
        if (stopped(w)) return 0;
        break;
      }
    }
  }

  // Step 9. No legal move: mated (stalemate loses too in Xiangqi). A
  // singular-extension search without another legal move fails low.
  if (searched == 0) return excluded ? alpha : mated_in(ply);

  // Step 10. Store.
  if (f_.tt && !excluded) {
    TTData d;
    d.move = best_move;
    d.value = std::int16_t(value_to_tt(best, ply));
    d.depth = std::int8_t(std::min(depth, 127));
    d.bound = best >= beta ? Bound::Lower : best > alpha_orig ? Bound::Exact : Bound::Upper;
    tt_.store(pos.key(), d, w.id);
  }
  return best;
}

template <class Table, class Hooks>
inline Value Search<Table, Hooks>::qsearch(Worker& w, Value alpha, Value beta, int ply) {
  Position& pos = w.pos;
  w.pv[ply].size = 0;
  if (!f_.qsearch) {
    ++w.stats.nodes;
    return evaluate(pos, f_.knowledge);
  }
  ++w.stats.nodes;
  ++w.stats.qnodes;
  if (std::uint64_t(ply) >= w.stats.seldepth) w.stats.seldepth = std::uint64_t(ply) + 1;
  if (w.stats.nodes >= w.next_time_check) check_limits(w);
  if (stopped(w)) return 0;
  if (ply >= kMaxPly) return evaluate(pos, f_.knowledge);

  // Stand pat unless in check (then every evasion is searched).
  const bool in_check = pos.in_check();
  Value best = -kInfinite;
  if (!in_check) {
    best = evaluate(pos, f_.knowledge);
    if (best >= beta) return best;
    if (best > alpha) alpha = best;
  }
  MovePicker picker(pos, w, f_);
  int searched = 0;
  for (Move m = picker.next(); m; m = picker.next()) {
    if (!pos.is_legal(m)) continue;
    // The modern profile skips captures that lose material (not evasions).
    if (f_.see && !in_check && !see_ge(pos, m, 0)) {
      ++w.stats.pruned_moves;
      continue;
    }
    ++searched;
    pos.do_move(m);
    const Value v = -qsearch(w, -beta, -alpha, ply + 1);
    pos.undo_move(m);
    if (stopped(w)) return 0;
    if (v > best) {
      best = v;
      if (v > alpha) {
        alpha = v;
        if (v >= beta) break;
      }
    }
  }
  if (in_check && searched == 0) return mated_in(ply);
  return best;
}

// Whether the side not to move has only palace pieces left (no rook,
// horse, cannon or pawn): it can be mated without check, by a quiet move
// that leaves it no legal move.
template <class Table, class Hooks>
inline bool Search<Table, Hooks>::boxable_opponent(const Position& pos) {
  const Color c = ~pos.side_to_move();
  return pos.count(c, PieceType::Rook) + pos.count(c, PieceType::Horse) +
             pos.count(c, PieceType::Cannon) + pos.count(c, PieceType::Pawn) ==
         0;
}

template <class Table, class Hooks>
inline void Search<Table, Hooks>::on_cutoff(Worker& w, Move m, Depth depth, int ply, bool first) {
  ++w.stats.fail_highs;
  if (first) ++w.stats.fail_high_first;
  if (w.pos.is_capture(m)) return;
  if (f_.killers) w.add_killer(ply, m);
  if (f_.history) {
    if (f_.histgravity) w.add_history_gravity(m, history_bonus(depth));
    else w.add_history(m, depth);
  }
}

}  // namespace xq
