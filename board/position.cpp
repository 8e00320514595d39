#include "board/position.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "board/eval.h"
#include "board/movegen.h"
#include "board/tables.h"
#include "board/zobrist.h"

namespace xq {

using tables::kTables;

Position::Position() {
  const std::string err = set_fen(kStartFen);
  (void)err;  // the start position always parses
}

void Position::copy_from(const Position& src) {
  // Everything before states_ is the board and the counters: one block copy
  // that stays right when a member is added there.
  static_assert(std::is_trivially_copyable_v<Position> && std::is_standard_layout_v<Position>);
  static_assert(offsetof(Position, states_) + sizeof(states_) == sizeof(Position),
                "states_ must be the last member");
  if (this == &src) return;
  std::memcpy(static_cast<void*>(this), &src, offsetof(Position, states_));
  const int first = std::max(0, src.ply_ - int(src.states_[std::size_t(src.ply_)].reversible));
  std::copy(src.states_.begin() + first, src.states_.begin() + src.ply_ + 1,
            states_.begin() + first);
}

void Position::clear() {
  board_.fill(Piece::None);
  list_index_.fill(-1);
  list_size_ = {};
  counts_ = {};
  king_ = {Square::None, Square::None};
  material_ = {};
  psq_ = 0;
  side_ = Color::Red;
  ply_ = 0;
  halfmove0_ = 0;
  fullmove0_ = 1;
  start_side_ = Color::Red;
  states_[0] = State{};
}

void Position::put_piece(Piece p, Square s) {
  const Color c = color_of(p);
  const int ci = index(c);
  board_[index(s)] = p;
  list_index_[index(s)] = std::int8_t(list_size_[ci]);
  list_[ci][list_size_[ci]++] = s;
  ++counts_[ci][index(type_of(p))];
  material_[ci] += piece_value(type_of(p));
  psq_ += c == Color::Red ? psq_value(p, s) : -psq_value(p, s);
  if (type_of(p) == PieceType::King) king_[ci] = s;
}

void Position::remove_piece(Square s) {
  const Piece p = board_[index(s)];
  const Color c = color_of(p);
  const int ci = index(c);
  const int slot = list_index_[index(s)];
  const Square last = list_[ci][--list_size_[ci]];
  list_[ci][slot] = last;
  list_index_[index(last)] = std::int8_t(slot);
  list_index_[index(s)] = -1;
  board_[index(s)] = Piece::None;
  --counts_[ci][index(type_of(p))];
  material_[ci] -= piece_value(type_of(p));
  psq_ -= c == Color::Red ? psq_value(p, s) : -psq_value(p, s);
}

void Position::move_piece(Square from, Square to) {
  const Piece p = board_[index(from)];
  const Color c = color_of(p);
  const int slot = list_index_[index(from)];
  list_[index(c)][slot] = to;
  list_index_[index(to)] = std::int8_t(slot);
  list_index_[index(from)] = -1;
  board_[index(to)] = p;
  board_[index(from)] = Piece::None;
  const Value delta = psq_value(p, to) - psq_value(p, from);
  psq_ += c == Color::Red ? delta : -delta;
  if (type_of(p) == PieceType::King) king_[index(c)] = to;
}

// ---------------------------------------------------------------- attacks

template <class Board>
bool Position::attacked_on(const Board& at, Square s, Color by) const {
  const Piece rook = make_piece(by, PieceType::Rook);
  const Piece cannon = make_piece(by, PieceType::Cannon);
  const Piece king = make_piece(by, PieceType::King);
  const auto& rays = kTables.rays[index(s)];
  for (int d = 0; d < tables::kDirections; ++d) {
    const Square* sq = rays[d].squares.data();
    while (*sq != Square::None && at(*sq) == Piece::None) ++sq;
    if (*sq == Square::None) continue;
    const Piece first = at(*sq);
    if (first == rook) return true;
    // Kings attack along an open file (flying general) and one step sideways.
    if (first == king && (tables::is_vertical(d) || sq == rays[d].squares.data())) return true;
    ++sq;
    while (*sq != Square::None && at(*sq) == Piece::None) ++sq;
    if (*sq != Square::None && at(*sq) == cannon) return true;
  }
  const Piece horse = make_piece(by, PieceType::Horse);
  for (const tables::Step& st : kTables.horse_attackers[index(s)])
    if (at(st.to) == horse && at(st.block) == Piece::None) return true;
  // Pawns of `by` attack s from the square behind it (towards by's side) and,
  // once across the river, from either side.
  const Piece pawn = make_piece(by, PieceType::Pawn);
  const int f = file_of(s), r = rank_of(s);
  const int behind = by == Color::Red ? r - 1 : r + 1;
  if (behind >= 0 && behind < kRanks && at(make_square(f, behind)) == pawn) return true;
  if (!own_side(by, s)) {
    if (f > 0 && at(make_square(f - 1, r)) == pawn) return true;
    if (f < kFiles - 1 && at(make_square(f + 1, r)) == pawn) return true;
  }
  return false;
}

bool Position::attacked(Square s, Color by) const {
  return attacked_on([this](Square q) { return board_[index(q)]; }, s, by);
}

bool Position::leaves_king_attacked(Move m) const {
  const Square from = m.from(), to = m.to();
  const Piece mover = board_[index(from)];
  const Color us = color_of(mover);
  const Square ksq = type_of(mover) == PieceType::King ? to : king_[index(us)];
  auto after = [&](Square q) {
    return q == to ? mover : q == from ? Piece::None : board_[index(q)];
  };
  return attacked_on(after, ksq, ~us);
}

bool Position::is_legal(Move m) const {
  const Square from = m.from(), to = m.to();
  const Color us = side_;
  const Square ksq = king_[index(us)];
  // Fast path: when not in check, only a king move, a move from or to the
  // king's file or rank (a line piece, the flying general, or a cannon screen
  // appearing or vanishing), or a move off a horse-leg square next to the king
  // can expose the king.
  if (!in_check() && type_of(board_[index(from)]) != PieceType::King) {
    const bool line = file_of(from) == file_of(ksq) || rank_of(from) == rank_of(ksq) ||
                      file_of(to) == file_of(ksq) || rank_of(to) == rank_of(ksq);
    const int df = file_of(from) - file_of(ksq), dr = rank_of(from) - rank_of(ksq);
    const bool leg = (df == 1 || df == -1) && (dr == 1 || dr == -1);
    if (!line && !leg) return true;
  }
  return !leaves_king_attacked(m);
}

bool Position::is_pseudo_legal(Move m) const {
  if (!m.is_ok()) return false;
  const Square from = m.from(), to = m.to();
  const Piece p = board_[index(from)];
  if (p == Piece::None || color_of(p) != side_) return false;
  const Piece target = board_[index(to)];
  if (target != Piece::None && color_of(target) == side_) return false;
  auto steps_contain = [&](const auto& steps) {
    for (const tables::Step& st : steps)
      if (st.to == to) return st.block == Square::None || board_[index(st.block)] == Piece::None;
    return false;
  };
  switch (type_of(p)) {
    case PieceType::King: return steps_contain(kTables.king[index(from)]);
    case PieceType::Advisor: return steps_contain(kTables.advisor[index(from)]);
    case PieceType::Elephant: return steps_contain(kTables.elephant[index(from)]);
    case PieceType::Horse: return steps_contain(kTables.horse[index(from)]);
    case PieceType::Pawn: return steps_contain(kTables.pawn[index(side_)][index(from)]);
    case PieceType::Rook:
    case PieceType::Cannon: {
      if (file_of(from) != file_of(to) && rank_of(from) != rank_of(to)) return false;
      int between = 0;
      const int df = (file_of(to) > file_of(from)) - (file_of(to) < file_of(from));
      const int dr = (rank_of(to) > rank_of(from)) - (rank_of(to) < rank_of(from));
      for (int f = file_of(from) + df, r = rank_of(from) + dr;
           make_square(f, r) != to; f += df, r += dr)
        between += board_[index(make_square(f, r))] != Piece::None;
      if (type_of(p) == PieceType::Rook) return between == 0;
      return target == Piece::None ? between == 0 : between == 1;
    }
    default: return false;
  }
}

Move Position::parse_move(std::string_view text) const {
  Square from, to;
  if (text.size() != 4 || !parse_square(text.substr(0, 2), from) ||
      !parse_square(text.substr(2, 2), to))
    return Move::none();
  const Move m(from, to);
  return is_pseudo_legal(m) && is_legal(m) ? m : Move::none();
}

// ---------------------------------------------------------------- make / unmake

void Position::do_move(Move m) {
  const Square from = m.from(), to = m.to();
  const Piece p = board_[index(from)];
  const Piece captured = board_[index(to)];
  const State& prev = states_[ply_];
  State& next = states_[++ply_];
  Key key = prev.key ^ zobrist::kKeys.black_to_move ^ zobrist::piece_key(p, from) ^
            zobrist::piece_key(p, to);
  if (captured != Piece::None) {
    key ^= zobrist::piece_key(captured, to);
    remove_piece(to);
  }
  move_piece(from, to);
  side_ = ~side_;
  next.key = key;
  next.captured = captured;
  next.null_move = false;
  next.reversible = captured != Piece::None ? 0 : std::int16_t(prev.reversible + 1);
  next.in_check = attacked(king_[index(side_)], ~side_);
}

void Position::undo_move(Move m) {
  const Square from = m.from(), to = m.to();
  const Piece captured = states_[ply_].captured;
  --ply_;
  side_ = ~side_;
  move_piece(to, from);
  if (captured != Piece::None) put_piece(captured, to);
}

void Position::do_null_move() {
  const State& prev = states_[ply_];
  State& next = states_[++ply_];
  next.key = prev.key ^ zobrist::kKeys.black_to_move;
  next.captured = Piece::None;
  next.null_move = true;
  next.reversible = 0;  // a null move ends the repetition look-back
  side_ = ~side_;
  next.in_check = false;
}

void Position::undo_null_move() {
  --ply_;
  side_ = ~side_;
}

Repetition Position::repetition() const {
  const State& now = states_[ply_];
  const int limit = now.reversible;
  bool them_always_check = now.in_check;  // the move that led here was theirs
  bool us_always_check = true;
  for (int back = 1; back <= limit; ++back) {
    const State& st = states_[ply_ - back];
    if (back % 2 == 1) {
      us_always_check = us_always_check && st.in_check;
    } else {
      if (st.key == now.key) {
        if (them_always_check && !us_always_check) return Repetition::Win;
        if (us_always_check && !them_always_check) return Repetition::Loss;
        return Repetition::Draw;
      }
      them_always_check = them_always_check && st.in_check;
    }
  }
  return Repetition::None;
}

// ---------------------------------------------------------------- checking

Key Position::compute_key() const {
  Key k = side_ == Color::Black ? zobrist::kKeys.black_to_move : 0;
  for (int s = 0; s < kSquares; ++s) k ^= zobrist::piece_key(board_[s], Square(s));
  return k;
}

void Position::refresh_eval() {
  material_ = {};
  for (int s = 0; s < kSquares; ++s)
    if (board_[s] != Piece::None)
      material_[index(color_of(board_[s]))] += piece_value(type_of(board_[s]));
  psq_ = compute_psq_red();
}

Value Position::compute_psq_red() const {
  Value v = 0;
  for (int s = 0; s < kSquares; ++s) {
    const Piece p = board_[s];
    if (p == Piece::None) continue;
    v += color_of(p) == Color::Red ? psq_value(p, Square(s)) : -psq_value(p, Square(s));
  }
  return v;
}

bool Position::is_consistent(std::string* why) const {
  auto fail = [&](const char* msg) {
    if (why) *why = msg;
    return false;
  };
  if (compute_key() != key()) return fail("incremental key differs from scratch key");
  if (compute_psq_red() != psq_) return fail("incremental psq differs from scratch psq");
  for (int c = 0; c < kColors; ++c) {
    for (int i = 0; i < list_size_[c]; ++i) {
      const Square s = list_[c][i];
      if (board_[index(s)] == Piece::None || index(color_of(board_[index(s)])) != c)
        return fail("piece list names a square without that colour's piece");
      if (list_index_[index(s)] != i) return fail("piece list index mismatch");
    }
    if (board_[index(king_[c])] != make_piece(Color(c), PieceType::King))
      return fail("king square mismatch");
  }
  int occupied = 0;
  for (Piece p : board_) occupied += p != Piece::None;
  if (occupied != list_size_[0] + list_size_[1]) return fail("piece count mismatch");
  if (in_check() != attacked(king_[index(side_)], ~side_)) return fail("stale check flag");
  return true;
}

}  // namespace xq
