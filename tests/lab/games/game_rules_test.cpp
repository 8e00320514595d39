// The project's game-end rules (lab/games/game.h) on hand-made positions.
#include "lab/games/game.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace xq::lab::games {
namespace {

Position from_fen(const std::string& fen) {
  Position p;
  const std::string err = p.set_fen(fen);
  EXPECT_EQ(err, "") << fen;
  return p;
}

// Plays ICCS moves; every move must be legal and must not end the game
// before the last one. Returns the end after the last move.
GameEnd play(Referee& ref, const std::vector<std::string>& moves) {
  GameEnd end;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    EXPECT_EQ(end.result, GameResult::None) << "ended before move " << i << ": " << end.reason;
    const Move m = ref.position().parse_move(moves[i]);
    EXPECT_TRUE(m) << moves[i];
    if (!m) return {};
    end = ref.play(m);
  }
  return end;
}

// Black king e9 with no move: d9 faces the red king (flying general), f9 is on
// the rook's file, e8 is attacked by the pawn; black is not in check.
TEST(GameRules, StalemateLosesForTheSideToMove) {
  const Referee ref(from_fen("4k4/9/4P4/9/9/9/9/9/5R3/3K5 b - - 0 1"));
  ASSERT_FALSE(ref.position().in_check());
  const GameEnd end = ref.judge();
  EXPECT_EQ(end.result, GameResult::RedWins);
  EXPECT_NE(end.reason.find("stalemate"), std::string::npos) << end.reason;
}

TEST(GameRules, CheckmateLoses) {
  // As above with the rook giving check on the e-file from e1 is blocked by
  // the pawn; a rook on rank 9 mates instead: a9 checks along the rank.
  const Referee ref(from_fen("R3k4/9/4P4/9/9/9/9/9/5R3/3K5 b - - 0 1"));
  ASSERT_TRUE(ref.position().in_check());
  const GameEnd end = ref.judge();
  EXPECT_EQ(end.result, GameResult::RedWins);
  EXPECT_EQ(end.reason, "checkmate");
}

// Red checks with every move (rook on ranks 9 and 8), black's king steps
// away; the third occurrence of the start loses for the perpetual checker.
TEST(GameRules, PerpetualCheckerLoses) {
  Referee ref(from_fen("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"));
  const std::vector<std::string> cycle{"a8a9", "e9e8", "a9a8", "e8e9"};
  EXPECT_EQ(play(ref, cycle).result, GameResult::None);  // second occurrence: play on
  const GameEnd end = play(ref, cycle);
  EXPECT_EQ(end.result, GameResult::BlackWins);
  EXPECT_EQ(end.reason, "perpetual check by red");
}

TEST(GameRules, ThreefoldRepetitionWithoutChecksDraws) {
  Referee ref(from_fen("4k4/8r/9/9/9/9/9/9/R8/3K5 w - - 0 1"));
  const std::vector<std::string> cycle{"a1a2", "i8i7", "a2a1", "i7i8"};
  EXPECT_EQ(play(ref, cycle).result, GameResult::None);
  const GameEnd end = play(ref, cycle);
  EXPECT_EQ(end.result, GameResult::Draw);
  EXPECT_EQ(end.reason, "threefold repetition");
}

// The FEN's half-move clock counts; a capture resets it.
TEST(GameRules, NoCaptureLimitDrawsAt120Plies) {
  Referee ref(from_fen("4k4/8r/9/9/9/9/9/9/R8/3K5 w - - 118 80"));
  EXPECT_EQ(play(ref, {"a1a2"}).result, GameResult::None);  // 119 plies
  const GameEnd end = play(ref, {"i8i7"});
  EXPECT_EQ(end.result, GameResult::Draw);
  EXPECT_EQ(end.reason, "120 plies without a capture");

  Referee cap(from_fen("4k4/9/9/9/9/9/9/9/r8/R2K5 b - - 118 80"));
  EXPECT_EQ(play(cap, {"a1a0", "d0d1"}).result, GameResult::None);  // the capture reset it
  EXPECT_EQ(cap.no_capture_plies(), 1);
  EXPECT_EQ(cap.moves_since_base(), std::vector<std::string>{"d0d1"});
}

TEST(GameRules, TimeControlAndAdjudicationParameters) {
  const TimeControl tc = parse_time_control("1+0.1");
  EXPECT_EQ(tc.base_ms, 1000);
  EXPECT_EQ(tc.inc_ms, 100);
  EXPECT_EQ(tc.text(), "1+0.1");
  EXPECT_EQ(parse_time_control("1:30+2").base_ms, 90000);
  for (const char* bad : {"", "x", "1+y", "+1", "0+1", "-5+1"})
    EXPECT_THROW(parse_time_control(bad), std::invalid_argument) << bad;
  const ResignRule r = parse_resign({"movecount=4", "score=500"});
  EXPECT_EQ(r.movecount, 4);
  EXPECT_EQ(r.score, 500);
  const DrawRule d = parse_draw({"movenumber=30 movecount=6 score=15"});
  EXPECT_EQ(d.movenumber, 30);
  EXPECT_EQ(d.movecount, 6);
  EXPECT_EQ(d.score, 15);
  EXPECT_THROW(parse_resign({"moves=3"}), std::invalid_argument);
  EXPECT_THROW(parse_draw({"score=-1"}), std::invalid_argument);
}

TEST(GameRules, ResignNeedsBothEnginesForMovecountMoves) {
  Adjudicator a(Adjudication{ResignRule{2, 500}, std::nullopt});
  EXPECT_EQ(a.update(Color::Red, -600, 10).result, GameResult::None);
  EXPECT_EQ(a.update(Color::Black, 600, 10).result, GameResult::None);
  EXPECT_EQ(a.update(Color::Red, -550, 11).result, GameResult::None);
  const GameEnd end = a.update(Color::Black, 520, 11);
  EXPECT_EQ(end.result, GameResult::BlackWins);
  EXPECT_NE(end.reason.find("resign"), std::string::npos) << end.reason;

  Adjudicator one_sided(Adjudication{ResignRule{2, 500}, std::nullopt});
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(one_sided.update(Color::Red, -900, i).result, GameResult::None);
    EXPECT_EQ(one_sided.update(Color::Black, 100, i).result, GameResult::None);  // disagrees
  }
  Adjudicator unknown(Adjudication{ResignRule{1, 500}, std::nullopt});
  EXPECT_EQ(unknown.update(Color::Red, -900, 1).result, GameResult::None);
  EXPECT_EQ(unknown.update(Color::Black, std::nullopt, 1).result, GameResult::None);
}

TEST(GameRules, DrawAdjudicationStartsAtMovenumber) {
  Adjudicator a(Adjudication{std::nullopt, DrawRule{20, 2, 10}});
  for (int move = 18; move < 20; ++move) {  // too early: no count
    EXPECT_EQ(a.update(Color::Red, 0, move).result, GameResult::None);
    EXPECT_EQ(a.update(Color::Black, 0, move).result, GameResult::None);
  }
  EXPECT_EQ(a.update(Color::Red, 5, 20).result, GameResult::None);
  EXPECT_EQ(a.update(Color::Black, -10, 20).result, GameResult::None);
  EXPECT_EQ(a.update(Color::Red, 11, 21).result, GameResult::None);  // resets red
  EXPECT_EQ(a.update(Color::Black, 0, 21).result, GameResult::None);
  EXPECT_EQ(a.update(Color::Red, 0, 22).result, GameResult::None);
  EXPECT_EQ(a.update(Color::Black, 0, 22).result, GameResult::None);
  EXPECT_EQ(a.update(Color::Red, 0, 23).result, GameResult::Draw);
}

}  // namespace
}  // namespace xq::lab::games
