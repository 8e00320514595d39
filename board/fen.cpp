// Xiangqi FEN: ten ranks from rank 9 (black's back rank) down to rank 0,
// separated by '/', digits for runs of empty squares; then the side to move
// ("w" or "r" red, "b" black); then optional fields ("- - halfmove fullmove")
// that carry no Xiangqi information and are checked only for form.
#include <algorithm>
#include <array>
#include <sstream>
#include <vector>

#include "board/position.h"
#include "board/zobrist.h"

namespace xq {
namespace {

bool piece_from_char(char ch, Piece& p) {
  const Color c = (ch >= 'a' && ch <= 'z') ? Color::Black : Color::Red;
  PieceType t;
  switch (ch | 0x20) {
    case 'k': t = PieceType::King; break;
    case 'a': t = PieceType::Advisor; break;
    case 'b': case 'e': t = PieceType::Elephant; break;
    case 'n': case 'h': t = PieceType::Horse; break;
    case 'r': t = PieceType::Rook; break;
    case 'c': t = PieceType::Cannon; break;
    case 'p': t = PieceType::Pawn; break;
    default: return false;
  }
  p = make_piece(c, t);
  return true;
}

// Whether a piece of this kind can ever stand on s (palace, own half, the
// fixed advisor/elephant points, pawns never behind their start rank).
bool reachable(Piece p, Square s) {
  const Color c = color_of(p);
  // Mirror black onto red's geometry: rank r of black corresponds to 9 - r.
  const int f = file_of(s);
  const int r = c == Color::Red ? rank_of(s) : 9 - rank_of(s);
  switch (type_of(p)) {
    case PieceType::King: return f >= 3 && f <= 5 && r <= 2;
    case PieceType::Advisor:
      return (r == 0 || r == 2) ? (f == 3 || f == 5) : (r == 1 && f == 4);
    case PieceType::Elephant:
      return ((r == 0 || r == 4) && (f == 2 || f == 6)) || (r == 2 && (f == 0 || f == 4 || f == 8));
    case PieceType::Pawn: return r >= 5 || ((r == 3 || r == 4) && f % 2 == 0);
    default: return true;
  }
}

constexpr std::array<int, kPieceTypes> kMaxCount = {0, 1, 2, 2, 2, 2, 2, 5};
constexpr const char* kTypeNames[] = {"", "king", "advisor", "elephant", "horse",
                                      "rook", "cannon", "pawn"};

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out(1);
  for (char ch : s) {
    if (ch == sep) out.emplace_back();
    else out.back() += ch;
  }
  return out;
}

}  // namespace

std::string Position::set_fen(std::string_view fen) {
  std::istringstream in{std::string(fen)};
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  if (fields.empty()) return "empty FEN";
  if (fields.size() < 2) return "FEN has no side-to-move field";
  if (fields.size() > 6) return "FEN has more than 6 fields";

  const std::vector<std::string> ranks = split(fields[0], '/');
  if (ranks.size() != kRanks)
    return "FEN has " + std::to_string(ranks.size()) + " ranks, expected 10";

  Position next{Blank{}};
  std::array<std::array<int, kPieceTypes>, kColors> counts{};
  for (int i = 0; i < kRanks; ++i) {
    const int rank = kRanks - 1 - i;
    int file = 0;
    for (char ch : ranks[i]) {
      if (ch >= '1' && ch <= '9') {
        file += ch - '0';
        if (file > kFiles) break;
        continue;
      }
      Piece p;
      if (!piece_from_char(ch, p))
        return std::string("FEN has unknown piece letter '") + ch + "' on rank " +
               std::to_string(rank);
      if (file >= kFiles) {
        file = kFiles + 1;
        break;
      }
      const Square s = make_square(file, rank);
      const Color c = color_of(p);
      const char* side = c == Color::Red ? "red " : "black ";
      if (!reachable(p, s))
        return std::string("FEN puts a ") + side + kTypeNames[index(type_of(p))] + " on " +
               square_name(s) + ", where it can never stand";
      if (++counts[index(c)][index(type_of(p))] > kMaxCount[index(type_of(p))])
        return std::string("FEN has too many ") + side + kTypeNames[index(type_of(p))] + "s";
      next.put_piece(p, s);
      ++file;
    }
    if (file != kFiles)
      return "FEN rank " + std::to_string(rank) + " ('" + ranks[i] + "') does not have 9 files";
  }
  if (counts[0][index(PieceType::King)] == 0) return "FEN has no red king";
  if (counts[1][index(PieceType::King)] == 0) return "FEN has no black king";

  const std::string& side = fields[1];
  if (side == "w" || side == "r") next.side_ = Color::Red;
  else if (side == "b") next.side_ = Color::Black;
  else return "FEN side to move must be 'w', 'r' or 'b', got '" + side + "'";
  for (std::size_t i = 4; i < fields.size(); ++i) {
    const std::string& num = fields[i];
    if (num.empty() || num.size() > 6 || num.find_first_not_of("0123456789") != std::string::npos)
      return "FEN move counter '" + num + "' is not a number";
  }
  next.start_side_ = next.side_;
  if (fields.size() > 4) next.halfmove0_ = std::stoi(fields[4]);
  if (fields.size() > 5) next.fullmove0_ = std::max(1, std::stoi(fields[5]));

  const Color them = ~next.side_;
  if (next.attacked(next.king_[index(them)], next.side_))
    return std::string("FEN is illegal: the side not to move (") +
           (them == Color::Red ? "red" : "black") + ") is in check";

  next.states_[0].key = next.compute_key();
  next.states_[0].in_check = next.attacked(next.king_[index(next.side_)], them);
  *this = next;
  return {};
}

std::string Position::fen() const {
  std::string out;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < kFiles; ++file) {
      const Piece p = board_[index(make_square(file, rank))];
      if (p == Piece::None) {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty);
      empty = 0;
      out += piece_char(p);
    }
    if (empty) out += char('0' + empty);
    if (rank) out += '/';
  }
  out += side_ == Color::Red ? " w" : " b";
  // The halfmove clock counts plies since the last capture (or, with none
  // since the FEN was set, continues the FEN's own counter).
  const int halfmove = state().reversible == ply_ ? halfmove0_ + ply_ : state().reversible;
  const int fullmove = fullmove0_ + (ply_ + (start_side_ == Color::Black ? 1 : 0)) / 2;
  out += " - - " + std::to_string(halfmove) + " " + std::to_string(fullmove);
  return out;
}

}  // namespace xq
