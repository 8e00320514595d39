#include "board/see.h"

#include <algorithm>
#include <array>

#include "board/eval.h"
#include "board/tables.h"

namespace xq {
namespace {

using tables::kTables;

// A king in the exchange: worth more than anything that could be won with it.
constexpr Value kKingInExchange = 10000;

Value exchange_value(PieceType t) {
  return t == PieceType::King ? kKingInExchange : piece_value(t);
}

struct Board90 {
  std::array<Piece, kSquares> at{};
  Piece operator()(Square s) const { return at[index(s)]; }
};

// Pieces strictly between a and b, which share a file or a rank.
int between(const Board90& b, Square a, Square c) {
  const int df = (file_of(c) > file_of(a)) - (file_of(c) < file_of(a));
  const int dr = (rank_of(c) > rank_of(a)) - (rank_of(c) < rank_of(a));
  int n = 0;
  for (int f = file_of(a) + df, r = rank_of(a) + dr; f != file_of(c) || r != rank_of(c);
       f += df, r += dr)
    n += b(make_square(f, r)) != Piece::None;
  return n;
}

template <int N>
bool step_reaches(const Board90& b, const tables::Steps<N>& steps, Square s) {
  for (const tables::Step& st : steps)
    if (st.to == s) return st.block == Square::None || b(st.block) == Piece::None;
  return false;
}

// Whether the piece p on q attacks s on board b (pseudo-legally).
bool attacks(const Board90& b, Piece p, Square q, Square s) {
  switch (type_of(p)) {
    case PieceType::King: return step_reaches(b, kTables.king[index(q)], s);
    case PieceType::Advisor: return step_reaches(b, kTables.advisor[index(q)], s);
    case PieceType::Elephant: return step_reaches(b, kTables.elephant[index(q)], s);
    case PieceType::Horse: return step_reaches(b, kTables.horse[index(q)], s);
    case PieceType::Pawn: return step_reaches(b, kTables.pawn[index(color_of(p))][index(q)], s);
    case PieceType::Rook:
    case PieceType::Cannon: {
      if (file_of(q) != file_of(s) && rank_of(q) != rank_of(s)) return false;
      return between(b, q, s) == (type_of(p) == PieceType::Rook ? 0 : 1);
    }
    case PieceType::None: break;
  }
  return false;
}

// The square of by's least valuable piece attacking s on b, Square::None
// when there is none. `list` holds by's squares at the start of the exchange;
// a square whose piece has left it (or was taken) no longer holds by's piece.
Square least_attacker(const Board90& b, const Square* list, int n, Color by, Square s) {
  Square best = Square::None;
  Value best_value = 0;
  for (int i = 0; i < n; ++i) {
    const Square q = list[i];
    const Piece p = b(q);
    if (p == Piece::None || color_of(p) != by || q == s) continue;
    const Value v = exchange_value(type_of(p));
    if (best != Square::None && v >= best_value) continue;
    if (attacks(b, p, q, s)) {
      best = q;
      best_value = v;
    }
  }
  return best;
}

}  // namespace

Value see(const Position& pos, Move m) {
  Board90 b;
  for (int i = 0; i < kSquares; ++i) b.at[std::size_t(i)] = pos.piece_on(Square(i));
  const Square s = m.to();
  std::array<Value, 40> gain{};
  int d = 0;
  const Piece victim = b(s);
  gain[0] = victim == Piece::None ? 0 : exchange_value(type_of(victim));
  Piece on_square = b(m.from());
  b.at[index(m.from())] = Piece::None;
  b.at[index(s)] = on_square;
  Color side = ~color_of(on_square);
  const Square* lists[2] = {pos.pieces(Color::Red), pos.pieces(Color::Black)};
  const int sizes[2] = {pos.piece_count(Color::Red), pos.piece_count(Color::Black)};
  while (d + 1 < int(gain.size())) {
    const Square from = least_attacker(b, lists[index(side)], sizes[index(side)], side, s);
    if (from == Square::None) break;
    ++d;
    // Speculative: what side stands to win if the piece on s is taken and
    // the exchange stops there.
    gain[std::size_t(d)] = exchange_value(type_of(on_square)) - gain[std::size_t(d) - 1];
    if (std::max(-gain[std::size_t(d) - 1], gain[std::size_t(d)]) < 0) break;
    on_square = b(from);
    b.at[index(from)] = Piece::None;
    b.at[index(s)] = on_square;
    side = ~side;
  }
  while (d > 0) {
    gain[std::size_t(d) - 1] = -std::max(-gain[std::size_t(d) - 1], gain[std::size_t(d)]);
    --d;
  }
  return gain[0];
}

bool see_ge(const Position& pos, Move m, Value threshold) {
  const Piece victim = pos.piece_on(m.to());
  const Value won = victim == Piece::None ? 0 : exchange_value(type_of(victim));
  if (won < threshold) return false;  // even an unanswered capture falls short
  const Value risked = exchange_value(type_of(pos.piece_on(m.from())));
  if (won - risked >= threshold) return true;  // even losing the mover keeps it
  return see(pos, m) >= threshold;
}

}  // namespace xq
