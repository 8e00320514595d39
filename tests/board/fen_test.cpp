// FEN in and out: round trips over every reference FEN, replaying the opening
// book's move lists, and rejection of malformed or impossible positions.
#include <gtest/gtest.h>

#include <sstream>
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
  ASSERT_FALSE(fens.empty()) << "could not read " << perft_csv_path();
  for (const std::string& fen : fens) expect_round_trip(fen);
}

std::vector<CsvRecord> openings() {
  try {
    return read_csv(openings_csv_path());
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
    return {};
  }
}

TEST(Fen, RoundTripsEveryOpeningFen) {
  const std::vector<CsvRecord> book = openings();
  ASSERT_FALSE(book.empty());
  for (const CsvRecord& rec : book) expect_round_trip(rec.at("fen"));
}

TEST(Fen, OpeningMovesReachTheListedPosition) {
  const std::vector<CsvRecord> book = openings();
  ASSERT_FALSE(book.empty());
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

TEST(Fen, OptionalFieldsMayBeOmitted) {
  Position pos;
  ASSERT_EQ(pos.set_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b"), "");
  EXPECT_EQ(pos.side_to_move(), Color::Black);
  EXPECT_NE(pos.key(), Position().key());
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
};

TEST(Fen, RejectsMalformedAndImpossiblePositions) {
  const std::string before_fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
  for (const BadFen& bad : kBadFens) {
    Position pos;
    ASSERT_EQ(pos.set_fen(before_fen), "");
    const Key key = pos.key();
    const std::string err = pos.set_fen(bad.fen);
    EXPECT_NE(err, "") << bad.what << ": accepted " << bad.fen;
    EXPECT_EQ(err.find('\n'), std::string::npos) << bad.what << ": error is not one line: " << err;
    EXPECT_EQ(pos.fen(), before_fen) << bad.what << ": position changed";
    EXPECT_EQ(pos.key(), key) << bad.what;
    EXPECT_TRUE(pos.is_consistent()) << bad.what;
  }
}

TEST(Fen, SideToMoveMayBeInCheck) {
  Position pos;
  EXPECT_EQ(pos.set_fen("3k5/9/9/9/3R5/9/9/9/9/4K4 b - - 0 1"), "");
  EXPECT_TRUE(pos.in_check());
}

}  // namespace
}  // namespace xq::test
