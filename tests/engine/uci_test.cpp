// Scripted UCI sessions through the command loop (engine/protocol.h).
#include <gtest/gtest.h>

#include "hashing/schemes.h"
#include "session.h"

namespace xq::test {
namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(Uci, HandshakeListsEveryOptionAndEveryRegisteredName) {
  Session s;
  s.send("uci");
  const int ok = s.wait_line("uciok");
  ASSERT_GE(ok, 0);
  const std::vector<std::string> lines = s.lines();
  EXPECT_EQ(lines[0], "id name xqlab");
  EXPECT_EQ(s.count_prefix("option name "), int(EngineOptions::specs().size()));
  std::string backend, scheme;
  for (const std::string& l : lines) {
    if (l.rfind("option name Backend ", 0) == 0) backend = l;
    if (l.rfind("option name HashScheme ", 0) == 0) scheme = l;
  }
  for (const BackendInfo& b : backends())
    EXPECT_TRUE(contains(backend, " var " + std::string(b.name))) << backend;
  for (std::string_view n : kSchemeNames)
    EXPECT_TRUE(contains(scheme, " var " + std::string(n))) << scheme;
  for (const char* name : {"Threads", "Hash", "Clear Hash", "Move Overhead"})
    EXPECT_EQ(s.count_prefix(std::string("option name ") + name + " type"), 1) << name;
  EXPECT_EQ(s.count_prefix("option name Features type string default profile"), 1);
  s.send("isready");
  EXPECT_GT(s.wait_line("readyok"), ok);
  EXPECT_EQ(s.close(), 0);
}

TEST(Uci, GoDepthReportsEachIterationAndALegalBestMove) {
  Session s;
  s.send("position startpos moves h2e2");
  s.send("go depth 4");
  const int best = s.wait_prefix("bestmove ");
  ASSERT_GE(best, 0);
  const std::vector<std::string> lines = s.lines();
  EXPECT_TRUE(is_legal_in(position_after({"h2e2"}), move_word(position_after({"h2e2"}), lines[best])))
      << lines[best];
  int infos = 0;
  for (int i = 0; i < best; ++i) {
    const std::string& l = lines[std::size_t(i)];
    if (l.rfind("info depth ", 0) != 0) continue;
    ++infos;
    for (const char* key : {" seldepth ", " score cp ", " nodes ", " nps ", " hashfull ", " time ", " pv "})
      EXPECT_TRUE(contains(l, key)) << key << " missing in " << l;
    EXPECT_TRUE(contains(l, "info depth " + std::to_string(infos) + " ")) << l;
  }
  EXPECT_EQ(infos, 4);
}

TEST(Uci, IsreadyIsAnsweredDuringAnInfiniteSearchAndStopGivesTheBestMove) {
  Session s;
  s.send("go infinite");
  ASSERT_GE(s.wait_prefix("info depth "), 0);
  s.send("isready");
  const int ready = s.wait_line("readyok");
  ASSERT_GE(ready, 0);
  EXPECT_EQ(s.count_prefix("bestmove"), 0) << "readyok came only after the search ended";
  s.send("stop");
  const int best = s.wait_prefix("bestmove ");
  ASSERT_GT(best, ready);
  EXPECT_TRUE(is_legal_in(Position(), move_word(Position(), s.lines()[std::size_t(best)])));
  s.send("isready");
  EXPECT_GT(s.wait_line("readyok", std::size_t(best)), best);
  EXPECT_EQ(s.close(), 0);
  EXPECT_EQ(s.count_prefix("bestmove"), 1);
}

TEST(Uci, IllegalOrMalformedPositionIsRefusedAndThePositionKept) {
  Session s;
  s.send("position startpos moves h2e2");
  s.send("position startpos moves h2e2 h2e2");  // the second h2e2 is black's: illegal
  s.send_all({"position startpos moves h2e2 xyz",
              "position fen not/a/fen w",
              "position",
              "go depth 2"});
  const int best = s.wait_prefix("bestmove ");
  ASSERT_GE(best, 0);
  const std::vector<std::string> lines = s.lines();
  EXPECT_EQ(s.count_prefix("info string move 2 'h2e2' is illegal"), 1);
  EXPECT_EQ(s.count_prefix("info string move 2 'xyz' is not a move"), 1);
  EXPECT_EQ(s.count_prefix("info string bad FEN"), 1);
  EXPECT_EQ(s.count_prefix("info string expected 'position"), 1);
  // Black to move after h2e2: the refused commands changed nothing.
  EXPECT_TRUE(is_legal_in(position_after({"h2e2"}), move_word(position_after({"h2e2"}), lines[best])))
      << lines[best];
}

TEST(Uci, GarbageAndBadValuesGetOneMessageEachAndTheLoopGoesOn) {
  Session s;
  const std::vector<std::string> bad = {"hello world", "go depth abc", "go wtime -5",
                                        "setoption name Nope value 1",
                                        "setoption name Threads value 999",
                                        "setoption name Backend value nope", "setoption",
                                        std::string("\x1b[31mred\x01")};
  for (const std::string& l : bad) s.send(l);
  s.send("isready");
  ASSERT_GE(s.wait_line("readyok"), 0);
  EXPECT_EQ(s.count_prefix("info string "), int(bad.size()));
  for (const std::string& l : s.lines()) EXPECT_EQ(l.find('\x1b'), std::string::npos) << l;
  EXPECT_EQ(s.count_prefix("bestmove"), 0);
  EXPECT_EQ(s.close(), 0);
}

TEST(Uci, EndOfInputDuringASearchPrintsItsBestMoveOnceAndEnds) {
  Session s;
  s.send("go infinite");
  ASSERT_GE(s.wait_prefix("info depth "), 0);
  EXPECT_EQ(s.close(), 0);
  EXPECT_EQ(s.count_prefix("bestmove "), 1);
  EXPECT_EQ(s.lines().back().rfind("bestmove ", 0), 0u);
}

TEST(Uci, QuitDuringASearchPrintsItsBestMoveAndEnds) {
  Session s;
  s.send("go infinite");
  ASSERT_GE(s.wait_prefix("info depth "), 0);
  s.send("quit");
  EXPECT_EQ(s.close(), 0);
  EXPECT_EQ(s.count_prefix("bestmove "), 1);
}

TEST(Uci, GoWhileSearchingIsRefusedWithoutASecondBestMove) {
  Session s;
  s.send("go infinite");
  ASSERT_GE(s.wait_prefix("info depth "), 0);
  s.send("go depth 1");
  ASSERT_GE(s.wait_prefix("info string go refused"), 0);
  s.send("stop");
  ASSERT_GE(s.wait_prefix("bestmove "), 0);
  s.send("isready");
  ASSERT_GE(s.wait_line("readyok"), 0);
  EXPECT_EQ(s.count_prefix("bestmove "), 1);
}

// The clock alone ends the search (soft/hard limits); the hang bound only
// catches a search that never ends.
TEST(Uci, AGameClockEndsTheSearchByItself) {
  Session s;
  s.send("position startpos moves h2e2");
  s.send("go wtime 300 btime 300 winc 0 binc 0");
  const int first = s.wait_prefix("bestmove ");
  ASSERT_GE(first, 0);
  s.send("go movetime 50");
  EXPECT_GT(s.wait_prefix("bestmove ", std::size_t(first) + 1), first);
}

TEST(Uci, AMatedSideAnswersBestmoveNone) {
  Session s;
  s.send("position fen 3k5/3R5/9/9/9/9/9/9/9/3RK4 b - - 0 1");
  s.send("go depth 3");
  ASSERT_GE(s.wait_line("bestmove (none)"), 0);
}

TEST(Uci, EveryBackendAtTwoThreadsStopsAnInfiniteSearchWithALegalMove) {
  int cases = 0;
  for (const BackendInfo& b : backends()) {
    Session s(options_for(std::string(b.name), 2));
    s.send("position startpos moves b2e2");
    s.send("go infinite");
    ASSERT_GE(s.wait_prefix("info depth "), 0) << b.name;
    s.send("stop");
    const int best = s.wait_prefix("bestmove ");
    ASSERT_GE(best, 0) << b.name;
    const Position pos = position_after({"b2e2"});
    EXPECT_TRUE(is_legal_in(pos, move_word(pos, s.lines()[std::size_t(best)]))) << b.name;
    ++cases;
  }
  EXPECT_EQ(cases, int(backends().size()));
}

TEST(Uci, SetOptionChangesTheBackendBetweenSearches) {
  Session s;
  s.send_all({"setoption name Backend value ybwc",
              "setoption name Threads value 2",
              "setoption name Clear Hash",
              "ucinewgame",
              "isready"});
  ASSERT_GE(s.wait_line("readyok"), 0);
  EXPECT_EQ(s.count_prefix("info string"), 0);
  s.send("go depth 3");
  EXPECT_GE(s.wait_prefix("bestmove "), 0);
}

TEST(Uci, AnyFirstCommandOtherThanUcciOrXboardMeansUci) {
  EXPECT_EQ(protocol_for("uci"), ProtocolKind::Uci);
  EXPECT_EQ(protocol_for("isready"), ProtocolKind::Uci);
  EXPECT_EQ(protocol_for("ucci"), ProtocolKind::Ucci);
  EXPECT_EQ(protocol_for("xboard"), ProtocolKind::Xboard);
  Session s;
  s.send("isready");
  EXPECT_EQ(s.wait_line("readyok"), 0);
}

}  // namespace
}  // namespace xq::test
