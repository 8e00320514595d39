// Selectivity of Search<Table, Hooks> (search/search.h): the thesis's null
// move (Step 5c) and the modern profile's steps -- reverse futility and
// razoring (5a-5b), adaptive and verified null move (5c), ProbCut (5d),
// singular extension (5f), move-count, futility and SEE pruning with
// late-move reductions (7a') and the history's gravity. Each modern step is
// a run-time feature (search/options.h, Features) the thesis profile never
// calls.
#pragma once

#include "search/search.h"

namespace xq {

// Pieces that can attack across the board: rooks, horses, cannons.
template <class Table, class Hooks>
inline int Search<Table, Hooks>::attackers(const Position& pos) {
  const Color c = pos.side_to_move();
  return pos.count(c, PieceType::Rook) + pos.count(c, PieceType::Horse) +
         pos.count(c, PieceType::Cannon);
}

// Step 5c of node(), the thesis's null move: R = 2, R = 3 at depth >= 9 with a
// material lead of at least 600; the caller has excluded check, the root,
// a second null move in a row and PVS's PV nodes. Not tried when the side
// to move has fewer than 3 attacking pieces (zugzwang danger) or stands
// below beta. Returns the node's value when it cuts off (0 on a stop).
template <class Table, class Hooks>
inline std::optional<Value> Search<Table, Hooks>::try_null_move(
    Worker& w, Value beta, Depth depth, int ply) {
  Position& pos = w.pos;
  if (attackers(pos) < 3 || evaluate(pos, f_.knowledge) < beta) return std::nullopt;
  const Color us = pos.side_to_move();
  const Depth r = depth >= 9 && pos.material(us) - pos.material(~us) >= 600 ? 3 : 2;
  ++w.stats.null_tries;
  pos.do_null_move();
  const Value v = -node(w, -beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
  pos.undo_null_move();
  if (stopped(w)) return Value{0};
  if (v < beta) return std::nullopt;
  ++w.stats.null_cutoffs;
  return v >= kMateInMaxPly ? beta : v;  // an unproven mate is not reported
}

// histgravity: the quiet moves searched before the one that cut off lose
// what it gains.
template <class Table, class Hooks>
void Search<Table, Hooks>::history_malus(
    Worker& w, const std::array<Move, 32>& quiets, int n, Depth depth) {
  if (!f_.history) return;
  for (int i = 0; i < n; ++i) w.add_history_gravity(quiets[std::size_t(i)], -history_bonus(depth));
}

// Late-move reductions by remaining depth and move ordinal, in plies:
// (lmr_base + lmr_scale x ln d x ln n) / 100.
template <class Table, class Hooks>
inline void Search<Table, Hooks>::fill_reductions() {
  for (int d = 1; d < kLmrSize; ++d)
    for (int n = 1; n < kLmrSize; ++n)
      reductions_[std::size_t(d)][std::size_t(n)] = std::uint8_t(std::clamp(
          (t_.lmr_base + t_.lmr_scale * std::log(double(d)) * std::log(double(n))) / 100.0, 0.0,
          32.0));
}

// Whether the side to move gives check with m (made and taken back).
template <class Table, class Hooks>
inline bool Search<Table, Hooks>::gives_check(Position& pos, Move m) {
  pos.do_move(m);
  const bool check = pos.in_check();
  pos.undo_move(m);
  return check;
}

// Step 7a' of node() (and of a split point's helpers): whether to prune
// move m, the ordinal-th of the node, and by how much to reduce it. Only
// after the first move; `may_prune`: not at the root, and the best so far
// is no mated score (so a node whose moves are all pruned does not claim a
// mate). Moves that give check are never pruned (Xiangqi's quiet checks
// are its mating moves), nor reduced (child()).
// The modern profile's steps are kept out of the node function's body
// (noinline): the thesis profile never calls them, and inlined they would
// grow the hot loop it runs.
template <class Table, class Hooks>
auto Search<Table, Hooks>::plan_move(
    Worker& w, Move m, int ordinal, Depth depth, int ply, bool pv_node, bool in_check, Value eval,
    bool improving, Value alpha, Move tt_move, bool may_prune) -> MovePlan {
  MovePlan plan;
  Position& pos = w.pos;
  const bool capture = pos.is_capture(m);
  const bool killer = w.is_killer(ply, m);
  if (f_.lmr && depth >= 3 && ordinal > 1 + int(pv_node) && !capture && !in_check &&
      m != tt_move) {
    int r = reductions_[std::size_t(std::min(depth, kLmrSize - 1))]
                       [std::size_t(std::min(ordinal, kLmrSize - 1))];
    if (pv_node) --r;
    if (killer) --r;
    if (!improving) ++r;
    if (f_.histgravity && f_.history)
      r -= w.history_of(m) / t_.lmr_history;
    plan.reduce = Depth(std::clamp(r, 0, depth - 2));
  }
  if (!may_prune || in_check || m == tt_move) return plan;
  const Depth lmr_depth = std::max(depth - 1 - plan.reduce, 0);
  bool prune = false;
  if (!capture) {
    if ((f_.lmp && depth <= t_.lmp_depth &&
         ordinal > (t_.lmp_base + depth * depth) / (2 - int(improving))) ||
        (!killer && ((f_.futility && lmr_depth <= t_.futility_depth &&
                      eval + t_.futility_base + t_.futility_per_depth * lmr_depth <= alpha) ||
                     (f_.see && lmr_depth <= 8 &&
                      !see_ge(pos, m, -t_.see_quiet * lmr_depth * lmr_depth)))))
      prune = !gives_check(pos, m);
  } else if (f_.see && depth <= 6 && !see_ge(pos, m, -t_.see_capture * depth)) {
    prune = !gives_check(pos, m);
  }
  if (prune) {
    plan.skip = true;
    ++w.stats.pruned_moves;
  }
  return plan;
}

// Steps 5a-5b of node(), at a non-PV node not in check: reverse futility
// (the static value stands far enough above beta) and razoring (so far
// below alpha that only a capture could help: quiescence decides).
template <class Table, class Hooks>
std::optional<Value> Search<Table, Hooks>::static_cutoff(
    Worker& w, Value alpha, Value beta, Depth depth, int ply, Value eval, bool improving) {
  if (f_.rfp && depth <= t_.rfp_depth && eval < kMateInMaxPly && beta > -kMateInMaxPly &&
      eval - t_.rfp_margin * (depth - int(improving)) >= beta) {
    ++w.stats.static_cutoffs;
    return eval;
  }
  if (f_.razor && depth <= t_.razor_depth &&
      eval + t_.razor_margin + t_.razor_per_depth * depth <= alpha) {
    const Value v = qsearch(w, alpha, alpha + 1, ply);
    if (stopped(w)) return Value{0};
    if (v <= alpha) {
      ++w.stats.static_cutoffs;
      return v;
    }
  }
  return std::nullopt;
}

// Step 5c, nullplus: R = null_base + depth / null_depth_div + up to 3 more
// as the static value exceeds beta. The guard against zugzwang, which in
// Xiangqi comes with few attacking pieces: no null move without any rook,
// horse or cannon, and a cutoff with fewer than 3 of them (or at depth >=
// null_verify_depth) must be confirmed by a search of the node itself,
// without null move, at the reduced depth.
template <class Table, class Hooks>
std::optional<Value> Search<Table, Hooks>::try_null_move_plus(
    Worker& w, Value beta, Depth depth, int ply, Value eval) {
  Position& pos = w.pos;
  const int majors = attackers(pos);
  if (majors == 0 || eval < beta || beta <= -kMateInMaxPly) return std::nullopt;
  const Depth r = Depth(t_.null_base + depth / t_.null_depth_div +
                        std::min((eval - beta) / t_.null_eval_div, 3));
  ++w.stats.null_tries;
  pos.do_null_move();
  Value v = -node(w, -beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
  pos.undo_null_move();
  if (stopped(w)) return Value{0};
  if (v < beta) return std::nullopt;
  if (v >= kMateInMaxPly) v = beta;  // an unproven mate is not reported
  if (majors < 3 || depth >= t_.null_verify_depth) {
    const Value check = node(w, beta - 1, beta, std::max<Depth>(depth - r, 1), ply, false, false);
    if (stopped(w)) return Value{0};
    if (check < beta) return std::nullopt;
  }
  ++w.stats.null_cutoffs;
  return v;
}

// Step 5d, ProbCut: a capture that wins enough (SEE) and whose reduced
// search (depth - 4) beats beta by probcut_margin cuts the node off. Its
// own picker lives in this frame, not the node's.
template <class Table, class Hooks>
std::optional<Value> Search<Table, Hooks>::probcut(
    Worker& w, Value beta, Depth depth, int ply, Value eval) {
  Position& pos = w.pos;
  const Value rbeta = std::min(beta + t_.probcut_margin, kMateInMaxPly - 1);
  MovePicker picker(pos, w, f_);  // captures (the node is not in check)
  int tried = 0;
  for (Move m = picker.next(); m && tried < 3; m = picker.next()) {
    if (!pos.is_legal(m) || !see_ge(pos, m, rbeta - eval)) continue;
    ++tried;
    pos.do_move(m);
    Value v = -qsearch(w, -rbeta, -rbeta + 1, ply + 1);
    if (v >= rbeta && !stopped(w))
      v = -node(w, -rbeta, -rbeta + 1, depth - 4, ply + 1, false, true);
    pos.undo_move(m);
    if (stopped(w)) return Value{0};
    if (v >= rbeta) {
      ++w.stats.static_cutoffs;
      return v;
    }
  }
  return std::nullopt;
}

// Step 5f: the node is searched without its table move at half depth,
// against a bound singular_margin x depth below the table's value. Below
// it, the table move is singular and `extension` becomes 1 -- unless it
// leads to a repetition (Xiangqi's back-and-forth shuffling would extend
// forever), or the thread is already twice the iteration's depth deep.
// Above it and at or above beta, several moves beat beta: the bound is
// returned (multi-cut).
template <class Table, class Hooks>
std::optional<Value> Search<Table, Hooks>::singular_search(
    Worker& w, Value beta, Depth depth, int ply, Move tt_move, const TTData& e, Depth& extension) {
  const Value ttv = value_from_tt(e.value, ply);
  if (e.depth < depth - 3 || std::abs(ttv) >= kMateInMaxPly ||
      (e.bound != Bound::Lower && e.bound != Bound::Exact) ||
      ply >= 2 * shared_.root_depth.load(std::memory_order_relaxed))
    return std::nullopt;
  const Value sbeta = ttv - t_.singular_margin * depth;
  const auto p = std::size_t(ply);
  w.excluded[p] = tt_move;
  const Value v = node(w, sbeta - 1, sbeta, (depth - 1) / 2, ply, false, false);
  w.excluded[p] = Move::none();
  if (stopped(w)) return Value{0};
  if (v < sbeta) {
    Position& pos = w.pos;
    pos.do_move(tt_move);
    const bool shuffles = pos.repetition() != Repetition::None;
    pos.undo_move(tt_move);
    if (!shuffles) {
      extension = 1;
      ++w.stats.singular_extensions;
    }
  } else if (sbeta >= beta) {
    ++w.stats.static_cutoffs;
    return sbeta;
  }
  return std::nullopt;
}

}  // namespace xq
