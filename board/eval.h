// Static evaluation after the seed thesis (ch. 5.4): material, mobility per
// piece type and piece-square tables. Material and piece-square terms are kept
// incrementally by Position; mobility is counted here.
#pragma once

#include "board/position.h"
#include "board/types.h"

#include <array>

namespace xq {

// The evaluation's weights (xqlab's tunable parameters, search/tunables.h,
// name them). psq_percent scales each piece type's square bonuses (100: the
// tables as written in eval.cpp).
struct EvalParams {
  std::array<Value, kPieceTypes> piece{0, 0, 120, 120, 270, 600, 285, 30};
  std::array<int, kPieceTypes> psq_percent{100, 100, 100, 100, 100, 100, 100, 100};
  Value horse_mobility = 4;  // per reachable square
  Value rook_mobility = 2;
  Value cannon_mobility = 1;
  bool operator==(const EvalParams&) const = default;
};

// The weights evaluation uses: one set per process. set_eval_params() may be
// called only while no search runs and no Position is in the middle of a
// line: a Position keeps material and square bonuses incrementally, so one
// made before must be brought up to date with Position::refresh_eval().
const EvalParams& eval_params();
void set_eval_params(const EvalParams& params);

// The modern profile's evaluation (the `knowledge` feature): weights of its
// own for the same terms, and Xiangqi knowledge the thesis's evaluation does
// not have (knowledge_red() below). Computed from the pieces at every call,
// not kept by Position, so that the thesis's evaluation and its incremental
// sums stay what they are. Defaults: tuned with `xqlab spsa --profile modern
// --depth 6` (docs/DESIGN-NOTES.md "The modern search profile").
struct KnowledgeParams {
  EvalParams base{{0, 0, 61, 63, 288, 707, 323, 40}, {100, 99, 98, 110, 91, 141, 64, 129}, 3, 5, 0};
  Value palace_attack = 5;     // per enemy attack unit and missing defender (below)
  Value hollow_cannon = 37;    // a cannon facing the enemy king with nothing between
  Value pressing_cannon = 29;  // ... with two pieces between (a discovered check waits)
  Value cannon_phase = 1;      // cannon + this x (pieces on the board - 20), horse - half
  Value tempo = 7;             // the side to move
  bool operator==(const KnowledgeParams&) const = default;
};
// One set per process, as eval_params() (nothing incremental depends on it).
const KnowledgeParams& knowledge_params();
void set_knowledge_params(const KnowledgeParams& params);

// Material value of a piece type (king 0: it is never traded).
Value piece_value(PieceType t);
// Material + piece-square value of piece p standing on s (red's point of view
// for a red piece, black's for a black one: positive is good for p's owner).
Value psq_value(Piece p, Square s);
// Mobility term from red's point of view.
Value mobility_red(const Position& pos);
// Xiangqi knowledge from red's point of view (the `knowledge` feature):
//  * the palace: each side's attack units against the other's palace (rook
//    3, a horse or cannon 2 across the river and 1 at home, a pawn across
//    the river 1, at most 12) times palace_attack times the defenders the
//    palace lacks (missing advisors count double, missing elephants once,
//    halved): a palace stripped of its guards is worth little while the
//    enemy still has attackers, and nothing once they are gone;
//  * a cannon on the enemy king's file or rank with nothing between
//    (hollow: the king cannot take the centre and any piece stepping in
//    gives check) or with exactly two pieces between (one moving off gives
//    a discovered check);
//  * the cannon's worth falls and the horse's rises as the board empties
//    (fewer screens for the cannon, fewer blocked legs for the horse);
//  * a small bonus for the side to move.
Value knowledge_red(const Position& pos);
// Full evaluation from the side to move's point of view: the thesis's
// (material and squares kept by Position, mobility), or with knowledge the
// modern profile's (KnowledgeParams' material, squares and mobility from the
// pieces, the terms of knowledge_red(), the tempo to the mover).
Value evaluate(const Position& pos);
Value evaluate_modern(const Position& pos);
inline Value evaluate(const Position& pos, bool knowledge) {
  return knowledge ? evaluate_modern(pos) : evaluate(pos);
}

}  // namespace xq
