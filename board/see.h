// Static exchange evaluation: the material balance of the captures on one
// square that a move starts, each side capturing with its least valuable
// piece and free to stop when going on would lose more. Pins and checks are
// ignored (as in most engines' SEE); the king may take part, at a value so
// high that no side trades it. Xiangqi's geometry is taken exactly: cannons
// need one screen (and a capture can create or remove one), horses and
// elephants need their leg / eye empty, pawns attack sideways only across
// the river. Used by the modern search profile's pruning (search/node_selectivity.h).
#pragma once

#include "board/position.h"
#include "board/types.h"

namespace xq {

// The exchange's value for the side making m (m pseudo-legal on pos), in the
// units of piece_value(). A quiet move's value is what it loses on its
// destination square (0 or negative).
Value see(const Position& pos, Move m);
// see(pos, m) >= threshold, with early exits that skip the full exchange.
bool see_ge(const Position& pos, Move m, Value threshold);

}  // namespace xq
