// Helpers shared by the board tests: FEN transforms that must not change the
// number of legal move paths, and a slow reference perft that checks every
// generated move against the rules from first principles.
#pragma once

#include <array>
#include <cctype>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>

#include "board/movegen.h"
#include "board/position.h"

namespace xq::test {

// Applies a symmetry to a FEN's placement and side to move; the optional
// counters are replaced by "- - 0 1". flip_colours turns the board round and
// swaps the colours (red <-> black, rank r <-> 9 - r, side to move swapped);
// mirror_files reflects files a <-> i. Both map legal positions to legal ones
// with the same perft counts.
inline std::string transform_fen(const std::string& fen, bool flip_colours, bool mirror_files) {
  std::istringstream in(fen);
  std::string placement, side;
  in >> placement >> side;
  std::array<std::array<char, 9>, 10> grid{};  // [rank][file], rank 9 first as in FEN
  int rank = 0, file = 0;
  for (char ch : placement) {
    if (ch == '/') {
      ++rank;
      file = 0;
    } else if (ch >= '1' && ch <= '9') {
      for (int i = 0; i < ch - '0'; ++i) grid[rank][file++] = 0;
    } else {
      grid[rank][file++] = ch;
    }
  }
  std::string out;
  for (int r = 0; r < 10; ++r) {
    const int src_r = flip_colours ? 9 - r : r;
    int empty = 0;
    for (int f = 0; f < 9; ++f) {
      char ch = grid[src_r][mirror_files ? 8 - f : f];
      if (!ch) {
        ++empty;
        continue;
      }
      if (flip_colours)
        ch = std::isupper(static_cast<unsigned char>(ch))
                 ? char(std::tolower(static_cast<unsigned char>(ch)))
                 : char(std::toupper(static_cast<unsigned char>(ch)));
      if (empty) out += char('0' + empty);
      empty = 0;
      out += ch;
    }
    if (empty) out += char('0' + empty);
    if (r < 9) out += '/';
  }
  const bool red = side == "w" || side == "r";
  out += (red != flip_colours) ? " w" : " b";
  out += " - - 0 1";
  return out;
}

// The placement and side-to-move fields of a FEN ("<placement> <side>").
inline std::string fen_board_and_side(const std::string& fen) {
  std::istringstream in(fen);
  std::string placement, side;
  in >> placement >> side;
  if (side == "r") side = "w";
  return placement + " " + side;
}

// Reference perft: generates captures and quiets separately, checks that every
// move is pseudo-legal and that is_legal() agrees with making the move and
// asking whether the mover's king is then attacked, makes every move (leaves
// included), checks the incremental key and psq at interior nodes, and counts.
// Returns the count; the first disagreement found is written to *error.
inline std::uint64_t reference_perft(Position& pos, int depth, std::string* error) {
  if (depth == 0) return 1;
  Move moves[kMaxMoves];
  Move* end = generate<GenType::Captures>(pos, moves);
  const Move* captures_end = end;
  end = generate<GenType::Quiets>(pos, end);
  std::uint64_t nodes = 0;
  for (const Move* it = moves; it != end; ++it) {
    const Move m = *it;
    const bool capture_listed = it < captures_end;
    auto fail = [&](const std::string& what) {
      if (error->empty()) *error = pos.fen() + " move " + move_name(m) + ": " + what;
    };
    if (!pos.is_pseudo_legal(m)) fail("generated but not pseudo-legal");
    if (capture_listed != pos.is_capture(m)) fail("listed in the wrong generator");
    const bool claimed_legal = pos.is_legal(m);
    const Color us = pos.side_to_move();
    pos.do_move(m);
    const bool legal = !pos.attacked(pos.king_square(us), ~us);
    if (legal != claimed_legal)
      fail(std::string("is_legal() says ") + (claimed_legal ? "legal" : "illegal") +
           " but the king is " + (legal ? "safe" : "attacked") + " after the move");
    if (pos.in_check() != pos.attacked(pos.king_square(~us), us)) fail("in_check() is wrong after it");
    if (depth > 1 && (pos.key() != pos.compute_key() || pos.psq_red() != pos.compute_psq_red()))
      fail("incremental key or psq differs from scratch after it");
    if (legal) nodes += reference_perft(pos, depth - 1, error);
    pos.undo_move(m);
  }
  return nodes;
}

}  // namespace xq::test
