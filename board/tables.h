// Precomputed per-square move tables. Every table lists only on-board targets
// that the piece's geometry allows from that square (palace, river, board
// edge), so the generators never test edges at run time. Blocking squares
// (horse legs, elephant eyes) are stored beside their targets.
#pragma once

#include <array>
#include <cstdint>

#include "board/types.h"

namespace xq::tables {

struct Step {
  Square to;
  Square block;  // leg / eye square that must be empty; Square::None when unused
};

template <int N>
struct Steps {
  std::array<Step, N> list{};
  int size = 0;
  const Step* begin() const { return list.data(); }
  const Step* end() const { return list.data() + size; }
};

// Directions along ranks and files: 0 north (towards rank 9), 1 south, 2 east
// (towards file i), 3 west.
constexpr int kDirections = 4;
constexpr bool is_vertical(int dir) { return dir < 2; }

struct Ray {
  std::array<Square, 10> squares{};  // ends with Square::None
};

struct Tables {
  std::array<Steps<4>, kSquares> king{};      // inside the palace the square lies in
  std::array<Steps<4>, kSquares> advisor{};
  std::array<Steps<4>, kSquares> elephant{};  // block = eye, same side of the river
  std::array<Steps<8>, kSquares> horse{};     // block = leg
  // horse_attackers[s]: squares a horse can attack s from, with the leg of that jump.
  std::array<Steps<8>, kSquares> horse_attackers{};
  std::array<std::array<Steps<3>, kSquares>, kColors> pawn{};
  std::array<std::array<Ray, kDirections>, kSquares> rays{};
};

namespace detail {
constexpr bool on_board(int f, int r) { return f >= 0 && f < kFiles && r >= 0 && r < kRanks; }

template <int N>
constexpr void add(Steps<N>& s, Square to, Square block = Square::None) {
  s.list[s.size++] = Step{to, block};
}

constexpr Tables build_tables() {
  Tables t;
  constexpr int kOrth[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
  constexpr int kDiag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  for (int sq = 0; sq < kSquares; ++sq) {
    const Square s = Square(sq);
    const int f = file_of(s), r = rank_of(s);
    for (Color c : {Color::Red, Color::Black}) {
      if (!in_palace(c, s)) continue;
      for (auto [df, dr] : kOrth)
        if (on_board(f + df, r + dr) && in_palace(c, make_square(f + df, r + dr)))
          add(t.king[sq], make_square(f + df, r + dr));
      for (auto [df, dr] : kDiag)
        if (on_board(f + df, r + dr) && in_palace(c, make_square(f + df, r + dr)))
          add(t.advisor[sq], make_square(f + df, r + dr));
    }
    for (auto [df, dr] : kDiag) {
      const int tf = f + 2 * df, tr = r + 2 * dr;
      if (!on_board(tf, tr)) continue;
      const Square to = make_square(tf, tr);
      const Color side = rank_of(s) <= 4 ? Color::Red : Color::Black;
      if (own_side(side, to)) add(t.elephant[sq], to, make_square(f + df, r + dr));
    }
    // Horse: two steps along one axis, one along the other; the leg is the
    // first orthogonal step.
    for (auto [df, dr] : kOrth) {
      const Square leg_sq = on_board(f + df, r + dr) ? make_square(f + df, r + dr) : Square::None;
      if (leg_sq == Square::None) continue;
      for (int side : {-1, 1}) {
        const int tf = f + 2 * df + (dr != 0 ? side : 0);
        const int tr = r + 2 * dr + (df != 0 ? side : 0);
        if (!on_board(tf, tr)) continue;
        const Square to = make_square(tf, tr);
        add(t.horse[sq], to, leg_sq);
        add(t.horse_attackers[index(to)], s, leg_sq);
      }
    }
    for (Color c : {Color::Red, Color::Black}) {
      const int fwd = c == Color::Red ? 1 : -1;
      if (on_board(f, r + fwd)) add(t.pawn[index(c)][sq], make_square(f, r + fwd));
      if (!own_side(c, s)) {
        if (on_board(f - 1, r)) add(t.pawn[index(c)][sq], make_square(f - 1, r));
        if (on_board(f + 1, r)) add(t.pawn[index(c)][sq], make_square(f + 1, r));
      }
    }
    for (int d = 0; d < kDirections; ++d) {
      int n = 0;
      for (int tf = f + kOrth[d][0], tr = r + kOrth[d][1]; on_board(tf, tr);
           tf += kOrth[d][0], tr += kOrth[d][1])
        t.rays[sq][d].squares[n++] = make_square(tf, tr);
      t.rays[sq][d].squares[n] = Square::None;
    }
  }
  return t;
}

}  // namespace detail

inline constexpr Tables kTables = detail::build_tables();

}  // namespace xq::tables
