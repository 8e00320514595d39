// The Xiangqi position: a 90-square mailbox with piece lists, make/unmake with
// an internal undo stack, incremental Zobrist key and incremental material +
// piece-square score, check detection (flying general included), and the key
// history needed for repetition detection.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "board/types.h"

namespace xq {

constexpr std::string_view kStartFen =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

// Largest half-move clock or full-move number a FEN may give (no real game
// comes near it; larger values are typos or garbage).
constexpr int kMaxFenCounter = 9999;

// `text` quoted for an error message: bytes outside printable ASCII (and
// backslash) as \xNN, cut so that the quoted text (escapes included) has at
// most `max_chars` characters, and the input's full length named when cut, so
// that no input can make an error line long or reach a terminal raw.
std::string quote_input(std::string_view text, std::size_t max_chars = 40);

// Outcome of the simplified repetition rule (see Position::repetition()).
enum class Repetition : std::uint8_t { None, Draw, Win, Loss };

class Position {
 public:
  // Longest line of moves (game + search) a position can hold.
  static constexpr int kMaxHistory = 1024;
  // Most pieces one side can have.
  static constexpr int kMaxPieces = 16;

  Position();  // the start position

  // Makes this position equal to `src` for searching from it, copying the
  // board and only the history a search reads: the states since the last
  // irreversible move (repetition() looks back no further), not the whole
  // kMaxHistory array a plain copy moves (~16 KiB). Afterwards repetition(),
  // key(), fen() and every move made and undone from here answer as on a
  // plain copy. Undoing a move made before the copy needs the older states:
  // valid only when this position already held the same line up to them
  // (a thread restoring a position its own line led to).
  void copy_from(const Position& src);

  // Parses Xiangqi FEN: board, side ("w", "r" or "b"), then optionally "-",
  // "-", the half-move clock (0..kMaxFenCounter) and the full-move number
  // (1..kMaxFenCounter); trailing fields may be omitted. On success returns ""
  // and the position is replaced; on failure returns a one-line description
  // (quoting at most a short, escaped excerpt of the input) and the position
  // is left unchanged. Rejects: wrong rank/file counts, unknown letters,
  // missing or doubled kings, pieces on squares their kind can never reach,
  // too many pieces of a kind, a side not to move that is in check, fields 3
  // or 4 other than "-", and counters that are not numbers or out of range.
  std::string set_fen(std::string_view fen);
  std::string fen() const;

  // ---- state
  Color side_to_move() const { return side_; }
  Piece piece_on(Square s) const { return board_[index(s)]; }
  Square king_square(Color c) const { return king_[index(c)]; }
  int count(Color c, PieceType t) const { return counts_[index(c)][index(t)]; }
  int piece_count(Color c) const { return list_size_[index(c)]; }
  // Squares of colour c's pieces, in no particular order.
  const Square* pieces(Color c) const { return list_[index(c)].data(); }
  Key key() const { return state().key; }
  bool in_check() const { return state().in_check; }
  int game_ply() const { return ply_; }
  // Incremental material + piece-square score from red's point of view.
  Value psq_red() const { return psq_; }
  Value material(Color c) const { return material_[index(c)]; }
  // Recomputes both from the board with the weights now in force (after
  // set_eval_params(), board/eval.h); later moves and undos stay consistent.
  void refresh_eval();

  // ---- attacks and legality
  // Whether any piece of colour `by` attacks square s (kings attack along an
  // open file: the flying-general rule).
  bool attacked(Square s, Color by) const;
  // Full structural check of a move's bits (a table move can hold any bits):
  // the mover belongs to the side to move and can make this move on this board.
  bool is_pseudo_legal(Move m) const;
  // For a pseudo-legal move: whether it leaves the mover's own king safe.
  bool is_legal(Move m) const;
  bool is_capture(Move m) const { return board_[index(m.to())] != Piece::None; }
  Piece captured_by(Move m) const { return board_[index(m.to())]; }
  // Parses ICCS text ("h2e2"); returns Move::none() unless legal here.
  Move parse_move(std::string_view text) const;

  // ---- make / unmake
  void do_move(Move m);    // m must be legal
  void undo_move(Move m);  // m must be the last move made
  void do_null_move();     // not when in check
  void undo_null_move();

  // Simplified repetition rule, looked up over the reversible moves since the
  // last capture: if the current key occurred before, the cycle is a draw,
  // unless one side gave check on every one of its moves in the cycle and the
  // other did not, in which case the perpetual checker loses (Win/Loss are from
  // the side to move's point of view). If both checked throughout, it is a draw.
  Repetition repetition() const;
  // Plies since the last capture (the reversible tail of the game).
  int reversible_plies() const { return state().reversible; }

  // ---- debugging and tests
  Key compute_key() const;      // from scratch
  Value compute_psq_red() const;  // from scratch
  bool is_consistent(std::string* why = nullptr) const;

 private:
  struct State {
    Key key = 0;
    Piece captured = Piece::None;
    bool in_check = false;
    bool null_move = false;
    std::int16_t reversible = 0;
  };
  struct Blank {};
  explicit Position(Blank) { clear(); }
  const State& state() const { return states_[ply_]; }
  void clear();
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  template <class Board>
  bool attacked_on(const Board& at, Square s, Color by) const;
  bool leaves_king_attacked(Move m) const;

  std::array<Piece, kSquares> board_{};
  std::array<std::int8_t, kSquares> list_index_{};  // slot of the piece in list_
  std::array<std::array<Square, kMaxPieces>, kColors> list_{};
  std::array<int, kColors> list_size_{};
  std::array<std::array<int, kPieceTypes>, kColors> counts_{};
  std::array<Square, kColors> king_{};
  std::array<Value, kColors> material_{};
  Value psq_ = 0;
  Color side_ = Color::Red;
  int ply_ = 0;  // index into states_ (plies since set_fen)
  // FEN move counters as parsed, so fen() can report them after moves.
  int halfmove0_ = 0;
  int fullmove0_ = 1;
  Color start_side_ = Color::Red;
  std::array<State, kMaxHistory> states_{};
};

}  // namespace xq
