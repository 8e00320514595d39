// Static evaluation after the seed thesis (ch. 5.4): material, mobility per
// piece type and piece-square tables. Material and piece-square terms are kept
// incrementally by Position; mobility is counted here.
#pragma once

#include "board/position.h"
#include "board/types.h"

namespace xq {

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
