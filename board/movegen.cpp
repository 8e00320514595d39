#include "board/movegen.h"

#include "board/tables.h"

namespace xq {
namespace {

using tables::kTables;

// Emits moves to the listed steps: captures when the target holds an enemy
// piece, quiet moves when it is empty, as the generation type asks.
template <GenType T, class StepList>
Move* add_steps(const Position& pos, Square from, const StepList& steps, Color us, Move* out) {
  for (const tables::Step& st : steps) {
    if (st.block != Square::None && pos.piece_on(st.block) != Piece::None) continue;
    const Piece target = pos.piece_on(st.to);
    if (target == Piece::None) {
      if constexpr (T != GenType::Captures) *out++ = Move(from, st.to);
    } else if (color_of(target) != us) {
      if constexpr (T != GenType::Quiets) *out++ = Move(from, st.to);
    }
  }
  return out;
}

template <GenType T>
Move* add_rook(const Position& pos, Square from, Color us, Move* out) {
  for (const tables::Ray& ray : kTables.rays[index(from)]) {
    const Square* sq = ray.squares.data();
    for (; *sq != Square::None; ++sq) {
      const Piece p = pos.piece_on(*sq);
      if (p == Piece::None) {
        if constexpr (T != GenType::Captures) *out++ = Move(from, *sq);
        continue;
      }
      if constexpr (T != GenType::Quiets)
        if (color_of(p) != us) *out++ = Move(from, *sq);
      break;
    }
  }
  return out;
}

template <GenType T>
Move* add_cannon(const Position& pos, Square from, Color us, Move* out) {
  for (const tables::Ray& ray : kTables.rays[index(from)]) {
    const Square* sq = ray.squares.data();
    for (; *sq != Square::None && pos.piece_on(*sq) == Piece::None; ++sq)
      if constexpr (T != GenType::Captures) *out++ = Move(from, *sq);
    if constexpr (T == GenType::Quiets) continue;
    if (*sq == Square::None) continue;
    // *sq is the screen: capture the first piece beyond it, if an enemy.
    for (++sq; *sq != Square::None; ++sq) {
      const Piece p = pos.piece_on(*sq);
      if (p == Piece::None) continue;
      if (color_of(p) != us) *out++ = Move(from, *sq);
      break;
    }
  }
  return out;
}

}  // namespace

template <GenType T>
Move* generate(const Position& pos, Move* out) {
  const Color us = pos.side_to_move();
  const Square* list = pos.pieces(us);
  const int n = pos.piece_count(us);
  for (int i = 0; i < n; ++i) {
    const Square from = list[i];
    switch (type_of(pos.piece_on(from))) {
      case PieceType::Rook: out = add_rook<T>(pos, from, us, out); break;
      case PieceType::Cannon: out = add_cannon<T>(pos, from, us, out); break;
      case PieceType::Horse: out = add_steps<T>(pos, from, kTables.horse[index(from)], us, out); break;
      case PieceType::Pawn:
        out = add_steps<T>(pos, from, kTables.pawn[index(us)][index(from)], us, out);
        break;
      case PieceType::Elephant:
        out = add_steps<T>(pos, from, kTables.elephant[index(from)], us, out);
        break;
      case PieceType::Advisor:
        out = add_steps<T>(pos, from, kTables.advisor[index(from)], us, out);
        break;
      case PieceType::King: out = add_steps<T>(pos, from, kTables.king[index(from)], us, out); break;
      default: break;
    }
  }
  return out;
}

template Move* generate<GenType::Captures>(const Position&, Move*);
template Move* generate<GenType::Quiets>(const Position&, Move*);
template Move* generate<GenType::All>(const Position&, Move*);

Move* generate_legal(const Position& pos, Move* out) {
  Move* const first = out;
  Move* const last = generate<GenType::All>(pos, out);
  for (Move* m = first; m != last; ++m)
    if (pos.is_legal(*m)) *out++ = *m;
  return out;
}

std::uint64_t perft(Position& pos, int depth) {
  Move moves[kMaxMoves];
  Move* const last = generate<GenType::All>(pos, moves);
  std::uint64_t nodes = 0;
  if (depth <= 1) {
    if (depth <= 0) return 1;
    for (Move* m = moves; m != last; ++m) nodes += pos.is_legal(*m);
    return nodes;
  }
  for (Move* m = moves; m != last; ++m) {
    if (!pos.is_legal(*m)) continue;
    pos.do_move(*m);
    nodes += perft(pos, depth - 1);
    pos.undo_move(*m);
  }
  return nodes;
}

}  // namespace xq
