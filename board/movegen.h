// Pseudo-legal move generation (captures and quiet moves separately, for
// quiescence and staged ordering) and legal move generation.
#pragma once

#include "board/position.h"
#include "board/types.h"

namespace xq {

enum class GenType { Captures, Quiets, All };

// More than any Xiangqi position can have pseudo-legally.
constexpr int kMaxMoves = 160;

// Writes pseudo-legal moves of the side to move into out, returns the end.
template <GenType T>
Move* generate(const Position& pos, Move* out);
// Writes the legal moves of the side to move into out, returns the end.
Move* generate_legal(const Position& pos, Move* out);

struct MoveList {
  Move moves[kMaxMoves];
  int size = 0;
  explicit MoveList(const Position& pos) { size = int(generate_legal(pos, moves) - moves); }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }
};

// Legal-move tree size; leaf moves are counted without being made.
std::uint64_t perft(Position& pos, int depth);

}  // namespace xq
