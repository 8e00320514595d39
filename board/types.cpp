#include "board/types.h"

namespace xq {

char piece_char(Piece p) {
  static constexpr char kRed[] = " KABNRCP";
  static constexpr char kBlack[] = " kabnrcp";
  const int t = index(type_of(p));
  if (p == Piece::None || t == 0) return '.';
  return color_of(p) == Color::Red ? kRed[t] : kBlack[t];
}

std::string square_name(Square s) {
  if (!is_ok(s)) return "--";
  return {char('a' + file_of(s)), char('0' + rank_of(s))};
}

bool parse_square(std::string_view text, Square& s) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'i' || text[1] < '0' || text[1] > '9')
    return false;
  s = make_square(text[0] - 'a', text[1] - '0');
  return true;
}

std::string move_name(Move m) {
  if (!m.is_ok()) return "0000";
  return square_name(m.from()) + square_name(m.to());
}

}  // namespace xq
