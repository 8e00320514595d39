// Small strong types shared by every module: squares, pieces, colours, moves,
// values and depths. Nothing here allocates or depends on anything else.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace xq {

using Key = std::uint64_t;  // 64-bit Zobrist key
using Value = int;          // centipawn-like score, always inside [-kInfinite, kInfinite]
using Depth = int;          // search depth in plies

// ---------------------------------------------------------------- colours
enum class Color : std::uint8_t { Red = 0, Black = 1 };
constexpr int kColors = 2;
constexpr Color operator~(Color c) { return Color(std::uint8_t(c) ^ 1); }
constexpr int index(Color c) { return int(c); }

// ---------------------------------------------------------------- squares
// 90 squares, a0..i9: index = rank * 9 + file. File a..i runs left to right from
// red's point of view, rank 0 is red's back rank and rank 9 black's (ICCS).
enum class Square : std::uint8_t { A0 = 0, None = 90 };
constexpr int kFiles = 9;
constexpr int kRanks = 10;
constexpr int kSquares = 90;

constexpr Square make_square(int file, int rank) { return Square(rank * kFiles + file); }
constexpr int index(Square s) { return int(s); }
constexpr int file_of(Square s) { return int(s) % kFiles; }
constexpr int rank_of(Square s) { return int(s) / kFiles; }
constexpr bool is_ok(Square s) { return int(s) < kSquares; }
// Red's half is ranks 0..4; a square is on colour c's own side of the river.
constexpr bool own_side(Color c, Square s) {
  return c == Color::Red ? rank_of(s) <= 4 : rank_of(s) >= 5;
}
constexpr bool in_palace(Color c, Square s) {
  const int f = file_of(s), r = rank_of(s);
  return f >= 3 && f <= 5 && (c == Color::Red ? r <= 2 : r >= 7);
}

// ---------------------------------------------------------------- pieces
enum class PieceType : std::uint8_t {
  None = 0, King = 1, Advisor = 2, Elephant = 3, Horse = 4, Rook = 5, Cannon = 6, Pawn = 7
};
constexpr int kPieceTypes = 8;  // including None, so arrays index directly

// Piece code = type | colour << 3: red pieces 1..7, black 9..15, 0 = empty.
enum class Piece : std::uint8_t { None = 0 };
constexpr int kPieceCodes = 16;
constexpr Piece make_piece(Color c, PieceType t) {
  return Piece(std::uint8_t(t) | std::uint8_t(std::uint8_t(c) << 3));
}
constexpr PieceType type_of(Piece p) { return PieceType(std::uint8_t(p) & 7); }
constexpr Color color_of(Piece p) { return Color(std::uint8_t(p) >> 3); }
constexpr int index(Piece p) { return int(p); }
constexpr int index(PieceType t) { return int(t); }

// FEN letters: upper case red, lower case black. K A B N R C P (E and H are
// accepted on input as synonyms of B and N).
char piece_char(Piece p);

// ---------------------------------------------------------------- moves
// A move fits in 16 bits:
//   bits  0..6   origin square (0..89)
//   bits  7..13  destination square (0..89)
//   bits 14..15  zero
// Move::none() (all zero, a0->a0) is never a legal move, so 0 means "no move",
// which lets a transposition-table entry store "no move" for free. Captures and
// pieces are not encoded: the position tells them. A move read from a table may
// carry any bits, so callers validate it with Position::is_pseudo_legal().
class Move {
 public:
  constexpr Move() = default;
  constexpr Move(Square from, Square to)
      : data_(std::uint16_t(index(from) | (index(to) << 7))) {}
  static constexpr Move none() { return Move(); }
  static constexpr Move from_raw(std::uint16_t raw) {
    Move m;
    m.data_ = raw;
    return m;
  }

  constexpr Square from() const { return Square(data_ & 0x7F); }
  constexpr Square to() const { return Square((data_ >> 7) & 0x7F); }
  constexpr std::uint16_t raw() const { return data_; }
  constexpr bool is_ok() const {
    return data_ != 0 && (data_ >> 14) == 0 && index(from()) < kSquares &&
           index(to()) < kSquares && from() != to();
  }
  constexpr explicit operator bool() const { return data_ != 0; }
  constexpr bool operator==(const Move&) const = default;

 private:
  std::uint16_t data_ = 0;
};

// ---------------------------------------------------------------- values
constexpr Value kInfinite = 32000;
constexpr Value kMate = 30000;          // mated at ply 0 scores -kMate
constexpr int kMaxPly = 128;            // deepest ply a search may reach
constexpr Value kMateInMaxPly = kMate - kMaxPly;
constexpr Value kDraw = 0;

constexpr bool is_mate_score(Value v) { return v >= kMateInMaxPly || v <= -kMateInMaxPly; }
constexpr Value mate_in(int ply) { return kMate - ply; }
constexpr Value mated_in(int ply) { return -kMate + ply; }

// ---------------------------------------------------------------- text
std::string square_name(Square s);                   // "e0"
bool parse_square(std::string_view text, Square& s);  // "e0" -> Square
std::string move_name(Move m);                        // ICCS "h2e2"; "0000" for none

}  // namespace xq
