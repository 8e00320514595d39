// Reference values for the search tests: a plain negamax over exactly the
// tree the engine defines in exact mode (depth-limited, check extension at
// in-check nodes, full-minimax quiescence over captures or all evasions,
// mate = loss for the side without moves), with no pruning at all.
#pragma once

#include <algorithm>

#include "board/eval.h"
#include "board/movegen.h"
#include "search/options.h"

namespace xq::testing {

// Quiescence by fail-hard alpha-beta (equal to the quiescence minimax when
// called with the full window; an unpruned capture tree is too large to test).
inline Value quiesce(Position& pos, Value alpha, Value beta, int ply, const Features& f) {
  if (!f.qsearch || ply >= kMaxPly) return std::clamp(evaluate(pos), alpha, beta);
  const bool in_check = pos.in_check();
  if (!in_check) {
    const Value stand = evaluate(pos);
    if (stand >= beta) return beta;
    alpha = std::max(alpha, stand);
  }
  Move moves[kMaxMoves];
  Move* last = in_check ? generate<GenType::All>(pos, moves) : generate<GenType::Captures>(pos, moves);
  int legal = 0;
  for (Move* m = moves; m != last; ++m) {
    if (!pos.is_legal(*m)) continue;
    ++legal;
    pos.do_move(*m);
    const Value v = -quiesce(pos, -beta, -alpha, ply + 1, f);
    pos.undo_move(*m);
    if (v >= beta) return beta;
    alpha = std::max(alpha, v);
  }
  if (in_check && legal == 0) return std::clamp(mated_in(ply), alpha, beta);
  return alpha;
}

inline Value minimax_q(Position& pos, int ply, const Features& f) {
  return quiesce(pos, -kInfinite, kInfinite, ply, f);
}

inline Value minimax(Position& pos, Depth depth, int ply, const Features& f) {
  if (depth <= 0) return minimax_q(pos, ply, f);
  if (ply >= kMaxPly) return evaluate(pos);
  if (f.checkext && pos.in_check()) ++depth;
  Value best = -kInfinite;
  int legal = 0;
  for (Move m : MoveList(pos)) {
    ++legal;
    pos.do_move(m);
    best = std::max(best, -minimax(pos, depth - 1, ply + 1, f));
    pos.undo_move(m);
  }
  return legal ? best : mated_in(ply);
}

}  // namespace xq::testing
