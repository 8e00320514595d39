// FEN in and out: round trips over every reference FEN, replaying the opening
// book's move lists, rejection of malformed or impossible positions with one
// short, printable error line, and the optional trailing fields.
#include <gtest/gtest.h>

#include <sstream>
#include <utility>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "board/position.h"
#include "board_util.h"
#include "csv.h"

namespace xq::test {
namespace {

void expect_round_trip(const std::string& fen) {
  Position pos;
  ASSERT_EQ(pos.set_fen(fen), "") << fen;
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_TRUE(pos.is_consistent()) << fen;
  Position again;
  ASSERT_EQ(again.set_fen(pos.fen()), "") << pos.fen();
  EXPECT_EQ(again.key(), pos.key()) << fen;
  EXPECT_EQ(again.fen(), pos.fen());
}

TEST(Fen, StartPosition) {
  Position pos;
  EXPECT_EQ(pos.fen(), std::string(kStartFen));
  EXPECT_EQ(pos.side_to_move(), Color::Red);
  expect_round_trip(std::string(kStartFen));
}

TEST(Fen, RoundTripsEveryPerftFen) {
  const std::vector<std::string> fens = perft_fens();
  ASSERT_GE(fens.size(), kPerftFens) << perft_csv_path();
  for (const std::string& fen : fens) expect_round_trip(fen);
}

std::vector<CsvRecord> openings() {
  return load_or_exit(openings_csv_path(), [](std::vector<CsvRecord> r) { return r; });
}

TEST(Fen, RoundTripsEveryOpeningFen) {
  const std::vector<CsvRecord> book = openings();
  ASSERT_GE(book.size(), kOpeningRecords) << openings_csv_path();
  for (const CsvRecord& rec : book) expect_round_trip(rec.at("fen"));
}

TEST(Fen, OpeningMovesReachTheListedPosition) {
  const std::vector<CsvRecord> book = openings();
  ASSERT_GE(book.size(), kOpeningRecords) << openings_csv_path();
  for (const CsvRecord& rec : book) {
    Position pos;
    std::istringstream moves(rec.at("moves"));
    int ply = 0;
    for (std::string text; moves >> text; ++ply) {
      const Move m = pos.parse_move(text);
      ASSERT_NE(m, Move::none()) << rec.at("name") << ": move " << ply + 1 << " '" << text
                                 << "' is not legal in " << pos.fen();
      pos.do_move(m);
      ASSERT_TRUE(pos.is_consistent()) << rec.at("name") << " after " << text;
    }
    EXPECT_EQ(fen_board_and_side(pos.fen()), fen_board_and_side(rec.at("fen"))) << rec.at("name");
    Position listed;
    ASSERT_EQ(listed.set_fen(rec.at("fen")), "") << rec.at("name");
    EXPECT_EQ(pos.key(), listed.key()) << rec.at("name");
    EXPECT_EQ(pos.psq_red(), listed.psq_red()) << rec.at("name");
  }
}

TEST(Fen, RedMayBeWrittenR) {
  Position pos;
  ASSERT_EQ(pos.set_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1"), "");
  EXPECT_EQ(pos.side_to_move(), Color::Red);
  EXPECT_EQ(pos.key(), Position().key());
  EXPECT_EQ(pos.fen(), std::string(kStartFen));
}

constexpr const char* kStartBoard = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

// Trailing fields may be left out; the counters then default to 0 and 1.
TEST(Fen, TrailingFieldsMayBeOmitted) {
  const std::string board = kStartBoard;
  const std::pair<std::string, std::string> cases[] = {
      {board + " b", board + " b - - 0 1"},
      {board + " b -", board + " b - - 0 1"},
      {board + " b - -", board + " b - - 0 1"},
      {board + " b - - 7", board + " b - - 7 1"},
      {board + " b - - 7 12", board + " b - - 7 12"},
      {board + "\tb\t-  -\r\n", board + " b - - 0 1"},
  };
  int ran = 0;
  for (const auto& [given, normalised] : cases) {
    Position pos;
    ASSERT_EQ(pos.set_fen(given), "") << given;
    EXPECT_EQ(pos.side_to_move(), Color::Black) << given;
    EXPECT_EQ(pos.fen(), normalised) << given;
    ++ran;
  }
  EXPECT_EQ(ran, 6);
}

TEST(Fen, CountersAtTheirLimitsAreKept) {
  const std::string board = kStartBoard;
  Position pos;
  const std::string top = std::to_string(kMaxFenCounter);
  ASSERT_EQ(pos.set_fen(board + " w - - " + top + " " + top), "");
  EXPECT_EQ(pos.fen(), board + " w - - " + top + " " + top);
  ASSERT_EQ(pos.set_fen(board + " w - - 0 1"), "");
  EXPECT_EQ(pos.fen(), board + " w - - 0 1");
  ASSERT_EQ(pos.set_fen(board + " w - - 00012 007"), "");  // leading zeros are still numbers
  EXPECT_EQ(pos.fen(), board + " w - - 12 7");
}

// A move from a FEN at the counters' limit must not write a FEN that
// set_fen() refuses (found by fuzzing: a half-move clock of 10000).
TEST(Fen, CountersStayAtTheirLimitAfterAMove) {
  const std::string board = kStartBoard;
  const std::string top = std::to_string(kMaxFenCounter);
  int checked = 0;
  for (const char* side : {" w", " b"}) {
    Position pos;
    ASSERT_EQ(pos.set_fen(board + side + " - - " + top + " " + top), "");
    const Move m = pos.parse_move(side[1] == 'w' ? "h0g2" : "h9g7");  // a horse, no capture
    ASSERT_NE(m, Move::none());
    pos.do_move(m);
    const std::string fen = pos.fen();
    EXPECT_NE(fen.find(" - - " + top + " " + top), std::string::npos) << fen;
    Position again;
    EXPECT_EQ(again.set_fen(fen), "") << fen;
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

struct BadFen {
  const char* what;
  const char* fen;
};

// Each is rejected; the position it was given to must stay as it was.
const BadFen kBadFens[] = {
    {"nine ranks", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"eleven ranks", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"rank with ten files", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w - - 0 1"},
    {"rank with ten files (digits)", "rnbakabnr/91/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"rank with eight files", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C/9/RNBAKABNR w - - 0 1"},
    {"empty rank", "rnbakabnr/9/1c5c1/p1p1p1p1p/9//P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"unknown letter", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1"},
    {"digit zero", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/09/RNBAKABNR w - - 0 1"},
    {"no red king", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1"},
    {"no black king", "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"two red kings", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3K5/RNBAKABNR w - - 0 1"},
    {"two black kings", "rnbakabnr/5k3/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"red king outside the palace", "4k4/9/9/9/9/9/9/9/9/2K6 w - - 0 1"},
    {"black king outside the palace", "9/9/9/9/9/9/3k5/9/9/4K4 w - - 0 1"},
    {"red advisor outside the palace", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w - - 0 1"},
    {"red advisor on a palace square it cannot reach", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3A5/RNB1KABNR w - - 0 1"},
    {"black advisor outside the palace", "rnbak1bnr/6a2/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"red elephant off its points", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4B4/RN1AKABNR w - - 0 1"},
    {"red elephant across the river", "rnbakabnr/9/1c5c1/p1p1p1p1p/2B6/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w - - 0 1"},
    {"black elephant across the river", "rn1akabnr/9/1c5c1/p1p1p1p1p/9/2b6/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"red pawn behind its start rank", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/PC5C1/9/RNBAKABNR w - - 0 1"},
    {"red pawn on its start rank between start files", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/1PP1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"black pawn behind its start rank", "rnbakabnr/p8/1c5c1/2p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"six red pawns", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"three red rooks", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/R8/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"side not to move in check (rook)", "3k5/9/9/9/3R5/9/9/9/9/4K4 w - - 0 1"},
    {"side not to move in check (cannon)", "3k5/9/9/9/3n5/9/9/3C5/9/4K4 w - - 0 1"},
    {"side not to move in check (horse)", "3k5/9/9/9/9/9/9/3n5/9/4K4 b - - 0 1"},
    {"kings facing on an open file, red to move", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"},
    {"kings facing on an open file, black to move", "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1"},
    {"bad side letter", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1"},
    {"side written as a word", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR red - - 0 1"},
    {"missing side", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"},
    {"non-numeric move counter", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1"},
    {"too many fields", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 7"},
    {"empty", ""},
    {"blank", "   "},
    {"startpos is not a FEN", "startpos"},
    {"castling field is garbage", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w garbage junk 0 1"},
    {"chess castling rights", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQkq - 0 1"},
    {"castling field alone", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b x"},
    {"en-passant square", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - e3 0 1"},
    {"en-passant field doubled dash", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -- 0 1"},
    {"counters in the castling fields", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 1"},
    {"negative half-move clock", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -1 1"},
    {"signed half-move clock", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - +1 1"},
    {"half-move clock above the limit", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 10000 1"},
    {"half-move clock beyond int", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 99999999999999999999 1"},
    {"full-move number zero", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0"},
    {"full-move number negative", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 -3"},
    {"full-move number above the limit", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 10000"},
    {"full-move number with a suffix", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1x"},
    {"full-move number as a fraction", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1.5"},
    {"side in upper case", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR W - - 0 1"},
    {"escape byte in the side", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR \x1b[2J - - 0 1"},
    {"escape byte in the board", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN\x1b w - - 0 1"},
    {"non-ASCII piece", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN\xe8\xbd\xa6 w - - 0 1"},
    {"slash only", "/ w - - 0 1"},
};

// An error line a terminal can show as is: short, printable ASCII only.
void expect_safe_message(const std::string& err, const std::string& what) {
  EXPECT_LE(err.size(), 200u) << what << ": " << err.substr(0, 300);
  for (char ch : err) {
    const auto byte = static_cast<unsigned char>(ch);
    EXPECT_TRUE(byte >= 0x20 && byte < 0x7f) << what << ": raw byte " << int(byte) << " in " << err;
  }
}

TEST(Fen, RejectsMalformedAndImpossiblePositions) {
  const std::string before_fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
  std::size_t ran = 0;
  for (const BadFen& bad : kBadFens) {
    Position pos;
    ASSERT_EQ(pos.set_fen(before_fen), "");
    const Key key = pos.key();
    const std::string err = pos.set_fen(bad.fen);
    EXPECT_NE(err, "") << bad.what << ": accepted " << bad.fen;
    expect_safe_message(err, bad.what);
    EXPECT_EQ(pos.fen(), before_fen) << bad.what << ": position changed";
    EXPECT_EQ(pos.key(), key) << bad.what;
    EXPECT_TRUE(pos.is_consistent()) << bad.what;
    ++ran;
  }
  EXPECT_GE(ran, 58u);
}

// Each field's rule answers with a message naming that field.
TEST(Fen, ErrorNamesTheFaultyField) {
  const std::string board = kStartBoard;
  const std::pair<std::string, const char*> cases[] = {
      {board + " x", "side to move"},
      {board + " w garbage junk 0 1", "castling"},
      {board + " w - junk 0 1", "en-passant"},
      {board + " w - - x 1", "half-move clock"},
      {board + " w - - 10000 1", "half-move clock"},
      {board + " w - - 0 0", "full-move number"},
      {board + " w - - 0 99999", "full-move number"},
  };
  int ran = 0;
  for (const auto& [fen, field] : cases) {
    Position pos;
    const std::string err = pos.set_fen(fen);
    EXPECT_NE(err.find(field), std::string::npos) << fen << " -> " << err;
    ++ran;
  }
  EXPECT_EQ(ran, 7);
}

// Unbounded input is quoted in part: a 60,000-digit counter, a 60,000-letter
// side, a 60,000-character rank and control bytes give short, clean lines.
TEST(Fen, ErrorsQuoteLongOrBinaryInputInPart) {
  const std::string board = kStartBoard;
  const std::string digits(60000, '7');
  const std::string cases[] = {
      board + " w - - 0 " + digits,
      board + " w - - " + digits + " 1",
      board + " " + std::string(60000, 'w'),
      board + " w " + std::string(60000, '-'),
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/" + std::string(60000, '1') + " w",
      std::string(60000, '/') + " w",
      board + " \x1b\x07\x7f\x01",
      board + " w - - 0 1" + std::string(60000, ' ') + "x",
      board + " w - - 99999" + std::string(60, '\0') + std::string(60, '\x1a'),  // found by fuzzing
  };
  int ran = 0;
  for (const std::string& fen : cases) {
    Position pos;
    const std::string err = pos.set_fen(fen);
    EXPECT_NE(err, "") << fen.substr(0, 100);
    expect_safe_message(err, fen.substr(0, 100));
    ++ran;
  }
  EXPECT_EQ(ran, 9);
  Position pos;
  const std::string err = pos.set_fen(board + " w - - 0 " + digits);
  EXPECT_NE(err.find("(60000 characters)"), std::string::npos) << err;
  EXPECT_NE(pos.set_fen(board + " \x1b[2J").find("'\\x1b[2J'"), std::string::npos);
}

TEST(Fen, QuoteInputEscapesAndCuts) {
  EXPECT_EQ(quote_input("abc"), "'abc'");
  EXPECT_EQ(quote_input(std::string_view("a\0b", 3)), "'a\\x00b'");
  EXPECT_EQ(quote_input("\x1b\\\xff"), "'\\x1b\\x5c\\xff'");
  EXPECT_EQ(quote_input("abcdef", 3), "'abc'... (6 characters)");
  EXPECT_EQ(quote_input(std::string(40, 'z')), "'" + std::string(40, 'z') + "'");
  EXPECT_EQ(quote_input(""), "''");
  // The cut counts escapes at their printed width.
  std::string ten_escapes;
  for (int i = 0; i < 10; ++i) ten_escapes += "\\x01";
  EXPECT_EQ(quote_input(std::string(50, '\x01')), "'" + ten_escapes + "'... (50 characters)");
  EXPECT_EQ(quote_input("ab\x1b", 4), "'ab'... (3 characters)");
}

TEST(Fen, SideToMoveMayBeInCheck) {
  Position pos;
  EXPECT_EQ(pos.set_fen("3k5/9/9/9/3R5/9/9/9/9/4K4 b - - 0 1"), "");
  EXPECT_TRUE(pos.in_check());
}

}  // namespace
}  // namespace xq::test
