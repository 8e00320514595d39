// Xiangqi FEN: ten ranks from rank 9 (black's back rank) down to rank 0,
// separated by '/', digits for runs of empty squares; then the side to move
// ("w" or "r" red, as UCCI allows, "b" black); then four fields inherited from
// chess. Xiangqi has no castling and no en passant, so fields 3 and 4 must be
// "-". Field 5 is the half-move clock (plies since the last capture), field 6
// the full-move number. Trailing fields may be left out (2 to 6 fields): GUIs
// and suites often drop the counters, which then default to 0 and 1.
#include <algorithm>
#include <array>
#include <charconv>
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

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  return out;
}

// Whitespace-separated fields; stops counting past `limit` so that a huge
// input costs no more than a scan.
std::vector<std::string_view> fields_of(std::string_view s, std::size_t limit) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  auto blank = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  while (out.size() <= limit) {
    while (i < s.size() && blank(s[i])) ++i;
    if (i == s.size()) break;
    const std::size_t begin = i;
    while (i < s.size() && !blank(s[i])) ++i;
    out.push_back(s.substr(begin, i - begin));
  }
  return out;
}

// Parses ten ranks into `placed` (all Piece::None on entry); "" or why not.
std::string parse_board(std::string_view board, std::array<Piece, kSquares>& placed) {
  std::array<std::array<int, kPieceTypes>, kColors> counts{};
  const std::vector<std::string_view> ranks = split(board, '/');
  if (ranks.size() != kRanks)
    return "FEN has " + std::to_string(ranks.size()) + " ranks, expected 10";
  for (int i = 0; i < kRanks; ++i) {
    const int rank = kRanks - 1 - i;
    int file = 0;
    for (char ch : ranks[std::size_t(i)]) {
      if (ch >= '1' && ch <= '9') {
        file += ch - '0';
        if (file > kFiles) break;
        continue;
      }
      Piece p;
      if (!piece_from_char(ch, p))
        return "FEN has unknown piece letter " + quote_input(std::string_view(&ch, 1)) +
               " on rank " + std::to_string(rank);
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
      placed[index(s)] = p;
      ++file;
    }
    if (file != kFiles)
      return "FEN rank " + std::to_string(rank) + " (" + quote_input(ranks[std::size_t(i)]) +
             ") does not have 9 files";
  }
  if (counts[0][index(PieceType::King)] == 0) return "FEN has no red king";
  if (counts[1][index(PieceType::King)] == 0) return "FEN has no black king";
  return {};
}

// A move counter in [lo, hi]; "" or why not.
std::string parse_counter(std::string_view text, const char* what, int lo, int hi, int& out) {
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) return std::string("FEN ") + what + " " + quote_input(text) + " is not a number";
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc{} || end != text.data() + text.size() || out < lo || out > hi)
    return std::string("FEN ") + what + " " + quote_input(text) + " is out of range " +
           std::to_string(lo) + ".." + std::to_string(hi);
  return {};
}

}  // namespace

std::string quote_input(std::string_view text, std::size_t max_chars) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  std::size_t shown = 0;
  for (; shown < text.size(); ++shown) {
    const auto ch = static_cast<unsigned char>(text[shown]);
    const bool raw = ch >= 0x20 && ch < 0x7f && ch != '\\';
    if (out.size() - 1 + (raw ? 1 : 4) > max_chars) break;
    if (raw) {
      out += char(ch);
    } else {
      out += "\\x";
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    }
  }
  out += '\'';
  if (shown < text.size()) out += "... (" + std::to_string(text.size()) + " characters)";
  return out;
}

std::string Position::set_fen(std::string_view fen) {
  const std::vector<std::string_view> fields = fields_of(fen, 6);
  if (fields.empty()) return "empty FEN";
  if (fields.size() < 2) return "FEN has no side-to-move field";
  if (fields.size() > 6) return "FEN has more than 6 fields";

  std::array<Piece, kSquares> placed;
  placed.fill(Piece::None);
  if (std::string err = parse_board(fields[0], placed); !err.empty()) return err;
  // Pieces go in in FEN reading order: the piece lists' order, and with it
  // move generation order and every node count, depends on it.
  Position next{Blank{}};
  for (int rank = kRanks - 1; rank >= 0; --rank)
    for (int file = 0; file < kFiles; ++file)
      if (const Square s = make_square(file, rank); placed[index(s)] != Piece::None)
        next.put_piece(placed[index(s)], s);

  const std::string_view side = fields[1];
  if (side == "w" || side == "r") next.side_ = Color::Red;
  else if (side == "b") next.side_ = Color::Black;
  else return "FEN side to move must be 'w', 'r' or 'b', got " + quote_input(side);
  if (fields.size() > 2 && fields[2] != "-")
    return "FEN castling field must be '-' (Xiangqi has no castling), got " + quote_input(fields[2]);
  if (fields.size() > 3 && fields[3] != "-")
    return "FEN en-passant field must be '-' (Xiangqi has no en passant), got " +
           quote_input(fields[3]);
  int halfmove = 0, fullmove = 1;
  if (fields.size() > 4)
    if (std::string err = parse_counter(fields[4], "half-move clock", 0, kMaxFenCounter, halfmove);
        !err.empty())
      return err;
  if (fields.size() > 5)
    if (std::string err = parse_counter(fields[5], "full-move number", 1, kMaxFenCounter, fullmove);
        !err.empty())
      return err;
  next.start_side_ = next.side_;
  next.halfmove0_ = halfmove;
  next.fullmove0_ = fullmove;

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
  // Both stop at the largest value set_fen() reads, so that every FEN this
  // writes is one it reads (moves from a FEN at the limit would pass it).
  const int halfmove = std::min(
      state().reversible == ply_ ? halfmove0_ + ply_ : state().reversible, kMaxFenCounter);
  const int fullmove =
      std::min(fullmove0_ + (ply_ + (start_side_ == Color::Black ? 1 : 0)) / 2, kMaxFenCounter);
  out += " - - " + std::to_string(halfmove) + " " + std::to_string(fullmove);
  return out;
}

}  // namespace xq
