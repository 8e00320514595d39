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

// Material value of a piece type (king 0: it is never traded).
Value piece_value(PieceType t);
// Material + piece-square value of piece p standing on s (red's point of view
// for a red piece, black's for a black one: positive is good for p's owner).
Value psq_value(Piece p, Square s);
// Mobility term from red's point of view.
Value mobility_red(const Position& pos);
// Full evaluation from the side to move's point of view.
Value evaluate(const Position& pos);

}  // namespace xq
