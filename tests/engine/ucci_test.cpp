// Scripted UCCI sessions through the command loop (engine/protocol.h).
#include <gtest/gtest.h>

#include "session.h"

namespace xq::test {
namespace {

TEST(Ucci, HandshakeAnswersUcciokAfterItsOptions) {
  Session s;
  s.send("ucci");
  const int ok = s.wait_line("ucciok");
  ASSERT_GE(ok, 0);
  EXPECT_EQ(s.lines()[0], "id name xqlab");
  // The engine's options plus usemillisec and newgame.
  EXPECT_EQ(s.count_prefix("option "), int(EngineOptions::specs().size()) + 2);
  EXPECT_EQ(s.count_prefix("option moveoverhead type spin"), 1);
  s.send("isready");
  EXPECT_GT(s.wait_line("readyok"), ok);
  s.send("quit");
  EXPECT_EQ(s.close(), 0);
  EXPECT_EQ(s.lines().back(), "bye");
}

TEST(Ucci, BanmovesKeepsTheBannedMovesOutOfTheNextSearch) {
  Session s;
  s.send_all({"ucci", "position startpos moves h2e2", "go depth 3"});
  int best = s.wait_prefix("bestmove ");
  ASSERT_GE(best, 0);
  const Position pos = position_after({"h2e2"});
  const Move first = move_word(pos, s.lines()[std::size_t(best)]);
  ASSERT_TRUE(is_legal_in(pos, first));
  s.send("banmoves " + move_name(first));
  s.send("go depth 3");
  best = s.wait_prefix("bestmove ", std::size_t(best) + 1);
  ASSERT_GE(best, 0);
  const Move second = move_word(pos, s.lines()[std::size_t(best)]);
  EXPECT_TRUE(is_legal_in(pos, second));
  EXPECT_NE(second, first);
  // A new position lifts the ban (a new game first: a fresh table repeats
  // the first search exactly).
  s.send_all({"setoption newgame", "position startpos moves h2e2", "go depth 3"});
  best = s.wait_prefix("bestmove ", std::size_t(best) + 1);
  ASSERT_GE(best, 0);
  EXPECT_EQ(move_word(pos, s.lines()[std::size_t(best)]), first);
}

TEST(Ucci, ABanOfEveryLegalMoveOrOfAnIllegalOneIsRefused) {
  Session s;
  s.send("ucci");
  // Black is mated: no legal move at all.
  s.send_all({"position fen 3k5/3R5/9/9/9/9/9/9/9/3RK4 b - - 0 1", "banmoves h2e2", "go depth 2"});
  ASSERT_GE(s.wait_line("nobestmove"), 0);
  EXPECT_EQ(s.count_prefix("info string banmoves: 'h2e2' is not a legal move"), 1);
  s.send("position startpos");
  std::string all = "banmoves";
  for (const Move m : MoveList(Position())) (all += ' ') += move_name(m);
  s.send(all);
  ASSERT_GE(s.wait_prefix("info string banmoves would ban every legal move"), 0);
}

// Split-point backends hand root moves to helpers from a shared picker: the
// ban must hold there too.
TEST(Ucci, EveryBackendAtTwoThreadsPlaysOnlyAnUnbannedMove) {
  const MoveList legal{Position()};
  std::string ban = "banmoves";
  for (int i = 2; i < legal.size; ++i) (ban += ' ') += move_name(legal.moves[i]);
  int cases = 0;
  for (const BackendInfo& b : backends()) {
    Session s(options_for(std::string(b.name), 2));
    s.send("ucci");
    s.send("position startpos");
    s.send(ban);
    s.send("go depth 5");
    const int best = s.wait_prefix("bestmove ");
    ASSERT_GE(best, 0) << b.name;
    const Move m = move_word(Position(), s.lines()[std::size_t(best)]);
    EXPECT_TRUE(m == legal.moves[0] || m == legal.moves[1]) << b.name << ": " << move_name(m);
    EXPECT_EQ(s.count_prefix("info string"), 0) << b.name;
    ++cases;
  }
  EXPECT_EQ(cases, int(backends().size()));
}

TEST(Ucci, GoTimeIsInSecondsUnlessUsemillisecAndEndsTheSearchByItself) {
  Session s;
  s.send_all({"ucci", "position startpos", "go time 1 increment 0 opptime 1"});
  const int first = s.wait_prefix("bestmove ");
  ASSERT_GE(first, 0);
  s.send("setoption usemillisec true");
  s.send("go time 300 increment 10");
  EXPECT_GT(s.wait_prefix("bestmove ", std::size_t(first) + 1), first);
  EXPECT_EQ(s.count_prefix("info string"), 0);
}

TEST(Ucci, IllegalMovesAndGarbageGetAMessageAndTheLoopGoesOn) {
  Session s;
  s.send_all({"ucci",
              "position startpos moves h2e2 a0a5",
              "setoption nosuchoption 3",
              "setoption usemillisec maybe",
              "go time abc",
              "bogus",
              "isready"});
  ASSERT_GE(s.wait_line("readyok"), 0);
  EXPECT_EQ(s.count_prefix("info string "), 5);
  EXPECT_EQ(s.count_prefix("info string move 2 'a0a5' is illegal"), 1);
}

TEST(Ucci, EndOfInputDuringASearchPrintsItsBestMoveAndBye) {
  Session s;
  s.send("ucci");
  s.send("go depth infinite");
  ASSERT_GE(s.wait_prefix("info depth "), 0);
  s.send("isready");
  ASSERT_GE(s.wait_line("readyok"), 0);
  EXPECT_EQ(s.count_prefix("bestmove"), 0);
  EXPECT_EQ(s.close(), 0);
  EXPECT_EQ(s.count_prefix("bestmove "), 1);
  EXPECT_EQ(s.lines().back(), "bye");
}

}  // namespace
}  // namespace xq::test
