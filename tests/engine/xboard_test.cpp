// Scripted xboard/CECP sessions through the command loop, with the commands
// XBoard 4.9 sends for a xiangqi game (see the header of engine/xboard.cpp).
#include <gtest/gtest.h>

#include "session.h"

namespace xq::test {
namespace {

void start_game(Session& s, const std::string& level = "level 0 0:05 0.1") {
  for (const char* c : {"xboard", "protover 2", "new", "random", "variant xiangqi"}) s.send(c);
  s.send(level);
  for (const char* c : {"post", "hard", "easy", "force"}) s.send(c);
}

TEST(Xboard, Protover2AnnouncesTheFeaturesXBoardNeeds) {
  Session s;
  s.send("xboard");
  s.send("protover 2");
  const int done = s.wait_line("feature done=1");
  ASSERT_GE(done, 0);
  std::string features;
  for (const std::string& l : s.lines()) features += l + "\n";
  for (const char* f : {"variants=\"xiangqi\"", "usermove=1", "setboard=1", "ping=1", "time=1",
                        "myname=\"xqlab\""})
    EXPECT_NE(features.find(f), std::string::npos) << f;
  EXPECT_EQ(s.count_prefix("feature option="), int(EngineOptions::specs().size()));
  s.send("ping 7");
  EXPECT_GT(s.wait_line("pong 7"), done);
}

TEST(Xboard, PlaysLegalMovesForTheSideItIsGivenAndAnswersUserMoves) {
  Session s;
  start_game(s);
  s.send("usermove h2e2");
  s.send("time 500");
  s.send("otim 500");
  s.send("go");  // the engine now plays black
  int reply = s.wait_prefix("move ");
  ASSERT_GE(reply, 0);
  std::vector<std::string> game = {"h2e2"};
  Position pos = position_after(game);
  Move m = move_word(pos, s.lines()[std::size_t(reply)]);
  ASSERT_TRUE(is_legal_in(pos, m)) << s.lines()[std::size_t(reply)];
  game.push_back(move_name(m));
  // Not in force mode: a user move makes the engine answer by itself.
  pos = position_after(game);
  game.push_back(move_name(MoveList(pos).moves[0]));
  s.send("usermove " + game.back());
  reply = s.wait_prefix("move ", std::size_t(reply) + 1);
  ASSERT_GE(reply, 0);
  pos = position_after(game);
  EXPECT_TRUE(is_legal_in(pos, move_word(pos, s.lines()[std::size_t(reply)])))
      << s.lines()[std::size_t(reply)];
  s.send("result 1/2-1/2 {test}");
  s.send("ping 3");
  ASSERT_GE(s.wait_line("pong 3"), 0);
  EXPECT_EQ(s.count_prefix("move "), 2);
}

TEST(Xboard, IllegalUserMovesAreRefusedAndTheGameGoesOn) {
  Session s;
  start_game(s);
  s.send("usermove h2e3");
  s.send("usermove zzzz");
  s.send("usermove h9g7");  // black's move while red is to move
  s.send("usermove h2e2");
  s.send("sd 2");
  s.send("go");
  const int reply = s.wait_prefix("move ");
  ASSERT_GE(reply, 0);
  EXPECT_EQ(s.count_prefix("Illegal move: "), 3);
  const Position pos = position_after({"h2e2"});
  EXPECT_TRUE(is_legal_in(pos, move_word(pos, s.lines()[std::size_t(reply)])));
}

TEST(Xboard, GarbageUnknownVariantsAndBadClocksGetAnErrorEach) {
  Session s;
  start_game(s);
  const std::vector<std::string> bad = {"frobnicate", "variant shogi", "level 40 x 0", "st -1",
                                        "sd many", "time soon", "option Threads=0"};
  for (const std::string& l : bad) s.send(l);
  s.send("ping 1");
  ASSERT_GE(s.wait_line("pong 1"), 0);
  EXPECT_EQ(s.count_prefix("Error ("), int(bad.size()));
  EXPECT_EQ(s.count_prefix("move "), 0);
}

TEST(Xboard, MoveNowEndsAThinkWithItsMoveAndForceEndsOneWithout) {
  Session s;
  start_game(s, "level 0 60 0");
  s.send("time 360000");
  s.send("go");  // red, with an hour on the clock
  ASSERT_GE(s.wait_prefix("1 "), 0);
  s.send("?");
  const int reply = s.wait_prefix("move ");
  ASSERT_GE(reply, 0);
  EXPECT_TRUE(is_legal_in(Position(), move_word(Position(), s.lines()[std::size_t(reply)])));
  // Black's turn: give it a black move so the engine thinks again, then force.
  const Position after = position_after({s.lines()[std::size_t(reply)].substr(5)});
  s.send("usermove " + move_name(MoveList(after).moves[0]));
  ASSERT_GE(s.wait_prefix("1 ", std::size_t(reply) + 1), 0);
  s.send("force");
  s.send("ping 9");
  ASSERT_GE(s.wait_line("pong 9"), 0);
  EXPECT_EQ(s.close(), 0);
  EXPECT_EQ(s.count_prefix("move "), 1) << "an abandoned search printed its move";
}

TEST(Xboard, SetboardTakesALegalPositionAndRefusesAnIllegalOne) {
  Session s;
  start_game(s);
  s.send("setboard 9/9/9/9/9");
  ASSERT_GE(s.wait_prefix("tellusererror Illegal position"), 0);
  const std::string fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1";  // rook e1 up the e-file
  s.send("setboard " + fen);
  s.send("sd 3");
  s.send("go");
  const int reply = s.wait_prefix("move ");
  ASSERT_GE(reply, 0);
  const Position pos = position_after({}, fen);
  EXPECT_TRUE(is_legal_in(pos, move_word(pos, s.lines()[std::size_t(reply)])));
}

TEST(Xboard, UndoTakesBackAndAMatedEngineClaimsTheResult) {
  Session s;
  start_game(s);
  s.send("setboard 3k5/3R5/9/9/9/9/9/9/9/3RK4 b - - 0 1");
  s.send("go");
  ASSERT_GE(s.wait_line("1-0 {black has no legal move}"), 0);
  s.send("undo");
  ASSERT_GE(s.wait_prefix("Error (nothing to take back)"), 0);
}

TEST(Xboard, EndOfInputWhileThinkingEndsCleanly) {
  Session s;
  start_game(s, "level 0 60 0");
  s.send("time 360000");
  s.send("go");
  ASSERT_GE(s.wait_prefix("1 "), 0);
  EXPECT_EQ(s.close(), 0);
  EXPECT_EQ(s.count_prefix("move "), 1);  // the interrupted think still moves
  EXPECT_EQ(s.lines().back().rfind("move ", 0), 0u);
}

}  // namespace
}  // namespace xq::test
