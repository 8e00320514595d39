// Special values of the search: how table scores carry mate distances, the
// repetition rule's scores, the sentinel of an exclusive child search, and
// which table entries the node function accepts.
#pragma once

#include "board/types.h"
#include "hashing/entry.h"

namespace xq {

// Scores stored in the table are relative to the node, mate scores included:
// a mate found 3 plies below a node is stored as "mate in 3 from here".
constexpr Value value_to_tt(Value v, int ply) {
  return v >= kMateInMaxPly ? v + ply : v <= -kMateInMaxPly ? v - ply : v;
}
constexpr Value value_from_tt(Value v, int ply) {
  return v >= kMateInMaxPly ? v - ply : v <= -kMateInMaxPly ? v + ply : v;
}

// Scores of the simplified repetition rule: a perpetual checker loses, by a
// margin below every mate score so mate distances stay meaningful.
constexpr Value kRepetitionWin = kMateInMaxPly - 1;

// What an exclusive child search returns when another thread is searching
// the node (hooks with kClaimsNodes only): outside every score, and returned
// as is by child(), never negated.
constexpr Value kOnEvaluation = kInfinite + 1;

// Whether a table entry can have been written by the node function: a result
// (a bound, a depth of a node above the horizon, a value within +-kInfinite)
// or a claim's placeholder (no bound, no move, no value). A torn or colliding
// entry can hold any bits; the node function rejects the others.
constexpr bool plausible_entry(const TTData& e) {
  if (e.bound == Bound::None)
    return e.depth == packed::kPlaceholderDepth && e.value == 0 && !e.move;
  return e.depth >= 1 && e.value >= -kInfinite && e.value <= kInfinite;
}

}  // namespace xq
