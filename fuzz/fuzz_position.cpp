// libFuzzer target over the board's text interfaces. Input: a FEN on the
// first line, then whitespace-separated ICCS move words. The FEN is parsed;
// a rejected FEN must leave the position as it was and explain itself in one
// short printable line, and the moves are then played from the start
// position. Each word must parse to a move exactly when it names a legal move;
// legal moves are made, and after each the incremental state must equal the
// one computed from scratch and the FEN must round-trip. Finally every move
// is unmade and the start FEN and key must come back. A broken property
// aborts, which libFuzzer reports as a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "board/movegen.h"
#include "board/position.h"

namespace {

using xq::Move;
using xq::Position;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_position: %s: %s\n", what, xq::quote_input(detail, 200).c_str());
  std::abort();
}

void check(bool ok, const char* what, const std::string& detail = {}) {
  if (!ok) fail(what, detail);
}

// The error line contract of set_fen: one line, short, printable ASCII.
void check_error_line(const std::string& err) {
  check(!err.empty(), "empty error");
  check(err.size() <= 200, "error longer than 200 characters", err);
  for (char ch : err) {
    const auto byte = static_cast<unsigned char>(ch);
    check(byte >= 0x20 && byte < 0x7f, "unprintable byte in error", err);
  }
}

// Whatever position we hold, its FEN parses back to the same position.
void check_round_trip(const Position& pos) {
  std::string why;
  check(pos.is_consistent(&why), "inconsistent position", why + " in " + pos.fen());
  const std::string fen = pos.fen();
  static Position again;  // reused: a Position is some 17 KB to set up
  const std::string err = again.set_fen(fen);
  check(err.empty(), "own FEN rejected", fen + ": " + err);
  check(again.fen() == fen, "FEN does not round-trip", fen + " -> " + again.fen());
  check(again.key() == pos.key(), "key differs after FEN round trip", fen);
}

std::vector<std::string_view> words_of(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  auto blank = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  while (i < s.size()) {
    while (i < s.size() && blank(s[i])) ++i;
    const std::size_t begin = i;
    while (i < s.size() && !blank(s[i])) ++i;
    if (i > begin) out.push_back(s.substr(begin, i - begin));
  }
  return out;
}

// The legal moves of one position with their ICCS names, built once per
// position rather than once per word (most fuzzed words are not moves).
struct LegalMoves {
  std::vector<Move> moves;
  std::vector<std::string> names;
  explicit LegalMoves(const Position& pos) {
    for (Move m : xq::MoveList(pos)) {
      moves.push_back(m);
      names.push_back(xq::move_name(m));
    }
  }
};

// parse_move answers a move exactly for the ICCS names of legal moves.
Move parse_and_check(const Position& pos, const LegalMoves& legal, std::string_view word) {
  const Move m = pos.parse_move(word);
  Move named = Move::none();
  for (std::size_t i = 0; i < legal.moves.size(); ++i)
    if (legal.names[i] == word) named = legal.moves[i];
  check(m == named, "parse_move disagrees with the legal move list",
        std::string(word) + " in " + pos.fen());
  return m;
}

// Board and side of a FEN this program wrote ("board side - - h f").
std::string board_and_side(const std::string& fen) { return fen.substr(0, fen.find(" - ")); }

void play(Position& pos, std::string_view moves) {
  const std::string start_fen = pos.fen();
  const xq::Key start_key = pos.key();
  std::vector<Move> made;
  // Positions since the last capture, to recompute the repetition trigger.
  std::vector<std::string> since_capture = {board_and_side(start_fen)};
  LegalMoves legal(pos);
  for (std::string_view word : words_of(moves)) {
    if (int(made.size()) >= Position::kMaxHistory - 2) break;  // do_move's history bound
    const Move m = parse_and_check(pos, legal, word);
    if (m == Move::none()) continue;
    if (pos.is_capture(m)) since_capture.clear();
    pos.do_move(m);
    made.push_back(m);
    check(pos.key() == pos.compute_key(), "incremental key differs", pos.fen());
    const std::string now = board_and_side(pos.fen());
    bool repeated = false;
    for (const std::string& earlier : since_capture) repeated = repeated || earlier == now;
    since_capture.push_back(now);
    check((pos.repetition() != xq::Repetition::None) == repeated,
          "repetition() disagrees with the game record", pos.fen());
    check_round_trip(pos);
    legal = LegalMoves(pos);
  }
  for (auto it = made.rbegin(); it != made.rend(); ++it) pos.undo_move(*it);
  check(pos.fen() == start_fen, "unmaking every move did not restore the FEN",
        start_fen + " -> " + pos.fen());
  check(pos.key() == start_key, "unmaking every move did not restore the key", start_fen);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t eol = input.find('\n');
  const std::string_view fen = input.substr(0, eol);
  const std::string_view moves = eol == std::string_view::npos ? "" : input.substr(eol + 1);

  static const Position start;
  static Position pos;
  pos = start;
  const std::string err = pos.set_fen(fen);
  if (!err.empty()) {
    check_error_line(err);
    check(pos.fen() == std::string(xq::kStartFen), "rejected FEN changed the position", pos.fen());
    check(pos.key() == start.key(), "rejected FEN changed the key");
  }
  check_round_trip(pos);
  play(pos, moves);
  return 0;
}
